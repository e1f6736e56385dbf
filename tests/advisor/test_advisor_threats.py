"""Threats: colours and units that can change hands this turn, read off the reserves."""

from __future__ import annotations

from typing import Any

from referee.advisor import threats
from referee.moves import PlayCubes


def test_worked_example_white_can_take_c_with_two_yellow_to_court(layout: Any) -> None:
    game = layout.worked_example()
    found = threats(game)
    yellow = [t for t in found.colours if t.colour == "yellow"]
    assert [(t.player, t.holder, t.lead, t.needs, t.holds) for t in yellow] == [
        ("Anna", "Bob", 1, 2, 3)
    ]
    assert yellow[0].text("Bob") == (
        "Anna holds 3 yellow in reserve: your yellow lead of 1 falls unless you add 2"
    )
    c = [t for t in found.units if t.territories == (5, 6, 7) and t.player == "Anna"]
    assert len(c) == 1
    assert c[0].owner == "black" and c[0].action == "take over"
    assert c[0].court == {"yellow": 2} and c[0].placed == {"yellow": 1}
    assert c[0].distance == 3
    assert c[0].strengths == {"white": 7, "black": 6}


def test_lead_falls_unless_holder_adds_enough(layout: Any) -> None:
    # White leads red 5 to 4; Black, next, holds 3 red: 4 + 3 = 7 beats 5, so White
    # must bring red to 7 (a tie keeps the cylinder): add 2.
    game = layout.game(
        2,
        [("Anna", 1), ("Bob", 2)],
        courts={"Anna": layout.cubes(red=5), "Bob": layout.cubes(red=4)},
        reserves={"Anna": layout.cubes(green=7), "Bob": layout.cubes(red=3, green=4)},
    )
    red = [t for t in threats(game).colours if t.colour == "red"]
    assert len(red) == 1
    assert red[0].text("Anna") == (
        "Bob holds 3 red in reserve: your red lead of 1 falls unless you add 2"
    )
    # with only 1 red Black cannot get past 5: no threat
    game.arrange(reserves={"Bob": layout.cubes(red=1, green=6)})
    assert [t for t in threats(game).colours if t.colour == "red"] == []


def test_a_threat_on_a_colour_is_capped_by_the_turns_cubes(layout: Any) -> None:
    # Black needs 4 red to pass 5 from 2 but plays only 3 cubes a turn.
    game = layout.game(
        2,
        [("Anna", 1), ("Bob", 2)],
        courts={"Anna": layout.cubes(red=5), "Bob": layout.cubes(red=2)},
        reserves={"Bob": layout.cubes(red=7)},
    )
    assert [t for t in threats(game).colours if t.colour == "red"] == []


def test_units_beyond_the_emperors_reach_are_not_threats(layout: Any) -> None:
    game = layout.worked_example()
    anna = {t.territories for t in threats(game).units if t.player == "Anna"}
    # Anna's disc 3 reaches territories 3, 4 and region 5+6+7 only; 4 is hers already
    assert anna <= {(3,), (5, 6, 7)}
    bob = [t for t in threats(game).units if t.player == "Bob"]
    # Bob moves after Anna's 1..3 steps with his disc 5: 2..8 units past the emperor
    assert bob and all(2 <= t.distance <= 8 for t in bob)


def test_a_unit_threat_needs_the_cubes_in_the_reserve(layout: Any) -> None:
    # Territory 6 (its red cube) holds a white castle: White 1 castle + 1 red = 2.
    # Black, next, holds pink (1 to 0). Winning red costs him 3 red (2 -> 5 beats 4) and
    # only ties (1 red vs 1 castle); a 4th cube would be needed. Pink cubes there need 3.
    game = layout.game(
        2,
        [("Anna", 1), ("Bob", 2)],
        owners={6: "white"},
        courts={"Anna": layout.cubes(red=4), "Bob": layout.cubes(red=2, pink=1)},
        reserves={"Bob": layout.cubes(red=3, pink=1, green=3)},
        emperor=4,
    )

    def on_6() -> list[tuple[dict[str, int], dict[str, int], dict[str, int]]]:
        return [
            (t.placed, t.court, t.strengths)
            for t in threats(game).units
            if t.territories == (6,) and t.player == "Bob"
        ]

    assert on_6() == []
    game.arrange(reserves={"Bob": layout.cubes(pink=2, green=5)})
    assert on_6() == []  # 2 pink only tie
    game.arrange(reserves={"Bob": layout.cubes(pink=3, green=4)})
    assert on_6() == [({"pink": 3}, {}, {"white": 2, "black": 3})]


def test_three_players_relative_majority(layout: Any) -> None:
    # Territory 2 (green) with 2 more cubes: 1 red (Anna's), 1 blue (Cara's) and green
    # held by Bob: 1 each. Anna adds one red: 2 to 1 to 1 is a relative majority.
    game = layout.game(
        3,
        [("Anna", 1), ("Bob", 2), ("Cara", 3)],
        territories={2: ["green", "red", "blue"]},
        courts={
            "Anna": layout.cubes(red=3),
            "Bob": layout.cubes(green=3),
            "Cara": layout.cubes(blue=3),
        },
        reserves={"Anna": layout.cubes(red=1, yellow=8)},
        emperor=1,
    )
    mine = [t for t in threats(game).units if t.player == "Anna" and t.territories == (2,)]
    assert [(t.placed, t.strengths) for t in mine] == [
        ({"red": 1}, {"white": 2, "black": 1, "grey": 1})
    ]


def test_four_players_partner_colours_count_and_are_not_threats(layout: Any) -> None:
    # Carl (White, Anna's partner) holds red; Anna could "win" red from him but that
    # changes no strength, so it is no threat. Red cubes count for the white team.
    game = layout.game(
        4,
        [("Anna", 1), ("Bob", 2), ("Carl", 3), ("Dora", 4)],
        territories={2: ["green", "red", "red"]},
        courts={
            "Anna": layout.cubes(red=2),
            "Carl": layout.cubes(red=3),
            "Bob": layout.cubes(green=2),
            "Dora": layout.cubes(green=1),
        },
        reserves={"Anna": layout.cubes(red=3, yellow=4)},
        emperor=1,
    )
    found = threats(game)
    assert not [t for t in found.colours if t.player == "Anna" and t.colour == "red"]
    on_2 = [t for t in found.units if t.player == "Anna" and t.territories == (2,)]
    # white team: 2 red (Carl's colour) against Black's 1 green: built with no cubes
    assert [(t.cubes, t.strengths) for t in on_2] == [(0, {"white": 2, "black": 1})]


def test_threats_follow_the_position_after_a_play(layout: Any) -> None:
    game = layout.worked_example()
    game.push(PlayCubes.of("Anna", ["yellow", "yellow"], {6: ["yellow"]}))
    # cubes are down: Anna has no cubes left to play, only the emperor to move
    anna = [t for t in threats(game).units if t.player == "Anna"]
    # territory 3's yellow cube is hers now too
    assert [(t.territories, t.cubes) for t in anna] == [((3,), 0), ((5, 6, 7), 0)]
