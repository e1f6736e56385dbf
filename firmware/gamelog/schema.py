"""The log's tables, versioned by ``PRAGMA user_version`` and migrated step by step.

Schema 1 keeps a game's players as JSON in ``games``. Schema 2 adds a ``seats`` table (one
row per player: castle colour, seat, territories won, score, won or not), so that
``carolus games list --player`` and ``stats`` ask the database instead of parsing JSON,
and a ``digest`` of each stored record so the same game is not imported twice. Its
migration fills both from what schema 1 stored. Schema 3 adds ``bare_tables``: the picture
of the table without pieces that the camera read the game against (`vision.reference`),
so a game resumed after a restart is read as it was, without laying the table bare again
(impossible mid-game). Schema 4 adds ``turn`` beside ``rounds``: the two hold the game's
`referee.game.Progress` (the round and turn every view shows) when it was closed; its
migration replays each closed game's steps to fill both, since ``rounds`` used to hold the
round of the last turn played, which after a round's last refill is one less than the
round the game stopped in. A migration never drops data.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

LATEST = 4


class NewerSchemaError(RuntimeError):
    """The file was written by a newer Carolus; it is left untouched."""


class MigrationError(RuntimeError):
    """A migration failed on the data it found; the file stays at its old version."""


def _schema_1(conn: sqlite3.Connection) -> None:
    _run(
        conn,
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            players TEXT NOT NULL,              -- JSON [{name, castles, seat}]
            setup TEXT NOT NULL,                -- JSON {players, setup} as in the record
            meta TEXT NOT NULL DEFAULT '{}',
            source TEXT NOT NULL,               -- table | hand | import
            status TEXT NOT NULL,               -- running | finished | unfinished
            started TEXT,                       -- 'YYYY-MM-DD HH:MM:SS' UTC, or a record's date
            ended TEXT,
            winner TEXT,
            reason TEXT,
            rounds INTEGER NOT NULL DEFAULT 0,
            result TEXT,                        -- JSON: the check verdict's final state
            record TEXT                         -- JSON: the final carolus-record/1
        );
        CREATE TABLE steps (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            move TEXT NOT NULL,                 -- JSON move, see firmware.gamelog.steps
            t REAL NOT NULL,
            undone REAL,                        -- when it was taken back, or NULL
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER,                        -- the step that caused it (NULL: none yet)
            t REAL NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL
        );
        CREATE INDEX events_game ON events(game_id, seq);
        CREATE TABLE corrections (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            t REAL NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL
        );
        CREATE TABLE turn_images (
            game_id INTEGER NOT NULL REFERENCES games(id),
            round INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            t REAL NOT NULL,
            jpeg BLOB NOT NULL,
            PRIMARY KEY (game_id, round, turn)
        );
        """,
    )


def _run(conn: sqlite3.Connection, script: str) -> None:
    """Each statement of ``script`` inside the caller's transaction (``executescript``
    would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def record_digest(record: Mapping[str, Any]) -> str:
    """What identifies a game: its record without ``meta`` (notes do not make a new game),
    in the referee's canonical form (an omitted default or another cube order is the same
    game)."""
    from referee.record import parse

    try:
        canonical = parse(record).to_json()
    except ValueError:
        canonical = dict(record)
    body = {k: v for k, v in canonical.items() if k != "meta"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def won(winner: str | None, name: str, castles: str) -> int | None:
    """1 if the winner is this player (or his team's colour), 0 if someone else won or a
    draw, ``None`` while nobody has won."""
    if winner is None:
        return None
    return int(winner in (name, castles))


def _schema_2(conn: sqlite3.Connection) -> None:
    _run(
        conn,
        """
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games(id),
            position INTEGER NOT NULL,          -- order of the record's players
            name TEXT NOT NULL,
            castles TEXT NOT NULL,
            seat TEXT,
            territories INTEGER,                -- under his side's castles at the end
            score INTEGER,
            won INTEGER,                        -- 1, 0, or NULL while undecided
            PRIMARY KEY (game_id, position)
        );
        CREATE INDEX seats_name ON seats(name);
        CREATE INDEX games_started ON games(started);
        ALTER TABLE games ADD COLUMN digest TEXT;
        CREATE INDEX games_digest ON games(digest);
        """,
    )
    rows = conn.execute("SELECT id, players, winner, result, record FROM games").fetchall()
    for game_id, players_json, winner, result_json, record_json in rows:
        players = json.loads(players_json)
        final = json.loads(result_json)["players"] if result_json else {}
        n = len(players)
        for position, p in enumerate(players):
            territories = final.get(p["name"], {}).get("castles")
            score = None if territories is None else min(40, territories * (5 if n == 3 else 4))
            conn.execute(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    position,
                    p["name"],
                    p["castles"],
                    p.get("seat"),
                    territories,
                    score,
                    won(winner, p["name"], p["castles"]),
                ),
            )
        if record_json:
            conn.execute(
                "UPDATE games SET digest = ? WHERE id = ?",
                (record_digest(json.loads(record_json)), game_id),
            )


def _schema_3(conn: sqlite3.Connection) -> None:
    # A table of its own, not a column of ``games``: a PNG of a few hundred kilobytes
    # per game stays out of every listing of games.
    _run(
        conn,
        """
        CREATE TABLE bare_tables (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            t REAL NOT NULL,
            png BLOB NOT NULL                   -- vision.reference.BareTable.to_bytes()
        );
        """,
    )


def _schema_4(conn: sqlite3.Connection) -> None:
    from firmware.gamelog.steps import loads_move, setup_from_json
    from referee.game import Game

    _run(conn, "ALTER TABLE games ADD COLUMN turn INTEGER NOT NULL DEFAULT 0")
    rows = conn.execute("SELECT id, setup FROM games WHERE status != 'running'").fetchall()
    for game_id, setup_json in rows:
        try:
            game = Game(setup_from_json(json.loads(setup_json)))
        except ValueError:  # not a set-up the referee takes: its numbers stay as they were
            continue
        for (text,) in conn.execute(
            "SELECT move FROM steps WHERE game_id = ? AND undone IS NULL ORDER BY seq",
            (game_id,),
        ).fetchall():
            try:
                game.push(loads_move(text))
            except ValueError:  # a `BadStepError` or a refused move: as `GameLog.rebuild`
                break
        conn.execute(
            "UPDATE games SET rounds = ?, turn = ? WHERE id = ?",
            (game.progress.round, game.progress.turn, game_id),
        )


#: MIGRATIONS[i] takes a database from version i to i + 1.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _schema_1,
    _schema_2,
    _schema_3,
    _schema_4,
)
assert len(MIGRATIONS) == LATEST


def version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> list[int]:
    """Bring ``conn`` (autocommit mode) up to ``target``, one transaction per version;
    the versions reached, in order. The version is read again under the write lock, so
    two processes opening a new log at once migrate it once."""
    reached: list[int] = []
    while True:
        current = version(conn)
        if current > LATEST:
            raise NewerSchemaError(
                f"the game log has schema {current}; this Carolus knows up to {LATEST}"
            )
        if current >= target:
            return reached
        conn.execute("BEGIN IMMEDIATE")
        v = version(conn)
        if v != current:  # another connection migrated meanwhile
            conn.execute("ROLLBACK")
            continue
        try:
            MIGRATIONS[v](conn)
            conn.execute(f"PRAGMA user_version = {v + 1}")
            conn.execute("COMMIT")
        except BaseException as exc:
            conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error | KeyboardInterrupt | SystemExit):
                raise
            raise MigrationError(
                f"cannot upgrade the game log from schema {v} to {v + 1}: {exc!r}"
            ) from exc
        reached.append(v + 1)
