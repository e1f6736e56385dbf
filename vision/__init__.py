"""Camera frames to snapshots: the mat, calibration, and reading pieces by colour."""
