"""Refills and the supply running out: the canonical *k*, bad returns, an empty supply."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import BadReturnError, RefillCountError, SupplyEmptyError
from referee.game import Game
from referee.moves import Refill

HAND = ["green", "green", "yellow", "blue", "blue", "pink", "pink"]


def short_of_red(table: Any, anna: int, bob: int) -> Game:
    """Anna has played her cubes (disc 1) and must refill; the supply holds no red; the
    courts hold ``anna`` and ``bob`` red cubes."""
    game: Game = table.game(reserves={"Anna": HAND, "Bob": HAND})
    table.discs(game, ("Anna", 1), ("Bob", 2))
    game.arrange(courts={"Anna": ["red"] * anna, "Bob": ["red"] * bob})
    # the rest of the red cubes lie on territory 9
    game.arrange(territories={9: ["red"] * game.supply().get("red")})
    assert game.supply().get("red") == 0
    table.act(game, "Anna", territories={12: ["green", "yellow", "blue"]})
    assert game.emperor == 2
    return game


def test_refill_takes_the_colours_rolled_from_the_supply(table: Any) -> None:
    game = short_of_red(table, 0, 0)
    before = game.supply()
    table.refill(game, "Anna", ["green", "pink", "pink"])
    assert game.supply().get("pink") == before.get("pink") - 2
    assert game.reserve("Anna").total() == 7
    assert game.to_move == "Bob"


def test_smallest_equal_k_that_covers_the_shortfall(table: Any) -> None:
    game = short_of_red(table, 3, 1)
    assert game.canonical_return("red", 1) == 1
    assert game.canonical_return("red", 2) == 1  # 1 + 1
    assert game.canonical_return("red", 3) == 2  # 2 + 1 (Bob returns all he has)
    assert game.canonical_return("red", 4) == 3  # 3 + 1
    assert game.canonical_return("red", 5) == 3  # nothing covers: everyone's all


def test_a_return_of_the_canonical_k_lets_the_refill_through(table: Any) -> None:
    game = short_of_red(table, 3, 1)
    events = table.refill(game, "Anna", ["red", "red", "green"], {"red": 1})
    assert table.of_kind(events, "returned") == [
        {"round": 1, "turn": 1, "kind": "returned", "colour": "red", "k": 1}
    ]
    assert game.court("Anna").get("red") == 2
    assert game.court("Bob").get("red") == 0
    assert game.reserve("Anna").get("red") == 2
    assert game.supply().get("red") == 0
    assert game.controller("red") == "Anna"


def test_a_player_holding_fewer_than_k_returns_all_he_has(table: Any) -> None:
    game = short_of_red(table, 3, 1)
    table.refill(game, "Anna", ["red", "red", "red"], {"red": 2})
    assert game.court("Anna").get("red") == 1
    assert game.court("Bob").get("red") == 0


@pytest.mark.parametrize("k", [1, 3, 0])
def test_a_k_other_than_the_canonical_one_is_a_bad_return(table: Any, k: int) -> None:
    game = short_of_red(table, 3, 1)
    with pytest.raises(BadReturnError) as info:
        table.refill(game, "Anna", ["red", "red", "red"], {"red": k})
    assert info.value.code == "bad-return"
    assert game.court("Anna").get("red") == 3  # nothing happened


def test_a_return_nobody_called_for_is_a_bad_return(table: Any) -> None:
    game = short_of_red(table, 3, 1)
    with pytest.raises(BadReturnError):
        table.refill(game, "Anna", ["green", "green", "blue"], {"green": 1})
    with pytest.raises(BadReturnError):
        table.refill(game, "Anna", ["green", "green", "blue"], {"red": 1})
    with pytest.raises(BadReturnError):
        table.refill(game, "Anna", ["green", "green", "blue"], {"purple": 1})


def test_a_refill_beyond_the_supply_without_the_return_is_supply_empty(table: Any) -> None:
    game = short_of_red(table, 3, 1)
    with pytest.raises(SupplyEmptyError) as info:
        table.refill(game, "Anna", ["red", "green", "green"])
    assert info.value.code == "supply-empty"


def test_when_even_all_courts_cannot_cover_everyone_returns_all_and_it_is_still_empty(
    table: Any,
) -> None:
    game = short_of_red(table, 1, 0)
    assert game.canonical_return("red", 2) == 1  # everyone's all
    with pytest.raises(SupplyEmptyError):
        table.refill(game, "Anna", ["red", "red", "green"], {"red": 1})
    # the die the supply cannot serve becomes a crown: another colour is taken
    events = table.refill(game, "Anna", ["red", "green", "green"], {"red": 1})
    assert [e["k"] for e in table.of_kind(events, "returned")] == [1]
    assert game.court("Anna").get("red") == 0


def test_nobody_holding_the_colour_means_no_return_and_supply_empty(table: Any) -> None:
    game = short_of_red(table, 0, 0)
    with pytest.raises(SupplyEmptyError):
        table.refill(game, "Anna", ["red", "green", "green"])
    with pytest.raises(BadReturnError):
        table.refill(game, "Anna", ["red", "green", "green"], {"red": 1})
    table.refill(game, "Anna", ["green", "green", "green"])


@pytest.mark.parametrize(
    "colours",
    [["green", "green"], ["green", "green", "green", "green"], ["green", "green", "gold"]],
)
def test_refill_is_exactly_as_many_known_colours_as_cubes_played(
    table: Any, colours: list[str]
) -> None:
    game = short_of_red(table, 0, 0)
    with pytest.raises(RefillCountError):
        table.refill(game, "Anna", colours)


def test_refill_count_is_checked_before_the_return(table: Any) -> None:
    # record.md checks refill-count before bad-return
    game = short_of_red(table, 3, 1)
    with pytest.raises(RefillCountError):
        game.push(Refill.of("Anna", ["green", "green"], {"green": 1}))
    with pytest.raises(RefillCountError):
        game.push(Refill.of("Anna", ["red", "red"], {"red": 3}))
