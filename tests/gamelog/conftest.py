"""Fixtures of the game-log tests: a fresh log file."""

from __future__ import annotations

from collections.abc import Iterator
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
