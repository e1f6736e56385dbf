"""Positions for the advisor tests, laid out by hand with `Game.arrange`.

``Layout`` builds a game on the plain ring (territories 1..15: red, green, yellow, blue,
pink, red, ...), lays the discs, then arranges the rest; ``worked_example`` is the
position of the rules file's worked example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.game import Game
from referee.moves import ChooseDisc
from referee.setup import Player, Setup

PLAIN = ("red", "green", "yellow", "blue", "pink") * 3

NAMES = {
    2: (("Anna", "white"), ("Bob", "black")),
    3: (("Anna", "white"), ("Bob", "black"), ("Cara", "grey")),
    4: (("Anna", "white"), ("Bob", "black"), ("Carl", "white"), ("Dora", "black")),
}


def cubes(**counts: int) -> list[str]:
    """``cubes(red=2, pink=1)`` -> ``["red", "red", "pink"]``."""
    return [c for c, n in counts.items() for _ in range(n)]


class Layout:
    cubes = staticmethod(cubes)

    @staticmethod
    def game(players: int, discs: Sequence[tuple[str, int]], **arrange: Any) -> Game:
        """A game with ``discs`` laid (in that choosing order) and ``arrange`` applied."""
        people = tuple(Player(n, c) for n, c in NAMES[players])
        size = 9 if players == 3 else 7
        reserve = (["red", "green", "yellow", "blue", "pink"] * 2)[:size]
        game = Game(Setup(people, PLAIN, 1, {p.name: list(reserve) for p in people}))
        for name, number in discs:
            game.push(ChooseDisc(name, number))
        game.arrange(**arrange)
        return game

    @staticmethod
    def worked_example(reserve: Sequence[str] | None = None) -> Game:
        """The rules' worked example: B = territory 4 (White), C = region 5+6+7 (Black,
        3 castles), D = territory 8 (White); the emperor on 2, three steps before C.
        White (Anna, disc 3) holds 3 yellow; Black (Bob) plays disc 5."""
        courts: Mapping[str, list[str]] = {
            "Anna": cubes(red=7, green=3, yellow=5, blue=6, pink=8),
            "Bob": cubes(red=6, green=5, yellow=6, blue=8, pink=5),
        }
        return Layout.game(
            2,
            [("Anna", 3), ("Bob", 5)],
            territories={
                5: ["yellow", "yellow", "green", "red"],
                6: ["yellow", "green", "blue"],
                7: ["red", "pink"],
            },
            regions=[[5, 6, 7]],
            owners={4: "white", 5: "black", 8: "white"},
            courts=courts,
            reserves={
                "Anna": list(reserve or cubes(yellow=3, green=2, blue=2)),
                "Bob": cubes(red=1, green=2, blue=2, pink=2),
            },
            emperor=2,
        )


@pytest.fixture
def layout() -> type[Layout]:
    return Layout
