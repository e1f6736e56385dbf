"""Readers (the web page, ``carolus games``) read while the appliance writes: never
``database is locked``, never a half-written step."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from gamelog_play import two_players
from test_gamelog_kill import SCRIPT, SEED, reference

from firmware.gamelog.store import GameLog
from referee.game import Game

READER = """
import sys
from firmware.gamelog.store import GameLog
db, rounds = sys.argv[1], int(sys.argv[2])
seen = 0
for _ in range(rounds):
    with GameLog(db) as log:
        for row in log.games():
            steps = log.resume(row.id).steps
            assert steps >= seen, (steps, seen)
            seen = steps
print(seen)
"""


def test_readers_in_threads_and_processes_while_a_process_writes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    moves = reference()
    with GameLog(db):  # the file exists before anyone reads
        pass
    writer = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--db", str(db), "--seed", str(SEED), "--pace", "0.005"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(db), "40"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    errors: list[BaseException] = []
    counts: list[list[int]] = [[], []]
    done = threading.Event()

    def read(seen: list[int]) -> None:
        try:
            with GameLog(db) as log:
                while True:
                    last_pass = done.is_set()  # one more read once the writer is done
                    for row in log.games():
                        resumed = log.resume(row.id)
                        # a consistent prefix of the game, never a torn step
                        assert resumed.game.move_stack == moves[: resumed.steps]
                        assert resumed.warnings == []
                        seen.append(resumed.steps)
                        log.events(row.id)
                    if last_pass:
                        break
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=read, args=(c,)) for c in counts]
    for thread in threads:
        thread.start()
    assert writer.stdout is not None
    lines = []
    for line in writer.stdout:
        if line.strip() == "over":
            break
        lines.append(line.strip())
    done.set()
    for thread in threads:
        thread.join(timeout=60)
    writer.stdin.close()  # type: ignore[union-attr]
    writer.wait(timeout=30)
    for reader in readers:
        out, err = reader.communicate(timeout=60)
        assert reader.returncode == 0, err
        assert "locked" not in err and 0 <= int(out) <= len(moves)
    assert errors == []
    assert lines[-1] == f"step {len(moves)}"
    for seen in counts:
        assert seen == sorted(seen) and seen[-1] == len(moves)
        assert len(set(seen)) > 2  # it read while the game was being written
    with GameLog(db) as log:
        game = log.resume(1).game
    expected = Game(two_players(SEED))
    for move in moves:
        expected.push(move)  # type: ignore[arg-type]
    assert game.move_stack == expected.move_stack and game.is_over


def test_two_writers_in_threads_each_keep_their_game(tmp_path: Path) -> None:
    """Two tables sharing one log file (or the appliance and an import) both commit."""
    from gamelog_play import log_game

    db = tmp_path / "games.sqlite3"
    results: dict[int, Game] = {}
    errors: list[BaseException] = []

    def write(seed: int) -> None:
        try:
            with GameLog(db) as log:
                game_id, game = log_game(log, two_players(seed), seed=seed, finish=False)
                results[game_id] = game
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    with GameLog(db) as log:
        for game_id, game in results.items():
            assert log.moves(game_id) == game.move_stack
