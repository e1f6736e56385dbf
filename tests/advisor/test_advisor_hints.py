"""Hints: hand-built positions with known best plays, 2, 3 and 4 players."""

from __future__ import annotations

import random
from typing import Any

from referee.advisor import best_play, search, threats
from referee.advisor.board import Board
from referee.game import Game, Phase
from referee.moves import MoveEmperor, PlayCubes
from referee.selfplay import choose_disc, play_game, random_player, roll_refill, table_players
from referee.setup import Setup


def apply(game: Game, play: PlayCubes, steps: int) -> None:
    game.push(play)
    game.push(MoveEmperor(play.player, steps))


def test_worked_example_the_counter_attack_with_3_yellow_is_the_best_play(layout: Any) -> None:
    game = layout.worked_example()
    hint = best_play(game)
    assert hint.play == PlayCubes.of("Anna", ["yellow", "yellow"], {5: ["yellow"]})
    assert hint.steps == 3
    assert (hint.stop, hint.outcome) == ((5, 6, 7), "take")
    assert "\n" not in hint.why
    assert "take over region 5+6+7 (7 to 6)" in hint.why
    assert "5-castle region" in hint.why
    apply(game, hint.play, hint.steps)
    assert game.castles("white") == 5 and game.castles("black") == 0


def test_worked_example_with_other_cubes_in_reserve_still_takes_c(layout: Any) -> None:
    # the reserve of the rules test: 3 yellow, red, green, blue, pink
    game = layout.worked_example(["yellow"] * 3 + ["red", "green", "blue", "pink"])
    hint = best_play(game)
    assert hint.play.court.count("yellow") >= 2
    assert (hint.stop, hint.outcome, hint.steps) == ((5, 6, 7), "take", 3)
    apply(game, hint.play, hint.steps)
    assert game.unit(6) == (4, 5, 6, 7, 8) and game.owner(6) == "white"


def test_the_tenth_castle_is_found(layout: Any) -> None:
    # White owns 9 territories (9..15, 1, 2). Territory 5 (pink, White's colour) also
    # holds a green (Black's): a tie, so a pink cube must go there — or green be won.
    game = layout.game(
        2,
        [("Anna", 2), ("Bob", 5)],
        territories={5: ["pink", "green"]},
        regions=[[9, 10, 11, 12, 13, 14, 15, 1, 2]],
        owners={9: "white"},
        courts={"Anna": layout.cubes(pink=2), "Bob": layout.cubes(green=3)},
        reserves={"Anna": layout.cubes(pink=1, blue=3, red=3)},
        emperor=4,
    )
    hint = best_play(game)
    apply(game, hint.play, hint.steps)
    assert game.winner == "Anna"
    assert "win the game" in hint.why


def defence_position(layout: Any) -> Game:
    # White's region 10+11+12 holds 3 red (White's, 5 to 4): 3 castles + 3 red = 6.
    # Black, next with disc 5, holds 3 red: 2 to his court win red (6 > 5), 1 green
    # (his) there makes 4 to 3 castles — a takeover. Anna's disc 1 cannot go there.
    game: Game = layout.game(
        2,
        [("Anna", 1), ("Bob", 5)],
        territories={10: ["red"], 11: ["red"], 12: ["red"]},
        regions=[[10, 11, 12]],
        owners={10: "white"},
        courts={"Anna": layout.cubes(red=5), "Bob": layout.cubes(red=4, green=3)},
        reserves={
            "Anna": layout.cubes(red=2, yellow=5),
            "Bob": layout.cubes(red=3, green=4),
        },
        emperor=6,
    )
    return game


def bob_threatens_the_region(game: Game) -> bool:
    return any(t.player == "Bob" and t.territories == (10, 11, 12) for t in threats(game).units)


def test_the_hint_defends_a_region_the_next_player_could_take(layout: Any) -> None:
    game = defence_position(layout)
    assert bob_threatens_the_region(game)
    careless = defence_position(layout)
    apply(careless, PlayCubes.of("Anna", ["yellow"] * 3), 1)
    assert bob_threatens_the_region(careless)  # the threat is real
    hint = best_play(game)
    apply(game, hint.play, hint.steps)
    assert not bob_threatens_the_region(game)


def test_three_players_relative_majority_takes_a_region(layout: Any) -> None:
    # Cara's region 4+5: 3 red (Anna's), 2 blue (Bob's), 1 pink (Cara's) + 2 castles:
    # Anna 3, Bob 2, Cara 3 — Cara keeps on the tie. One more red makes 4 to 3 to 2.
    game = layout.game(
        3,
        [("Anna", 2), ("Bob", 3), ("Cara", 4)],
        territories={4: ["red", "red", "blue"], 5: ["red", "blue", "pink"]},
        regions=[[4, 5]],
        owners={4: "grey"},
        courts={
            "Anna": layout.cubes(red=3),
            "Bob": layout.cubes(blue=3),
            "Cara": layout.cubes(pink=3),
        },
        reserves={"Anna": layout.cubes(red=1, yellow=4, green=4)},
        emperor=2,
    )
    hint = best_play(game)
    assert (hint.stop, hint.outcome, hint.steps) == ((4, 5), "take", 2)
    assert dict(hint.play.territories).get(4) == ("red",)
    apply(game, hint.play, hint.steps)
    assert game.castles("white") == 2 and game.castles("grey") == 0


def test_four_players_a_partners_colour_takes_a_region(layout: Any) -> None:
    # Black's region 8+9: 3 red (Carl's: the white team's) against 2 castles + 1 green.
    # Anna's one red cube there makes 4 to 3; her other cubes count for nobody.
    game = layout.game(
        4,
        [("Anna", 1), ("Bob", 2), ("Carl", 3), ("Dora", 4)],
        territories={8: ["red", "red"], 9: ["red", "green"]},
        regions=[[8, 9]],
        owners={8: "black"},
        courts={
            "Carl": layout.cubes(red=3),
            "Bob": layout.cubes(green=2),
            "Dora": layout.cubes(blue=2),
        },
        reserves={"Anna": layout.cubes(red=1, yellow=6)},
        emperor=7,
    )
    hint = best_play(game)
    assert (hint.stop, hint.outcome) == ((8, 9), "take")
    assert dict(hint.play.territories).get(8) == ("red",)
    apply(game, hint.play, hint.steps)
    assert game.owner(8) == "white"


def test_hints_are_legal_and_the_board_model_agrees_with_the_engine() -> None:
    checked = 0
    for n in (2, 3, 4):
        rng = random.Random(100 + n)
        game = Game(Setup.random(table_players(n), rng))
        while not game.is_over and game.round <= 6:
            if game.phase is Phase.OPENING:
                game.push(choose_disc(game, rng))
                continue
            for hint in search(game)[:3]:
                assert game.is_legal(hint.play)
                board = Board.of(game)
                p = board.player(hint.play.player)
                apply(game, hint.play, hint.steps)
                after = Board.of(game)
                predicted = _predict(board, p, hint.play, hint.steps)
                assert (predicted.units, predicted.owner, predicted.control) == (
                    after.units,
                    after.owner,
                    after.control,
                )
                game.pop()
                game.pop()
                checked += 1
            play, steps = random_player(game, rng)
            apply(game, play, steps)
            if not game.is_over:
                game.push(roll_refill(game, rng))
    assert checked > 50


def _predict(board: Board, p: int, play: PlayCubes, steps: int) -> Board:
    from referee.pieces import Cubes

    placed = {
        next(i for i, u in enumerate(board.units) if key in u): tuple(Cubes.of(colours))
        for key, colours in play.territories
    }
    court = tuple(Cubes.of(play.court))
    return board.after(p, court, placed, steps)  # type: ignore[arg-type]


def test_the_hint_player_plays_whole_legal_games() -> None:
    from referee.advisor import hint_player

    game = play_game(
        table_players(2), random.Random(5), [hint_player, random_player], max_rounds=40
    )
    assert game.is_over


def test_training_mode_is_off_unless_enabled(layout: Any) -> None:
    from referee.advisor import Advisor

    game = layout.worked_example()
    assert Advisor().advise(game) is None
    advice = Advisor(enabled=True).advise(game)
    assert advice is not None and advice.hint is not None
    assert advice.hint.play == best_play(game).play
    data = advice.to_json()
    assert data["hint"]["emperor"] == 3 and len(data["exposure"]) == 13


def test_a_short_or_empty_reserve_still_gets_a_legal_hint(layout: Any) -> None:
    # when the supply ran dry a player plays what his reserve holds, maybe nothing
    for reserve, played in ((["red", "green"], 2), ([], 0)):
        game = layout.game(2, [("Anna", 2), ("Bob", 3)], reserves={"Anna": reserve})
        hint = best_play(game)
        assert hint.play.count() == played and game.is_legal(hint.play)
        assert not hint.why.startswith(";")
