"""Kill -9 mid-game and start again: the game resumes where it was, nothing lost."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from firmware.demo import demo_record, first_turns
from referee.check import judge
from referee.record import load
from referee.table.simulate import Options, simulate

CAROLUS = [sys.executable, "-m", "firmware"]
PLAYERS = "south=Anna:white,north=Bob:black"


def logged_steps(db: Path) -> list[tuple[str, float]]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT move, t FROM steps ORDER BY seq").fetchall()
    except sqlite3.Error:
        return []


def run(db: Path, stream: Path, speed: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *CAROLUS,
            "run",
            "--source",
            f"snapshots:{stream}",
            "--speed",
            speed,
            "--players",
            PLAYERS,
            "--no-web",
            "--no-gpio",
            "--no-display",
            "--exit-at-end",
            "--db",
            str(db),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def test_a_game_killed_mid_turn_resumes_where_it_was(tmp_path: Path) -> None:
    record = first_turns(demo_record(), 6)
    snapshots = simulate(record, random.Random(4), Options()).snapshots
    stream = tmp_path / "stream.jsonl"
    stream.write_text("".join(json.dumps(s) + "\n" for s in snapshots))
    db = tmp_path / "log.db"

    first = run(db, stream, "10")
    deadline = time.monotonic() + 120
    # wait until a turn is half done: cubes played, the emperor not yet moved
    while time.monotonic() < deadline:
        steps = logged_steps(db)
        if len(steps) > 6 and json.loads(steps[-1][0])["move"] == "cubes":
            break
        if first.poll() is not None:
            raise AssertionError("carolus run ended before it could be killed")
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    steps = logged_steps(db)
    assert json.loads(steps[-1][0])["move"] == "cubes", "killed mid-turn"
    assert len(steps) < len(judge(record).game.move_stack)  # type: ignore[union-attr]
    last_t = steps[-1][1]

    # the table as the camera sees it after the restart: the stream from the kill on
    tail = tmp_path / "tail.jsonl"
    tail.write_text("".join(json.dumps(s) + "\n" for s in snapshots if s.get("t", 0) > last_t))
    second = run(db, tail, "0")
    _, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert "Resumed game" in err

    out = tmp_path / "out"
    export = subprocess.run(
        [*CAROLUS, "games", "--db", str(db), "export", "--all", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    files = sorted(out.glob("*.json"))
    assert len(files) == 1
    resumed = judge(load(files[0])).game
    source = judge(record).game
    assert resumed is not None and source is not None
    assert resumed.move_stack == source.move_stack
