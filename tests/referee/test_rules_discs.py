"""The opening phase: choosing order, free and forced discs, order of play, the 5-round cycle."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import DiscOrderError, DiscTakenError, DiscUnavailableError
from referee.game import Game, Phase
from referee.moves import ChooseDisc
from referee.pieces import COLOURS

MIXED = ["red", "green", "yellow", "blue", "pink", "red", "green", "yellow", "blue"]


def quiet_game(table: Any, players: int = 2) -> Game:
    size = 9 if players == 3 else 7
    game: Game = table.game(
        players, reserves={n: MIXED[:size] for n in ("Anna", "Bob", "Cara", "Carl", "Dora")}
    )
    return game


def play_round(table: Any, game: Game) -> None:
    """Every player in order of play: cubes onto territory 15, one step, refill from the
    fullest colours. Nobody plays to court, so nobody controls a colour or builds."""
    while game.phase is Phase.ACTION:
        player = game.to_move
        want = game.cubes_per_turn
        table.act(game, player, territories={15: game.reserve(player).colours()[:want]})
        supply = game.supply()
        fullest = sorted(COLOURS, key=lambda c: -supply.get(c))[:want]
        table.refill(game, player, fullest)


def test_round_1_choosing_order_is_free(table: Any) -> None:
    for first, second in (("Anna", "Bob"), ("Bob", "Anna")):
        game = quiet_game(table)
        assert set(game.choosers()) == {"Anna", "Bob"}
        table.discs(game, (first, 2), (second, 4))
        assert game.order_of_play() == (first, second)


def test_order_of_play_is_lowest_disc_first(table: Any) -> None:
    game = quiet_game(table, 3)
    table.discs(game, ("Anna", 5), ("Bob", 1), ("Cara", 3))
    assert game.order_of_play() == ("Bob", "Cara", "Anna")
    assert game.to_move == "Bob"


def test_round_2_chooses_in_the_order_of_play_of_round_1(table: Any) -> None:
    game = quiet_game(table, 3)
    table.discs(game, ("Anna", 5), ("Bob", 1), ("Cara", 3))
    play_round(table, game)
    assert game.round == 2
    assert game.choosing_order() == ("Bob", "Cara", "Anna")
    assert game.to_move == "Bob"
    with pytest.raises(DiscOrderError) as info:
        game.push(ChooseDisc("Anna", 1))
    assert info.value.player == "Bob"  # whom the rules expected
    table.discs(game, ("Bob", 2), ("Cara", 4), ("Anna", 1))
    assert game.order_of_play() == ("Anna", "Bob", "Cara")


def test_a_player_may_not_choose_twice_nor_unknown_players_choose(table: Any) -> None:
    game = quiet_game(table)
    table.discs(game, ("Anna", 2))
    with pytest.raises(DiscOrderError):
        game.push(ChooseDisc("Anna", 3))
    with pytest.raises(DiscOrderError):
        game.push(ChooseDisc("Zed", 3))


@pytest.mark.parametrize("number", [0, 6, -1])
def test_discs_are_numbered_1_to_5(table: Any, number: int) -> None:
    game = quiet_game(table)
    with pytest.raises(DiscUnavailableError):
        game.push(ChooseDisc("Anna", number))


def test_a_disc_played_in_this_cycle_is_unavailable(table: Any) -> None:
    game = quiet_game(table)
    table.discs(game, ("Anna", 1), ("Bob", 2))
    play_round(table, game)
    with pytest.raises(DiscUnavailableError) as info:
        game.push(ChooseDisc("Anna", 1))
    assert info.value.code == "disc-unavailable"


def test_a_number_chosen_by_another_is_taken_while_a_free_one_is_held(table: Any) -> None:
    game = quiet_game(table)
    table.discs(game, ("Anna", 3))
    with pytest.raises(DiscTakenError) as info:
        game.push(ChooseDisc("Bob", 3))
    assert info.value.player == "Bob"
    assert ChooseDisc("Bob", 3) not in game.legal_moves
    assert {m.number for m in game.legal_moves.discs()} == {1, 2, 4, 5}


def four_rounds_to_the_forced_disc(table: Any) -> Game:
    """Anna plays 1,2,3,4 and Bob 2,1,4,3: in round 5 each holds only disc 5."""
    game = quiet_game(table)
    for anna, bob in ((1, 2), (2, 1), (3, 4), (4, 3)):
        order = game.choosing_order() or ("Anna", "Bob")
        chosen = {"Anna": anna, "Bob": bob}
        table.discs(game, *((name, chosen[name]) for name in order))
        play_round(table, game)
    return game


def test_forced_same_number_and_order_of_play_by_choosing_order(table: Any) -> None:
    game = four_rounds_to_the_forced_disc(table)
    assert game.round == 5
    assert game.choosing_order() == ("Bob", "Anna")  # Bob played disc 3 in round 4
    assert game.discs_in_hand("Anna") == game.discs_in_hand("Bob") == frozenset({5})
    table.discs(game, ("Bob", 5))
    assert ChooseDisc("Anna", 5) in game.legal_moves
    table.discs(game, ("Anna", 5))
    # equal numbers: earlier choice plays first
    assert game.order_of_play() == ("Bob", "Anna")
    assert game.to_move == "Bob"


def test_discs_come_back_after_round_5(table: Any) -> None:
    game = four_rounds_to_the_forced_disc(table)
    with pytest.raises(DiscUnavailableError):
        game.push(ChooseDisc("Bob", 1))
    table.discs(game, ("Bob", 5), ("Anna", 5))
    play_round(table, game)
    assert game.round == 6
    assert game.discs_in_hand("Anna") == game.discs_in_hand("Bob") == frozenset(range(1, 6))
    table.discs(game, ("Bob", 1), ("Anna", 2))
    assert game.order_of_play() == ("Bob", "Anna")


def test_the_forced_case_still_needs_a_disc_in_hand(table: Any) -> None:
    game = four_rounds_to_the_forced_disc(table)
    table.discs(game, ("Bob", 5))
    with pytest.raises(DiscUnavailableError):
        game.push(ChooseDisc("Anna", 4))  # played in round 4


def test_disc_limits_emperor_steps(table: Any) -> None:
    game = quiet_game(table)
    table.discs(game, ("Anna", 2), ("Bob", 4))
    table.turn(game, "Anna", court=["red", "green", "yellow"], steps=2)
    assert [m.steps for m in game.legal_moves.emperor_moves()] == []
    game.push(next(iter(game.legal_moves)))  # Bob's cubes
    assert [m.steps for m in game.legal_moves.emperor_moves()] == [1, 2, 3, 4]
