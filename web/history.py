"""Past and running games from the game log: lists, records, replays and charts.

The log (`firmware.gamelog.store.GameLog`) keeps decisions, not positions, so a replay
step and the charts are the stored moves folded over the set-up by the referee again.
The page reads through its own read-only connection to the log's file (the appliance
writes through its connection meanwhile; WAL lets both go on); the page's threads share
that one connection, hence the lock.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.support import Translations

from firmware.view import game_view
from referee.announcements import clause, render, said
from referee.game import Game, Phase
from referee.pieces import COLOURS
from web.errors import ApiError

if TYPE_CHECKING:  # the log's module is imported when the page first reads it
    from firmware.gamelog.store import GameLog
    from referee.events import Event
    from referee.moves import Move
    from referee.setup import Setup


def _unreadable(exc: Exception) -> str:
    """Why the log cannot be read, for the page: the log's own reason is a `said`
    message (its first argument), said again in the reader's language; SQLite's words go
    in as they are. The English is what it was."""
    first = exc.args[0] if exc.args else None
    reason = first if isinstance(first, str) else str(exc)
    return said("cannot read the game log: %(clause)s", clause=clause(reason))


class History:
    """Read-only questions to the game log (a `GameLog` or the path of its file)."""

    def __init__(self, log: GameLog | str | Path) -> None:
        self._source = log
        self._log: GameLog | None = None
        """The connection questions go through, once the first question opened it."""
        self._own = False
        """Whether that connection is the page's own (closed here) or the appliance's."""
        self._lock = threading.Lock()

    def _opened(self) -> GameLog:
        """The page's own read-only connection to the log's file or, when that cannot be
        opened, the appliance's connection it was given."""
        if self._log is not None:
            return self._log
        from firmware.gamelog.store import GameLog, GameLogError

        source = self._source
        try:
            self._log = GameLog(
                source.path if isinstance(source, GameLog) else source, readonly=True
            )
            self._own = True
        except GameLogError as exc:
            if not isinstance(source, GameLog):
                raise ApiError(503, _unreadable(exc)) from None
            self._log = source  # the appliance's own connection, then
        return self._log

    def close(self) -> None:
        if self._own and self._log is not None:
            self._log.close()

    @contextmanager
    def _reading(self) -> Iterator[GameLog]:
        """The log, for one question under the lock. A log that cannot be read (deleted
        and made anew under us, a missing table, a failing card) is a 503 that says so,
        for the page to show, never a 500 or an empty list that looks like no games; the
        next question opens the log afresh."""
        from firmware.gamelog.store import GameLogError, UnknownGameError

        with self._lock:
            try:
                yield self._opened()
            except UnknownGameError:
                raise
            except (GameLogError, sqlite3.Error) as exc:
                self._forget()
                raise ApiError(503, _unreadable(exc)) from None

    def _forget(self) -> None:
        if self._own and self._log is not None:
            with suppress(Exception):  # a broken connection may fail to close too
                self._log.close()
        self._log, self._own = None, False

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first."""
        with self._reading() as log:
            rows = log.games()
        return [
            {
                "id": row.id,
                "status": row.status,
                "source": row.source,
                "started": row.started,
                "ended": row.ended,
                "winner": row.winner,
                "reason": row.reason,
                # one round and turn for every view (`referee.game.Progress`); "rounds"
                # is the same round under the name the page has always read
                "rounds": row.progress.round,
                "round": row.progress.round,
                "turn": row.progress.turn,
                "players": [
                    {
                        "name": s.name,
                        "castles": s.castles,
                        "seat": s.seat,
                        "territories": s.territories,
                    }
                    for s in row.seats
                ],
            }
            for row in reversed(rows)
        ]

    def _moves(self, game_id: int) -> tuple[Setup, list[Move]]:
        from firmware.gamelog.store import UnknownGameError

        with self._reading() as log:
            try:
                return log.setup(game_id), log.moves(game_id)
            except UnknownGameError:
                raise ApiError(
                    404, said("no game %(game)s in the game log", game=game_id)
                ) from None

    def record(self, game_id: int) -> dict[str, Any]:
        """The game's ``carolus-record/1``."""
        from firmware.gamelog.store import UnknownGameError

        with self._reading() as log:
            try:
                record = log.record(game_id)
            except UnknownGameError:
                raise ApiError(
                    404, said("no game %(game)s in the game log", game=game_id)
                ) from None
        data: dict[str, Any] = record.to_json()
        return data

    def step(self, game_id: int, step: int, tr: Translations) -> dict[str, Any]:
        """The table after the first ``step`` moves, and what the last one caused."""
        setup, moves = self._moves(game_id)
        if not 0 <= step <= len(moves):
            raise ApiError(
                400,
                said(
                    "%(field)s must be from 0 to %(count)s, not %(given)s",
                    field="step",
                    count=len(moves),
                    given=step,
                ),
            )
        game = Game(setup)
        events: list[Event] = []
        for move in moves[:step]:
            events = game.push(move)
        texts = [render(e, tr) for e in events]
        return {
            "game": game_id,
            "step": step,
            "steps": len(moves),
            "state": game_view(game),
            "events": [t for t in texts if t],
        }

    def charts(self, game_id: int) -> dict[str, Any]:
        """Castles per side and who held each colour, at the end of every round."""
        setup, moves = self._moves(game_id)
        game = Game(setup)
        rounds: list[int] = []
        castles: dict[str, list[int]] = {side: [] for side in game.sides}
        control: dict[str, list[str | None]] = {c: [] for c in COLOURS}

        def sample(number: int) -> None:
            rounds.append(number)
            for side in game.sides:
                castles[side].append(game.castles(side))
            for c in COLOURS:
                control[c].append(game.controller(c))

        for move in moves:
            before = game.round
            game.push(move)
            if game.round != before or game.is_over:
                sample(before)
        running = game.phase is not Phase.OVER and game.last_turn_round == game.round
        if running and (not rounds or rounds[-1] != game.round):
            sample(game.round)  # the running round, so far
        return {
            "game": game_id,
            "rounds": rounds,
            "sides": {side: list(game.players_of(side)) for side in game.sides},
            "castles": castles,
            "control": control,
        }
