"""A log written with schema 1 opens at schema 2 with every game, seat and step intact."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from gamelog_play import four_players, log_game, two_players

from firmware.cli import main
from firmware.gamelog import schema
from firmware.gamelog.store import GameLog, LogOpenError

V1_COLUMNS = {
    "games": "id, players, setup, meta, source, status, started, ended, winner, reason, "
    "rounds, result, record",
    "steps": "game_id, seq, move, t, undone",
    "events": "id, game_id, seq, t, kind, data",
    "corrections": "id, game_id, t, kind, data",
    "turn_images": "game_id, round, turn, t, jpeg",
}


def schema_1_copy(source: Path, target: Path) -> None:
    """``target``: a schema-1 log holding what schema 1 stores of ``source``'s games."""
    conn = sqlite3.connect(target, isolation_level=None)
    assert schema.migrate(conn, target=1) == [1]
    conn.execute("ATTACH DATABASE ? AS src", (str(source),))
    for table, columns in V1_COLUMNS.items():
        conn.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM src.{table}")
    conn.execute("DETACH DATABASE src")
    assert schema.version(conn) == 1
    conn.close()


@pytest.fixture
def logs(tmp_path: Path) -> tuple[Path, Path]:
    new = tmp_path / "v2.db"
    with GameLog(new) as log:
        log_game(log, two_players(1), seed=1)
        log_game(log, four_players(2), seed=2)
        log_game(log, two_players(3), seed=3, moves=25)  # stopped early
        log_game(log, two_players(4), seed=4, moves=17, finish=False)  # still running
        log.turn_image(4, 1, 1, b"\xff\xd8\xff\xe0jpeg")
    old = tmp_path / "v1.db"
    schema_1_copy(new, old)
    return new, old


def test_schema_1_has_no_seats_yet(logs: tuple[Path, Path]) -> None:
    conn = sqlite3.connect(logs[1])
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "seats" not in tables and "games" in tables
    conn.close()


def test_migration_fills_seats_and_digests_from_schema_1(logs: tuple[Path, Path]) -> None:
    new, old = logs
    with GameLog(new) as reference, GameLog(old) as migrated:
        assert schema.version(migrated.connection) == schema.LATEST
        assert migrated.games() == reference.games()
        for row in reference.games():
            assert migrated.moves(row.id) == reference.moves(row.id)
            assert migrated.events(row.id) == reference.events(row.id)
        digests = "SELECT id, digest FROM games ORDER BY id"
        assert (
            migrated.connection.execute(digests).fetchall()
            == reference.connection.execute(digests).fetchall()
        )
        resumed = migrated.open_running()
        assert resumed is not None and resumed.game_id == 4 and resumed.steps == 17
        assert migrated.turn_images(4) == reference.turn_images(4)


def test_migrated_log_serves_the_commands(
    logs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, old = logs
    assert main(["games", "list", "--player", "Cleo", "--db", str(old)]) == 0
    out = capsys.readouterr().out
    assert "   2 " in out and "   1 " not in out
    # a record exported before is recognised by its digest after the migration
    assert main(["games", "export", "1", "--out", str(tmp_path / "x"), "--db", str(old)]) == 0
    exported = tmp_path / "x" / "carolus-game-0001.json"
    assert main(["games", "import", str(exported), "--db", str(old)]) == 0
    assert "already in the log as game 1" in capsys.readouterr().out


def test_a_failed_migration_leaves_schema_1_untouched(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    conn = sqlite3.connect(db, isolation_level=None)
    schema.migrate(conn, target=1)
    conn.execute(
        "INSERT INTO games (players, setup, source, status) VALUES ('not json', '{}', 'x', 'y')"
    )
    conn.close()
    with pytest.raises(LogOpenError, match="schema 1 to 2"):
        GameLog(db)
    conn = sqlite3.connect(db)
    assert schema.version(conn) == 1
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "seats" not in tables
    assert not list(tmp_path.glob("*.corrupt-*"))
    conn.close()


def test_each_migration_runs_once(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    conn = sqlite3.connect(db, isolation_level=None)
    assert schema.migrate(conn) == [1, 2, 3, 4]
    assert schema.migrate(conn) == []
    conn.close()
    with GameLog(db) as log:
        assert json.loads(json.dumps(log.games())) == []


def test_schema_4_gives_closed_games_the_round_and_turn_every_view_shows(
    tmp_path: Path,
) -> None:
    # schema 3 kept the round of the last turn played: a game closed right after a
    # round's last refill read one round behind `Game.progress`
    db = tmp_path / "v3.db"
    with GameLog(db) as log:
        expected = {}
        for seed, moves in [(1, None), (3, 25), (5, 8)]:
            game_id, game = log_game(log, two_players(seed), seed=seed, moves=moves)
            expected[game_id] = game.progress
        conn = log.connection
        conn.execute("UPDATE games SET rounds = 0")
        conn.execute("ALTER TABLE games DROP COLUMN turn")
        conn.execute("PRAGMA user_version = 3")
    with GameLog(db) as log:
        assert {row.id: row.progress for row in log.games()} == expected
