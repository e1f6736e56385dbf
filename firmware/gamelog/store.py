"""`GameLog`: every game kept in one SQLite file, written step by step, resumable.

The log is the referee's first subscriber. The appliance calls `GameLog.step` after the
referee accepted a move and announces it only when `step` returns: the step is committed
(WAL, ``synchronous=FULL``) by then, so a power cut never loses an announced move.
Resuming folds the stored moves over the set-up again (`referee.replay.replay`, the
fold ``carolus check`` and the table referee use) — the log keeps decisions, never a
pickled position.

A full or read-only disk makes a write raise `LogWriteError` (`LogFullError`,
`LogReadOnlyError`); the refused writes stay queued in memory, in order, and go in with
the next write that succeeds (or `flush`), so the game goes on. A corrupted file is moved
aside at open (``*.corrupt-<timestamp>``) and a fresh log started.

Every error and warning of the log is a `said` message (issue 17): its English sentence,
which keeps its msgid and fields, so ``carolus games --language`` says it again in the
reader's language; what SQLite or the system report inside one goes in as they word it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from firmware.gamelog import schema
from firmware.gamelog.steps import (
    BadStepError,
    dumps_move,
    loads_move,
    setup_from_json,
    setup_to_json,
)
from referee.announcements import N_, clause, said
from referee.check import final_state, judge
from referee.events import Event
from referee.game import Game, Progress
from referee.moves import Move
from referee.record import UNFINISHED_TURN, MalformedRecordError, Record, parse
from referee.replay import replay
from referee.setup import Setup
from referee.table.events import TableEvent

log = logging.getLogger("carolus.gamelog")
log.addHandler(logging.NullHandler())  # warnings also go to GameLog.warnings

#: Largest end-of-turn picture kept, in bytes: a small JPEG (about 640x480 at quality 70).
IMAGE_CAP = 96 * 1024
BUSY_TIMEOUT_S = 10.0

# SQLite primary result codes
_SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_FULL = 8, 11, 13
_SQLITE_CANTOPEN, _SQLITE_NOTADB = 14, 26

T = TypeVar("T")


# ------------------------------------------------------------------ errors


class GameLogError(Exception):
    """Anything the game log refuses; the message is one line for the user (a `said`
    message: its first argument)."""


class LogOpenError(GameLogError):
    """The log could not be opened or created at all."""


class LogWriteError(GameLogError):
    """A write did not reach the disk. ``queued`` writes wait in memory for the next try."""

    def __init__(self, message: str, queued: int = 0) -> None:
        super().__init__(message)
        self.queued = queued


class LogFullError(LogWriteError):
    """The disk (or the database's page limit) is full."""


class LogReadOnlyError(LogWriteError):
    """The file or its folder cannot be written."""


class UnknownGameError(GameLogError):
    pass


class ImportRejectedError(GameLogError):
    """A record that is not a record (``malformed``) or breaks a rule (its rule code)."""

    def __init__(self, file: str, code: str, message: str) -> None:
        super().__init__(said("%(file)s: %(clause)s", file=file, clause=clause(message)))
        self.file = file
        self.code = code
        self.message = message

    @property
    def exit_code(self) -> int:
        return 2 if self.code == "malformed" else 1


# ------------------------------------------------------------------ values


@dataclass(frozen=True)
class Seat:
    name: str
    castles: str
    seat: str | None
    territories: int | None = None
    score: int | None = None
    won: int | None = None


@dataclass(frozen=True)
class GameRow:
    """One game as the log lists it."""

    id: int
    source: str
    status: str
    started: str | None
    ended: str | None
    winner: str | None
    reason: str | None
    rounds: int  # the round of `progress`
    seats: tuple[Seat, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    turn: int = 0  # the turn of `progress`

    @property
    def date(self) -> str:
        return (self.started or "")[:10]

    @property
    def progress(self) -> Progress:
        """The game's round and turn, as `Game.progress` says them: of the closed game,
        or of a running game's stored steps replayed when the row was read."""
        return Progress(self.rounds, self.turn)


@dataclass
class Resumed:
    """A running game rebuilt from its stored steps: what the appliance needs to go on."""

    game_id: int
    game: Game
    meta: dict[str, Any]
    started: str | None
    steps: int
    last_t: float | None
    warnings: list[str] = field(default_factory=list)
    #: The bare table the game was read against (PNG), None if it was read without one.
    bare_table: bytes | None = None

    @property
    def seats(self) -> dict[str, str | None]:
        return {p.name: p.seat for p in self.game.players}


@dataclass(frozen=True)
class Imported:
    game_id: int
    status: str
    duplicate: bool = False
    #: What was not kept of the record and why (steps of a turn in progress that do not
    #: replay), for the importer to say; empty when every step was kept.
    note: str = ""


def default_path() -> Path:
    """``$CAROLUS_DB``, else ``carolus/games.sqlite3`` in the platform's data folder."""
    env = os.environ.get("CAROLUS_DB")
    if env:
        return Path(env).expanduser()
    return data_folder() / "games.sqlite3"


def demo_path() -> Path:
    """The built-in demo's own log, beside the default one whatever ``$CAROLUS_DB``
    says: the demo starts it afresh each time, so a demo never mixes into the games
    people played."""
    return data_folder() / "demo.db"


def data_folder() -> Path:
    """``carolus`` in the platform's data folder."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "carolus"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    text = str(exc).lower()
    return (
        code in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
        or "malformed" in text
        or ("not a database" in text)
    )


def _write_error(exc: sqlite3.Error, queued: int) -> LogWriteError:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    text = str(exc)
    if code == _SQLITE_FULL or "full" in text:
        return LogFullError(
            said(
                "the game log is full (%(reason)s); %(count)s write(s) kept in memory",
                reason=text,
                count=queued,
            ),
            queued,
        )
    if code == _SQLITE_READONLY or "readonly" in text:
        return LogReadOnlyError(
            said(
                "the game log cannot be written (%(reason)s); %(count)s write(s) kept in memory",
                reason=text,
                count=queued,
            ),
            queued,
        )
    return LogWriteError(
        said(
            "the game log write failed (%(reason)s); %(count)s write(s) kept in memory",
            reason=text,
            count=queued,
        ),
        queued,
    )


#: The schema's own reasons (`firmware.gamelog.schema`: plain English), each matched to
#: the message that says it again in every language; anything else is shown as worded.
_SCHEMA_REASONS: tuple[tuple[str, str], ...] = (
    (
        r"the game log has schema (?P<version>\d+); this Carolus knows up to (?P<latest>\d+)",
        N_("the game log has schema %(version)s; this Carolus knows up to %(latest)s"),
    ),
    (
        r"cannot upgrade the game log from schema (?P<version>\d+) to (?P<version2>\d+): "
        r"(?P<reason>.*)",
        N_("cannot upgrade the game log from schema %(version)s to %(version2)s: %(reason)s"),
    ),
)


def _schema_reason(exc: Exception) -> str:
    """Why the schema refused, as a `said` message where it is one of `_SCHEMA_REASONS`."""
    text = str(exc)
    for pattern, msgid in _SCHEMA_REASONS:
        found = re.fullmatch(pattern, text, re.S)
        if found:
            return said(msgid, **found.groupdict())
    return text


Op = Callable[[sqlite3.Connection], Any]


class GameLog:
    """The log in one SQLite file. One instance per thread or process; readers may run
    alongside the writer (WAL)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        images: bool = True,
        image_cap: int = IMAGE_CAP,
        readonly: bool = False,
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.images = images
        self.image_cap = image_cap
        self.readonly = readonly
        self.warnings: list[str] = []
        self.moved_aside: Path | None = None
        self._queue: list[Op] = []
        self._conn = self._open()

    # -------------------------------------------------------------- opening

    def _connect(self) -> sqlite3.Connection:
        if not self.readonly:
            return self._connect_to(str(self.path), uri=False)
        try:
            return self._connect_ro("")
        except sqlite3.Error as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code not in (_SQLITE_READONLY, _SQLITE_CANTOPEN) or not self.path.exists():
                raise
        # a WAL log in a folder nobody may write: no -shm can be made, so read the file
        # as it stands
        message = said(
            "the game log %(file)s is read as a snapshot (its folder is read-only)",
            file=str(self.path),
        )
        log.warning(message)
        self.warnings.append(message)
        return self._connect_ro("&immutable=1")

    def _connect_ro(self, extra: str) -> sqlite3.Connection:
        return self._connect_to(self.path.resolve().as_uri() + "?mode=ro" + extra, uri=True)

    def _connect_to(self, target: str, uri: bool) -> sqlite3.Connection:
        if not self.readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            target,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            uri=uri,
            check_same_thread=False,
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            verdict = conn.execute("PRAGMA quick_check").fetchall()
            if [tuple(r) for r in verdict] != [("ok",)]:
                raise sqlite3.DatabaseError(
                    "database disk image is malformed: " + "; ".join(str(r[0]) for r in verdict[:3])
                )
            if not self.readonly:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("PRAGMA foreign_keys = ON")
                schema.migrate(conn)
            elif schema.version(conn) != schema.LATEST:
                raise LogOpenError(
                    said(
                        "%(file)s: read-only log has schema %(version)s, not %(latest)s",
                        file=str(self.path),
                        version=schema.version(conn),
                        latest=schema.LATEST,
                    )
                )
        except BaseException:
            conn.close()
            raise
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except (schema.NewerSchemaError, schema.MigrationError) as exc:
            raise LogOpenError(
                said(
                    "%(file)s: %(clause)s", file=str(self.path), clause=clause(_schema_reason(exc))
                )
            ) from None
        except sqlite3.Error as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if (
                code in (_SQLITE_READONLY, _SQLITE_CANTOPEN)
                and not self.readonly
                and (self.path.exists())
            ):
                return self._open_readonly(exc)
            if not _is_corruption(exc) or self.readonly:
                raise self._cannot_open(exc) from None
            reason = str(exc)
        except OSError as exc:
            raise self._cannot_open(exc) from None
        self.moved_aside = self._move_aside()
        message = said(
            "the game log %(file)s was damaged (%(reason)s); moved aside to %(file2)s and a "
            "fresh log started",
            file=str(self.path),
            reason=reason,
            file2=self.moved_aside.name,
        )
        log.warning(message)
        self.warnings.append(message)
        try:
            return self._connect()
        except (sqlite3.Error, OSError) as exc:
            raise self._refused(
                N_("%(file)s: cannot create a fresh game log: %(reason)s"), exc
            ) from None

    def _refused(self, msgid: str, exc: Exception) -> LogOpenError:
        """The log's file could not be opened: ``msgid`` with the file and the reason
        SQLite or the system gave."""
        return LogOpenError(said(msgid, file=str(self.path), reason=str(exc)))

    def _cannot_open(self, exc: Exception) -> LogOpenError:
        return self._refused(N_("%(file)s: cannot open the game log: %(reason)s"), exc)

    def _open_readonly(self, exc: sqlite3.Error) -> sqlite3.Connection:
        """A log on a read-only file or folder can still be listed and shown."""
        self.readonly = True
        try:
            conn = self._connect()
        except (sqlite3.Error, OSError) as again:
            raise self._cannot_open(again) from None
        message = said(
            "the game log %(file)s is read-only (%(reason)s); games cannot be saved",
            file=str(self.path),
            reason=str(exc),
        )
        log.warning(message)
        self.warnings.append(message)
        return conn

    def _move_aside(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                extra = Path(f"{self.path}{suffix}")
                if extra.exists():
                    extra.rename(Path(f"{aside}{suffix}"))
        except OSError as exc:
            raise self._refused(
                N_("%(file)s is damaged and cannot be moved aside: %(reason)s"), exc
            ) from None
        return aside

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for tests and tools (e.g. ``PRAGMA max_page_count``)."""
        return self._conn

    # -------------------------------------------------------------- writing

    @property
    def queued(self) -> int:
        """Writes refused by the disk and waiting in memory."""
        return len(self._queue)

    def _write(self, op: Callable[[sqlite3.Connection], T], keep: bool = True) -> T:
        """Run the queued writes, then ``op``, in one transaction; commit before return.
        If the disk refuses, ``op`` joins the queue (when ``keep``) and `LogWriteError`
        is raised."""
        if keep:
            self._queue.append(op)
            ops = list(self._queue)
        else:
            ops = [*self._queue, op]
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            result: Any = None
            for each in ops:
                result = each(conn)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            error = _write_error(exc, len(self._queue))
            log.warning("%s", error)
            self.warnings.append(str(error))
            raise error from None
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if keep:
                self._queue.pop()
            raise
        self._queue.clear()
        return result  # type: ignore[no-any-return]

    def flush(self) -> None:
        """Write what a full or read-only disk refused earlier (`LogWriteError` if still
        refused)."""
        if self._queue:
            self._write(lambda conn: None, keep=False)

    def start_game(
        self,
        setup: Setup,
        seats: Mapping[str, str] | None = None,
        meta: Mapping[str, Any] | None = None,
        t: float | None = None,
        source: str = "table",
    ) -> int:
        """A new running game; returns its id. ``seats`` (player -> south/west/north/east)
        fills in the players' seats. Raises `referee.errors.BadSetupError` for a bad set-up."""
        if seats:
            players = tuple(replace(p, seat=seats.get(p.name, p.seat)) for p in setup.players)
            setup = replace(setup, players=players)
        Game(setup)  # the referee's set-up check
        started = _stamp(t) if t is not None else _now()
        return self._insert_game(setup, dict(meta or {}), source, "running", started)

    def _insert_game(
        self, setup: Setup, meta: dict[str, Any], source: str, status: str, started: str | None
    ) -> int:
        return self._write(
            lambda conn: _insert_game(conn, setup, meta, source, status, started), keep=False
        )

    def step(
        self,
        game_id: int,
        move: Move,
        events: Iterable[Event | TableEvent | Mapping[str, Any]] = (),
        t: float | None = None,
    ) -> int:
        """Store one accepted move and the events it caused; its number once committed."""
        when = time.time() if t is None else t
        text = dumps_move(move)
        facts = [_event_json(e) for e in events]

        def op(conn: sqlite3.Connection) -> int:
            seq = _next_seq(conn, game_id)
            conn.execute(
                "INSERT INTO steps (game_id, seq, move, t) VALUES (?, ?, ?, ?)",
                (game_id, seq, text, when),
            )
            _insert_events(conn, game_id, seq, when, facts)
            return seq

        self._known(game_id)
        return self._write(op)

    def event(
        self, game_id: int, event: Event | TableEvent | Mapping[str, Any], t: float | None = None
    ) -> None:
        """Store an event that no step caused (e.g. the table saw a cube put back)."""
        when = time.time() if t is None else t
        fact = _event_json(event)
        self._known(game_id)
        self._write(
            lambda conn: _insert_events(conn, game_id, _last_seq(conn, game_id), when, [fact])
        )

    def correction(
        self,
        game_id: int,
        kind: str,
        data: Mapping[str, Any] | None = None,
        t: float | None = None,
    ) -> None:
        """Note a correction made at the table (what the camera saw and what was agreed)."""
        when = time.time() if t is None else t
        text = json.dumps(dict(data or {}), ensure_ascii=False)
        self._known(game_id)
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO corrections (game_id, t, kind, data) VALUES (?, ?, ?, ?)",
                (game_id, when, kind, text),
            )
        )

    def undo(self, game_id: int, t: float | None = None) -> Move | None:
        """Take back the last live step (kept, marked undone); the move, or None."""
        when = time.time() if t is None else t

        def op(conn: sqlite3.Connection) -> Move | None:
            row = conn.execute(
                "SELECT seq, move FROM steps WHERE game_id = ? AND undone IS NULL "
                "ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE steps SET undone = ? WHERE game_id = ? AND seq = ?",
                (when, game_id, row[0]),
            )
            conn.execute(
                "INSERT INTO corrections (game_id, t, kind, data) VALUES (?, ?, 'undo', ?)",
                (game_id, when, json.dumps({"seq": row[0], "move": json.loads(row[1])})),
            )
            return loads_move(row[1])

        self._known(game_id)
        return self._write(op)

    def turn_image(
        self, game_id: int, round: int, turn: int, jpeg: bytes, t: float | None = None
    ) -> bool:
        """Keep the picture of the table at the end of a turn; False when pictures are off
        or this one is over `image_cap` (logged). Pictures are never queued in memory."""
        if not self.images:
            return False
        if not jpeg.startswith(b"\xff\xd8\xff"):
            raise ValueError("turn_image takes JPEG bytes (they start with FF D8 FF)")
        if len(jpeg) > self.image_cap:
            # the appliance's log, for whoever debugs (``carolus games`` keeps no pictures)
            message = (
                f"game {game_id} round {round} turn {turn}: picture of {len(jpeg)} bytes "
                f"is over the {self.image_cap}-byte cap; not kept"
            )
            log.warning(message)
            self.warnings.append(message)
            return False
        when = time.time() if t is None else t
        self._known(game_id)
        self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO turn_images VALUES (?, ?, ?, ?, ?)",
                (game_id, round, turn, when, sqlite3.Binary(jpeg)),
            ),
            keep=False,
        )
        return True

    def set_bare_table(self, game_id: int, png: bytes, t: float | None = None) -> None:
        """Keep the bare table a game is read against (`vision.reference.BareTable`
        as PNG), so that resuming it after a restart reads the table as before."""
        if not png.startswith(b"\x89PNG"):
            raise ValueError("set_bare_table takes PNG bytes (they start with 89 50 4E 47)")
        when = time.time() if t is None else t
        self._known(game_id)
        self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO bare_tables (game_id, t, png) VALUES (?, ?, ?)",
                (game_id, when, sqlite3.Binary(png)),
            )
        )

    def bare_table(self, game_id: int) -> bytes | None:
        """The bare table stored with the game (PNG), or None."""
        row = self._conn.execute(
            "SELECT png FROM bare_tables WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def finish(
        self, game_id: int, t: float | None = None, meta: Mapping[str, Any] | None = None
    ) -> Record:
        """Close a game: the record, result and scores, from its stored steps. A game the
        rules have not ended is kept as ``unfinished``."""
        self.flush()
        row = self._conn.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        merged = {**json.loads(row[0]), **dict(meta or {})}
        game, _ = self.rebuild(game_id)
        record = Record.from_game(game, merged)
        ended = _stamp(t) if t is not None else _now()
        data = record.to_json()
        self._write(
            lambda conn: _store_result(conn, game_id, game, data, ended, merged), keep=False
        )
        return record

    def import_record(self, record: Record | Mapping[str, Any], file: str = "<record>") -> Imported:
        """Judge a record with the referee and keep it if it is legal (finished or not);
        `ImportRejectedError` with the reason otherwise. The same game twice is kept once."""
        original = record.to_json() if isinstance(record, Record) else dict(record)
        if not isinstance(record, Record):
            try:
                record = parse(record)
            except ValueError as exc:
                raise ImportRejectedError(file, "malformed", _not_a_record(exc)) from None
        verdict = judge(record, file)
        if not verdict.legal or verdict.game is None:
            error = verdict.error or {}
            message = error.get("message")  # a `said` message: kept as one
            ruled = {
                "code": str(error.get("code")),
                "clause": clause(message if isinstance(message, str) else str(message)),
            }
            if not error.get("round"):
                broken = said("breaks a rule — %(code)s: %(clause)s", **ruled)
            elif error.get("turn") == 0:
                broken = said(
                    "breaks a rule in round %(round)s, opening phase — %(code)s: %(clause)s",
                    round=error["round"],
                    **ruled,
                )
            else:
                broken = said(
                    "breaks a rule in round %(round)s, turn %(turn)s — %(code)s: %(clause)s",
                    round=error["round"],
                    turn=error.get("turn"),
                    **ruled,
                )
            raise ImportRejectedError(file, str(error.get("code")), broken)
        game = verdict.game
        digest = schema.record_digest(original)
        row = self._conn.execute(
            "SELECT id, status FROM games WHERE digest = ?", (digest,)
        ).fetchone()
        if row is not None:
            return Imported(int(row[0]), str(row[1]), duplicate=True)
        extra, note = _replay_unfinished(record, game)
        meta = dict(record.meta)
        meta.pop(UNFINISHED_TURN, None)  # those steps are in the steps table now
        date = meta.get("date")
        started = date if isinstance(date, str) and _is_date(date) else _now()
        imported_t = time.time()
        moves = [dumps_move(m) for m in game.move_stack]
        facts = [_event_json(e) for e in [*verdict.events, *extra]]

        def op(conn: sqlite3.Connection) -> int:
            game_id = _insert_game(conn, record.setup, meta, "import", "running", started)
            conn.executemany(
                "INSERT INTO steps (game_id, seq, move, t) VALUES (?, ?, ?, ?)",
                [(game_id, seq, text, imported_t) for seq, text in enumerate(moves, start=1)],
            )
            _insert_events(conn, game_id, None, imported_t, facts)
            _store_result(conn, game_id, game, original, None, meta)
            return game_id

        game_id = self._write(op, keep=False)
        return Imported(game_id, "finished" if game.is_over else "unfinished", note=note)

    # -------------------------------------------------------------- reading

    def _known(self, game_id: int) -> None:
        if self._conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))

    def games(
        self,
        player: str | None = None,
        since: str | None = None,
        until: str | None = None,
        result: str | None = None,
    ) -> list[GameRow]:
        """Games, oldest first. ``since``/``until`` are dates (YYYY-MM-DD, inclusive);
        ``result`` matches a status (running, finished, unfinished), a reason (castles,
        few-territories), ``draw``, or a winner (player or castle colour)."""
        where, args = [], []
        if player:
            where.append("id IN (SELECT game_id FROM seats WHERE name = ?)")
            args.append(player)
        if since:
            where.append("substr(started, 1, 10) >= ?")
            args.append(since)
        if until:
            where.append("substr(started, 1, 10) <= ?")
            args.append(until)
        if result:
            where.append("(status = ? OR reason = ? OR winner = ?)")
            args += [result, result, result]
        sql = "SELECT id FROM games" + (" WHERE " + " AND ".join(where) if where else "")
        ids = [r[0] for r in self._conn.execute(sql + " ORDER BY started, id", args)]
        return [self.game(i) for i in ids]

    def game(self, game_id: int) -> GameRow:
        row = self._conn.execute(
            "SELECT id, source, status, started, ended, winner, reason, rounds, turn, meta "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        seats = tuple(
            Seat(*r)
            for r in self._conn.execute(
                "SELECT name, castles, seat, territories, score, won FROM seats "
                "WHERE game_id = ? ORDER BY position",
                (game_id,),
            )
        )
        game_id, source, status, started, ended, winner, reason, rounds, turn, meta = row
        if status == "running":  # its steps are the truth: one replay, never a stale count
            progress = self.rebuild(game_id)[0].progress
            rounds, turn = progress.round, progress.turn
        return GameRow(
            game_id,
            source,
            status,
            started,
            ended,
            winner,
            reason,
            rounds,
            seats,
            json.loads(meta),
            turn,
        )

    def setup(self, game_id: int) -> Setup:
        row = self._conn.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        return setup_from_json(json.loads(row[0]))

    def moves(self, game_id: int) -> list[Move]:
        """The live steps of a game (undone ones left out), in order."""
        rows = self._conn.execute(
            "SELECT move FROM steps WHERE game_id = ? AND undone IS NULL ORDER BY seq",
            (game_id,),
        ).fetchall()
        return [loads_move(r[0]) for r in rows]

    def rebuild(self, game_id: int) -> tuple[Game, list[str]]:
        """The game as its steps left it: the moves folded over the set-up again
        (`referee.replay.replay`, as ``check`` and the table referee do). A step that
        is no move, or that the referee refuses (a log from a different rules version),
        stops the fold; the reason is in the warnings."""
        rows = self._conn.execute(
            "SELECT seq, move FROM steps WHERE game_id = ? AND undone IS NULL ORDER BY seq",
            (game_id,),
        ).fetchall()
        moves: list[Move] = []
        unreadable: str | None = None
        for seq, text in rows:
            try:
                moves.append(loads_move(text))
            except BadStepError as exc:
                unreadable = _not_replayed(game_id, seq, str(exc))
                break
        done = replay(self.setup(game_id), moves)
        warnings: list[str] = []
        if done.refused is not None:
            seq = rows[done.pushed][0]
            warnings.append(_not_replayed(game_id, seq, done.refused.message))
        elif unreadable is not None:
            warnings.append(unreadable)
        for message in warnings:
            log.warning(message)
        return done.game, warnings

    def record_json(self, game_id: int) -> dict[str, Any]:
        """The record to export: the stored final record as it was written or imported,
        or, for a running game, the record of its whole turns so far."""
        row = self._conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        if row[0]:
            return dict(json.loads(row[0]))
        return self.record(game_id).to_json()

    def record(self, game_id: int) -> Record:
        """The game's record: the stored final record, or one made from its steps."""
        row = self._conn.execute(
            "SELECT record, meta FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        if row[0]:
            return parse(json.loads(row[0]))
        game, _ = self.rebuild(game_id)
        return Record.from_game(game, json.loads(row[1]))

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Stored events in order, each with its time ``t`` and ``undone`` when its step
        was taken back."""
        rows = self._conn.execute(
            "SELECT e.t, e.data, e.seq, s.undone FROM events e LEFT JOIN steps s "
            "ON s.game_id = e.game_id AND s.seq = e.seq WHERE e.game_id = ? ORDER BY e.id",
            (game_id,),
        ).fetchall()
        out = []
        for t, data, seq, undone in rows:
            fact = json.loads(data)
            fact.update(t=t, seq=seq, undone=undone is not None)
            out.append(fact)
        return out

    def corrections(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT t, kind, data FROM corrections WHERE game_id = ? ORDER BY id", (game_id,)
        ).fetchall()
        return [{"t": t, **json.loads(data), "kind": kind} for t, kind, data in rows]

    def turn_images(self, game_id: int) -> list[tuple[int, int, bytes]]:
        rows = self._conn.execute(
            "SELECT round, turn, jpeg FROM turn_images WHERE game_id = ? ORDER BY round, turn",
            (game_id,),
        ).fetchall()
        return [(r, t, bytes(j)) for r, t, j in rows]

    def running(self) -> list[int]:
        return [
            r[0]
            for r in self._conn.execute("SELECT id FROM games WHERE status = 'running' ORDER BY id")
        ]

    def resume(self, game_id: int) -> Resumed:
        """The running (or any) game ``game_id`` rebuilt exactly where its steps left it."""
        row = self._conn.execute(
            "SELECT meta, started FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise UnknownGameError(said("no game %(game)s in the log", game=game_id))
        game, warnings = self.rebuild(game_id)
        last = self._conn.execute(
            "SELECT max(t) FROM steps WHERE game_id = ? AND undone IS NULL", (game_id,)
        ).fetchone()[0]
        return Resumed(
            game_id,
            game,
            json.loads(row[0]),
            row[1],
            len(game.move_stack),
            last,
            warnings,
            self.bare_table(game_id),
        )

    def open_running(self) -> Resumed | None:
        """The game that was being played when the appliance stopped (the latest running
        one), rebuilt; None if every game was finished."""
        ids = self.running()
        return self.resume(ids[-1]) if ids else None

    def __repr__(self) -> str:
        return f"GameLog({str(self.path)!r})"


# ------------------------------------------------------------------ helpers


def _replay_unfinished(record: Record, game: Game) -> tuple[list[Event], str]:
    """Push the steps of the turn in progress a record carries in its ``meta`` (see
    `Record.from_game`) on ``game``, so a game exported mid-turn comes back with every
    step. They are no part of the verdict: a step that does not replay is left out with
    the reason, and the whole turns are kept all the same."""
    try:
        moves = record.unfinished_moves()
    except MalformedRecordError as exc:
        return [], said(
            "the steps of the unfinished turn were left out: %(clause)s",
            clause=clause(_field_reason(exc)),
        )
    done = replay(game, moves)
    events = [event for played in done.events for event in played]
    if done.refused is not None:
        left = len(moves) - done.pushed
        return events, said(
            "%(count)s of the %(count2)s steps of the unfinished turn were left out: %(clause)s",
            count=left,
            count2=len(moves),
            clause=clause(done.refused.message),
        )
    return events, ""


def _field_reason(exc: MalformedRecordError) -> str:
    """``field: why``, as `MalformedRecordError` words it, with the reason kept as a
    `said` message."""
    if exc.field:
        return said("%(field)s: %(clause)s", field=exc.field, clause=clause(exc.message))
    return exc.message


def _not_a_record(exc: ValueError) -> str:
    """Why a record given as JSON is no record (its field, when known)."""
    reason = _field_reason(exc) if isinstance(exc, MalformedRecordError) else str(exc)
    return said("not a valid record: %(clause)s", clause=clause(reason))


def _not_replayed(game_id: int, seq: int, reason: str) -> str:
    """A stored step the fold stopped at, and why (a `said` message, or the words of the
    step's reader)."""
    return said(
        "game %(game)s: step %(step)s not replayed: %(clause)s",
        game=game_id,
        step=seq,
        clause=clause(reason),
    )


def _is_date(text: str) -> bool:
    try:
        datetime.strptime(text[:10], "%Y-%m-%d")
    except ValueError:
        return False
    return True


def _insert_game(
    conn: sqlite3.Connection,
    setup: Setup,
    meta: Mapping[str, Any],
    source: str,
    status: str,
    started: str | None,
) -> int:
    shape = setup_to_json(setup)
    cursor = conn.execute(
        "INSERT INTO games (players, setup, meta, source, status, started) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            json.dumps(shape["players"], ensure_ascii=False),
            json.dumps(shape, ensure_ascii=False),
            json.dumps(dict(meta), ensure_ascii=False),
            source,
            status,
            started,
        ),
    )
    game_id = int(cursor.lastrowid or 0)
    conn.executemany(
        "INSERT INTO seats (game_id, position, name, castles, seat) VALUES (?, ?, ?, ?, ?)",
        [(game_id, i, p.name, p.castles, p.seat) for i, p in enumerate(setup.players)],
    )
    return game_id


def _event_json(event: Event | TableEvent | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(event, Event | TableEvent):
        return event.to_json()
    if "kind" not in event:
        raise ValueError(f"an event needs a 'kind': {dict(event)!r}")
    return dict(event)


def _next_seq(conn: sqlite3.Connection, game_id: int) -> int:
    return _last_seq(conn, game_id) + 1


def _last_seq(conn: sqlite3.Connection, game_id: int) -> int:
    row = conn.execute("SELECT max(seq) FROM steps WHERE game_id = ?", (game_id,)).fetchone()
    return int(row[0] or 0)


def _insert_events(
    conn: sqlite3.Connection,
    game_id: int,
    seq: int | None,
    t: float,
    facts: Sequence[Mapping[str, Any]],
) -> None:
    conn.executemany(
        "INSERT INTO events (game_id, seq, t, kind, data) VALUES (?, ?, ?, ?, ?)",
        [(game_id, seq, t, f["kind"], json.dumps(f, ensure_ascii=False)) for f in facts],
    )


def _store_result(
    conn: sqlite3.Connection,
    game_id: int,
    game: Game,
    data: Mapping[str, Any],
    ended: str | None,
    meta: Mapping[str, Any],
) -> None:
    """Close a game with its final record ``data`` (kept as given: an imported file
    exports as it came)."""
    conn.execute(
        "UPDATE games SET status = ?, ended = ?, winner = ?, reason = ?, rounds = ?, "
        "turn = ?, result = ?, record = ?, digest = ?, meta = ? WHERE id = ?",
        (
            "finished" if game.is_over else "unfinished",
            ended,
            game.winner,
            game.reason,
            game.progress.round,
            game.progress.turn,
            json.dumps(final_state(game), ensure_ascii=False),
            json.dumps(data, ensure_ascii=False),
            schema.record_digest(data),
            json.dumps(dict(meta), ensure_ascii=False),
            game_id,
        ),
    )
    for p in game.players:
        conn.execute(
            "UPDATE seats SET territories = ?, score = ?, won = ? WHERE game_id = ? AND name = ?",
            (
                game.castles(p.castles),
                game.score(p.castles),
                schema.won(game.winner, p.name, p.castles),
                game_id,
                p.name,
            ),
        )
