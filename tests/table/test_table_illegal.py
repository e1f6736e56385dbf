"""Illegal acts on the table: each is flagged with its code while it stands, the table
put right is `resolved`, nothing else is ever flagged, and nothing undone reaches the
record."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from table_games import referee_run, source, stream_of

from referee.table.events import TableEvent
from referee.table.simulate import ILLEGAL_KINDS, IllegalAct


def flagged_while_standing(
    acts: list[IllegalAct], events: list[TableEvent]
) -> tuple[list[IllegalAct], list[TableEvent]]:
    """Injected acts the referee missed, and illegal events outside any injected act."""
    illegal = [e for e in events if e.kind == "illegal"]
    missed = [
        a
        for a in acts
        if not any(a.start <= e.t < a.end and e.code == a.code for e in illegal)
    ]
    spurious = [
        e
        for e in illegal
        if not any(a.start <= e.t < a.end and e.code == a.code for a in acts)
    ]
    return missed, spurious


GAMES = [(2, 2), (3, 4), (4, 0)]


@functools.cache
def refereed(players: int, seed: int) -> tuple[Any, Any, list[TableEvent], Any]:
    """A game with illegal acts injected, and what the referee made of it."""
    seated, record = source(players, seed)
    stream = stream_of(record, seed, illegal=0.35)
    referee, events = referee_run(seated, stream.snapshots)
    return record, stream, events, referee.record()


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_illegal_act_is_flagged_while_it_stands_and_nothing_else(
    players: int, seed: int
) -> None:
    record, stream, events, written = refereed(players, seed)
    missed, spurious = flagged_while_standing(stream.illegal, events)
    assert missed == []
    assert spurious == []
    assert written is not None and written.to_json() == record.to_json()


def test_the_injected_acts_cover_every_kind() -> None:
    kinds = {a.code for players, seed in GAMES for a in refereed(players, seed)[1].illegal}
    assert kinds == set(ILLEGAL_KINDS)


def test_each_illegal_act_is_resolved_once_the_table_is_put_right() -> None:
    seated, record = source(2, 6)
    stream = stream_of(record, 3, illegal=0.3)
    _, events = referee_run(seated, stream.snapshots)
    for act in stream.illegal:
        after = [e for e in events if e.t >= act.end]
        assert after and after[0].kind == "resolved", act
        assert after[0].t < act.end + 3.0


def test_an_illegal_act_names_who_did_it_and_says_what_is_wrong() -> None:
    seated, record = source(2, 2)
    stream = stream_of(record, 5, illegal=0.5, kinds=("wrong-court", "cube-count"))
    _, events = referee_run(seated, stream.snapshots)
    illegal = [e for e in events if e.kind == "illegal"]
    assert illegal
    names = {p.name for p in seated}
    for event in illegal:
        assert event.player in names
        if event.code == "wrong-court":
            assert "court" in event.message
        else:
            assert "exactly 3" in event.message
