"""The bare table a game is read against is kept with the game (schema 3) and comes back
when the game is resumed; a schema-2 log opens at schema 3 with its games intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from gamelog_play import log_game, two_players

from firmware.gamelog import schema
from firmware.gamelog.store import GameLog, UnknownGameError

PNG = b"\x89PNG\r\n\x1a\n" + b"bare table" * 100


def test_the_bare_table_is_kept_with_the_game_and_comes_back_on_resume(log: GameLog) -> None:
    log_game(log, two_players(1), seed=1, moves=9, finish=False)
    assert log.bare_table(1) is None
    log.set_bare_table(1, PNG, t=3.0)
    assert log.bare_table(1) == PNG
    resumed = log.open_running()
    assert resumed is not None and resumed.game_id == 1 and resumed.bare_table == PNG
    with pytest.raises(ValueError, match="PNG"):
        log.set_bare_table(1, b"\xff\xd8\xff jpeg")
    with pytest.raises(UnknownGameError):
        log.set_bare_table(99, PNG)


def test_a_schema_2_log_opens_at_the_latest_schema(tmp_path: Path) -> None:
    db = tmp_path / "v2.db"
    conn = sqlite3.connect(db, isolation_level=None)
    assert schema.migrate(conn, target=2) == [1, 2]
    conn.close()
    with GameLog(db) as log:
        assert schema.version(log.connection) == schema.LATEST     # bare tables came in 3
        log_game(log, two_players(2), seed=2, moves=5, finish=False)
        resumed = log.open_running()
        assert resumed is not None and resumed.bare_table is None  # a game from before
