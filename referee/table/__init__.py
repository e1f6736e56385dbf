"""The live table referee: snapshots from the camera in, the refereed game out.

`snapshot` reads ``carolus-snapshot/1``, `settle` keeps single-frame flicker away from
the game, `referee` explains each settled table as progress of the rules' current step,
`simulate` plays a recorded game onto a simulated table the way people do.
"""
