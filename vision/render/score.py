"""Comparing a snapshot with the ground truth, zone by zone.

Both sides may be a `Snapshot` or its JSON: a reading is typed, a scene's truth
(`vision.render.scene.truth`) is a dict that tests edit, and a benchmark may compare
lines of a file. They are compared as JSON, the form every one of them has.
"""

from __future__ import annotations

from collections.abc import Iterator

from vision.snapshot import Snapshot, SnapshotJSON


def zone_results(read: Snapshot | SnapshotJSON, truth: Snapshot | SnapshotJSON
                 ) -> dict[str, bool]:
    """One entry per zone of the snapshot: did the reader get every count right?"""
    return {key: want == seen for key, want, seen in zones(read, truth)}


def zones(read: Snapshot | SnapshotJSON, truth: Snapshot | SnapshotJSON
          ) -> Iterator[tuple[str, object, object]]:
    """Each zone of the truth as `zone_results` names it ("territory 7", "emperor"),
    what it holds and what was read (None where the reading has no such zone)."""
    seen = read.to_json() if isinstance(read, Snapshot) else read
    want = truth.to_json() if isinstance(truth, Snapshot) else truth
    for kind, field in (("territory", "territories"), ("court", "courts"),
                        ("reserve", "reserves"), ("disc", "discs"),
                        ("cylinder", "cylinders")):
        wanted: dict[str, object] = want[field]  # type: ignore[literal-required]
        found: dict[str, object] = seen[field]  # type: ignore[literal-required]
        for name, held in wanted.items():
            yield f"{kind} {name}", held, found.get(name)
    yield "emperor", want["emperor"], seen["emperor"]


def differences(read: Snapshot | SnapshotJSON, truth: Snapshot | SnapshotJSON) -> list[str]:
    """Readable list of what differs, for test failure messages."""
    return [k for k, ok in zone_results(read, truth).items() if not ok]
