"""`carolus run` end to end: the demo played through the real vision and referee."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
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
        # A quarter of the default camera's pixels: the same game, read in a quarter of
        # the time (the whole demo game is refereed right at this size too).
        "--set",
        "camera.resolution=[1152, 648]",
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


# ---------------------------------------------------------------- one appliance per log

QUIET = ("--no-gpio", "--no-display")


def data_env(data: Path) -> dict[str, str]:
    """The environment of a host whose data folder is ``data`` (the demo's log there)."""
    env = {k: v for k, v in os.environ.items() if k != "CAROLUS_DB"}
    env["XDG_DATA_HOME"] = str(data)
    return env


def run_in(
    env: dict[str, str], *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CAROLUS, "run", *QUIET, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env=env,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_holder(lock: Path, pid: int, holder: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert holder.poll() is None, holder.communicate()
        try:
            if json.loads(lock.read_text()).get("pid") == pid:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"{lock} never named pid {pid}")


def test_a_second_appliance_on_one_game_log_is_refused_until_the_first_is_killed(
    tmp_path: Path,
) -> None:
    """The issue's probe: a second ``carolus run`` on the same data folder (the demo's
    log) or on the same log by ``--db`` with another source; neither may read, write or
    delete the log the first holds. After kill -9 of the first, the kernel has freed it."""
    env = data_env(tmp_path / "data")
    log = tmp_path / "data" / "carolus" / "demo.db"
    holder = subprocess.Popen(
        [*CAROLUS, "run", *QUIET, "--no-web", "--speed", "1", "--seconds", "90"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        wait_for_holder(Path(f"{log}.lock"), holder.pid, holder)
        deadline = time.monotonic() + 30
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        inode = log.stat().st_ino
        snapshots = tmp_path / "none.jsonl"
        snapshots.write_text("")
        for args in (
            ("--no-web", "--seconds", "5"),  # another demo: it would delete the log
            (
                "--set",
                f"web.port={free_port()}",
                "--db",
                str(log),
                "--source",
                f"snapshots:{snapshots}",
            ),
        ):
            second = run_in(env, *args)
            assert second.returncode == 2, second.stderr
            assert (
                f"the game log {log} is in use by carolus run, pid {holder.pid}, since "
                in second.stderr
            )
            assert "Traceback" not in second.stderr and "Resumed" not in second.stderr
            assert "Watching" not in second.stderr
            assert log.stat().st_ino == inode  # not deleted and made anew
        assert holder.poll() is None
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=30)
        again = run_in(env, "--no-web", "--seconds", "1")
        assert again.returncode == 0, again.stderr
        assert "in use" not in again.stderr
        # a demo that starts its log afresh says where it is (issue 15)
        assert f"The demo's game log (started afresh): {log}; " in again.stderr
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.communicate(timeout=30)


def test_a_busy_port_is_said_before_the_log_is_opened(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "log.db"
        snapshots = tmp_path / "none.jsonl"
        snapshots.write_text("")
        run = run_in(
            data_env(tmp_path),
            "--host",
            "127.0.0.1",
            "--set",
            f"web.port={port}",
            "--db",
            str(db),
            "--source",
            f"snapshots:{snapshots}",
        )
    assert run.returncode == 2, run.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in run.stderr
    assert "Traceback" not in run.stderr and "Resumed" not in run.stderr
    assert not db.exists()  # the log was never opened


def test_a_demo_in_a_read_only_data_folder_says_which_folder(
    without_privileges: Callable[[list[str]], list[str]],
) -> None:
    """As a user who may not write the data folder (root may write anything, so root
    runs the demo without its capabilities); the folder holds an old demo log, as it would."""
    folder = Path(tempfile.mkdtemp(prefix="carolus-ro-"))
    data = folder / "carolus"
    data.mkdir()
    (data / "demo.db").write_bytes(b"")
    command = without_privileges([*CAROLUS, "run", *QUIET, "--no-web", "--seconds", "5"])
    folder.chmod(0o755)
    try:
        for lock_left_behind in (False, True):
            if lock_left_behind:  # the lock can be taken; the old log cannot be deleted
                data.chmod(0o755)
                (data / "demo.db.lock").write_text("")
                (data / "demo.db.lock").chmod(0o666)
            data.chmod(0o555)
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
                env=data_env(folder),
                cwd=Path(__file__).resolve().parents[2],
            )
            assert done.returncode == 2, done.stderr
            assert f"folder {data} cannot be written" in done.stderr, done.stderr
            assert "--no-log" in done.stderr and "Traceback" not in done.stderr
            assert (data / "demo.db").exists()
    finally:
        data.chmod(0o755)
        shutil.rmtree(folder)
