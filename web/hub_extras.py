"""What the web page may use beyond `firmware.hub.Hub`, if the hub offers it.

The appliance's hub grows over time (a camera, a way to start games), and the page must
work with every hub: each extra is looked up with `extra`, called only when present, and
the page says "no camera" (or "this appliance cannot start games") otherwise, or
hides the control (the advisor panel).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class CameraHub(Protocol):
    """A hub with a camera."""

    def camera_jpeg(self) -> bytes | None:
        """The latest camera frame as JPEG (``None`` while there is none)."""
        ...

    def calibrate(self) -> dict[str, Any]:
        """Run the calibration flow on the current frame; a report for a person
        (``{"ok": bool, "message": str, ...}``)."""
        ...


class OverlayHub(Protocol):
    """A hub that knows where the mat's zones are in the camera image."""

    def camera_overlay(self) -> dict[str, Any]:
        """``{"size": [w, h], "zones": [{"zone": "territory:7", "polygon_px": [[x, y], ...],
        "counts": {colour: n}}]}`` for the latest frame: drawn over the camera view."""
        ...


class GamesHub(Protocol):
    """A hub that can start and end games (players and seats chosen on the page)."""

    def new_game(self, players: list[dict[str, str]]) -> dict[str, Any]:
        """Start a game for ``[{"name", "castles", "seat"}]`` (2-4, validated by the page);
        raises `firmware.hub.CommandError` if the table cannot start one now."""
        ...

    def end_game(self) -> dict[str, Any]:
        """Stop the running game (it stays in the game log as unfinished or finished)."""
        ...


class AdvisorHub(Protocol):
    """A hub with the advisor (training mode, per game): it answers when asked, never
    unasked, and only while training mode is on."""

    def set_training(self, on: bool) -> dict[str, Any]:
        """Turn training mode on or off for this game: ``{"training": bool}``."""
        ...

    def advice(self) -> dict[str, Any]:
        """`referee.advisor.Advice.to_json()` for the position now; raises
        `firmware.hub.CommandError` when training mode is off or there is no game."""
        ...


class QuestionHub(Protocol):
    """A hub whose referee may doubt the camera and ask the players (the view's
    ``table.question``: "1 yellow on territory 7?")."""

    def answer(self, answer: str) -> dict[str, Any]:
        """``"yes"``: the camera is right; ``"no"``: it is wrong there. Raises
        `firmware.hub.CommandError` when no question stands."""
        ...


EXTRAS = (
    "camera_jpeg",
    "calibrate",
    "camera_overlay",
    "new_game",
    "end_game",
    "set_training",
    "advice",
    "answer",
)


def extra(hub: object, name: str) -> Callable[..., Any] | None:
    """The hub's method ``name`` if it has one, else ``None``."""
    method = getattr(hub, name, None)
    return method if callable(method) else None


def offered(hub: object) -> dict[str, bool]:
    """Which extras this hub offers, for the page to show or hide its controls."""
    return {name: extra(hub, name) is not None for name in EXTRAS}
