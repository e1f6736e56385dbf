"""End of the game: castles on 10 territories (8 with 3 players), fewer than 4 units,
the castle count first, nothing after the end, and the score."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import AfterEndError
from referee.game import Game
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill

HAND = ["green", "green", "yellow", "blue", "blue", "pink", "pink"]
HAND_9 = [*HAND, "yellow", "yellow"]


def anna_to_move(table: Any, players: int = 2, *, emperor: int, **arrange: Any) -> Game:
    """Anna to play with disc 1 (Anna controls red); the emperor on ``emperor``."""
    hand = HAND_9 if players == 3 else HAND
    names = {2: ("Anna", "Bob"), 3: ("Anna", "Bob", "Cara"), 4: ("Anna", "Bob", "Carl", "Dora")}
    game: Game = table.game(players, reserves=dict.fromkeys(names[players], hand), emperor=emperor)
    table.discs(game, *((n, i) for i, n in enumerate(names[players], start=1)))
    game.arrange(courts={"Anna": ["red"]}, **arrange)
    return game


def step_on(table: Any, game: Game, territory: int) -> list[Any]:
    """Anna plays her cubes to court (no red) and moves the emperor one step onto
    ``territory``, where she puts a red cube if none is there."""
    if not game.territory(territory).get("red"):
        game.arrange(territories={territory: ["red"]})
    want = game.cubes_per_turn
    events: list[Any] = table.act(game, "Anna", court=game.reserve("Anna").colours()[:want])
    assert game.emperor == min(game.unit(territory))
    return events


def test_castles_on_ten_territories_win_at_once(table: Any) -> None:
    game = anna_to_move(table, emperor=10, regions=[list(range(1, 10))], owners={1: "white"})
    assert game.castles("white") == 9  # a region of 9 counts 9
    events = step_on(table, game, 11)
    assert table.of_kind(events, "game-over") == [
        {"round": 1, "turn": 1, "kind": "game-over", "winner": "Anna", "reason": "castles"}
    ]
    assert game.is_over
    assert (game.winner, game.reason) == ("Anna", "castles")
    assert game.castles("white") == 10
    assert len(game.units()) == 7  # plenty of units: it is the castle count


def test_nine_castles_do_not_end_the_game(table: Any) -> None:
    game = anna_to_move(table, emperor=10, regions=[list(range(1, 9))], owners={1: "white"})
    step_on(table, game, 11)
    assert game.castles("white") == 9
    assert not game.is_over
    assert game.winner is None


def test_three_players_win_with_eight(table: Any) -> None:
    game = anna_to_move(table, 3, emperor=10, regions=[list(range(1, 8))], owners={1: "white"})
    events = step_on(table, game, 11)
    assert game.castles("white") == 8
    assert [(e["winner"], e["reason"]) for e in table.of_kind(events, "game-over")] == [
        ("Anna", "castles")
    ]


def test_two_players_do_not_win_with_eight(table: Any) -> None:
    game = anna_to_move(table, emperor=10, regions=[list(range(1, 8))], owners={1: "white"})
    step_on(table, game, 11)
    assert game.castles("white") == 8
    assert not game.is_over


def test_four_players_the_winner_is_the_team_colour(table: Any) -> None:
    game = anna_to_move(table, 4, emperor=10, regions=[list(range(1, 10))], owners={1: "white"})
    events = step_on(table, game, 11)
    assert [(e["winner"], e["reason"]) for e in table.of_kind(events, "game-over")] == [
        ("white", "castles")
    ]


def test_a_takeover_can_reach_the_goal(table: Any) -> None:
    # [1..8] white; Black's region 10+11 falls to 3 red against 2 castles: 8 + 2 = 10
    game = anna_to_move(
        table,
        emperor=9,
        regions=[list(range(1, 9)), [10, 11]],
        owners={1: "white", 10: "black"},
        territories={10: ["red", "red", "red"]},
    )
    events = step_on(table, game, 10)
    assert table.kinds(events)[-2:] == ["castle-taken", "game-over"]
    assert game.castles("white") == 10
    assert (game.winner, game.reason) == ("Anna", "castles")


def test_fewer_than_four_units_end_the_game_most_castles_win(table: Any) -> None:
    # [1..5] white, 6 free, [7..14] black, 15 free: white builds on 6 and merges
    game = anna_to_move(
        table,
        emperor=5,
        regions=[[1, 2, 3, 4, 5], [7, 8, 9, 10, 11, 12, 13, 14]],
        owners={1: "white", 7: "black"},
    )
    events = step_on(table, game, 6)
    assert game.units() == [(1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13, 14), (15,)]
    assert table.of_kind(events, "game-over") == [
        {"round": 1, "turn": 1, "kind": "game-over", "winner": "Bob", "reason": "few-territories"}
    ]
    assert (game.winner, game.reason) == ("Bob", "few-territories")


def test_an_equal_count_with_few_units_is_a_draw(table: Any) -> None:
    game = anna_to_move(
        table,
        emperor=6,
        regions=[[1, 2, 3, 4, 5, 6], [8, 9, 10, 11, 12, 13, 14]],
        owners={1: "white", 8: "black"},
    )
    step_on(table, game, 7)
    assert game.castles("white") == game.castles("black") == 7
    assert len(game.units()) == 3
    assert (game.winner, game.reason) == ("draw", "few-territories")
    assert game.describe_result().startswith("a draw")


def test_four_units_left_the_game_goes_on(table: Any) -> None:
    game = anna_to_move(
        table,
        emperor=5,
        regions=[[1, 2, 3, 4, 5], [8, 9, 10, 11, 12, 13, 14]],
        owners={1: "white", 8: "black"},
    )
    step_on(table, game, 6)
    assert game.units() == [(1, 2, 3, 4, 5, 6), (7,), (8, 9, 10, 11, 12, 13, 14), (15,)]
    assert not game.is_over


def test_the_castle_count_is_checked_first(table: Any) -> None:
    # [1..4] white, [5..9] black, [10..14] white, 15 free: a build on 15 joins both white
    # regions: 10 castles and only 2 units left -> ends on castles
    game = anna_to_move(
        table,
        emperor=14,
        regions=[[1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]],
        owners={1: "white", 5: "black", 10: "white"},
    )
    events = step_on(table, game, 15)
    assert len(game.units()) == 2
    assert [e["territories"] for e in table.of_kind(events, "merged")] == [
        [1, 2, 3, 4, 10, 11, 12, 13, 14, 15]
    ]
    assert (game.winner, game.reason) == ("Anna", "castles")


def test_no_move_is_accepted_after_the_end(table: Any) -> None:
    game = anna_to_move(table, emperor=10, regions=[list(range(1, 10))], owners={1: "white"})
    step_on(table, game, 11)
    assert game.is_over
    assert list(game.legal_moves) == []
    for move in (
        Refill.of("Anna", ["red", "red", "red"]),
        PlayCubes.of("Bob", ["green", "green", "blue"]),
        MoveEmperor("Bob", 1),
        ChooseDisc("Bob", 3),
    ):
        with pytest.raises(AfterEndError) as info:
            game.push(move)
        assert info.value.code == "after-end"


@pytest.mark.parametrize(
    ("players", "castles", "score"),
    [(2, 1, 4), (2, 9, 36), (2, 10, 40), (2, 12, 40), (3, 7, 35), (3, 8, 40), (4, 10, 40)],
)
def test_score_is_4_a_castle_5_with_three_players_at_most_40(
    table: Any, players: int, castles: int, score: int
) -> None:
    game: Game = table.game(players)
    game.arrange(regions=[list(range(1, castles + 1))], owners={1: "white"})
    assert game.castles("white") == castles
    assert game.score("white") == score
    assert game.score("black") == 0
