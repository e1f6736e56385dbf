"""The hub: the one object the outside world talks to while a game is refereed.

The appliance's main loop owns the frame source, vision, the table referee and the game
log; the web page, the buttons and the display reach the game only through this
interface — commands go in (correct, undo, confirm, buttons), the view model and the
event bus come out. Keeping it a small `Protocol` lets each side be built and tested
on its own.

`Hub` is what every hub offers. What only some hubs offer (a camera, starting games
from the page, the advisor, questions to the players) is a capability of its own, a
small protocol a hub satisfies by having its methods — as gpiozero's devices are
composed of mixins. They are ``runtime_checkable`` so that a user asks
``isinstance(hub, CameraHub)`` and, on yes, calls the camera with its types known;
there is no looking up of methods by name, and a new capability is one class here::

    >>> class Bare:
    ...     def answer(self, answer: str) -> dict[str, bool]:
    ...         return {"yes": answer == "yes"}
    >>> isinstance(Bare(), QuestionHub), isinstance(Bare(), CameraHub)
    (True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from firmware.bus import EventBus
from firmware.view import MajorityView, View
from referee.announcements import N_, clause, said
from referee.errors import RefusedError

#: A command's answer: JSON the HTTP API sends back as it is (the appliance says the
#: events the command caused, ``{"events": [...]}``; a report for a person has ``ok``
#: and ``message``).
Reply = Mapping[str, Any]


class CommandError(ValueError):
    """A command the hub refuses; ``message`` says why in words for a person: a
    `referee.announcements.Said` where the referee worded it, so the page says it again
    in its reader's language (`referee.announcements.translated`); ``str()`` is the
    English."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @classmethod
    def refused(cls, exc: Exception, why: str | None = None) -> CommandError:
        """The referee's refusal (`referee.errors.RefusedError`, or any error's words) as
        a command's, its words kept; ``why``: a msgid that says it as its ``clause``."""
        reason = exc.message if isinstance(exc, RefusedError) else str(exc)
        return cls(reason if why is None else said(why, clause=clause(reason)))


#: Why new players are refused: the referee's reason as the ``clause``.
CANNOT_SEAT = N_("cannot seat these players: %(clause)s")


class Hub(Protocol):
    """What a running appliance offers to the web page and the buttons."""

    bus: EventBus
    """Every announcement, in order (see `firmware.bus`); each has ``kind`` and ``t``."""

    def state(self) -> View:
        """The view model (`firmware.view`) of the live game."""
        ...

    def majority(self, territory: int) -> MajorityView:
        """`firmware.view.majority_view` of the unit holding ``territory``."""
        ...

    def majorities(self) -> list[MajorityView]:
        """Every unit's majority, most contested first."""
        ...

    def correct(self, zone: str, counts: dict[str, int]) -> Reply:
        """Override what the camera believes about one zone — ``"territory:7"``,
        ``"court:south"``, ``"reserve:north"`` — with cube counts per colour.
        Raises `CommandError` for an unknown zone or bad counts."""
        ...

    def undo(self) -> Reply:
        """Roll back the last accepted step. Raises `CommandError` when there is none."""
        ...

    def confirm(self) -> Reply:
        """Declare the pending physical action (castle, cylinder) done."""
        ...

    def press(self, button: str, long: bool = False) -> Reply:
        """The same as pressing a hardware button: ``majorities`` or ``confirm``
        (long press: back to live view / undo)."""
        ...

    def display_png(self) -> bytes:
        """What the OLED shows now, as a PNG (scaled up for a browser). Raises
        `CommandError` on an appliance without a display renderer."""
        ...


# ---------------------------------------------------------------- optional capabilities


@runtime_checkable
class CameraHub(Protocol):
    """A hub with a camera (the page shows "no camera" otherwise)."""

    def camera_jpeg(self) -> bytes | None:
        """The latest camera frame as JPEG (``None`` while there is none)."""
        ...

    def calibrate(self) -> Reply:
        """Run the calibration flow on the current frame; a report for a person
        (``{"ok": bool, "message": str, ...}``)."""
        ...


@runtime_checkable
class OverlayHub(Protocol):
    """A hub that knows where the mat's zones are in the camera image."""

    def camera_overlay(self) -> Reply:
        """``{"size": [w, h], "zones": [{"zone": "territory:7", "polygon_px": [[x, y], ...],
        "counts": {colour: n}}]}`` for the latest frame: drawn over the camera view."""
        ...


@runtime_checkable
class GamesHub(Protocol):
    """A hub that can start and end games (players and seats chosen on the page)."""

    def new_game(self, players: list[dict[str, str]]) -> Reply:
        """Start a game for ``[{"name", "castles", "seat"}]`` (2-4, validated by the page);
        raises `CommandError` if the table cannot start one now."""
        ...

    def end_game(self) -> Reply:
        """Stop the running game (it stays in the game log as unfinished or finished)."""
        ...


@runtime_checkable
class AdvisorHub(Protocol):
    """A hub with the advisor (training mode, per game): it answers when asked, never
    unasked, and only while training mode is on."""

    def set_training(self, on: bool) -> Reply:
        """Turn training mode on or off for this game: ``{"training": bool}``."""
        ...

    def advice(self) -> Reply:
        """`referee.advisor.Advice.to_json()` for the position now; raises
        `CommandError` when training mode is off or there is no game."""
        ...


@runtime_checkable
class QuestionHub(Protocol):
    """A hub whose referee may doubt the camera and ask the players (the view's
    ``table.question``: "1 yellow on territory 7?")."""

    def answer(self, answer: str) -> Reply:
        """``"yes"``: the camera is right; ``"no"``: it is wrong there. Raises
        `CommandError` when no question stands."""
        ...


#: Every optional capability, for a hub to be checked against all of them.
CAPABILITIES = (CameraHub, OverlayHub, GamesHub, AdvisorHub, QuestionHub)
