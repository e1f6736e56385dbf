"""Snapshots as the camera sends them: parsing names what is wrong; settling keeps
flicker, hands and lost frames away from the game."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.table.settle import Settler
from referee.table.simulate import Mat
from referee.table.snapshot import Snapshot, SnapshotError, parse_snapshot, table_of


def frame(mat: Mat, occluded: bool = False, seen: bool = True) -> dict[str, Any]:
    return {
        "format": "carolus-snapshot/1",
        "t": 0.0,
        "mat": seen,
        "occluded": occluded,
        **mat.to_json(),
    }


def snap(mat: Mat, **flags: bool) -> Snapshot:
    return parse_snapshot(frame(mat, **flags))


def test_a_snapshot_reads_back_as_it_was_written() -> None:
    mat = Mat()
    mat.territories[6][0] = 3
    mat.castles[2][1] = 1
    mat.emperor = 9
    mat.cylinders[4] = "west"
    mat.discs["north"] = {1, 4}
    snapshot = snap(mat)
    table = table_of(snapshot)
    assert table.territory(7).get("red") == 3 and table.castle_on(3) == (0, 1, 0)
    assert table.emperor == 9 and table.cylinders[4] == "west"
    assert table.discs["north"] == frozenset({1, 4})
    assert parse_snapshot(snapshot.to_json()) == snapshot


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="carolus-snapshot/2"), "format"),
        (lambda d: d.pop("occluded"), "occluded"),
        (lambda d: d["territories"].pop("15"), "territories.15"),
        (lambda d: d["territories"]["3"]["cubes"].update(red=-1), "territories.3.cubes.red"),
        (lambda d: d["territories"]["3"]["castles"].pop("grey"), "territories.3.castles.grey"),
        (lambda d: d.update(emperor=16), "emperor"),
        (lambda d: d["courts"].update(middle={}), "courts.middle"),
        (lambda d: d["reserves"]["south"].update(blue="2"), "reserves.south.blue"),
        (lambda d: d["cylinders"].update(red="table"), "cylinders.red"),
        (lambda d: d["discs"].update(south=[0]), "discs.south"),
        (lambda d: d.update(t="noon"), "t"),
    ],
)
def test_a_bad_snapshot_names_its_field(change: Any, field: str) -> None:
    data = copy.deepcopy(frame(Mat()))
    change(data)
    with pytest.raises(SnapshotError) as caught:
        parse_snapshot(data)
    assert caught.value.field == field
    assert str(caught.value).startswith(field)


def test_a_two_frame_misread_never_settles_but_a_real_state_does() -> None:
    settler = Settler()
    before, after = Mat(), Mat()
    after.territories[0][0] = 1
    assert settler.feed(snap(before)) is None
    assert settler.feed(snap(before)) is None
    assert settler.feed(snap(before)) == table_of(snap(before))
    # a misread for two frames, then the real table again
    assert [settler.feed(snap(after)) for _ in range(2)] == [None, None]
    assert [settler.feed(snap(before)) for _ in range(5)] == [None] * 5
    # a real change, with a two-frame misread right inside it
    seen = [settler.feed(snap(m)) for m in (after, after, before, before, after)]
    assert seen[:4] == [None] * 4 and seen[4] == table_of(snap(after))


def test_hands_and_lost_mats_do_not_count() -> None:
    settler = Settler()
    mat = Mat()
    for _ in range(10):
        assert settler.feed(snap(mat, occluded=True)) is None
        assert settler.feed(snap(mat, seen=False)) is None
    assert settler.feed(snap(mat)) is None
    assert settler.feed(snap(mat, occluded=True)) is None
    assert settler.feed(snap(mat)) is None
    assert settler.feed(snap(mat)) is not None
