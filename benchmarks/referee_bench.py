"""Speed of the rules engine: replay, legal cube plays, self-play, `carolus check`.

    .venv/bin/python benchmarks/referee_bench.py

Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from referee.check import judge
from referee.game import Game
from referee.pieces import Cubes
from referee.record import Record
from referee.selfplay import play_game, random_player, table_players
from referee.setup import Setup


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """Best wall time of ``repeat`` runs, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def long_record(turns: int) -> Record:
    """A 2-player game of at least ``turns`` turns, cut to exactly that many whole turns."""
    for seed in range(1000):
        game = play_game(table_players(2), random.Random(seed), [random_player] * 2)
        record = Record.from_game(game)
        if sum(len(r.turns) for r in record.rounds) >= turns:
            rounds, left = [], turns
            for rnd in record.rounds:
                rounds.append(type(rnd)(rnd.discs, rnd.turns[:left]))
                left -= len(rnd.turns[:left])
                if left == 0:
                    break
            return Record(record.setup, tuple(rounds))
    raise RuntimeError("no game that long")


def main() -> None:
    rows: list[tuple[str, str]] = []
    record = long_record(60)
    assert judge(record).legal
    t = best_of(20, lambda: judge(record))
    rows.append(("replay a 60-turn record (`judge`)", f"{t * 1000:.2f} ms"))

    rng = random.Random(1)
    game = Game(Setup.random(table_players(3), rng))
    game.arrange(reserves={"Anna": Cubes((2, 2, 2, 2, 1)).colours()})
    for name, number in (("Anna", 1), ("Bob", 2), ("Carla", 3)):
        from referee.moves import ChooseDisc

        game.push(ChooseDisc(name, number))
    count = game.legal_moves.count()
    t = best_of(3, lambda: game.legal_moves.count())
    rows.append(
        (
            "all legal cube plays, 9-cube reserve, 4 cubes, 16 places",
            f"{count:,} plays in {t * 1000:.0f} ms ({count / t:,.0f}/s)",
        )
    )

    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 3:
        play_game(table_players(2 + games % 3), random.Random(games), None)
        games += 1
    elapsed = time.perf_counter() - start
    rows.append(("random self-play, whole games (2/3/4 players)", f"{games / elapsed:.1f} games/s"))

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i in range(100):
            g = play_game(table_players(2 + i % 3), random.Random(1000 + i), None)
            path = Path(folder) / f"game-{i:03}.json"
            path.write_text(Record.from_game(g).dumps())
            paths.append(str(path))
        command = [sys.executable, "-m", "firmware", "check", "--json", *paths]
        t = best_of(3, lambda: subprocess.run(command, check=True, capture_output=True))
        rows.append(("`carolus check --json` of 100 whole-game records", f"{t * 1000:.0f} ms"))

    print("| what | figure |\n|---|---|")
    for what, figure in rows:
        print(f"| {what} | {figure} |")


if __name__ == "__main__":
    main()
