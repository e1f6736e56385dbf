"""The advisor: hint speed and self-play strength.

    .venv/bin/python benchmarks/advisor_bench.py            # full run (a few minutes)
    .venv/bin/python benchmarks/advisor_bench.py --quick    # a tenth of the games

Speed: every position of some self-play games (2, 3 and 4 players), each searched once
(`referee.advisor.search`), plus threats and exposure. The budget is 1 s on a Pi 4,
which is 3-4x slower than the development machine: 250 ms here.

Strength: the hint player (`referee.advisor.hint_player`) against the random and greedy
players of `referee.selfplay`, seats rotated game by game (with 4 players both partners
of one team use hints). "no replies" is the same search without the look-ahead.
Prints Markdown for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from referee.advisor import exposure, hint_player, threats
from referee.advisor.hints import Search
from referee.game import Game, Phase
from referee.moves import MoveEmperor, PlayCubes
from referee.selfplay import (
    Strategy,
    choose_disc,
    greedy_player,
    play_game,
    random_player,
    roll_refill,
    table_players,
)
from referee.setup import Setup


def myopic_hint_player(game: Game, rng: random.Random) -> tuple[PlayCubes, int]:
    """The hint search without the opponents' replies."""
    hint = Search(game, replies=False).run()[0]
    return hint.play, hint.steps


def positions(players: int, games: int) -> list[Game]:
    """Positions at the cube step from games of greedy players."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game(Setup.random(table_players(players), rng))
        while not game.is_over and game.round <= 40:
            if game.phase is Phase.OPENING:
                game.push(choose_disc(game, rng))
                continue
            found.append(game.copy())
            play, steps = greedy_player(game, rng)
            game.push(play)
            game.push(MoveEmperor(play.player, steps))
            if not game.is_over:
                game.push(roll_refill(game, rng))
    return found


def timings(games: Sequence[Game], fn: Callable[[Game], object], repeat: int = 3) -> list[float]:
    """Per position, the best of ``repeat`` wall times in ms (the least disturbed run:
    the machine is shared)."""
    out = []
    for game in games:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            fn(game)
            best = min(best, time.perf_counter() - start)
        out.append(best * 1000)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def crowded() -> Game:
    """A heavy position: 3 players (4 cubes), disc 5, a reserve of all five colours that
    the player to move all controls (every cube may go anywhere): 1000+ candidates."""
    from referee.moves import ChooseDisc, Refill

    people = table_players(3)
    setup = Setup.random(people, random.Random(0), emperor=1)
    game = Game(setup)
    for name, disc in (("Anna", 5), ("Bob", 1), ("Carla", 2)):
        game.push(ChooseDisc(name, disc))
    each = ["red", "green", "yellow", "blue", "pink"]
    game.arrange(
        courts={"Anna": each * 3, "Bob": ["red"], "Carla": ["pink"]},
        reserves={
            "Anna": ["red", "red", "green", "green", "yellow", "yellow", "blue", "blue", "pink"],
            "Bob": ["red"] * 3 + ["green"] * 3 + ["blue"] * 3,
            "Carla": ["pink"] * 4 + ["yellow"] * 5,
        },
    )
    for name, court in (
        ("Bob", ["green"] * 3 + ["blue"]),
        ("Carla", ["pink"] * 2 + ["yellow"] * 2),
    ):
        game.push(PlayCubes.of(name, court))
        game.push(MoveEmperor(name, 1))
        game.push(Refill.of(name, court))
    return game


def speed(games_each: int) -> list[str]:
    rows = [
        "| players | positions | hint median | hint p95 | hint max | threats+exposure median |",
        "|---|---|---|---|---|---|",
    ]
    for n in (2, 3, 4):
        found = positions(n, games_each)
        hint = timings(found, lambda g: Search(g).run())
        watch = timings(found, lambda g: (threats(g), exposure(g)))
        rows.append(
            f"| {n} | {len(found)} | {statistics.median(hint):.1f} ms | "
            f"{percentile(hint, 0.95):.1f} ms | {max(hint):.1f} ms | "
            f"{statistics.median(watch):.1f} ms |"
        )
    heavy = crowded()
    hint = timings([heavy] * 10, lambda g: Search(g).run())
    watch = timings([heavy] * 10, lambda g: (threats(g), exposure(g)))
    rows.append(
        f"| 3, crowded | 1 x 10 | {statistics.median(hint):.1f} ms | "
        f"{percentile(hint, 0.95):.1f} ms | {max(hint):.1f} ms | "
        f"{statistics.median(watch):.1f} ms |"
    )
    return rows


def gap(count: int) -> list[str]:
    """Against an exhaustive search: every legal play (`legal_moves.cube_plays()`) and
    every emperor step, scored by the same evaluation. With two players the replies only
    cost, so a play whose score before replies does not beat the hint cannot beat it
    after; only the others are scored in full."""
    rows = [
        "| position | legal plays x steps | hint score | exhaustive best | gap | time |",
        "|---|---|---|---|---|---|",
    ]
    found = positions(2, 4)
    step = max(1, len(found) // count)
    for game in found[::step][:count]:
        start = time.perf_counter()
        search = Search(game)
        hint = search.run()[0]
        player = game.to_move
        assert player is not None
        disc = game.disc(player) or 1
        top = hint.score
        plays = 0
        for play in game.legal_moves.cube_plays():
            for steps in range(1, disc + 1):
                plays += 1
                after = search.after_play(play, steps)
                static = search.static(after)
                if static > top:
                    top = max(top, static - search.reply_cost(after))
        rows.append(
            f"| round {game.round}, {player} | {plays} | {hint.score:.2f} | {top:.2f} | "
            f"{top - hint.score:.2f} | {time.perf_counter() - start:.0f} s |"
        )
    return rows


def review_speed(games: int) -> list[str]:
    """`review(record)` of whole games between greedy players (what `carolus games
    show` would pay)."""
    from referee.advisor import review
    from referee.record import Record

    rows = [
        "| players | games | turns, median | review median | review max |",
        "|---|---|---|---|---|",
    ]
    for n in (2, 3, 4):
        times, turns = [], []
        for seed in range(games):
            game = play_game(table_players(n), random.Random(seed), [greedy_player] * n)
            record = Record.from_game(game)
            turns.append(sum(len(r.turns) for r in record.rounds))
            start = time.perf_counter()
            review(record)
            times.append(time.perf_counter() - start)
        rows.append(
            f"| {n} | {games} | {statistics.median(turns):.0f} | "
            f"{statistics.median(times):.2f} s | {max(times):.2f} s |"
        )
    return rows


def match(players: int, hint: Strategy, other: Strategy, games: int) -> tuple[int, int, int]:
    """Wins, draws and games of the hint side, seats rotated."""
    wins = draws = 0
    for g in range(games):
        rng = random.Random(10_000 + g)
        people = table_players(players)
        seat = g % players
        if players == 4:
            strategies = [hint if i % 2 == seat % 2 else other for i in range(4)]
            me = people[seat].castles
        else:
            strategies = [hint if i == seat else other for i in range(players)]
            me = people[seat].name
        game = play_game(people, rng, strategies)
        wins += game.winner == me
        draws += game.winner == "draw"
    return wins, draws, games


def strength(scale: float) -> list[str]:
    rows = [
        "| players | hint side | against | games | wins | draws | win rate | time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    plan: list[tuple[int, str, Strategy, str, Strategy, int]] = [
        (2, "hint", hint_player, "random", random_player, 100),
        (2, "hint", hint_player, "greedy", greedy_player, 100),
        (3, "hint", hint_player, "2 greedy", greedy_player, 60),
        (4, "hint team", hint_player, "greedy team", greedy_player, 60),
        (2, "hint", hint_player, "hint, no replies", myopic_hint_player, 100),
    ]
    for players, name, hint, other_name, other, games in plan:
        count = max(2, int(games * scale))
        start = time.perf_counter()
        wins, draws, total = match(players, hint, other, count)
        rows.append(
            f"| {players} | {name} | {other_name} | {total} | {wins} | {draws} | "
            f"{100 * wins / total:.0f}% | {time.perf_counter() - start:.0f} s |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument(
        "--gap", type=int, default=12, metavar="N", help="positions for the exhaustive check"
    )
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    print("\n".join(speed(3 if args.quick else 10)))
    print()
    print("\n".join(review_speed(2 if args.quick else 5)))
    print()
    print("\n".join(strength(scale)))
    if args.gap:
        print()
        print("\n".join(gap(args.gap)))


if __name__ == "__main__":
    main()
