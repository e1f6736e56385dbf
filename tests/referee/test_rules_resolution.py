"""Resolving the emperor's stop: builds, takeovers, and the ties that change nothing."""

from __future__ import annotations

from typing import Any

from referee.game import Game

# Territory 3 holds one yellow cube in the plain set-up; the emperor starts on 2.
HAND = ["red", "red", "green", "green", "blue", "blue", "pink"]


def ready(table: Any, players: int = 2, **arrange: Any) -> Game:
    """Anna to play with disc 1; the emperor on territory 2, one step before 3."""
    reserves = {name: HAND for name in ("Anna", "Bob", "Cara", "Carl", "Dora")}
    if players == 3:
        reserves = {name: [*HAND, "yellow", "yellow"] for name in reserves}
    game: Game = table.game(players, reserves=reserves, emperor=2)
    order = {2: ("Anna", "Bob"), 3: ("Anna", "Bob", "Cara"), 4: ("Anna", "Bob", "Carl", "Dora")}
    table.discs(game, *((name, i) for i, name in enumerate(order[players], start=1)))
    game.arrange(**arrange)
    return game


def stop_on_3(table: Any, game: Game) -> list[Any]:
    """Anna plays 3 cubes to territory 9 (far away) and moves the emperor onto 3."""
    events: list[Any] = table.act(game, "Anna", territories={9: ["red", "green", "blue"]})
    assert game.emperor == 3
    return events


def test_strictly_greatest_strength_builds_a_castle(table: Any) -> None:
    game = ready(
        table,
        territories={3: ["red", "red", "green"]},
        courts={"Anna": ["red"], "Bob": ["green"]},
    )
    events = stop_on_3(table, game)
    assert table.of_kind(events, "castle-built") == [
        {"round": 1, "turn": 1, "kind": "castle-built", "territories": [3], "side": "white"}
    ]
    assert table.of_kind(events, "merged") == []
    assert game.owners() == {3: "white"}
    assert game.castles("white") == 1


def test_the_mover_gets_nothing_for_moving(table: Any) -> None:
    game = ready(table, territories={3: ["green"]}, courts={"Bob": ["green"]})
    events = stop_on_3(table, game)
    assert [e["side"] for e in table.of_kind(events, "castle-built")] == ["black"]


def test_cubes_of_uncontrolled_colours_count_for_nobody_so_nothing_is_built(table: Any) -> None:
    game = ready(table, territories={3: ["yellow", "yellow", "pink"]}, courts={"Anna": ["red"]})
    majority = game.explain(3)
    assert [s.total for s in majority.strengths] == [0, 0]
    events = stop_on_3(table, game)
    assert table.of_kind(events, "castle-built") == []
    assert game.owners() == {}


def test_a_tie_for_the_greatest_strength_builds_nothing(table: Any) -> None:
    game = ready(
        table,
        territories={3: ["red", "green"]},
        courts={"Anna": ["red"], "Bob": ["green"]},
    )
    assert game.explain(3).outcome == "nothing"
    events = stop_on_3(table, game)
    assert table.of_kind(events, "castle-built") == []
    assert game.owners() == {}


def test_owner_keeps_the_castle_on_a_tie_castles_counting_like_cubes(table: Any) -> None:
    game = ready(
        table,
        territories={3: ["red"]},
        courts={"Anna": ["red"]},
        owners={3: "black"},
    )
    strengths = {s.side: s.total for s in game.explain(3).strengths}
    assert strengths == {"white": 1, "black": 1}  # 1 red against 1 castle
    events = stop_on_3(table, game)
    assert table.of_kind(events, "castle-taken") == []
    assert game.owners() == {3: "black"}
    assert game.castles("black") == 1  # never a second castle


def test_strictly_greater_strength_takes_the_castle_over(table: Any) -> None:
    game = ready(
        table,
        territories={3: ["red", "red", "green"]},
        courts={"Anna": ["red"], "Bob": ["green"]},
        owners={3: "black"},
    )
    strengths = {s.side: s.total for s in game.explain(3).strengths}
    assert strengths == {"white": 2, "black": 2}  # black: 1 green + 1 castle
    # Anna plays one more red onto 3 on her way: 3 against 2
    events = table.act(game, "Anna", territories={3: ["red"], 9: ["green", "blue"]})
    assert table.of_kind(events, "castle-taken") == [
        {
            "round": 1,
            "turn": 1,
            "kind": "castle-taken",
            "territories": [3],
            "side": "white",
            "from": "black",
        }
    ]
    assert game.owners() == {3: "white"}


def test_three_players_beating_the_owner_but_tying_a_third_changes_nothing(table: Any) -> None:
    game = ready(
        table,
        3,
        territories={3: ["red", "red", "green", "green"]},
        courts={"Anna": ["red"], "Bob": ["blue"], "Cara": ["green"]},
        owners={3: "black"},
    )
    strengths = {s.side: s.total for s in game.explain(3).strengths}
    assert strengths == {"white": 2, "black": 1, "grey": 2}
    events = table.act(game, "Anna", territories={9: ["red", "green", "blue", "yellow"]})
    assert game.emperor == 3
    assert table.of_kind(events, "castle-taken") == []
    assert table.of_kind(events, "castle-built") == []
    assert game.owners() == {3: "black"}


def test_three_players_majority_is_relative_not_more_than_both_together(table: Any) -> None:
    game = ready(
        table,
        3,
        territories={3: ["red", "red", "red", "green", "green", "blue"]},
        courts={"Anna": ["red"], "Bob": ["blue"], "Cara": ["green"]},
        owners={3: "black"},
    )
    strengths = {s.side: s.total for s in game.explain(3).strengths}
    assert strengths == {"white": 3, "black": 2, "grey": 2}  # 3 < 2 + 2, still a majority
    events = table.act(game, "Anna", territories={9: ["red", "green", "blue", "yellow"]})
    assert [(e["side"], e["from"]) for e in table.of_kind(events, "castle-taken")] == [
        ("white", "black")
    ]


def test_three_players_build_needs_more_than_each_other_player(table: Any) -> None:
    game = ready(
        table,
        3,
        territories={3: ["red", "red", "green", "blue"]},
        courts={"Anna": ["red"], "Bob": ["blue"], "Cara": ["green"]},
    )
    events = table.act(game, "Anna", territories={9: ["red", "green", "blue", "yellow"]})
    assert [e["side"] for e in table.of_kind(events, "castle-built")] == ["white"]


def test_a_newly_merged_region_is_not_rechecked(table: Any) -> None:
    # White builds on 3 and merges with 4, where Black's cubes outnumber White's;
    # the new region stays White's.
    game = ready(
        table,
        territories={3: ["red"], 4: ["green", "green", "green", "green"]},
        courts={"Anna": ["red"], "Bob": ["green"]},
        owners={4: "white"},
    )
    events = stop_on_3(table, game)
    assert table.kinds(events)[-2:] == ["castle-built", "merged"]
    assert game.unit(3) == (3, 4)
    assert game.owner(3) == "white"
    again = game.explain(3)
    # black's 4 green now beat white's 1 red + 2 castles, but only a later stop counts
    assert (again.outcome, again.side) == ("take", "black")
