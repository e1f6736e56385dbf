"""Three players: reserves of 9, 4 cubes played and refilled a turn, goal 8, 5 points a castle."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import BadSetupError, CubeCountError, RefillCountError
from referee.game import Game
from referee.moves import PlayCubes, Refill
from referee.setup import reserve_size


def three(table: Any) -> Game:
    game: Game = table.game(3)
    table.discs(game, ("Cara", 1), ("Bob", 2), ("Anna", 3))
    return game


def test_reserves_hold_nine_cubes(table: Any) -> None:
    assert reserve_size(3) == 9
    game = three(table)
    assert game.reserve("Anna").total() == 9
    with pytest.raises(BadSetupError):
        table.game(3, reserves={"Anna": ["red"] * 7})


def test_four_cubes_are_played_and_refilled(table: Any) -> None:
    game = three(table)
    assert game.cubes_to_play("Cara") == 4
    with pytest.raises(CubeCountError):
        game.push(PlayCubes.of("Cara", ["red", "red", "green"]))
    table.act(game, "Cara", court=["red", "red", "green", "green"])
    with pytest.raises(RefillCountError):
        game.push(Refill.of("Cara", ["blue", "blue", "blue"]))
    table.refill(game, "Cara", ["blue", "blue", "blue", "blue"])
    assert game.reserve("Cara").total() == 9
    assert game.to_move == "Bob"


def test_choosing_order_of_round_2_follows_the_discs(table: Any) -> None:
    game = three(table)
    for player in ("Cara", "Bob", "Anna"):
        table.turn(game, player, territories={12: game.reserve(player).colours()[:4]})
    assert game.round == 2
    assert game.choosing_order() == ("Cara", "Bob", "Anna")
