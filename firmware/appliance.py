"""The appliance: one refereed table, its game log and its outputs, behind the `Hub`.

Snapshots come in (from the camera loop); the table referee explains them; what it
accepts is written to the game log *first*, then announced — on the event bus (web page,
SSE), and to every output (display, LEDs and buzzer, voice). Commands from the web page
and the buttons (correct, undo, confirm) go through the same door, under one lock, so
the camera thread and the web threads never see a half-changed game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from firmware.bare import BareStep
from firmware.bus import EventBus
from firmware.events import (
    BareRefused,
    ButtonPressed,
    CameraStatus,
    GameEnded,
    LogNotWritten,
    NewGame,
    Resumed,
    Training,
)
from firmware.hub import CANNOT_SEAT, CommandError, Reply
from firmware.view import (
    NEW_GAME,
    MajorityView,
    View,
    game_view,
    illegal_view,
    majorities_view,
    majority_view,
    question_view,
    setup_view,
)
from referee.announcements import Said, clause, said
from referee.events import GameOver, Refilled
from referee.game import Game
from referee.moves import Move
from referee.pieces import COLOURS
from referee.setup import Player, Setup
from referee.table.events import Stamped, TableEvent
from referee.table.referee import TableReferee
from referee.table.snapshot import SnapshotError, parse_snapshot

if TYPE_CHECKING:  # the camera's picture needs OpenCV, which a snapshot stream does not
    from firmware.camera import CameraView

log = logging.getLogger("carolus")

#: What the display and the page say of the camera when the loop gives no words of its
#: own (`set_camera`), by its status.
CAMERA: dict[str, Said] = {
    "ok": said("Camera ok."),
    "lost": said("Camera lost."),
    "demo": said("Camera demo."),
}


class Output(Protocol):
    """Anything that shows the game: the display, the LEDs and buzzer, the voice."""

    def update(self, view: View, events: Sequence[TableEvent]) -> None: ...


class GameLogLike(Protocol):
    """What the appliance asks of the game log (`firmware.gamelog.store.GameLog`): what
    it writes while a game is played, and nothing it reads."""

    def start_game(
        self,
        setup: Setup,
        seats: Mapping[str, str] | None = ...,
        meta: Mapping[str, Any] | None = ...,
        t: float | None = ...,
        source: str = ...,
    ) -> int: ...

    def step(
        self, game_id: int, move: Move, events: Sequence[TableEvent] = ..., t: float | None = ...
    ) -> int: ...

    def event(self, game_id: int, event: TableEvent, t: float | None = ...) -> None: ...

    def undo(self, game_id: int, t: float | None = ...) -> Move | None: ...

    def finish(self, game_id: int) -> object: ...

    def turn_image(
        self, game_id: int, round: int, turn: int, jpeg: bytes, t: float | None = ...
    ) -> bool: ...

    def set_bare_table(self, game_id: int, png: bytes, t: float | None = ...) -> None: ...


@runtime_checkable
class Closable(Protocol):
    """An output holding a device or a thread, let go when the appliance stops."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class Outputs:
    """The outputs of one appliance, opened for it: they ask the appliance back (the
    display for majorities and advice, the buttons to press), so the appliance opens
    them itself, through the function it is given, once it can answer."""

    shows: Sequence[Output] = ()
    display_png: Callable[[], bytes] | None = None
    """What the display shows now, as a PNG (the page's mirror of the panel)."""


class Appliance:
    """The live table. Thread-safe; implements `firmware.hub.Hub`.

    ``outputs``: the outputs themselves, or the function that opens them for this
    appliance (`Outputs`); ``camera_view``: the camera's picture for the page;
    ``eyes``: the vision, whose bare table the set-up step learns (``ask_bare``)."""

    def __init__(
        self,
        players: Sequence[Player],
        *,
        bus: EventBus | None = None,
        gamelog: GameLogLike | None = None,
        outputs: Sequence[Output] | Callable[[Appliance], Outputs] = (),
        camera: str = "none",
        meta: Mapping[str, Any] | None = None,
        camera_view: CameraView | None = None,
        eyes: Any = None,
        ask_bare: bool = True,
    ) -> None:
        self.players = tuple(players)
        self.camera_view = camera_view
        # with a reader that learns the bare table, a game starts with that step
        self.bare = BareStep(eyes, ask=ask_bare)
        self.training = False  # the advisor answers only in training mode, per game
        self.referee = TableReferee(self.players)
        self.bus = bus or EventBus()
        self.gamelog = gamelog
        self.camera = camera
        self.message = ""
        self.meta = dict(meta or {})
        self.game_id: int | None = None
        self._lock = threading.RLock()
        self.frames = 0
        self.last_change: float | None = None
        opened = outputs(self) if callable(outputs) else Outputs(tuple(outputs))
        self.outputs = list(opened.shows)
        self._display_png = opened.display_png

    def close(self) -> None:
        """Let the outputs go (the display's thread, the buttons' pins, the voice)."""
        for output in self.outputs:
            if isinstance(output, Closable):
                output.close()

    # ------------------------------------------------------------- resuming

    def resume(
        self, game: Game, game_id: int, t: float | None = None, bare_table: bytes | None = None
    ) -> None:
        """Carry on a game rebuilt from the log (after a crash or a power cut), read
        against the bare table stored with it: the pieces are on the table now, so the
        set-up step cannot come again."""
        with self._lock:
            self.referee.resume(game)
            self.game_id = game_id
            trouble = self.bare.use(bare_table)
            self.message = (
                said(
                    "Resumed game %(game)s where it stopped (round %(round)s). But %(clause)s.",
                    game=game_id,
                    round=game.round,
                    clause=clause(trouble),
                )
                if trouble
                else said(
                    "Resumed game %(game)s where it stopped (round %(round)s).",
                    game=game_id,
                    round=game.round,
                )
            )
            self._announce([Resumed(t=t, message=self.message, game=game_id)])

    # ------------------------------------------------------------ the camera

    def feed(self, snapshot: object) -> list[TableEvent]:
        """One frame's snapshot in (a `vision.snapshot.Snapshot` or its JSON: whatever
        `parse_snapshot` reads, and checks, every frame alike); the events it caused out
        (already logged/announced)."""
        try:
            snapshot = parse_snapshot(snapshot)
        except SnapshotError as exc:
            log.warning("ignoring a bad snapshot: %s", exc)
            return []
        with self._lock:
            self.frames += 1
            if self.bare.waiting:  # the table is being laid bare: nothing to referee yet
                return []
            events = self.referee.feed(snapshot)
            if events:
                self.last_change = time.monotonic()
                self._announce(events)
            return events

    def set_camera(self, status: str, message: str = "") -> None:
        """``ok``, ``lost``, ``demo`` …: shown on the display and the page."""
        with self._lock:
            # a camera to learn the bare table with: now ask for it (once)
            ask = self._ask_bare(self.referee.t) if status in ("ok", "demo") else []
            if status == self.camera and message == self.message:
                if ask:
                    self._announce(ask)
                return
            self.camera, self.message = status, message
            text = message or CAMERA.get(status) or f"Camera {status}."
            self._announce([CameraStatus(t=self.referee.t, message=text, status=status), *ask])

    def _ask_bare(self, t: float | None) -> list[TableEvent]:
        """The set-up step's request to lay the table bare, if it is to be asked now."""
        return list(self.bare.ask_event(t))

    # -------------------------------------------------------- announcements

    def _announce(self, events: Sequence[TableEvent]) -> None:
        """Log first, then tell everyone."""
        self._write_log(events)
        for event in events:
            self.bus.publish(event)
            log.info("%s: %s", event.kind, event.message or "")
        view = self._view()
        for output in self.outputs:
            try:
                output.update(view, events)
            except Exception:  # an output must never stop the referee
                log.exception("output %s failed", type(output).__name__)

    def _announced(self, events: Sequence[TableEvent]) -> Reply:
        """Announce ``events`` and say them in a command's reply (the HTTP API's JSON)."""
        self._announce(events)
        return {"events": [event.to_json() for event in events]}

    def _write_log(self, events: Sequence[TableEvent]) -> None:
        game = self.referee.game
        if self.gamelog is None or game is None:
            return
        from firmware.gamelog.store import GameLogError, LogWriteError

        t = self.referee.t
        try:
            if self.game_id is None:
                # the log dates a game by the wall clock; steps keep the camera's t
                self.game_id = self.gamelog.start_game(
                    game.setup, {p.name: p.seat or "" for p in self.players}, self.meta
                )
                self._store_bare(t)
            # what the referee says it took back and played since the last write; a
            # write the card refuses waits in the log's queue, so the rest go after it
            changes = self.referee.take_changes()
            game_id = self.game_id
            writes: list[Callable[[], object]] = [
                *(partial(self.gamelog.undo, game_id, t) for _ in changes.popped),
                *(partial(self.gamelog.step, game_id, move, (), t) for move in changes.pushed),
            ]
            refused: LogWriteError | None = None
            for write in writes:
                try:
                    write()
                except LogWriteError as exc:
                    refused = refused or exc
            if refused is not None:
                raise refused
            self._picture_turns(events, t)
            for event in events:
                self.gamelog.event(self.game_id, event, t)
            over = any(isinstance(e, Stamped) and isinstance(e.engine, GameOver) for e in events)
            if game.is_over and over:
                self.gamelog.finish(self.game_id)
        except GameLogError as exc:
            # a full or read-only card: the game goes on in memory, people are told
            log.error("game log: %s", exc)
            first = exc.args[0] if exc.args else None  # the log's `said` message
            reason = first if isinstance(first, str) else str(exc)
            self.message = said("Game log not written: %(clause)s", clause=clause(reason))
            self.bus.publish(LogNotWritten(t=t, message=self.message))

    def _store_bare(self, t: float | None) -> None:
        """The bare table this game is read against goes into the log with the game."""
        png = self.bare.png()
        if png is not None and self.gamelog is not None and self.game_id is not None:
            self.gamelog.set_bare_table(self.game_id, png, t)

    def _picture_turns(self, events: Sequence[TableEvent], t: float | None) -> None:
        """A small picture of the table at the end of each turn, for the history."""
        if self.camera_view is None or self.gamelog is None or self.game_id is None:
            return
        for event in events:
            if not isinstance(event, Stamped) or not isinstance(event.engine, Refilled | GameOver):
                continue
            jpeg = self.camera_view.jpeg(width=480, quality=60)
            if jpeg is not None:
                self.gamelog.turn_image(
                    self.game_id, event.engine.round, event.engine.turn, jpeg, t
                )

    # ------------------------------------------------------------------ Hub

    def _view(self) -> View:
        referee = self.referee
        game = referee.game
        if game is None:
            return setup_view(
                self.players,
                referee,
                camera=self.camera,
                message=self.message,
                bare=self.bare.view(),
            )
        return game_view(
            game,
            illegal=illegal_view(referee.illegal),
            pending=referee.chores(),
            camera=self.camera,
            message=self.message,
            question=question_view(referee.question),
            training=self.training,
        )

    def state(self) -> View:
        with self._lock:
            return self._view()

    def majority(self, territory: int) -> MajorityView:
        if not isinstance(territory, int) or not 1 <= territory <= 15:
            raise CommandError(
                said("territories are numbered 1 to 15, not %(given)s", given=repr(territory))
            )
        with self._lock:
            game = self.referee.game
            if game is None:
                raise CommandError(said("the game has not started yet"))
            return majority_view(game, territory)

    def majorities(self) -> list[MajorityView]:
        with self._lock:
            game = self.referee.game
            return [] if game is None else majorities_view(game)

    def correct(self, zone: str, counts: dict[str, int]) -> Reply:
        kind, _, where = zone.replace(":", " ").partition(" ")
        if kind not in ("territory", "court", "reserve") or not where:
            raise CommandError(
                said(
                    "unknown zone %(given)s: use %(syntax)s, %(syntax2)s or %(syntax3)s",
                    given=repr(zone),
                    syntax="territory:N",  # as typed: the API's words
                    syntax2="court:SEAT",
                    syntax3="reserve:SEAT",
                )
            )
        if not isinstance(counts, dict) or any(
            c not in COLOURS or not isinstance(n, int) or isinstance(n, bool) or n < 0
            for c, n in counts.items()
        ):
            raise CommandError(
                said(
                    "counts must map colours (%(colours)s) to whole numbers ≥ 0",
                    colours=list(COLOURS),
                )
            )
        with self._lock:
            try:
                events = self.referee.correct(f"{kind} {where}", counts)
            except ValueError as exc:
                raise CommandError.refused(exc) from None
            return self._announced(events)

    def undo(self) -> Reply:
        with self._lock:
            game = self.referee.game
            if game is None or not game.move_stack:
                raise CommandError(said("nothing to undo"))
            return self._announced(self.referee.undo())

    def confirm(self) -> Reply:
        if self.bare.waiting:
            return self.learn_bare()
        with self._lock:
            return self._announced(self.referee.confirm())

    def learn_bare(self) -> Reply:
        """Confirm in the set-up step: the camera's latest frame becomes the bare table.
        A refusal (no frame, a hand over the mat, no mat) is announced and raised as
        `CommandError`; the step stays until a frame serves."""
        with self._lock:
            t = self.referee.t
            try:
                learnt = self.bare.learn(self.camera, t)
            except CommandError as exc:
                self._announce(
                    [BareRefused(t=t, message=str(exc), problem=self.bare.problem)]
                )
                raise
            return self._announced([learnt])

    def answer(self, answer: str) -> Reply:
        """The players answer the referee's question: ``yes`` (the camera is right) or
        ``no`` (it is wrong: keep the game's reading of that zone)."""
        if answer not in ("yes", "no"):
            raise CommandError(said("answer yes or no, not %(given)s", given=repr(answer)))
        with self._lock:
            try:
                events = self.referee.answer(answer == "yes")
            except ValueError as exc:
                raise CommandError.refused(exc) from None
            return self._announced(events)

    def press(self, button: str, long: bool = False) -> Reply:
        if button == "confirm":  # while a question stands, a short press answers yes
            return self.undo() if long else self.confirm()
        if button == "majorities" and not long and self.referee.question is not None:
            return self.answer("no")
        if button == "majorities":
            with self._lock:
                text = said("Live view.") if long else said("Majorities.")
                return self._announced(
                    [ButtonPressed(t=self.referee.t, message=text, button=button, long=long)]
                )
        raise CommandError(
            said(
                "no button %(given)s: the buttons are %(button)s and %(button2)s",
                given=repr(button),
                button=repr("majorities"),  # as the API names them
                button2=repr("confirm"),
            )
        )

    # ------------------------------------------------------------ advisor

    def set_training(self, on: bool) -> Reply:
        """Training mode for this game: the advisor answers when asked, never unasked."""
        with self._lock:
            self.training = bool(on)
            words = "on: ask for threats and hints" if on else "off"
            text = f"Training mode {words}."
            self._announce([Training(t=self.referee.t, message=text, on=self.training)])
            return {"training": self.training}

    def advice(self) -> Reply:
        """Threats, exposure and the best play now (training mode only)."""
        from referee.advisor import advise

        with self._lock:
            if not self.training:
                raise CommandError(said("the advisor is off: turn training mode on for this game"))
            game = self.referee.game
            if game is None or game.is_over:
                raise CommandError(said("no game to advise on"))
            return advise(game.copy()).to_json()

    # ------------------------------------------------ the web page's extras

    @property
    def reading(self) -> AbstractContextManager[object]:
        """The camera loop reads a frame under it; learning the bare table swaps the
        reader under it too (`firmware.watch.KeepsFrames`)."""
        return self.bare.lock

    def next_frame(self, frame: Any) -> None:
        """The camera loop's next frame, before it is read (`firmware.watch.ShowsFrames`):
        the camera view shows it from now on, with the last snapshot read until this
        one's comes, and lets go of the frame before. Held until then, the frame before
        was a second frame (9 MB at 2304×1296) beside the read's own arrays: the peak of
        the appliance's memory (issue 15)."""
        if self.camera_view is not None:
            self.camera_view.show(frame)

    def keep_frame(self, frame: Any, snapshot: Any) -> None:
        """The camera loop shows us each frame (kept by reference for the web page and
        for learning the bare table)."""
        self.bare.keep(frame, snapshot)
        if self.camera_view is not None:
            self.camera_view.keep(frame, snapshot)

    def camera_jpeg(self) -> bytes | None:
        return None if self.camera_view is None else self.camera_view.jpeg()

    def camera_overlay(self) -> Reply:
        if self.camera_view is None:
            return {"size": [0, 0], "zones": []}
        return dict(self.camera_view.overlay())

    def calibrate(self) -> Reply:
        if self.camera_view is None:
            return {"ok": False, "message": said("This appliance has no camera.")}
        return dict(self.camera_view.calibrate())

    def new_game(self, players: list[dict[str, str]]) -> Reply:
        """Seat new players; refused while a game is being played (end it first)."""
        from referee.setup import Player

        with self._lock:
            game = self.referee.game
            if game is not None and not game.is_over:
                raise CommandError(said("a game is running: end it before starting another"))
            try:
                seated = [Player(p["name"], p["castles"], p["seat"]) for p in players]
                referee = TableReferee(seated)
            except (KeyError, TypeError, ValueError) as exc:
                raise CommandError.refused(exc, CANNOT_SEAT) from None
            self.players, self.referee = tuple(seated), referee
            self.game_id = None
            self.training = False
            self.bare.reset()
            # "Anna (white, south), Bob (black, north)": each seat in the table's words
            names = [
                clause(
                    said(
                        "%(player)s (%(side)s, %(seat)s)",
                        player=p.name,
                        side=p.castles,
                        seat=p.seat,
                    )
                )
                for p in seated
            ]
            self.message = said(NEW_GAME, items=names)
            return self._announced(
                [NewGame(message=self.message), *self._ask_bare(None)]
            )

    def end_game(self) -> Reply:
        """Stop refereeing the running game; it stays in the log as it stands."""
        with self._lock:
            if self.referee.game is None:
                raise CommandError(said("no game is running"))
            if self.gamelog is not None and self.game_id is not None:
                from firmware.gamelog.store import GameLogError

                try:
                    self.gamelog.finish(self.game_id)
                except GameLogError as exc:
                    log.error("game log: %s", exc)
            self.referee = TableReferee(self.players)
            self.game_id = None
            self.bare.reset()
            self.message = said("Game ended. Set up the table for a new one.")
            return self._announced(
                [GameEnded(message=self.message), *self._ask_bare(None)]
            )

    def display_png(self) -> bytes:
        if self._display_png is None:
            raise CommandError(said("this appliance has no display renderer"))
        return self._display_png()
