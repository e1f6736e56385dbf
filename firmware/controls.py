"""The appliance's buttons, LEDs and buzzer (gpiozero).

- **Majorities** button: a press steps through the territories and regions (the rules'
  "check majorities on demand"); a long press goes back to the live view.
- **Confirm/Undo** button: a press confirms the pending physical action (castle,
  cylinder); a long press undoes the last accepted step.
- **LEDs**: green while the table is legal, red while an illegal act is pending, green
  blinking while the referee asks a question about a doubtful reading (no red, no beep:
  a doubt is no alarm). While a question stands, a short press of **Confirm** answers
  yes (the camera is right) and a short press of **Majorities** answers no (it is
  wrong); the long presses keep their meaning (undo stays one long press away).
- **Buzzer**: one beep on an illegal act, two when the game is over.

A button only calls `Hub.press(button, long)` — what a press means lives in the hub, so
the web page's buttons and the real ones behave the same. A long press fires as soon as
the button has been held ``hold_seconds`` (the player feels it happen), and its release
then does nothing more. Pins come from a gpiozero pin factory that is injected (tests use
``MockFactory``); nothing touches GPIO at import time.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from firmware.config import GpioConfig
from firmware.hub import CommandError
from firmware.view import View
from referee.announcements import clause, said
from referee.events import GameOver
from referee.table.events import Illegal, Stamped, TableEvent

#: The two buttons, by the name `Hub.press` knows them.
BUTTONS = ("majorities", "confirm")


class Presses(Protocol):
    """The part of `firmware.hub.Hub` the buttons need."""

    def press(self, button: str, long: bool = False) -> object: ...


class Controls:
    """Buttons calling the hub; LEDs and buzzer following the view and the events."""

    def __init__(
        self,
        hub: Presses,
        *,
        pin_factory: Any = None,
        pins: GpioConfig | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        from gpiozero import LED, Button, Buzzer  # type: ignore[import-untyped]

        pins = pins or GpioConfig()
        self._hub = hub
        self._say = say
        self._beep = pins.beep_seconds
        self._held: dict[str, bool] = {}
        self._lock = threading.Lock()
        self.last_reply: object = None
        self.buttons: dict[str, Any] = {}
        opened: list[Any] = []
        try:
            for name in BUTTONS:
                button = Button(
                    getattr(pins, name),
                    pull_up=True,
                    hold_time=pins.hold_seconds,
                    pin_factory=pin_factory,
                )
                opened.append(button)
                button.when_pressed = self._on_pressed(name)
                button.when_held = self._on_held(name)
                button.when_released = self._on_released(name)
                self.buttons[name] = button
            self.green = LED(pins.led_green, pin_factory=pin_factory)
            opened.append(self.green)
            self.red = LED(pins.led_red, pin_factory=pin_factory)
            opened.append(self.red)
            self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
            opened.append(self.buzzer)
        except BaseException:
            for device in opened:
                device.close()
            raise
        self._legal: str | None = None

    # -- buttons

    def _on_pressed(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            self._held[name] = False

        return pressed

    def _on_held(self, name: str) -> Callable[[], None]:
        def held() -> None:
            self._held[name] = True
            self._press(name, long=True)

        return held

    def _on_released(self, name: str) -> Callable[[], None]:
        def released() -> None:
            if not self._held.pop(name, False):
                self._press(name, long=False)

        return released

    def _press(self, name: str, long: bool) -> None:
        """Call the hub; a refusal (nothing to undo …) is said, never lost in a thread."""
        with self._lock:
            try:
                self.last_reply = self._hub.press(name, long=long)
            except CommandError as exc:
                self.last_reply = {"error": str(exc)}
                self._say(_refused(name, exc.message))
            except Exception as exc:  # a button thread must survive anything the hub does
                self.last_reply = {"error": str(exc)}
                self._say(_failed(name, repr(exc)))

    # -- outputs

    def update(self, view: View, events: Sequence[TableEvent] = ()) -> None:
        """Green while the table is legal, red while an illegal act is pending, green
        blinking while a question stands; beeps for the ``events`` that led to ``view``
        (the appliance's output protocol)."""
        for event in events:
            self.on_event(event)
        table = view["table"]
        if not table["legal"]:
            state = "illegal"
        elif table.get("question"):
            state = "question"
        else:
            state = "legal"
        if state == self._legal:
            return
        self._legal = state
        (self.red.on if state == "illegal" else self.red.off)()
        if state == "legal":
            self.green.on()
        elif state == "question":
            self.green.blink(on_time=0.5, off_time=0.5, background=True)
        else:
            self.green.off()

    def on_event(self, event: TableEvent) -> None:
        """One beep for an illegal act, two for the end of the game (in the background)."""
        match event:
            case Illegal():
                beeps = 1
            case Stamped(engine=GameOver()):
                beeps = 2
            case _:
                beeps = 0
        if beeps:
            self.buzzer.beep(on_time=self._beep, off_time=self._beep, n=beeps, background=True)

    def close(self) -> None:
        for device in (*self.buttons.values(), self.green, self.red, self.buzzer):
            device.close()


class NoControls:
    """Stands in for `Controls` when there is no GPIO: the appliance runs without."""

    def update(self, view: View, events: Sequence[TableEvent] = ()) -> None:
        pass

    def on_event(self, event: TableEvent) -> None:
        pass

    def close(self) -> None:
        pass


def open_controls(
    hub: Presses,
    pins: GpioConfig,
    say: Callable[[str], None] = print,
    pin_factory: Any = None,
) -> Controls | NoControls:
    """`Controls` on the configured pins, or `NoControls` when GPIO is switched off or
    missing (a PC, no permission, pins in use) — said once, in one line."""
    if not pins.enabled:
        return NoControls()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns for every factory it tries
            return Controls(hub, pin_factory=pin_factory, pins=pins, say=say)
    except Exception as exc:  # BadPinFactory, GPIOPinInUse, PermissionError …
        say(
            said(  # in the table's language where ``say`` is `firmware.run.telling`'s
                "gpio: buttons, LEDs and buzzer unavailable (%(reason)s); running without them",
                reason=str(exc),
            )
        )
        return NoControls()


# The operator's lines about a press, `said` messages (``say`` is `firmware.run.telling`'s
# in the appliance: the table's language); the English is word for word what it was.


def _refused(button: str, why: str) -> str:
    """Why the hub refused a press (its `CommandError`'s words, kept as a clause)."""
    if button == "confirm":
        return said("confirm button: %(clause)s", clause=clause(why))
    if button == "majorities":
        return said("majorities button: %(clause)s", clause=clause(why))
    return f"{button} button: {why}"


def _failed(button: str, reason: str) -> str:
    """A press that failed for a reason nobody worded (the error's own ``repr``)."""
    if button == "confirm":
        return said("confirm button failed: %(reason)s", reason=reason)
    if button == "majorities":
        return said("majorities button failed: %(reason)s", reason=reason)
    return f"{button} button failed: {reason}"
