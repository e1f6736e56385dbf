"""The hub: the one object the outside world talks to while a game is refereed.

The appliance's main loop owns the frame source, vision, the table referee and the game
log; the web page, the buttons and the display reach the game only through this
interface — commands go in (correct, undo, confirm, buttons), the view model and the
event bus come out. Keeping it a small `Protocol` lets each side be built and tested
on its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from firmware.bus import EventBus


class CommandError(ValueError):
    """A command the hub refuses; the message says why in words for a person."""


class Hub(Protocol):
    """What a running appliance offers to the web page and the buttons."""

    bus: EventBus
    """Every announcement, in order (see `firmware.bus`); each has ``kind`` and ``t``."""

    def state(self) -> dict[str, Any]:
        """The view model (`firmware.view.game_view`) of the live game."""
        ...

    def majority(self, territory: int) -> dict[str, Any]:
        """`firmware.view.majority_view` of the unit holding ``territory``."""
        ...

    def majorities(self) -> list[dict[str, Any]]:
        """Every unit's majority, most contested first."""
        ...

    def correct(self, zone: str, counts: dict[str, int]) -> dict[str, Any]:
        """Override what the camera believes about one zone — ``"territory:7"``,
        ``"court:south"``, ``"reserve:north"`` — with cube counts per colour.
        Raises `CommandError` for an unknown zone or bad counts."""
        ...

    def undo(self) -> dict[str, Any]:
        """Roll back the last accepted step. Raises `CommandError` when there is none."""
        ...

    def confirm(self) -> dict[str, Any]:
        """Declare the pending physical action (castle, cylinder) done."""
        ...

    def press(self, button: str, long: bool = False) -> dict[str, Any]:
        """The same as pressing a hardware button: ``majorities`` or ``confirm``
        (long press: back to live view / undo)."""
        ...

    def display_png(self) -> bytes:
        """What the OLED shows now, as a PNG (scaled up for a browser)."""
        ...
