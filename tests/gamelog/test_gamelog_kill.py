"""A power cut or ``kill -9`` mid-turn: the running game reopens exactly where it was."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from gamelog_play import play, two_players

from firmware.gamelog.store import GameLog
from referee.check import final_state
from referee.game import Game, Step
from referee.moves import PlayCubes

SCRIPT = Path(__file__).with_name("gamelog_play.py")
SEED = 7


def reference() -> list[object]:
    """The moves the script plays (its choices are seeded)."""
    game = Game(two_players(SEED))
    return [move for move, _ in play(game, random.Random(SEED))]


def start(db: Path, pace: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), "--db", str(db), "--seed", str(SEED), "--pace", str(pace)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


def kill_after(proc: subprocess.Popen[str], announced: int) -> int:
    """SIGKILL once step ``announced`` was announced; the last step announced."""
    assert proc.stdout is not None
    last = 0
    for line in proc.stdout:
        if line.startswith("step "):
            last = int(line.split()[1])
            if last >= announced:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    return last


def test_sigkill_mid_turn_resumes_the_same_position(tmp_path: Path) -> None:
    moves = reference()
    # kill just after a cube play: the turn is half done (emperor and refill to come)
    target = next(i for i, m in enumerate(moves, start=1) if isinstance(m, PlayCubes) and i > 12)
    db = tmp_path / "games.sqlite3"
    proc = start(db, pace=0.1)
    announced = kill_after(proc, target)
    assert announced == target
    with GameLog(db) as log:
        resumed = log.open_running()
    assert resumed is not None
    game = resumed.game
    # every announced step is there (committed before announced), nothing invented
    assert resumed.steps >= announced
    assert game.move_stack == moves[: resumed.steps]
    expected = Game(two_players(SEED))
    for move in moves[: resumed.steps]:
        expected.push(move)  # type: ignore[arg-type]
    assert final_state(game) == final_state(expected)
    if resumed.steps == announced:
        assert game.step is Step.EMPEROR  # the half-played turn is waiting for the emperor


@pytest.mark.parametrize("announced", [3, 17, 31])
def test_sigkill_while_writing_flat_out_never_loses_an_announced_step(
    tmp_path: Path, announced: int
) -> None:
    moves = reference()
    db = tmp_path / "games.sqlite3"
    last = kill_after(start(db, pace=0.0), announced)
    with GameLog(db) as log:
        assert log.warnings == []  # not damaged: nothing moved aside
        resumed = log.open_running()
    assert resumed is not None
    assert last <= resumed.steps <= len(moves)
    assert resumed.game.move_stack == moves[: resumed.steps]
