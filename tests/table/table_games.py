"""Source games for the table tests: self-played games, their records, and a referee run
over their simulated snapshot streams."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from referee.check import judge
from referee.events import RECORD_KINDS
from referee.pieces import COLOURS
from referee.record import Record
from referee.selfplay import greedy_player, play_game, random_player, table_players
from referee.setup import Player, Setup
from referee.table.referee import TableReferee
from referee.table.simulate import Options, Stream, simulate
from referee.table.snapshot import parse_snapshot


def source(
    players: int, seed: int, strategy: str = "greedy", cubes_per_colour: int = 40
) -> tuple[list[Player], Record]:
    """A whole self-played game and its record (reserves in colour order, as a camera
    counts them)."""
    seated = table_players(players)
    rng = random.Random(seed)
    setup = dataclasses.replace(Setup.random(seated, rng), cubes_per_colour=cubes_per_colour)
    play = greedy_player if strategy == "greedy" else random_player
    game = play_game(seated, rng, [play] * players, setup=setup)
    record = Record.from_game(game)
    for reserve in record.setup.reserves.values():
        reserve.sort(key=COLOURS.index)  # type: ignore[attr-defined]
    return seated, record


def referee_run(
    players: Sequence[Player], frames: list[dict[str, Any]], cubes_per_colour: int = 40
) -> tuple[TableReferee, list[dict[str, Any]]]:
    referee = TableReferee(players, cubes_per_colour)
    events: list[dict[str, Any]] = []
    for frame in frames:
        events += referee.feed(parse_snapshot(frame))
    return referee, events


def stream_of(record: Record, seed: int, **options: Any) -> Stream:
    return simulate(record, random.Random(seed), Options(**options))


def rules_events(record: Record) -> list[dict[str, Any]]:
    """What `carolus check` says happened in ``record``: the record kinds, in order."""
    verdict = judge(record)
    assert verdict.legal, verdict.error
    return [e.to_json() for e in verdict.events if e.kind in RECORD_KINDS]


def announced(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The referee's record-kind events without the table's extras (time, words)."""
    keep = []
    for event in events:
        if event["kind"] in RECORD_KINDS:
            keep.append({k: v for k, v in event.items() if k not in ("t", "message")})
    return keep
