"""Comparing a snapshot with the ground truth, zone by zone.

Both sides may be a `Snapshot` or its JSON: a reading is typed, a scene's truth
(`vision.render.scene.truth`) is a dict that tests edit, and a benchmark may compare
lines of a file. They are compared as JSON, the form every one of them has.
"""

from __future__ import annotations

from vision.snapshot import Snapshot, SnapshotJSON


def zone_results(read: Snapshot | SnapshotJSON, truth: Snapshot | SnapshotJSON
                 ) -> dict[str, bool]:
    """One entry per zone of the snapshot: did the reader get every count right?"""
    seen = read.to_json() if isinstance(read, Snapshot) else read
    want = truth.to_json() if isinstance(truth, Snapshot) else truth
    out: dict[str, bool] = {}
    for n, t in want["territories"].items():
        out[f"territory {n}"] = seen["territories"].get(n) == t
    for seat, cubes in want["courts"].items():
        out[f"court {seat}"] = seen["courts"].get(seat) == cubes
    for seat, cubes in want["reserves"].items():
        out[f"reserve {seat}"] = seen["reserves"].get(seat) == cubes
    for seat, discs in want["discs"].items():
        out[f"disc {seat}"] = seen["discs"].get(seat) == discs
    for colour, place in want["cylinders"].items():
        out[f"cylinder {colour}"] = seen["cylinders"].get(colour) == place
    out["emperor"] = seen["emperor"] == want["emperor"]
    return out


def differences(read: Snapshot | SnapshotJSON, truth: Snapshot | SnapshotJSON) -> list[str]:
    """Readable list of what differs, for test failure messages."""
    return [k for k, ok in zone_results(read, truth).items() if not ok]
