"""A record file named by a user is read safely: ``carolus check`` and ``carolus games
import`` refuse a FIFO, a device or a folder before reading, and a file over the size
cap, with the file's name and exit 2 (issue 16 #8: both hung on a FIFO and read
``/dev/zero`` until a MemoryError)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import MAX_RECORD_BYTES, MalformedRecordError, read_record_file

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "club-night.json"


def carolus(*args: str) -> subprocess.CompletedProcess[str]:
    """In a process of its own with a deadline: a hang fails the test, not the suite."""
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
    )


def commands(path: Path, tmp_path: Path) -> list[tuple[str, ...]]:
    return [("check", str(path)), ("games", "--db", str(tmp_path / "log.db"), "import", str(path))]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def test_a_fifo_is_refused_without_waiting_for_a_writer(fifo: Path, tmp_path: Path) -> None:
    for args in commands(fifo, tmp_path):
        done = carolus(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert f"{fifo} is not a regular file" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_and_a_folder_are_refused(tmp_path: Path) -> None:
    for path in (Path("/dev/zero"), tmp_path):
        for args in commands(path, tmp_path / "log"):
            done = carolus(*args)
            assert done.returncode == 2, (args, done.stderr)
            assert f"{path} is not a regular file" in done.stdout + done.stderr
            assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


def test_a_file_over_the_cap_is_refused_naming_the_file_and_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk spent
    for args in commands(big, tmp_path):
        done = carolus(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert f"{big} is larger than 4 MB" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


def test_the_one_reader_reads_a_record_and_a_file_just_under_the_cap(tmp_path: Path) -> None:
    assert read_record_file(EXAMPLE) == EXAMPLE.read_text(encoding="utf-8")
    small = tmp_path / "small.json"
    small.write_text("x" * 100)
    assert read_record_file(small, limit=100) == "x" * 100
    with pytest.raises(MalformedRecordError, match="larger than 99 bytes"):
        read_record_file(small, limit=99)
    with pytest.raises(MalformedRecordError, match="cannot read the file"):
        read_record_file(tmp_path / "missing.json")
