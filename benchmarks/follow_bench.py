"""Speed of the live table referee: snapshots consumed per second.

    .venv/bin/python benchmarks/follow_bench.py

Self-played games (2, 3 and 4 players) are played onto the simulated table with
flicker, occlusion, late cylinders and illegal acts; the referee consumes the streams.
Measured: parsing + refereeing (what ``carolus follow`` does per line), refereeing alone,
and ``carolus follow`` end to end on a 3,000-snapshot file. Prints a Markdown table.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.record import Record
from referee.selfplay import greedy_player, play_game, table_players
from referee.table.referee import TableReferee
from referee.table.simulate import Options, simulate
from referee.table.snapshot import parse_snapshot


def streams(games: int = 12) -> list[tuple[list, list[str]]]:
    out = []
    for seed in range(games):
        count = 2 + seed % 3
        players = table_players(count)
        game = play_game(players, random.Random(seed), [greedy_player] * count)
        stream = simulate(Record.from_game(game), random.Random(seed), Options(illegal=0.1))
        out.append((players, [json.dumps(s) for s in stream.snapshots]))
    return out


def referee_lines(players: list, lines: list[str]) -> None:
    referee = TableReferee(players)
    for line in lines:
        referee.feed(parse_snapshot(json.loads(line)))


def timings(games: list[tuple[list, list[str]]], parsed: list[tuple[list, list]]) -> dict:
    """One pass over every game: mean times, and the per-snapshot distribution."""
    total = sum(len(lines) for _, lines in games)
    start = time.perf_counter()
    for players, lines in games:
        referee_lines(players, lines)
    with_parsing = (time.perf_counter() - start) / total

    each: list[float] = []
    judged: list[float] = []
    start = time.perf_counter()
    for players, snaps in parsed:
        referee = TableReferee(players)
        for snap in snaps:
            before = referee.table
            tick = time.perf_counter()
            referee.feed(snap)
            spent = time.perf_counter() - tick
            each.append(spent)
            if referee.table is not before:
                judged.append(spent)  # a new table settled and was judged
    alone = (time.perf_counter() - start) / total
    each.sort()
    judged.sort()
    return {
        "parse+referee": with_parsing,
        "referee": alone,
        "p99": each[int(len(each) * 0.99)],
        "judged": judged[len(judged) // 2],
        "judged_count": len(judged),
    }


def main() -> None:
    games = streams()
    total = sum(len(lines) for _, lines in games)
    parsed = [(p, [parse_snapshot(json.loads(line)) for line in lines]) for p, lines in games]
    runs = [timings(games, parsed) for _ in range(3)]
    best = {key: min(run[key] for run in runs) for key in runs[0]}

    # one ~3,000-snapshot game through the command, start-up measured apart (best of 3)
    players, lines = min(games, key=lambda g: abs(len(g[1]) - 3000))
    seats = ",".join(f"{p.seat}={p.name}:{p.castles}" for p in players)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_text("\n".join(lines) + "\n")
        empty = Path(folder) / "empty.jsonl"
        empty.write_text("")
        carolus = [sys.executable, "-m", "firmware"]
        command = [*carolus, "follow", str(path), "--players", seats, "--json"]
        idle = [*carolus, "follow", str(empty), "--players", seats]
        startup = follow = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(idle, check=False, capture_output=True)
            startup = min(startup, time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            follow = min(follow, time.perf_counter() - start)

    print("| what | figure |")
    print("|---|---|")
    print(f"| snapshots in the benchmark (12 games, 2-4 players) | {total:,} |")
    print(f"| parse + referee, mean per snapshot | {best['parse+referee'] * 1000:.3f} ms |")
    print(f"| referee alone (`feed`), mean per snapshot | {best['referee'] * 1000:.3f} ms |")
    print(f"| referee alone, 99th percentile snapshot | {best['p99'] * 1000:.3f} ms |")
    print(
        f"| a snapshot that settles a new table and is judged, median "
        f"({best['judged_count']:,} of them) | {best['judged'] * 1000:.2f} ms |"
    )
    print(
        f"| `carolus follow --json`, {len(lines):,}-snapshot game | {follow:.2f} s "
        f"(of which start-up {startup:.2f} s) |"
    )


if __name__ == "__main__":
    main()
