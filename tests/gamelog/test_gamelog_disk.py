"""Disk trouble: a full card, a read-only file, a damaged file — never a lost game or a
crash loop."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gamelog_play import choose, log_game, two_players

from firmware.cli import main
from firmware.gamelog import schema
from firmware.gamelog.store import (
    GameLog,
    LogFullError,
    LogOpenError,
    LogReadOnlyError,
    LogWriteError,
)
from referee.game import Game

BIG = {"kind": "note", "text": "x" * 20_000}


def fill_up(log: GameLog) -> None:
    """Make the database 'full': no page may be added beyond those it has."""
    conn = log.connection
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")


def test_full_disk_raises_a_typed_error_and_the_game_goes_on_in_memory(log: GameLog) -> None:
    game_id, live = log_game(log, two_players(3), seed=3, moves=10, finish=False)
    fill_up(log)
    with pytest.raises(LogFullError) as caught:
        log.event(game_id, BIG)
    assert isinstance(caught.value, LogWriteError) and caught.value.queued == 1
    assert any("full" in w for w in log.warnings)
    rng = random.Random(5)
    for _ in range(4):  # the referee plays on; each refused step waits in memory, in order
        move = choose(live, rng)
        events = live.push(move)
        with pytest.raises(LogFullError):
            log.step(game_id, move, events)
    assert log.queued == 5
    # the card has room again: the next write takes everything queued with it
    log.connection.execute("PRAGMA max_page_count = 1000000")
    move = choose(live, rng)
    assert log.step(game_id, move, live.push(move)) == 15
    assert log.queued == 0
    assert log.resume(game_id).game.move_stack == live.move_stack
    assert {e["seq"] for e in log.events(game_id)} >= set(range(11, 16))  # events kept too
    assert any(e["kind"] == "note" for e in log.events(game_id))


def test_full_disk_when_a_game_starts_or_ends_is_a_typed_error(log: GameLog) -> None:
    game_id, _ = log_game(log, two_players(4), seed=4, moves=30, finish=False)
    fill_up(log)
    with pytest.raises(LogFullError):
        for seed in range(50):  # set-ups are small: fill the last free space
            log.start_game(two_players(seed), meta={"pad": "y" * 5000})
    log.connection.execute("PRAGMA max_page_count = 1000000")
    log.finish(game_id)
    assert log.game(game_id).status == "unfinished"


def test_flush_retries_the_queue(log: GameLog) -> None:
    game_id, _ = log_game(log, two_players(1), seed=1, moves=4, finish=False)
    fill_up(log)
    with pytest.raises(LogFullError):
        log.correction(game_id, "big", {"text": BIG["text"]})
    with pytest.raises(LogFullError):
        log.flush()
    log.connection.execute("PRAGMA max_page_count = 1000000")
    log.flush()
    assert [c["kind"] for c in log.corrections(game_id)] == ["big"]


def test_read_only_log_can_be_read_but_not_written(db: Path) -> None:
    with GameLog(db) as log:
        game_id, live = log_game(log, two_players(2), seed=2, moves=8, finish=False)
    with GameLog(db, readonly=True) as log:
        assert [r.id for r in log.games()] == [game_id]
        assert log.resume(game_id).game.move_stack == live.move_stack
        move = choose(live, random.Random(1))
        with pytest.raises(LogReadOnlyError):
            log.step(game_id, move, live.push(move))
        assert log.queued == 1


READ_ONLY_CHECK = """
import json, sys
from firmware.gamelog.store import GameLog, LogReadOnlyError
log = GameLog(sys.argv[1])
out = {"readonly": log.readonly, "warnings": log.warnings, "steps": log.resume(1).steps}
try:
    log.correction(1, "x")
except LogReadOnlyError as exc:
    out["error"] = str(exc)
print(json.dumps(out))
"""


def test_read_only_file_and_folder_open_read_only_with_a_warning(
    without_privileges: Callable[[list[str]], list[str]],
) -> None:
    """As a user who may not write the file nor its folder (root may write anything,
    so root runs the check without its capabilities)."""
    folder = Path(tempfile.mkdtemp(prefix="carolus-ro-"))
    db = folder / "games.sqlite3"
    try:
        with GameLog(db) as log:
            log_game(log, two_players(2), seed=2, moves=8, finish=False)
        command = without_privileges([sys.executable, "-c", READ_ONLY_CHECK, str(db)])
        db.chmod(0o444)
        folder.chmod(0o555)
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        assert out["readonly"] and out["steps"] == 8
        assert any("read-only" in w for w in out["warnings"])
        assert "cannot be written" in out["error"]
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_a_file_that_is_not_a_database_is_moved_aside(db: Path) -> None:
    db.parent.mkdir(parents=True)
    garbage = bytes(random.Random(1).randrange(256) for _ in range(10_000))
    db.write_bytes(garbage)
    with GameLog(db) as log:
        assert log.moved_aside is not None
        assert log.moved_aside.name.startswith("games.sqlite3.corrupt-")
        assert log.moved_aside.read_bytes() == garbage
        assert any("moved aside" in w for w in log.warnings)
        log.start_game(two_players(1))
    with GameLog(db) as log:  # the fresh log is healthy: no loop of moving aside
        assert log.moved_aside is None and len(log.games()) == 1


def test_damaged_pages_are_found_by_quick_check(db: Path) -> None:
    with GameLog(db) as log:
        for seed in range(6):
            log_game(log, two_players(seed), seed=seed, moves=40)
    size = db.stat().st_size
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    with db.open("r+b") as f:  # scribble over pages in the middle, keep the header
        f.seek(4096 * 3)
        f.write(b"\x07" * min(4096 * 4, size - 4096 * 3))
    with GameLog(db) as log:
        assert log.moved_aside is not None
        assert log.games() == []
    assert len(list(db.parent.glob("games.sqlite3.corrupt-*"))) == 1


def test_truncated_file_is_moved_aside(db: Path) -> None:
    with GameLog(db) as log:
        for seed in range(4):
            log_game(log, two_players(seed), seed=seed, moves=40)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    with GameLog(db) as log:
        assert log.moved_aside is not None


def test_a_log_from_a_newer_carolus_is_left_alone(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with GameLog(db):
        pass
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(LogOpenError, match="schema 99"):
        GameLog(db)
    assert main(["games", "list", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "schema 99" in err and err.count("\n") == 1
    assert list(db.parent.glob("*.corrupt-*")) == []
    assert schema.version(sqlite3.connect(db)) == 99


def test_an_unopenable_path_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "dir.db").mkdir()
    assert main(["games", "list", "--db", str(tmp_path / "dir.db")]) == 1
    err = capsys.readouterr().err
    assert "cannot open the game log" in err and "Traceback" not in err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["games", "stats", "--db", str(blocker / "games.db")]) == 1


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 256 KB filesystem (tmpfs), where the privileges allow mounting one."""
    mount = tmp_path / "sd"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("needs root to mount a small filesystem")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_really_full_card_refuses_cleanly_and_takes_the_queue_when_space_returns(
    tiny_disk: Path,
) -> None:
    db = tiny_disk / "games.sqlite3"
    log = GameLog(db)
    setup = two_players(3)
    game_id = log.start_game(setup)
    live = Game(setup)
    rng = random.Random(3)
    refused = 0
    while not live.is_over and refused < 5:
        move = choose(live, rng)
        events = live.push(move)
        try:
            log.step(game_id, move, events)
            log.event(game_id, {"kind": "note", "text": "z" * 3000})  # fill the card faster
        except LogFullError:
            refused += 1
    assert refused == 5 and log.queued >= 5
    log.close()  # the appliance restarts on the full card: the log opens, undamaged
    with GameLog(db) as again:
        assert again.warnings == []
        resumed = again.open_running()
        assert resumed is not None
        committed = resumed.steps
        assert resumed.game.move_stack == live.move_stack[:committed]
    subprocess.run(["mount", "-o", "remount,size=4m", str(tiny_disk)], check=True)
    with GameLog(db) as again:
        for move in live.move_stack[committed:]:  # what the appliance still holds in memory
            again.step(game_id, move)
        assert again.resume(game_id).game.move_stack == live.move_stack
