"""The worked example at the end of the rules file, played move by move.

Layout used: B = territory 4 (White), C = region 5+6+7 (Black, 3 castles), D = territory 8
(White); the emperor stands on territory 2, three steps before C.
"""

from __future__ import annotations

from typing import Any

from referee.game import Game
from referee.moves import MoveEmperor, PlayCubes


def courts() -> dict[str, list[str]]:
    def cubes(**counts: int) -> list[str]:
        return [c for c, n in counts.items() for _ in range(n)]

    return {
        # White: red 7, pink 8, yellow 5, blue 6, green 3
        "Anna": cubes(red=7, green=3, yellow=5, blue=6, pink=8),
        # Black: red 6, pink 5, yellow 6, blue 8, green 5
        "Bob": cubes(red=6, green=5, yellow=6, blue=8, pink=5),
    }


def example(table: Any) -> Game:
    game: Game = table.game()
    table.discs(game, ("Anna", 3), ("Bob", 5))
    game.arrange(
        territories={
            5: ["yellow", "yellow", "green", "red"],
            6: ["yellow", "green", "blue"],
            7: ["red", "pink"],
        },
        regions=[[5, 6, 7]],
        owners={4: "white", 5: "black", 8: "white"},
        courts=courts(),
        reserves={"Anna": ["yellow", "yellow", "yellow", "red", "green", "blue", "pink"]},
        emperor=2,
    )
    return game


def test_position_before_the_turn(table: Any) -> None:
    game = example(table)
    assert game.control("Anna") == ["red", "pink"]
    assert game.control("Bob") == ["green", "yellow", "blue"]
    c = game.explain(6)
    assert c.territories == (5, 6, 7)
    assert c.owner == "black"
    strength = {s.side: s.total for s in c.strengths}
    assert strength == {"black": 9, "white": 3}  # Black 3+2+1+3, White 2+1
    assert c.outcome == "keep"


def test_white_takes_c_over_and_merges_with_b_and_d(table: Any) -> None:
    game = example(table)
    events = table.act(
        game, "Anna", court=["yellow", "yellow"], territories={6: ["yellow"]}, steps=3
    )
    assert table.of_kind(events, "control-gained") == [
        {
            "round": 1,
            "turn": 1,
            "kind": "control-gained",
            "colour": "yellow",
            "player": "Anna",
            "from": "Bob",
        }
    ]
    assert game.court("Anna").get("yellow") == 7
    assert table.of_kind(events, "castle-taken") == [
        {
            "round": 1,
            "turn": 1,
            "kind": "castle-taken",
            "territories": [5, 6, 7],
            "side": "white",
            "from": "black",
        }
    ]
    assert table.of_kind(events, "merged") == [
        {
            "round": 1,
            "turn": 1,
            "kind": "merged",
            "territories": [4, 5, 6, 7, 8],
            "side": "white",
        }
    ]
    assert table.kinds(events).index("castle-taken") < table.kinds(events).index("merged")
    assert game.unit(6) == (4, 5, 6, 7, 8)
    assert game.owner(4) == game.owner(8) == "white"
    assert game.castles("white") == 5
    assert game.castles("black") == 0
    assert game.emperor == 4
    assert len(game.units()) == 11
    assert not game.is_over


def test_strengths_after_white_plays_cubes_are_seven_to_six(table: Any) -> None:
    game = example(table)
    game.push(PlayCubes.of("Anna", ["yellow", "yellow"], {6: ["yellow"]}))
    c = game.explain(5)
    strength = {s.side: s for s in c.strengths}
    assert strength["white"].total == 7  # 4 yellow + 2 red + 1 pink
    assert strength["white"].cubes.as_dict() == {
        "red": 2,
        "green": 0,
        "yellow": 4,
        "blue": 0,
        "pink": 1,
    }
    assert strength["black"].total == 6  # 2 green + 1 blue + 3 castles
    assert strength["black"].castles == 3
    assert (c.outcome, c.side) == ("take", "white")
    game.push(MoveEmperor("Anna", 3))
    after = game.explain(5)
    assert after.territories == (4, 5, 6, 7, 8)
    assert after.owner == "white"
    assert {s.side: s.castles for s in after.strengths} == {"white": 5, "black": 0}
