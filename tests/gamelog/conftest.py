"""Fixtures of the game-log tests: a fresh log file, or a copy of one built once."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware.gamelog.store import GameLog


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "log" / "games.sqlite3"


@pytest.fixture
def log(db: Path) -> Iterator[GameLog]:
    with GameLog(db) as opened:
        yield opened


@pytest.fixture
def copy_of(db: Path) -> Callable[[Path], Path]:
    """Puts a copy of a closed log file where this test's ``db`` goes, and returns it.

    A log of many games takes seconds to write step by step (a commit a step); a module
    fixture writes it once and each test gets a copy of its own to read or spoil."""

    def copy(source: Path) -> Path:
        db.parent.mkdir(parents=True, exist_ok=True)
        for path in source.parent.glob(source.name + "*"):  # -wal, -shm, if any are left
            shutil.copyfile(path, db.parent / (db.name + path.name[len(source.name) :]))
        return db

    return copy
