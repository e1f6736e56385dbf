"""The live table referee: snapshots from the camera in, the refereed game out.

`snapshot` reads ``carolus-snapshot/1``; `settle` keeps flicker and hands away from the
game; `referee.TableReferee` explains each settled table as progress of the rules'
current step (with `reading` comparing table and game, `problems` naming illegal acts,
`corrections` holding what people told it); `events` words what it announces;
`simulate` plays a recorded game onto a simulated table the way people do.
"""
