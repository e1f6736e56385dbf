"""The view model says what the table shows: whose turn, reach, majorities."""

from __future__ import annotations

from firmware.view import game_view, majorities_view, majority_view
from referee.check import check_file


def test_view_of_the_example_game() -> None:
    verdict = check_file("examples/club-night.json")
    assert verdict.game is not None
    game = verdict.game
    view = game_view(game)
    assert view["round"] == 2 and view["phase"] == "opening"
    assert view["choosers"] == ["Bob"]  # round 2 chooses in round 1's order of play
    anna = next(p for p in view["players"] if p["name"] == "Anna")
    assert anna["control"] == ["red", "pink"] and anna["territories"] == 1 and anna["score"] == 4
    assert view["territories"]["6"]["owner"] == "white"
    assert view["emperor"] == 6
    assert sum(view["supply"].values()) == 200 - 15 - 6 - 14
    assert view["table"]["legal"] is True


def test_reachable_units_during_the_emperor_step() -> None:
    from referee.moves import ChooseDisc, PlayCubes

    verdict = check_file("examples/club-night.json")
    assert verdict.game is not None
    game = verdict.game
    game.push(ChooseDisc("Bob", 1))
    game.push(ChooseDisc("Anna", 4))
    game.push(PlayCubes.of("Bob", ["blue"], {7: ["green", "blue"]}))
    view = game_view(game)
    assert [u["territories"][0] for u in view["units"] if u["reachable"]] == [7]


def test_majority_view_explains_strengths() -> None:
    verdict = check_file("examples/club-night.json")
    assert verdict.game is not None
    view = majority_view(verdict.game, 6)
    white = next(s for s in view["sides"] if s["side"] == "white")
    assert white == {
        "side": "white",
        "players": ["Anna"],
        "cubes": {"red": 1},
        "castles": 1,
        "total": 2,
    }
    assert view["outcome"] == "keep"
    ranked = majorities_view(verdict.game)
    assert [v["margin"] for v in ranked] == sorted(v["margin"] for v in ranked)
