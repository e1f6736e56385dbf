"""A Hungarian table sees and hears only Hungarian (issue 17): the appliance's own words
— the camera lost, a game resumed, ended or newly seated, a Majorities press — are
`said` messages, each one msgid, so the display, the page's view and the voice say them
in the table's language from the one renderer; the English stays word for word."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from luma.core.device import dummy
from test_display import Clock
from test_setup_screens import watch_cuts
from test_voice import Runner, found, wait_for

from firmware.appliance import Appliance
from firmware.display import Display
from firmware.display.screens import setup_lines
from firmware.view import SET_UP
from firmware.voice import Voice
from firmware.watch import watch
from referee.announcements import render
from referee.game import Game
from referee.record import load
from referee.table.simulate import seated
from web.announce import sentence
from web.i18n import LANGUAGES, translations

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "club-night.json"
HU = translations("hu")
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


class Table:
    """A Hungarian appliance with its panel and its voice (espeak-ng recorded)."""

    def __init__(self) -> None:
        self.record = seated(load(EXAMPLE))
        self.runner = Runner()
        voice = Voice(True, "hu", runner=self.runner, which=found)
        self.clock = Clock()
        device = dummy(width=128, height=64, mode="1")
        self.display = Display(device, language="hu", clock=self.clock)
        self.appliance = Appliance(
            self.record.setup.players, outputs=[self.display, voice], ask_bare=False
        )
        self.voice = voice

    def heard(self, text: str) -> None:
        """The voice said ``text`` last, with the Hungarian voice."""
        wait_for(lambda: bool(self.runner.calls) and self.runner.calls[-1][-1] == text)
        assert self.runner.calls[-1][:3] == ["/usr/bin/espeak-ng", "-v", "hu"]

    def shown(self) -> str:
        """What the panel's set-up screen writes as its message, once the announcements
        before have had their time."""
        self.clock.now += 60
        self.display.tick()
        assert self.display.screen.name == "setup"
        return setup_lines(self.appliance.state(), "hu")[3]


class Blind:
    """Eyes that never get a frame to read."""

    def read(self, frame: Any, t: float | None = None) -> dict[str, Any]:
        raise AssertionError("no frame comes from a camera that is not there")


@pytest.fixture
def table() -> Any:
    table = Table()
    yield table
    table.voice.close()


def test_a_lost_camera_is_shown_and_said_in_hungarian(table: Table) -> None:
    def no_camera() -> Any:
        raise OSError("no /dev/video0")

    watch(no_camera, Blind(), table.appliance, threading.Event(), once=True)
    assert table.appliance.message == "Camera lost: no /dev/video0. Retrying…"  # English as it was
    hungarian = "Elveszett a kamera: no /dev/video0. Újrapróbálás…"
    table.heard(hungarian)
    assert table.shown() == hungarian
    state = table.appliance.state()
    assert state["status"]["texts"]["hu"] == hungarian  # the page's words
    assert state["status"]["texts"]["de"] == "Die Kamera ist weg: no /dev/video0. Neuer Versuch…"
    assert state["status"]["message"] == "Camera lost: no /dev/video0. Retrying…"
    assert setup_lines(state, "hu")[1] == "NINCS KAM"  # the title bar's note


def test_the_cameras_own_status_is_said_in_hungarian(table: Table) -> None:
    table.appliance.set_camera("lost")
    table.heard("Elveszett a kamera.")
    table.appliance.set_camera("ok")
    table.heard("A kamera rendben.")


def test_a_resumed_an_ended_and_a_new_game_in_hungarian(table: Table) -> None:
    appliance = table.appliance
    appliance.resume(Game(table.record.setup), 7)
    assert appliance.message == "Resumed game 7 where it stopped (round 1)."
    resumed = "A(z) 7. játék ott folytatódik, ahol abbamaradt (1. forduló)."
    assert appliance.state()["status"]["texts"]["hu"] == resumed
    screen = table.display.screen  # the panel announces it
    assert screen.name == "announcement" and screen.event is not None
    assert render(screen.event, HU) == resumed

    ended = appliance.end_game()["events"]
    assert [e["kind"] for e in ended] == ["game-ended"]
    assert ended[0]["message"] == "Game ended. Set up the table for a new one."
    assert sentence(ended[0], HU) == "A játék befejeződött."
    table.heard("A játék befejeződött.")
    assert table.shown() == "Vége a játéknak. Készítsétek elő az asztalt egy újhoz."

    players = [
        {"name": "Cleo", "castles": "grey", "seat": "west"},
        {"name": "Dirk", "castles": "black", "seat": "east"},
    ]
    seated_now = appliance.new_game(players)["events"]
    assert seated_now[0]["message"] == (
        "New game: Cleo (grey, west), Dirk (black, east). Set up the table."
    )
    hungarian = (
        "Új játék: Cleo (szürke, hely: nyugat), Dirk (fekete, hely: kelet). "
        "Készítsétek elő az asztalt."
    )
    assert sentence(seated_now[0], HU) == hungarian
    table.heard(hungarian)
    # the panel names the players on a line of their own, and says the rest shorter
    assert table.shown() == "Új játék: készítsétek elő az asztalt."
    assert setup_lines(appliance.state(), "hu")[2] == "Cleo  Dirk"
    for lang in OTHERS:  # every language of the page has its own words for it
        text = appliance.state()["status"]["texts"][lang]
        assert text and text != seated_now[0]["message"] and "Cleo" in text, lang


@pytest.mark.parametrize("language", LANGUAGES)
def test_four_long_names_in_a_new_game_fit_the_panel_whole(
    table: Table, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = watch_cuts(monkeypatch)
    table.display.language = language
    players = [
        {"name": "Annamária", "castles": "white", "seat": "south"},
        {"name": "Bertalan", "castles": "black", "seat": "west"},
        {"name": "Cecília", "castles": "white", "seat": "north"},
        {"name": "Dominik", "castles": "black", "seat": "east"},
    ]
    table.appliance.new_game(players)
    table.clock.now += 60
    table.display.tick()
    assert table.display.screen.name == "setup"
    assert cut == [], cut


def test_a_majorities_press_and_the_set_up_line_in_hungarian(table: Table) -> None:
    pressed = table.appliance.press("majorities", long=True)["events"][0]
    assert pressed["message"] == "Live view."
    assert sentence(pressed, HU) == "Játéknézet."
    # before anything is said, the page's status line is the set-up, in every language
    state = Appliance(table.record.setup.players, ask_bare=False).state()
    assert state["status"]["message"] == SET_UP
    assert state["status"]["texts"]["hu"].startswith("Készítsétek elő az asztalt: ")


def test_no_camera_to_calibrate_keeps_its_words_for_every_reader() -> None:
    reply = Appliance(seated(load(EXAMPLE)).setup.players).calibrate()
    assert reply == {"ok": False, "message": "This appliance has no camera."}
    assert sentence({"kind": "calibrate", "say": reply["message"].msgid}, HU) == (
        "Ennek a készüléknek nincs kamerája."
    )


#: The appliance's files whose sentences are shown or said (`web/babel.cfg`).
SAYING = ["appliance.py", "bare.py", "watch.py", "camera.py", "view.py", "hub.py", "follow.py"]


@pytest.mark.parametrize("name", SAYING)
def test_every_sentence_of_the_appliance_is_translated(name: str) -> None:
    keywords = {"said": None, "N_": None, "mark": ((1, "c"), 2)}
    used = {
        (context, message[0] if isinstance(message, tuple) else message)
        for _, message, _, context in extract_from_file(
            "python", str(ROOT / "firmware" / name), keywords
        )
    }
    for lang in OTHERS:
        tr = translations(lang)
        for context, msgid in used:
            text = tr.pgettext(context, msgid) if context else tr.gettext(msgid)
            assert text and text != msgid, (lang, name, msgid)
