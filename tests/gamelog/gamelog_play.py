"""Random but legal games for the game-log tests, played step by step like a table.

Also run as a script by the SIGKILL test: it logs a game into ``--db`` and prints each
committed step number, then keeps going until it is killed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from referee.events import Event
from referee.game import Game, Phase, Step
from referee.moves import Move, PlayCubes, Refill
from referee.pieces import COLOURS, Cubes
from referee.setup import Player, Setup, roll

if TYPE_CHECKING:
    from firmware.gamelog.store import GameLog


def two_players(seed: int = 1, cubes_per_colour: int = 40) -> Setup:
    rng = random.Random(seed)
    setup = Setup.random([Player("Anna", "white", "south"), Player("Bob", "black", "north")], rng)
    return Setup(setup.players, setup.territories, setup.emperor, setup.reserves, cubes_per_colour)


def four_players(seed: int = 1) -> Setup:
    players = [
        Player("Anna", "white", "south"),
        Player("Bob", "black", "west"),
        Player("Cleo", "white", "north"),
        Player("Dirk", "black", "east"),
    ]
    return Setup.random(players, random.Random(seed))


def choose(game: Game, rng: random.Random) -> Move:
    """A legal move for whoever is to act, without enumerating every cube play."""
    if game.phase is Phase.OPENING:
        return rng.choice(list(game.legal_moves.discs()))
    player = game.to_move
    assert player is not None
    if game.step is Step.CUBES:
        hand = rng.sample(game.reserve(player).colours(), game.cubes_to_play(player))
        court, places = [], {}
        for colour in hand:
            if rng.random() < 0.5:
                court.append(colour)
            else:
                places.setdefault(rng.randint(1, 15), []).append(colour)
        return PlayCubes.of(player, court, places)
    if game.step is Step.EMPEROR:
        return rng.choice(list(game.legal_moves.emperor_moves()))
    played = game.move_stack[-2]
    assert isinstance(played, PlayCubes)
    want = played.count()
    for _ in range(40):
        colours = roll(rng, want)
        need, supply = Cubes.of(colours), game.supply()
        returned = {
            c: game.canonical_return(c, need.get(c) - supply.get(c))
            for c in COLOURS
            if need.get(c) > supply.get(c)
        }
        move = Refill.of(player, colours, {c: k for c, k in returned.items() if k})
        if game.is_legal(move):
            return move
    supply = game.supply()
    greedy = [c for c in COLOURS for _ in range(supply.get(c))][:want]
    return Refill.of(player, greedy)


def play(
    game: Game, rng: random.Random, moves: int | None = None
) -> Iterator[tuple[Move, list[Event]]]:
    """Push legal moves on ``game`` until it ends (or ``moves`` were pushed)."""
    count = 0
    while not game.is_over and (moves is None or count < moves):
        move = choose(game, rng)
        yield move, game.push(move)
        count += 1


def log_game(
    log: GameLog,
    setup: Setup,
    seed: int,
    moves: int | None = None,
    finish: bool = True,
    t0: float = 1_790_000_000.0,
) -> tuple[int, Game]:
    """Play a random game into ``log`` as the appliance would; its id and the live game."""
    game_id = log.start_game(setup, t=t0)
    game = Game(setup)
    for i, (move, events) in enumerate(play(game, random.Random(seed), moves)):
        log.step(game_id, move, events, t=t0 + i)
    if finish:
        log.finish(game_id, t=t0 + 10_000)
    return game_id, game


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between steps")
    args = parser.parse_args()
    from firmware.gamelog.store import GameLog

    log = GameLog(args.db)
    setup = two_players(args.seed)
    game_id = log.start_game(setup, meta={"place": "kill test"})
    game = Game(setup)
    rng = random.Random(args.seed)
    print(f"game {game_id}", flush=True)
    for move, events in play(game, rng):
        seq = log.step(game_id, move, events)
        print(f"step {seq}", flush=True)  # announced only after the commit
        time.sleep(args.pace)
    print("over", flush=True)
    sys.stdin.readline()  # wait to be killed
    return 0


if __name__ == "__main__":
    sys.exit(main())
