"""Buttons, LEDs and buzzer on gpiozero's mock pins: what a player presses and sees."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import GpioConfig
from firmware.controls import Controls, NoControls, open_controls
from firmware.hub import CommandError
from firmware.view import illegal_view
from referee.events import CastleBuilt, GameOver
from referee.table.events import Illegal, Stamped

PINS = GpioConfig(hold_seconds=0.3, beep_seconds=0.02)


class FakeHub:
    """Records presses; can refuse like the real hub (nothing to undo)."""

    def __init__(self) -> None:
        self.presses: list[tuple[str, bool]] = []
        self.refuse = False

    def press(self, button: str, long: bool = False) -> dict[str, Any]:
        self.presses.append((button, long))
        if self.refuse:
            raise CommandError("Nothing to undo.")
        return {"button": button, "long": long}


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def rig(factory: MockFactory) -> Iterator[tuple[Controls, FakeHub, list[str]]]:
    hub = FakeHub()
    said: list[str] = []
    controls = Controls(hub, pin_factory=factory, pins=PINS, say=said.append)
    yield controls, hub, said
    controls.close()


def wait_for(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def states(factory: MockFactory, pin: int) -> list[bool]:
    return [bool(s.state) for s in factory.pin(pin).states]


def test_a_short_press_of_each_button(rig: Any, factory: MockFactory) -> None:
    _, hub, _ = rig
    for pin in (PINS.majorities, PINS.confirm, PINS.majorities):
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    assert hub.presses == [("majorities", False), ("confirm", False), ("majorities", False)]


def test_a_long_press_fires_once_while_held_and_not_again_on_release(
    rig: Any, factory: MockFactory
) -> None:
    _, hub, _ = rig
    pin = factory.pin(PINS.confirm)
    pin.drive_low()
    wait_for(lambda: hub.presses != [])
    assert hub.presses == [("confirm", True)]  # undo, felt while the finger is down
    time.sleep(0.4)  # held on past the hold time: still one long press
    pin.drive_high()
    assert hub.presses == [("confirm", True)]
    factory.pin(PINS.majorities).drive_low()
    wait_for(lambda: len(hub.presses) == 2)
    factory.pin(PINS.majorities).drive_high()
    pin.drive_low()
    pin.drive_high()
    assert hub.presses == [("confirm", True), ("majorities", True), ("confirm", False)]


def test_a_refused_press_is_said_and_the_button_keeps_working(
    rig: Any, factory: MockFactory
) -> None:
    controls, hub, said = rig
    hub.refuse = True
    pin = factory.pin(PINS.confirm)
    pin.drive_low()
    wait_for(lambda: said != [])
    pin.drive_high()
    assert said == ["confirm button: Nothing to undo."]
    assert controls.last_reply == {"error": "Nothing to undo."}
    hub.refuse = False
    pin.drive_low()
    pin.drive_high()
    assert hub.presses[-1] == ("confirm", False) and controls.last_reply == {
        "button": "confirm",
        "long": False,
    }


def view(illegal: dict[str, Any] | None) -> dict[str, Any]:
    return {"table": {"legal": illegal is None, "illegal": illegal, "pending": []}}


ILLEGAL = Illegal(t=None, message="...", code="cube-count", player="Anna", round=2, turn=1)


def test_leds_follow_the_table(rig: Any, factory: MockFactory) -> None:
    controls, _, _ = rig
    controls.update(view(None))
    controls.update(view(None))
    assert factory.pin(PINS.led_green).state and not factory.pin(PINS.led_red).state
    controls.update(view({"code": "cube-count", "message": "...", "player": "Anna"}))
    assert not factory.pin(PINS.led_green).state and factory.pin(PINS.led_red).state
    controls.update(view(None))
    assert states(factory, PINS.led_green) == [False, True, False, True]
    assert states(factory, PINS.led_red) == [False, True, False]


def test_buzzer_beeps_once_for_illegal_twice_for_game_over(
    rig: Any, factory: MockFactory
) -> None:
    controls, _, _ = rig
    controls.on_event(Stamped(engine=CastleBuilt(2, 1, (7,), "black"), t=None))
    controls.on_event(ILLEGAL)
    wait_for(lambda: len(states(factory, PINS.buzzer)) == 3)
    factory.pin(PINS.buzzer).assert_states([False, True, False])
    factory.pin(PINS.buzzer).clear_states()
    controls.on_event(Stamped(engine=GameOver(9, 1, "white", "castles"), t=None))
    wait_for(lambda: len(states(factory, PINS.buzzer)) == 5)
    assert states(factory, PINS.buzzer) == [False, True, False, True, False]
    time.sleep(0.1)
    assert len(states(factory, PINS.buzzer)) == 5


def test_pins_come_from_the_config(factory: MockFactory) -> None:
    pins = GpioConfig(majorities=5, confirm=6, led_green=13, led_red=19, buzzer=26)
    hub = FakeHub()
    controls = Controls(hub, pin_factory=factory, pins=pins)
    try:
        factory.pin(6).drive_low()
        factory.pin(6).drive_high()
        controls.update(view(None))
        assert hub.presses == [("confirm", False)] and factory.pin(13).state
    finally:
        controls.close()


def test_without_gpio_the_appliance_runs_without_and_says_so_once(factory: MockFactory) -> None:
    said: list[str] = []
    hub = FakeHub()
    busy = Controls(hub, pin_factory=factory, pins=PINS)
    try:  # the pins are taken: opening them again fails
        controls = open_controls(hub, PINS, said.append, pin_factory=factory)
    finally:
        busy.close()
    assert isinstance(controls, NoControls) and len(said) == 1
    assert said[0].startswith("gpio: buttons, LEDs and buzzer unavailable")
    controls.update(view(None))
    controls.on_event(ILLEGAL)
    assert isinstance(open_controls(hub, GpioConfig(enabled=False), said.append), NoControls)
    assert len(said) == 1


def test_the_appliance_output_protocol_update_with_events(rig: Any, factory: MockFactory) -> None:
    controls, _, _ = rig
    controls.update(view(illegal_view(ILLEGAL)), [ILLEGAL])
    assert factory.pin(PINS.led_red).state and not factory.pin(PINS.led_green).state
    wait_for(lambda: len(states(factory, PINS.buzzer)) == 3)
    NoControls().update(view(None), [ILLEGAL])  # without GPIO: nothing, and no error
