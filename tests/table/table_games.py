"""Source games for the table tests: self-played games, their records, and a referee run
over their simulated snapshot streams."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from referee.check import judge
from referee.events import RECORD_KINDS
from referee.game import Game
from referee.moves import ChooseDisc
from referee.pieces import COLOURS
from referee.record import Record
from referee.selfplay import greedy_player, play_game, random_player, table_players
from referee.setup import Player, Setup
from referee.table.events import TableEvent
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
    return seated, fewest_steps(record)


def fewest_steps(record: Record) -> Record:
    """The record with each emperor move counted without whole laps of the ring: a
    camera sees where the emperor stops, not how often he went round (4 steps with 3
    units left look like 1)."""
    game = Game(record.setup)
    rounds = []
    for rnd in record.rounds:
        for player, number in rnd.discs:
            game.push(ChooseDisc(player, number))
        turns = []
        for turn in rnd.turns:
            game.push(turn.cube_play())
            units = len(game.units())
            turn = dataclasses.replace(turn, emperor=(turn.emperor - 1) % units + 1)
            game.push(turn.emperor_move())
            if turn.refill is not None:
                game.push(turn.refill_move())
            turns.append(turn)
        rounds.append(dataclasses.replace(rnd, turns=tuple(turns)))
    return dataclasses.replace(record, rounds=tuple(rounds))


def referee_run(
    players: Sequence[Player], frames: list[dict[str, Any]], cubes_per_colour: int = 40
) -> tuple[TableReferee, list[TableEvent]]:
    referee = TableReferee(players, cubes_per_colour)
    events: list[TableEvent] = []
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


def announced(events: list[TableEvent]) -> list[dict[str, Any]]:
    """The referee's record-kind events as JSON without the table's extras (time, words):
    what the record's events are written as."""
    keep = []
    for event in events:
        if event.kind in RECORD_KINDS:
            data = event.to_json()
            keep.append({k: v for k, v in data.items() if k not in ("t", "message")})
    return keep


PLAIN = ("red", "green", "yellow", "blue", "pink") * 3
ANNA = Player("Anna", "white", "south")
BOB = Player("Bob", "black", "north")


class Script:
    """A hand-played table: each change of the mat is shown to the referee for a few
    frames, as the camera would."""

    def __init__(self, players: Sequence[Player] = (ANNA, BOB)) -> None:
        from referee.table.simulate import Mat

        self.players = list(players)
        self.mat = Mat()
        for p in self.players:
            self.mat.discs[p.seat or ""] = set(range(1, 6))
        self.referee = TableReferee(self.players)
        self.frames = 0
        self.events: list[TableEvent] = []

    def lay_out(
        self, reserves: dict[str, str], territories: Sequence[str] = PLAIN, emperor: int = 1
    ) -> None:
        for n, colour in enumerate(territories):
            self.mat.territories[n][COLOURS.index(colour)] += 1  # type: ignore[arg-type]
        self.mat.emperor = emperor
        for seat, colours in reserves.items():
            for c in colours.split():
                self.mat.reserves[seat][COLOURS.index(c)] += 1  # type: ignore[arg-type]
        self.show()

    def show(self, frames: int = 5, occluded: bool = False) -> list[TableEvent]:
        new: list[TableEvent] = []
        for _ in range(frames):
            snap = {
                "format": "carolus-snapshot/1",
                "t": round(self.frames / 5, 3),
                "mat": True,
                "occluded": occluded,
                **self.mat.to_json(),
            }
            self.frames += 1
            new += self.referee.feed(parse_snapshot(snap))
        self.events += new
        return new

    def kinds(self, events: list[TableEvent]) -> list[str]:
        return [e.kind for e in events]

    # one piece at a time
    def disc(self, seat: str, number: int) -> list[TableEvent]:
        self.mat.discs[seat].discard(number)
        return self.show()

    def cube(self, seat: str, colour: str, to: str | int) -> list[TableEvent]:
        i = COLOURS.index(colour)  # type: ignore[arg-type]
        self.mat.reserves[seat][i] -= 1
        if isinstance(to, int):
            self.mat.territories[to - 1][i] += 1
        else:
            self.mat.courts[to][i] += 1
        return self.show()

    def refill(self, seat: str, colour: str) -> list[TableEvent]:
        self.mat.reserves[seat][COLOURS.index(colour)] += 1  # type: ignore[arg-type]
        return self.show()

    def emperor(self, territory: int) -> list[TableEvent]:
        self.mat.emperor = territory
        return self.show()

    def castle(self, territory: int, side: str, n: int = 1) -> list[TableEvent]:
        from referee.pieces import CASTLE_COLOURS

        self.mat.castles[territory - 1][CASTLE_COLOURS.index(side)] += n  # type: ignore[arg-type]
        return self.show()

    def cylinder(self, colour: str, place: str) -> list[TableEvent]:
        self.mat.cylinders[COLOURS.index(colour)] = place  # type: ignore[arg-type]
        return self.show()
