"""`carolus run` end to end: the demo played through the real vision and referee."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from firmware.demo import demo_record
from referee.check import judge
from referee.record import load

CAROLUS = [sys.executable, "-m", "firmware"]


def carolus(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CAROLUS, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def test_the_demo_is_refereed_and_logged_as_the_bundled_game(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    run = carolus(
        "run",
        "--demo-turns",
        "3",
        "--speed",
        "0",
        "--exit-at-end",
        "--no-web",
        "--no-gpio",
        "--no-display",
        "--db",
        str(db),
    )
    assert run.returncode == 0, run.stderr
    assert "The demo is over" in run.stderr
    export = tmp_path / "out"
    done = carolus("games", "--db", str(db), "export", "--all", "--out", str(export))
    assert done.returncode == 0, done.stderr
    files = sorted(export.glob("*.json"))
    assert len(files) == 1
    logged = judge(load(files[0])).game
    source = judge(demo_record()).game
    assert logged is not None and source is not None
    # the first three turns of the bundled game: discs, cubes, emperor, refills (round 1
    # may choose in any order, and the camera may see both discs leave at once)
    turns_moves = logged.move_stack
    players = len(source.players)
    assert set(turns_moves[:players]) == set(source.move_stack[:players])
    assert turns_moves[players:] == source.move_stack[players : len(turns_moves)]
    assert sum(1 for m in turns_moves if type(m).__name__ == "Refill") >= 2
    assert logged.owners()  # a castle was built and seen
    from firmware.gamelog.store import GameLog

    with GameLog(db) as log:
        pictures = log.turn_images(log.games()[0].id)
    assert len(pictures) >= 2  # the table at the end of each turn
    assert all(jpeg[:2] == b"\xff\xd8" and len(jpeg) < 96_000 for _, _, jpeg in pictures)


def test_print_config_and_bad_config(tmp_path: Path) -> None:
    run = carolus("run", "--print-config", "--set", "web.port=9090")
    assert run.returncode == 0
    assert "port = 9090" in run.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("[gpio]\nconfirm = 99\n")
    run = carolus("run", "--config", str(bad), "--print-config")
    assert run.returncode == 2
    assert "gpio.confirm" in run.stderr and "Traceback" not in run.stderr


def test_a_bad_source_is_a_clear_error() -> None:
    for source in ("video:/nope.mp4", "images:/nope", "teapot"):
        run = carolus("run", "--source", source, "--no-web", "--no-log")
        assert run.returncode == 2, source
        assert "--source" in run.stderr and "Traceback" not in run.stderr


def test_the_demo_game_is_a_whole_legal_game() -> None:
    verdict = judge(demo_record())
    assert verdict.legal and verdict.game is not None and verdict.game.is_over
    kinds = {e.kind for e in verdict.events}
    assert {"castle-built", "castle-taken", "merged", "control-gained", "game-over"} <= kinds
    assert json.loads(Path("firmware/demo-game.json").read_text())["format"] == "carolus-record/1"
