"""Game-log figures for BENCHMARKS.md (not a test: run it by hand).

    .venv/bin/python benchmarks/gamelog_bench.py [FOLDER]

Commit latency of one step (WAL, synchronous=FULL: what the table waits for before it
announces a move), resuming a whole game by replay, and opening a log of many games
(the quick_check at start).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "gamelog"))

from gamelog_play import play, two_players

from firmware.gamelog.store import GameLog
from referee.game import Game

JPEG = b"\xff\xd8\xff\xe0" + bytes(40_000)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="carolus-bench-"))
    db = folder / "games.sqlite3"
    latencies: list[float] = []
    steps_per_game: list[int] = []
    with GameLog(db) as log:
        for seed in range(200):
            setup = two_players(seed)
            game_id = log.start_game(setup)
            game = Game(setup)
            for move, events in play(game, random.Random(seed)):
                start = time.perf_counter()
                log.step(game_id, move, events)
                latencies.append(time.perf_counter() - start)
                if game.step.value == "cubes" and game.turn_number and seed < 20:
                    log.turn_image(game_id, game.round, game.turn_number, JPEG)
            log.finish(game_id)
            steps_per_game.append(len(game.move_stack))
        longest = max(range(200), key=lambda i: steps_per_game[i]) + 1
        start = time.perf_counter()
        for _ in range(20):
            log.resume(longest)
        resume = (time.perf_counter() - start) / 20
    size = db.stat().st_size
    start = time.perf_counter()
    for _ in range(5):
        GameLog(db).close()
    opening = (time.perf_counter() - start) / 5
    cuts = statistics.quantiles(latencies, n=100)
    print(f"steps logged: {len(latencies)} in 200 games; file {size / 1e6:.1f} MB ({folder})")
    print(
        f"step commit: median {1000 * statistics.median(latencies):.2f} ms, "
        f"p99 {1000 * cuts[98]:.2f} ms"
    )
    print(f"resume by replay, {steps_per_game[longest - 1]} steps: {1000 * resume:.1f} ms")
    print(f"open (quick_check) of the 200-game log: {1000 * opening:.1f} ms")


if __name__ == "__main__":
    main()
