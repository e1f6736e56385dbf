"""The voice: espeak-ng lines said in the background, never holding the referee up."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from firmware.events import ButtonPressed
from firmware.voice import Voice
from referee.announcements import render
from referee.events import CastleBuilt, GameOver
from referee.table.events import CubesPlaced, Illegal, Stamped

BUILT = Stamped(engine=CastleBuilt(2, 1, (7,), "white"), t=None)
OUT_OF_TURN = Illegal(
    t=None, message="Bob played out of turn.", code="turn-order", player="Bob", round=2, turn=1
)


def wait_for(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


class Runner:
    """Records espeak-ng calls; can hold each call until released (a slow speaker)."""

    def __init__(self, hold: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.gate = threading.Event()
        if not hold:
            self.gate.set()
        self.started = threading.Semaphore(0)

    def __call__(self, args: list[str], **kwargs: Any) -> None:
        self.calls.append(args)
        self.started.release()
        assert self.gate.wait(5)


def found(name: str) -> str:
    return f"/usr/bin/{name}"


def test_events_worth_hearing_are_spoken_in_order() -> None:
    runner = Runner()
    voice = Voice(True, "en", runner=runner, which=found, speed=170)
    voice.on_event(BUILT)
    voice.on_event(
        CubesPlaced(
            t=1.0, message="Anna has placed 1 of 3 cubes.", player="Anna", court=("red",),
            territories={}, count=1, of=3,
        )
    )  # fmt: skip
    voice.on_event(OUT_OF_TURN)
    wait_for(lambda: len(runner.calls) == 2)
    voice.close()
    espeak = ["/usr/bin/espeak-ng", "-v", "en", "-s", "170", "--"]
    assert runner.calls == [
        [*espeak, "White builds a castle on territory 7."],
        [*espeak, "Not allowed (not this player's turn): Bob played out of turn."],
    ]


def test_the_appliance_kinds_worth_hearing_are_spoken_the_rest_shown_only() -> None:
    """The camera lost and the game ended from the page are said aloud; a correction, a
    set-up accepted and the cubes played are only shown (the voice picks by class: the
    appliance's, the table's and, inside `Stamped`, the rules')."""
    from firmware.events import CameraStatus, GameEnded
    from referee.events import CubesPlayed
    from referee.table.events import Corrected

    runner = Runner()
    voice = Voice(True, "en", runner=runner, which=found)
    voice.update({}, [
        Corrected(t=1.0, message="Corrected.", zone="territory:7"),
        CameraStatus(t=2.0, message="Camera lost.", status="lost"),
        Stamped(engine=CubesPlayed(1, 1, "Anna", ("red",), {}), t=3.0),
        GameEnded(t=4.0, message="Game ended."),
    ])  # fmt: skip
    wait_for(lambda: len(runner.calls) == 2)
    voice.close()
    assert [call[-1] for call in runner.calls] == ["Camera lost.", render(GameEnded(t=4.0))]


def test_speaking_never_blocks_and_old_lines_are_dropped_when_behind() -> None:
    runner = Runner(hold=True)
    voice = Voice(True, "en", runner=runner, which=found, backlog=2)
    voice.speak("one")
    assert runner.started.acquire(timeout=2)  # "one" is being said, slowly
    start = time.monotonic()
    for line in ("two", "three", "four", "five"):
        voice.speak(line)
    assert time.monotonic() - start < 0.1
    runner.gate.set()
    wait_for(lambda: len(runner.calls) == 3)
    time.sleep(0.05)
    voice.close()
    assert [c[-1] for c in runner.calls] == ["one", "four", "five"]
    assert voice.dropped == 2


def test_off_by_default_and_silent_without_espeak() -> None:
    runner = Runner()
    said: list[str] = []
    off = Voice(False, runner=runner, which=found, say=said.append)
    off.speak("nothing")
    missing = Voice(True, runner=runner, which=lambda name: None, say=said.append)
    missing.speak("nothing either")
    assert not off.enabled and not missing.enabled
    assert runner.calls == []
    assert said == ["voice: espeak-ng not found (sudo apt install espeak-ng); running silent"]


@pytest.mark.parametrize("language", ["de", "it", "hu", "fi"])
def test_the_voice_speaks_the_tables_language(language: str) -> None:
    """espeak-ng is asked for the table's language, and the line it is given is the
    referee's sentence in that language (the same words the display and page show)."""
    from web.i18n import translations

    runner = Runner()
    said: list[str] = []
    voice = Voice(True, f"{language}_XX", runner=runner, which=found, say=said.append)
    event = Stamped(engine=CastleBuilt(2, 1, (7,), "white"), t=None, message="x")
    voice.on_event(event)
    wait_for(lambda: len(runner.calls) == 1)
    voice.close()
    assert runner.calls[0][1:3] == ["-v", language] and said == []
    spoken = runner.calls[0][-1]
    assert spoken == render(event, translations(language))
    assert "castle" not in spoken and "territory" not in spoken


def test_a_chosen_voice_wins_and_an_unknown_language_is_spoken_in_english() -> None:
    said: list[str] = []
    chosen = Voice(True, "de", voice="de+f3", runner=Runner(), which=found, say=said.append)
    assert chosen.command("x")[1:3] == ["-v", "de+f3"]
    runner = Runner()
    other = Voice(True, "sv", runner=runner, which=found, say=said.append)
    assert other.command("x")[1:3] == ["-v", "en"]
    assert said == ["voice: no announcements in sv; speaking English"]
    other.on_event(BUILT)
    wait_for(lambda: len(runner.calls) == 1)
    other.close()
    assert runner.calls[0][-1] == "White builds a castle on territory 7."


def test_a_failing_espeak_is_said_once_and_the_voice_goes_on() -> None:
    calls: list[str] = []
    said: list[str] = []

    def broken(args: list[str], **kwargs: Any) -> None:
        calls.append(args[-1])
        raise subprocess.TimeoutExpired(args, 60)

    voice = Voice(True, runner=broken, which=found, say=said.append)
    voice.speak("one")
    wait_for(lambda: len(calls) == 1)
    voice.speak("two")
    wait_for(lambda: len(calls) == 2)
    voice.close()
    assert len(said) == 1 and said[0].startswith("voice: espeak-ng failed")


def test_the_appliance_output_protocol_update_with_events() -> None:
    runner = Runner()
    voice = Voice(True, runner=runner, which=found)
    pressed = ButtonPressed(t=None, message="Majorities.", button="majorities", long=False)
    over = Stamped(engine=GameOver(9, 2, "white", "castles"), t=None)
    voice.update({}, [pressed, over])
    wait_for(lambda: len(runner.calls) == 1)
    voice.close()
    assert runner.calls[0][-1] == render(over)


def test_voice_from_the_settings() -> None:
    from firmware.config import load_config

    config = load_config(None, {"voice.enabled": "true", "voice.speed": "120"})
    voice = Voice.from_config(config, say=lambda line: None)
    assert voice.enabled == (voice.program is not None)
    assert voice.command("x")[1:5] == ["-v", "en", "-s", "120"]
    assert not Voice.from_config(load_config(None)).enabled  # off by default
