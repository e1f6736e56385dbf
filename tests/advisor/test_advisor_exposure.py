"""Exposure: the smallest change that flips each territory or region."""

from __future__ import annotations

from typing import Any

from referee.advisor import exposure


def castle_on_6(layout: Any, bob_reserve: list[str]) -> Any:
    # Territory 6: a white castle and 2 red (its own red cube and one more); White holds
    # red 3 to 1, Black holds green 2 to 0. White's strength: 1 castle + 2 red = 3.
    return layout.game(
        2,
        [("Anna", 1), ("Bob", 2)],
        territories={6: ["red", "red"]},
        owners={6: "white"},
        courts={"Anna": layout.cubes(red=3), "Bob": layout.cubes(red=1, green=2)},
        reserves={"Bob": bob_reserve},
        emperor=1,
    )


def unit(game: Any, territory: int) -> Any:
    return next(e for e in exposure(game) if territory in e.territories)


def test_winning_the_colour_is_cheaper_than_outnumbering(layout: Any) -> None:
    game = castle_on_6(layout, layout.cubes(red=2, yellow=5))
    six = unit(game, 6)
    assert six.owner == "white" and six.holder == "white"
    best = six.smallest
    assert best is not None
    # 3 red to Black's court (1 -> 4 beats 3): White 1 castle vs Black 2 red. Putting
    # green there would take 4 cubes.
    assert (best.player, best.court, best.placed, best.cubes) == ("Bob", {"red": 3}, {}, 3)
    assert not best.within_reserve  # he holds 2 red only
    assert six.distance == 5
    assert "flips for Bob (black) with 3: 3 red to his court" in six.text()


def test_exposure_says_when_the_reserve_already_suffices(layout: Any) -> None:
    game = castle_on_6(layout, layout.cubes(red=3, yellow=4))
    best = unit(game, 6).smallest
    assert best is not None and best.within_reserve


def test_an_unowned_territory_flips_to_the_other_side(layout: Any) -> None:
    game = castle_on_6(layout, layout.cubes(red=2, yellow=5))
    # territory 2 holds a green cube: Black would build; White needs 1 red there... no:
    # 1 red ties 1 green, so 2 red (or winning green: 3 green to his court).
    two = unit(game, 2)
    assert two.holder == "black"
    best = two.smallest
    assert best is not None
    assert (best.player, best.cubes, best.placed) == ("Anna", 2, {"red": 2})


def test_a_castle_about_to_be_taken_says_so(layout: Any) -> None:
    game = layout.game(
        2,
        [("Anna", 1), ("Bob", 2)],
        territories={7: ["green", "green"]},
        owners={7: "white"},
        courts={"Bob": layout.cubes(green=2)},
        emperor=1,
    )
    seven = unit(game, 7)
    assert seven.holder == "black"
    assert "black would take it over now" in seven.text()
