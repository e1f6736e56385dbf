"""Properties every game must keep, checked over many random games (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.check import final_state, judge
from referee.errors import AfterEndError
from referee.game import Game, Phase
from referee.moves import ChooseDisc, MoveEmperor, PlayCubes, Refill
from referee.pieces import COLOURS
from referee.record import Record, loads
from referee.selfplay import (
    choose_disc,
    greedy_player,
    random_player,
    roll_refill,
    table_players,
)

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "players": st.sampled_from([2, 3, 4]),
        "greedy": st.booleans(),
    }
)


def assert_invariants(game: Game) -> None:
    # cubes are never lost or created
    supply = game.supply()
    for i, colour in enumerate(COLOURS):
        assert supply[i] >= 0, f"supply of {colour} went negative"
        on_table = sum(game.territory(t)[i] for t in range(1, 16))
        on_table += sum(game.court(p.name)[i] + game.reserve(p.name)[i] for p in game.players)
        assert supply[i] + on_table == game.setup.cubes_per_colour
    # units partition 1..15 into clockwise arcs, the first holding territory 1
    units = game.units()
    assert 1 in units[0]
    assert sorted(t for u in units for t in u) == list(range(1, 16))
    for unit in units:
        ring = set(unit)
        starts = [t for t in unit if (t - 2) % 15 + 1 not in ring]
        assert len(starts) == 1 or len(unit) == 15, f"{unit} is not an arc"
    # no two neighbouring units share an owner; castles stand on every territory of an
    # owned unit and on no other
    owners = game.owners()
    for a, b in zip(units, units[1:] + units[:1], strict=True):
        oa, ob = owners.get(min(a)), owners.get(min(b))
        assert oa is None or oa != ob, f"neighbours {a} and {b} are both {oa}"
    for unit in units:
        for t in unit:
            assert game.owner(t) == owners.get(min(unit))
    for side in game.sides:
        assert game.castles(side) == sum(len(u) for u in units if owners.get(min(u)) == side)
    # a colour's holder has at least as many court cubes as anyone
    for colour in COLOURS:
        holder = game.controller(colour)
        if holder is not None:
            held = game.court(holder)[COLOURS.index(colour)]
            assert all(held >= game.court(p.name)[COLOURS.index(colour)] for p in game.players)


def play_checked(seed: int, players: int, greedy: bool) -> Game:
    rng = random.Random(seed)
    from referee.setup import Setup

    game = Game(Setup.random(table_players(players), rng))
    strategy = greedy_player if greedy else random_player
    while not game.is_over and game.round <= 60:
        assert_invariants(game)
        if game.phase is Phase.OPENING:
            game.push(choose_disc(game, rng))
            continue
        player = game.to_move
        assert player is not None
        play, steps = strategy(game, rng)
        assert play in game.legal_moves
        game.push(play)
        game.push(MoveEmperor(player, steps))
        if not game.is_over:
            game.push(roll_refill(game, rng))
    assert_invariants(game)
    return game


@settings(max_examples=30, deadline=None)
@given(games)
def test_random_games_keep_the_invariants_and_replay_exactly(params: dict[str, int]) -> None:
    game = play_checked(params["seed"], params["players"], bool(params["greedy"]))
    # replay(record(game)) == game, through the JSON text people exchange
    record = loads(Record.from_game(game).dumps())
    verdict = judge(record)
    assert verdict.legal, verdict.error
    assert verdict.game is not None
    assert final_state(verdict.game) == final_state(game)
    assert verdict.game.move_stack == game.move_stack


@settings(max_examples=15, deadline=None)
@given(games)
def test_nothing_is_accepted_after_the_end(params: dict[str, int]) -> None:
    game = play_checked(params["seed"], params["players"], bool(params["greedy"]))
    if not game.is_over:
        return
    goal_reached = any(game.castles(s) >= game.goal for s in game.sides)
    assert goal_reached or len(game.units()) < 4
    assert not game.legal_moves
    for move in (
        ChooseDisc(game.players[0].name, 1),
        PlayCubes.of(game.players[0].name, ["red"] * 3),
        MoveEmperor(game.players[0].name, 1),
        Refill.of(game.players[0].name, ["red"] * 3),
    ):
        with pytest.raises(AfterEndError):
            game.push(move)


@settings(max_examples=10, deadline=None)
@given(games)
def test_pop_takes_every_move_back(params: dict[str, int]) -> None:
    game = play_checked(params["seed"], params["players"], False)
    replayed = Game(game.setup)
    states = [final_state(replayed)]
    for move in game.move_stack:
        replayed.push(move)
        states.append(final_state(replayed))
    for expected in reversed(states[:-1]):
        replayed.pop()
        assert final_state(replayed) == expected
