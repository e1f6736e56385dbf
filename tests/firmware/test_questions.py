"""The appliance never buzzes on a doubt: a real illegal act beeps, a doubtful reading is
a question (green LED blinking, no beep) that the buttons answer — Confirm yes,
Majorities no — on gpiozero's mock pins."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.appliance import Appliance
from firmware.config import GpioConfig
from firmware.controls import Controls
from firmware.display.panel import choose, render
from firmware.display.screens import question_text
from firmware.voice import Voice
from referee.pieces import COLOURS
from referee.setup import Player
from referee.table.simulate import Mat
from web.i18n import translations

PINS = GpioConfig(hold_seconds=0.3, beep_seconds=0.02)
PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]
RESERVES = {
    "south": "red red red green green blue pink",
    "north": "green yellow yellow blue blue pink pink",
}


class Table:
    """The mat as the new vision sends it: ``reader`` named, a hand flagged occluded."""

    def __init__(self, appliance: Appliance) -> None:
        self.appliance = appliance
        self.mat = Mat()
        self.frames = 0
        self.doubts: dict[str, float] = {}
        for seat in ("south", "north"):
            self.mat.discs[seat] = set(range(1, 6))
        for n, colour in enumerate(COLOURS * 3):
            self.mat.territories[n][COLOURS.index(colour)] = 1
        self.mat.emperor = 1
        for seat, colours in RESERVES.items():
            for c in colours.split():
                self.mat.reserves[seat][COLOURS.index(c)] += 1  # type: ignore[arg-type]
        self.show()

    def show(self, hand: bool = True) -> list[dict[str, Any]]:
        events = []
        for occluded in [True, True, *[False] * 5] if hand else [False] * 5:
            snapshot = {
                "format": "carolus-snapshot/1",
                "t": self.frames / 5,
                "mat": True,
                "occluded": occluded,
                "reader": "reference",
                "confidence": dict(self.doubts),
                **self.mat.to_json(),
            }
            self.frames += 1
            events += self.appliance.feed(snapshot)
        return events

    def cube(self, seat: str, colour: str, territory: int) -> list[dict[str, Any]]:
        i = COLOURS.index(colour)  # type: ignore[arg-type]
        self.mat.reserves[seat][i] -= 1
        self.mat.territories[territory - 1][i] += 1
        return self.show()


@pytest.fixture
def rig() -> Iterator[tuple[Appliance, Controls, MockFactory, Table]]:
    factory = MockFactory()
    appliance = Appliance(PLAYERS)
    controls = Controls(appliance, pin_factory=factory, pins=PINS, say=lambda _: None)
    appliance.outputs.append(controls)
    table = Table(appliance)
    table.mat.discs["south"].discard(2)
    table.show()
    table.mat.discs["north"].discard(3)
    table.show()
    game = appliance.referee.game
    assert game is not None and game.to_move == "Anna"
    yield appliance, controls, factory, table
    controls.close()


def wait_for(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def beeped(factory: MockFactory) -> bool:
    return any(s.state for s in factory.pin(PINS.buzzer).states)


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_a_fourth_cube_after_a_hand_beeps(rig: Any) -> None:
    _, _, factory, table = rig
    for t in (2, 3, 4):
        table.cube("south", "red", t)
    assert not beeped(factory)
    events = table.cube("south", "green", 5)
    assert [e.kind for e in events] == ["illegal"] and events[0].code == "cube-count"
    wait_for(lambda: beeped(factory))
    assert factory.pin(PINS.led_red).state and not factory.pin(PINS.led_green).state


def test_a_doubtful_reading_asks_quietly_and_confirm_answers_yes(rig: Any) -> None:
    appliance, controls, factory, table = rig
    table.doubts = {"territory:7": 0.3}
    table.mat.territories[6][COLOURS.index("yellow")] += 1  # a phantom on busy tile art
    events = table.show()
    assert [e.kind for e in events] == ["question"]
    question = appliance.state()["table"]["question"]
    assert question["zone"] == "territory:7" and question["counts"] == {"green": 1, "yellow": 1}
    assert question["message"] == "1 green, 1 yellow on territory 7?"
    assert appliance.state()["table"]["legal"] is True
    time.sleep(1.2)  # the green LED blinks, the buzzer keeps still
    assert not beeped(factory) and not factory.pin(PINS.led_red).state
    assert len(factory.pin(PINS.led_green).states) >= 3
    screen = choose(appliance.state())
    assert screen.name == "question"
    assert render(appliance.state(), screen).size == (128, 64)
    # the panel asks the question itself, in the table's language, not the zone's id
    assert question_text(screen.words or {}) == "1 green, 1 yellow on territory 7?"
    hungarian = question_text(screen.words or {}, translations("hu"))
    assert hungarian == "1 zöld, 1 sárga a(z) 7. tartományban?"
    press(factory, PINS.confirm)  # yes: the camera is right -> a real illegal act
    assert controls.last_reply is not None
    assert [e["kind"] for e in controls.last_reply["events"]] == ["answered", "illegal"]
    wait_for(lambda: beeped(factory))
    assert factory.pin(PINS.led_red).state
    assert appliance.state()["table"]["question"] is None


def test_majorities_answers_no_and_the_game_goes_on(rig: Any) -> None:
    appliance, controls, factory, table = rig
    table.doubts = {"territory:7": 0.3}
    table.mat.territories[6][COLOURS.index("yellow")] += 1
    table.show()
    assert appliance.state()["table"]["question"] is not None
    press(factory, PINS.majorities)  # no: the camera is wrong there
    assert [e["kind"] for e in controls.last_reply["events"]] == ["answered", "resolved"]
    assert appliance.state()["table"]["question"] is None
    for t in (2, 3):
        table.cube("south", "red", t)
    events = table.cube("south", "red", 4)
    assert events[0].kind == "cubes-played"
    game = appliance.referee.game
    assert game is not None and game.territory(7).describe() == "1 green"
    assert not beeped(factory)
    assert factory.pin(PINS.led_green).state and not factory.pin(PINS.led_red).state
    # with no question standing, Majorities pages again
    appliance.press("majorities")
    assert [e for _, e in appliance.bus.since(0)][-1].kind == "button"


def test_the_voice_says_the_question_once(rig: Any) -> None:
    appliance, _, _, table = rig
    said: list[str] = []
    voice = Voice(True, "en", runner=lambda args, **_: said.append(args[-1]), which=str)
    appliance.outputs.append(voice)
    table.doubts = {"territory:7": 0.3}
    table.mat.territories[6][COLOURS.index("yellow")] += 1
    table.show()
    table.show(hand=False)
    table.show()
    wait_for(lambda: said != [])
    time.sleep(0.1)
    voice.close()
    assert said == ["1 green, 1 yellow on territory 7?"]


def test_the_demos_players_answer_a_question_from_the_table_they_see(rig: Any) -> None:
    """The built-in demo has nobody at the buttons: its players answer the referee's
    questions from the table the demo truly shows, a moment after the question came up
    (as people read it first), through the appliance's own door. A phantom the camera
    doubts gets a no and the game goes on; no alarm is raised for it."""
    from firmware.demo import DemoSource, demo_record
    from firmware.run import ANSWER_AFTER_S, plays_along

    appliance, _, factory, table = rig
    truth = {"format": "carolus-snapshot/1", "mat": True, "occluded": False,
             **table.mat.to_json()}
    source = plays_along(lambda: DemoSource(demo_record(), speed=0, turns=1), appliance)()
    assert isinstance(source, DemoSource) and source.answer is not None
    table.doubts = {"territory:7": 0.3}
    table.mat.territories[6][COLOURS.index("yellow")] += 1  # a phantom on busy tile art
    assert [e.kind for e in table.show()] == ["question"]
    source.answer(truth, 10.0)
    assert appliance.referee.question is not None        # not yet: it was just asked
    source.answer(truth, 10.0 + ANSWER_AFTER_S)
    assert appliance.referee.question is None
    assert appliance.referee.illegal is None and not beeped(factory)
    source.close()
