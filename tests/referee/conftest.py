"""Shared tables for the rules and `carolus check` tests.

Helpers come as fixtures (``table``, ``records``) so test modules need no imports from
each other. ``table`` builds games and plays turns; ``records`` builds record documents
as plain JSON data, the way a user would write them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.events import Event
from referee.game import Game
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill
from referee.setup import Player, Setup

#: Territories 1..15: red, green, yellow, blue, pink, red, ... (3 of each colour).
PLAIN = ("red", "green", "yellow", "blue", "pink") * 3

NAMES = {
    2: (("Anna", "white"), ("Bob", "black")),
    3: (("Anna", "white"), ("Bob", "black"), ("Cara", "grey")),
    4: (("Anna", "white"), ("Bob", "black"), ("Carl", "white"), ("Dora", "black")),
}

RESERVE_7 = ["red", "red", "green", "yellow", "blue", "pink", "pink"]
RESERVE_9 = ["red", "red", "green", "green", "yellow", "yellow", "blue", "pink", "pink"]


class Table:
    """Builds games and plays moves on them in the rules' words."""

    PLAIN = PLAIN

    @staticmethod
    def setup(
        players: int = 2,
        *,
        territories: Sequence[str] = PLAIN,
        emperor: int = 1,
        reserves: Mapping[str, Sequence[str]] | None = None,
        cubes_per_colour: int = 40,
    ) -> Setup:
        people = tuple(Player(name, castles) for name, castles in NAMES[players])
        default = RESERVE_9 if players == 3 else RESERVE_7
        given = dict(reserves or {})
        return Setup(
            people,
            tuple(territories),
            emperor,
            {p.name: list(given.get(p.name, default)) for p in people},
            cubes_per_colour,
        )

    @staticmethod
    def game(players: int = 2, **kwargs: Any) -> Game:
        return Game(Table.setup(players, **kwargs))

    @staticmethod
    def discs(game: Game, *choices: tuple[str, int]) -> list[Event]:
        """Lay discs in the order given (the choosing order)."""
        events: list[Event] = []
        for player, number in choices:
            events += game.push(ChooseDisc(player, number))
        return events

    @staticmethod
    def act(
        game: Game,
        player: str,
        *,
        court: Iterable[str] = (),
        territories: Mapping[int, Iterable[str]] | None = None,
        steps: int = 1,
    ) -> list[Event]:
        """Actions 1 and 2 of a turn: play cubes, move the emperor."""
        events = game.push(PlayCubes.of(player, court, territories or {}))
        return events + game.push(MoveEmperor(player, steps))

    @staticmethod
    def refill(
        game: Game, player: str, colours: Iterable[str], returned: Mapping[str, int] | None = None
    ) -> list[Event]:
        return game.push(Refill.of(player, colours, returned))

    @staticmethod
    def turn(
        game: Game,
        player: str,
        *,
        court: Sequence[str] = (),
        territories: Mapping[int, Sequence[str]] | None = None,
        steps: int = 1,
        refill: Sequence[str] | None = None,
    ) -> list[Event]:
        """A whole turn; the refill defaults to the colours just played (reserve unchanged)."""
        played = [*court, *(c for cs in (territories or {}).values() for c in cs)]
        events = Table.act(game, player, court=court, territories=territories, steps=steps)
        if game.is_over:
            return events
        return events + Table.refill(game, player, played if refill is None else refill)

    @staticmethod
    def kinds(events: Iterable[Event]) -> list[str]:
        return [e.kind for e in events]

    @staticmethod
    def of_kind(events: Iterable[Event], kind: str) -> list[dict[str, object]]:
        return [e.to_json() for e in events if e.kind == kind]


class Records:
    """Record documents (``carolus-record/1``) as plain JSON data."""

    @staticmethod
    def example() -> dict[str, Any]:
        """The example record of ``docs/record.md``."""
        return {
            "format": "carolus-record/1",
            "players": [
                {"name": "Anna", "castles": "white", "seat": "south"},
                {"name": "Bob", "castles": "black", "seat": "north"},
            ],
            "setup": {
                "territories": list(PLAIN),
                "emperor": 1,
                "reserves": {
                    "Anna": ["red", "red", "green", "yellow", "blue", "pink", "pink"],
                    "Bob": ["green", "green", "green", "yellow", "blue", "blue", "red"],
                },
                "cubes_per_colour": 40,
            },
            "rounds": [
                {
                    "discs": [["Anna", 3], ["Bob", 2]],
                    "turns": [
                        {
                            "player": "Bob",
                            "court": ["green", "green"],
                            "territories": {"4": ["red"]},
                            "emperor": 2,
                            "refill": ["yellow", "blue", "pink"],
                        },
                        {
                            "player": "Anna",
                            "court": ["red", "red", "pink"],
                            "territories": {},
                            "emperor": 3,
                            "refill": ["green", "green", "blue"],
                        },
                    ],
                }
            ],
            "meta": {"date": "2026-11-21", "place": "club night", "notes": ""},
        }

    @staticmethod
    def copy(data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)

    @staticmethod
    def write(path: Path, data: object) -> Path:
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        return path


@pytest.fixture
def table() -> type[Table]:
    return Table


@pytest.fixture
def records() -> type[Records]:
    return Records
