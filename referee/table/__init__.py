"""The live table referee: snapshots from the camera in, the refereed game out.

`snapshot` checks ``carolus-snapshot/1`` into the one snapshot type
(`vision.snapshot.Snapshot`) and derives the `snapshot.Table` a referee compares;
`settle` keeps flicker and hands away from the game; `referee.TableReferee` explains
each settled table as progress of the rules' current step (with `reading` comparing
table and game, `problems` naming illegal acts, `corrections` holding what people told
it); `events` types what it announces, one class per kind; `simulate` plays a recorded
game onto a simulated table the way people do.
"""
