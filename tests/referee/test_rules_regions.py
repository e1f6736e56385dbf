"""Regions: merging with same-side neighbours, the ring's 15/1 seam, one step per region."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import EmperorStepsError
from referee.game import Game
from referee.moves import MoveEmperor, PlayCubes

HAND = ["red", "red", "green", "green", "blue", "blue", "pink"]


def ready(table: Any, emperor: int, disc: int = 1, **arrange: Any) -> Game:
    """Anna to play with ``disc``; Anna controls red."""
    game: Game = table.game(reserves={"Anna": HAND, "Bob": HAND}, emperor=emperor)
    table.discs(game, ("Anna", disc), ("Bob", 5))
    game.arrange(courts={"Anna": ["red"]}, **arrange)
    return game


def play_far(table: Any, game: Game, steps: int = 1) -> list[Any]:
    events: list[Any] = table.act(game, "Anna", court=["green", "blue", "pink"], steps=steps)
    return events


def test_build_on_1_merges_across_the_seam_with_15(table: Any) -> None:
    game = ready(table, emperor=15, owners={15: "white"})
    events = play_far(table, game)  # territory 1 holds a red cube
    assert table.of_kind(events, "castle-built")[0]["territories"] == [1]
    assert table.of_kind(events, "merged") == [
        {"round": 1, "turn": 1, "kind": "merged", "territories": [1, 15], "side": "white"}
    ]
    assert game.units()[0] == (1, 15)
    assert game.units()[1:] == [(t,) for t in range(2, 15)]
    assert game.owners() == {1: "white"}
    assert game.emperor == 1
    assert game.castles("white") == 2


def test_build_on_15_merges_with_both_14_and_1(table: Any) -> None:
    game = ready(
        table,
        emperor=14,
        territories={15: ["red"]},
        owners={14: "white", 1: "white", 2: "black"},
    )
    events = play_far(table, game)
    assert table.of_kind(events, "castle-built")[0]["territories"] == [15]
    assert [e["territories"] for e in table.of_kind(events, "merged")] == [[1, 14, 15]]
    assert game.units()[0] == (1, 14, 15)
    assert game.units()[1] == (2,)
    assert len(game.units()) == 13
    assert game.castles("white") == 3
    assert game.owner(2) == "black"  # a neighbour of another side stays apart


def test_merge_with_one_side_only_when_the_other_neighbour_is_not_the_same_side(
    table: Any,
) -> None:
    game = ready(table, emperor=5, owners={5: "black", 7: "white"})
    events = play_far(table, game)  # territory 6 holds a red cube
    assert [e["territories"] for e in table.of_kind(events, "merged")] == [[6, 7]]
    assert game.unit(5) == (5,)
    assert game.owner(5) == "black"


def test_no_merged_event_without_a_same_side_neighbour(table: Any) -> None:
    game = ready(table, emperor=5)
    events = play_far(table, game)
    assert table.kinds(events)[-1] == "castle-built"


def test_cubes_on_any_tile_of_a_region_count_for_the_whole_region(table: Any) -> None:
    game = ready(
        table,
        emperor=4,
        regions=[[5, 6, 7]],
        owners={5: "black"},
        territories={5: ["green"], 6: ["red"], 7: ["pink"]},
    )
    # Anna plays 3 red onto tile 7: with the red on tile 6 that is 4 against 3 castles
    game.arrange(reserves={"Anna": ["red", "red", "red", "green", "blue", "blue", "pink"]})
    events = table.act(game, "Anna", territories={7: ["red", "red", "red"]})
    majority = game.explain(5)
    assert majority.territories == (5, 6, 7)
    assert table.of_kind(events, "castle-taken")[0]["territories"] == [5, 6, 7]


def test_a_region_counts_one_emperor_step(table: Any) -> None:
    game = ready(table, emperor=4, disc=2, regions=[[5, 6, 7]], owners={5: "black"})
    assert game.emperor_reach(1) == 5
    assert game.emperor_reach(2) == 8
    play_far(table, game, steps=2)
    assert game.emperor == 8  # 4 -> region 5+6+7 -> 8


def test_the_count_goes_on_around_the_ring_past_the_start(table: Any) -> None:
    # 4 units left; disc 4: four steps bring the emperor back to where he stood
    game = ready(
        table,
        emperor=1,
        disc=4,
        regions=[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15]],
        owners={1: "white", 5: "black", 9: "white", 13: "black"},
    )
    assert len(game.units()) == 4
    assert [game.emperor_reach(n) for n in (1, 2, 3, 4)] == [5, 9, 13, 1]
    play_far(table, game, steps=4)
    assert game.emperor == 1
    assert not game.is_over


def test_five_steps_with_four_units_go_one_past_the_start(table: Any) -> None:
    game: Game = table.game(reserves={"Anna": HAND, "Bob": HAND}, emperor=13)
    table.discs(game, ("Anna", 5), ("Bob", 1))
    game.arrange(
        regions=[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15]],
        owners={1: "white", 5: "black", 9: "white", 13: "black"},
    )
    table.turn(game, "Bob", court=["green", "blue", "pink"], steps=1)
    assert game.emperor == 1
    table.act(game, "Anna", court=["green", "blue", "pink"], steps=5)
    assert game.emperor == 5


@pytest.mark.parametrize("steps", [0, -1, 3])
def test_steps_outside_one_to_disc_are_refused(table: Any, steps: int) -> None:
    game = ready(table, emperor=1, disc=2)
    game.push(PlayCubes.of("Anna", ["green", "blue", "pink"]))
    with pytest.raises(EmperorStepsError) as info:
        game.push(MoveEmperor("Anna", steps))
    assert info.value.code == "emperor-steps"
    assert game.emperor == 1
