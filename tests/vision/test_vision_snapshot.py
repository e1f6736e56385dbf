"""The typed snapshot: its JSON is the reader's dict to the byte, both ways."""

from __future__ import annotations

import doctest
import json

import pytest

import vision.snapshot
from referee.table.snapshot import parse_snapshot
from vision.snapshot import Castles, Cubes, Snapshot, SnapshotJSON, empty_snapshot

SEATS = ["south", "west", "north"]


def _read_like() -> SnapshotJSON:
    """A dict as the reader builds it: counts, then `t`, `reader`, `confidence` added."""
    snap = empty_snapshot(SEATS, mat=True)
    snap["territories"]["6"]["cubes"]["blue"] = 2
    snap["territories"]["6"]["castles"]["white"] = 1
    snap["emperor"] = 6
    snap["courts"]["west"]["pink"] = 3
    snap["reserves"]["north"]["red"] = 1
    snap["cylinders"]["pink"] = "west"
    snap["cylinders"]["green"] = "pool"
    snap["discs"]["south"] = [1, 2, 5]
    snap["t"] = 12.4
    snap["reader"] = "reference"
    snap["confidence"] = {"court:west": 0.35, "territory:6": 0.8}
    return snap


def _line(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("data", [
    _read_like(),
    empty_snapshot(SEATS),                                  # no mat: no t, reader, confidence
    {**empty_snapshot(SEATS, mat=True), "t": 0.25, "reader": "absolute", "confidence": {}},
], ids=["read", "no-mat", "no-doubts"])
def test_the_json_is_the_dict_it_came_from_byte_for_byte(data: SnapshotJSON) -> None:
    assert _line(Snapshot.from_json(data).to_json()) == _line(data)


def test_fields_read_as_the_contract_names_them() -> None:
    snap = Snapshot.from_json(_read_like())
    assert snap.territory(6).cubes == Cubes(blue=2)
    assert snap.territory(6).castles == Castles(white=1)
    assert snap.courts["west"]["pink"] == 3 and snap.reserves["north"].total() == 1
    assert snap.cylinders["pink"] == "west" and snap.cylinders["red"] is None
    assert snap.discs == {"south": (1, 2, 5), "west": (), "north": ()}
    assert snap.seats == ("south", "west", "north")
    assert (snap.t, snap.reader, snap.emperor) == (12.4, "reference", 6)
    assert snap.confidence == {"court:west": 0.35, "territory:6": 0.8}


def test_a_snapshot_is_a_value() -> None:
    snap = Snapshot.from_json(_read_like())
    assert snap == Snapshot.from_json(_read_like())
    with pytest.raises(TypeError):
        snap.courts["west"] = Cubes()  # type: ignore[index]
    with pytest.raises(AttributeError):
        snap.mat = False  # type: ignore[misc]
    changed = _read_like()
    changed["courts"]["west"]["pink"] = 4
    assert Snapshot.from_json(changed) != snap


def test_the_referee_takes_the_vision_s_snapshot_as_its_json() -> None:
    snap = Snapshot.from_json(_read_like())
    assert parse_snapshot(snap) == parse_snapshot(json.loads(_line(snap.to_json())))


def test_the_examples_run() -> None:
    assert doctest.testmod(vision.snapshot).failed == 0
