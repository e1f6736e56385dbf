"""Four players: two teams; individual control, team strength, partners back to back."""

from __future__ import annotations

from typing import Any

from referee.game import Game

HAND = ["red", "green", "yellow", "blue", "pink", "pink", "pink"]


def four(table: Any) -> Game:
    """Anna and Carl (white) against Bob and Dora (black); partners play back to back."""
    game: Game = table.game(4, reserves=dict.fromkeys(("Anna", "Bob", "Carl", "Dora"), HAND))
    table.discs(game, ("Bob", 3), ("Anna", 1), ("Dora", 4), ("Carl", 2))
    return game


def test_partners_may_act_back_to_back(table: Any) -> None:
    game = four(table)
    assert game.order_of_play() == ("Anna", "Carl", "Bob", "Dora")
    table.turn(game, "Anna", territories={10: ["pink", "pink", "pink"]})
    assert game.to_move == "Carl"
    table.turn(game, "Carl", territories={10: ["pink", "pink", "pink"]})
    assert game.to_move == "Bob"


def test_team_strength_sums_both_partners_controlled_cubes(table: Any) -> None:
    game = four(table)
    # emperor on 1; territory 2 gets 1 red, 1 green, 1 blue
    game.arrange(
        territories={2: ["red", "green", "blue"]},
        courts={"Anna": ["red"], "Carl": ["green"], "Dora": ["blue"]},
    )
    assert (game.controller("red"), game.controller("green"), game.controller("blue")) == (
        "Anna",
        "Carl",
        "Dora",
    )
    majority = game.explain(2)
    strength = {s.side: s for s in majority.strengths}
    assert strength["white"].total == 2
    assert strength["white"].players == ("Anna", "Carl")
    assert strength["black"].total == 1
    events = table.act(game, "Anna", territories={10: ["pink", "pink", "pink"]})
    assert [e["side"] for e in table.of_kind(events, "castle-built")] == ["white"]
    assert game.castles("white") == 1


def test_team_castles_count_for_both_partners(table: Any) -> None:
    game = four(table)
    game.arrange(
        territories={2: ["red", "red"]},
        courts={"Anna": ["red"]},
        owners={2: "black"},
    )
    # white 2 red; black 1 castle (nobody of black controls anything): white takes it
    events = table.act(game, "Anna", territories={10: ["pink", "pink", "pink"]})
    assert [(e["side"], e["from"]) for e in table.of_kind(events, "castle-taken")] == [
        ("white", "black")
    ]


def test_a_tie_between_teams_keeps_the_owner(table: Any) -> None:
    game = four(table)
    game.arrange(
        territories={2: ["red", "green", "blue"]},
        courts={"Anna": ["red"], "Carl": ["green"], "Dora": ["blue"]},
        owners={2: "black"},
    )
    strengths = {s.side: s.total for s in game.explain(2).strengths}
    assert strengths == {"white": 2, "black": 2}
    events = table.act(game, "Anna", territories={10: ["pink", "pink", "pink"]})
    assert table.of_kind(events, "castle-taken") == []
    assert game.owner(2) == "black"


def test_each_player_plays_to_his_own_court_only(table: Any) -> None:
    game = four(table)
    table.act(game, "Anna", court=["red", "green", "yellow"])
    assert game.court("Anna").total() == 3
    assert game.court("Carl").total() == 0
    assert game.control("Anna") == ["red", "green", "yellow"]
    assert game.control("Carl") == []
