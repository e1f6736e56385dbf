"""Control of colours: strictly most cubes in court; a tie keeps the holder."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import NotInReserveError
from referee.moves import PlayCubes

RED_RESERVE = ["red", "red", "red", "red", "red", "green", "pink"]


def two_player(table: Any) -> Any:
    game = table.game(reserves={"Anna": RED_RESERVE, "Bob": RED_RESERVE}, emperor=2)
    table.discs(game, ("Anna", 1), ("Bob", 2))
    return game


def test_strict_majority_gains_control_from_nobody(table: Any) -> None:
    game = two_player(table)
    events = table.act(game, "Anna", court=["red", "red", "green"], steps=1)
    gained = table.of_kind(events, "control-gained")
    assert [(e["colour"], e["player"], e["from"]) for e in gained] == [
        ("red", "Anna", None),
        ("green", "Anna", None),
    ]
    assert game.control("Anna") == ["red", "green"]
    assert game.controller("red") == "Anna"


def test_tie_keeps_control_and_strict_lead_moves_it(table: Any) -> None:
    game = two_player(table)
    table.turn(game, "Anna", court=["red", "red"], territories={9: ["pink"]})
    # Bob draws level on red: the holder keeps it
    events = table.act(game, "Bob", court=["red", "red"], territories={9: ["green"]})
    assert table.of_kind(events, "control-gained") == []
    assert game.controller("red") == "Anna"
    table.refill(game, "Bob", ["red", "red", "green"])
    # next round: Bob (disc 2 last round) chooses after Anna; Bob goes first with disc 1
    table.discs(game, ("Anna", 2), ("Bob", 1))
    events = table.act(game, "Bob", court=["red"], territories={9: ["red", "red"]})
    gained = table.of_kind(events, "control-gained")
    assert gained == [
        {
            "round": 2,
            "turn": 1,
            "kind": "control-gained",
            "colour": "red",
            "player": "Bob",
            "from": "Anna",
        }
    ]
    assert game.control("Anna") == []
    assert game.control("Bob") == ["red"]


def test_a_holder_keeps_control_when_returns_leave_a_tie_at_zero(table: Any) -> None:
    game = two_player(table)
    game.arrange(courts={"Anna": ["pink"], "Bob": ["pink"]}, control={"pink": "Anna"})
    # the supply's pink all lies on territory 9
    game.arrange(territories={9: ["pink"] * game.supply().get("pink")})
    assert game.supply().get("pink") == 0
    table.act(game, "Anna", court=["red", "red", "red"])
    assert game.canonical_return("pink", 2) == 1
    events = table.refill(game, "Anna", ["pink", "pink", "red"], {"pink": 1})
    assert table.of_kind(events, "returned") == [
        {"round": 1, "turn": 1, "kind": "returned", "colour": "pink", "k": 1}
    ]
    assert game.court("Anna").get("pink") == game.court("Bob").get("pink") == 0
    assert table.of_kind(events, "control-gained") == []
    assert game.controller("pink") == "Anna"  # 0 to 0 is a tie: the holder keeps it


def test_several_colours_in_one_turn_come_in_colour_order(table: Any) -> None:
    game = two_player(table)
    events = game.push(PlayCubes.of("Anna", ["pink", "green", "red"]))
    assert [e["colour"] for e in table.of_kind(events, "control-gained")] == [
        "red",
        "green",
        "pink",
    ]


def test_cubes_come_from_the_players_own_reserve(table: Any) -> None:
    game = two_player(table)
    with pytest.raises(NotInReserveError) as info:
        game.push(PlayCubes.of("Anna", ["blue", "red", "red"]))
    assert info.value.code == "not-in-reserve"
    assert info.value.player == "Anna"


def test_with_four_players_partners_courts_are_not_added(table: Any) -> None:
    game = table.game(4, reserves={"Dora": RED_RESERVE})
    table.discs(game, ("Dora", 1), ("Anna", 2), ("Bob", 3), ("Carl", 4))
    # Anna and Carl (white partners) have 2 red each: 4 together, but control is
    # individual, so Dora's 3 red win it.
    game.arrange(courts={"Anna": ["red", "red"], "Carl": ["red", "red"]}, control={"red": "Anna"})
    events = table.act(game, "Dora", court=["red", "red", "red"])
    assert [
        (e["colour"], e["player"], e["from"]) for e in table.of_kind(events, "control-gained")
    ] == [("red", "Dora", "Anna")]
    assert game.control("Anna") == game.control("Carl") == []
