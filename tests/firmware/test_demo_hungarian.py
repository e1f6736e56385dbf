"""A Hungarian table sees and hears only Hungarian (issue 17), end to end: the demo's
whole game (its record, on its simulated table, every snapshot the demo's camera would
read) goes through the appliance with ``language = "hu"``; every line the panel draws,
every sentence the voice is given and every announcement of the page's event stream is
checked for English words (the vocabulary of `test_announcements_languages`: every
msgid's words, minus the words the languages share)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from luma.core.device import dummy
from test_display import Clock

from firmware.appliance import Appliance
from firmware.config import Config
from firmware.demo import DemoSource
from firmware.display import Display, font
from firmware.voice import Voice
from web.i18n import translations
from web.live import StateCache, write

ROOT = Path(__file__).resolve().parents[2]
HU = translations("hu")


def _english_check() -> ModuleType:
    """The English-words check of the catalogs' tests (tests/referee), loaded by path:
    that folder is not on this test's import path."""
    path = ROOT / "tests" / "referee" / "test_announcements_languages.py"
    spec = importlib.util.spec_from_file_location("announcements_languages", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _english_check()
#: What the demo's table says as it is, in every language: the players' names.
NAMES = {"anna", "bob"}


def english(text: str) -> set[str]:
    """The English words in ``text`` (none in a Hungarian sentence)."""
    found: set[str] = CHECK._words(text) & CHECK.ENGLISH_WORDS
    return found - NAMES


class Heard(Voice):
    """The table's voice, every sentence it is given kept (none dropped, none spoken)."""

    def __init__(self, config: Config) -> None:
        super().__init__(
            True,
            config.language,
            voice=config.voice.voice,
            speed=config.voice.speed,
            which=lambda name: f"/usr/bin/{name}",
        )
        self.heard: list[str] = []

    def speak(self, text: str) -> None:
        self.heard.append(text)


@pytest.fixture(scope="module")
def demo() -> Any:
    """The demo's game played through a Hungarian appliance: what the panel drew, what
    the voice was given, and the page's event stream (SSE) in Hungarian."""
    config = Config(language="hu")
    drawn: list[str] = []
    draw = font.Font.draw

    def drawing(self: font.Font, surface: Any, xy: tuple[int, int], text: str, fill: str) -> int:
        drawn.append(text)
        return draw(self, surface, xy, text, fill)

    patch = pytest.MonkeyPatch()
    patch.setattr(font.Font, "draw", drawing)
    try:
        source = DemoSource(speed=0, drawing_process=False)
        clock = Clock()
        display = Display(dummy(width=128, height=64, mode="1"), language="hu", clock=clock)
        voice = Heard(config)
        appliance = Appliance(source.players, outputs=[display, voice], ask_bare=False)
        appliance.set_camera("demo")
        for snapshot in source.snapshots:
            appliance.feed(snapshot)
            clock.now += 0.2  # the demo's 5 frames a second: announcements take turns
            display.tick()
        for _ in range(40):  # the announcements still waiting, then the last screen
            clock.now += 6
            display.tick()
        assert appliance.referee.game is not None and appliance.referee.game.is_over
        reader = appliance.bus.subscribe(since=0)
        items = []
        while (item := reader.get(timeout=0)) is not None:
            items.append(item)
        cache = StateCache(appliance.bus, appliance.state)
        page = "".join(write(items, cache, HU, "0"))
        yield drawn, voice, page, appliance
        appliance.close()
    finally:
        patch.undo()


def test_the_panel_draws_no_english_word(demo: Any) -> None:
    drawn, _voice, _page, _appliance = demo
    assert len(drawn) > 100  # the whole game's screens
    left = {line: english(line) for line in drawn if english(line)}
    assert not left, left


def test_the_voice_is_given_only_hungarian_and_asks_for_the_hungarian_voice(demo: Any) -> None:
    _drawn, voice, _page, _appliance = demo
    assert voice.command("x")[:3] == ["/usr/bin/espeak-ng", "-v", "hu"]
    assert len(voice.heard) > 20
    assert any("vár" in line for line in voice.heard)  # a castle built: "várat épít"
    left = {line: english(line) for line in voice.heard if english(line)}
    assert not left, left


def test_the_pages_event_stream_says_every_announcement_in_hungarian(demo: Any) -> None:
    _drawn, _voice, page, _appliance = demo
    messages = [json.loads(line[6:]) for line in page.splitlines() if line.startswith("data: ")]
    texts = [m["text"] for m in messages if m.get("text")]
    assert len(texts) > 20
    left = {text: english(text) for text in texts if english(text)}
    assert not left, left
    # the view model's status line, as the page shows it in Hungarian
    states = [m["state"] for m in messages if m.get("kind") == "state" and "state" in m]
    assert states
    for state in states:
        status = state.get("status") or {}
        text = (status.get("texts") or {}).get("hu")
        if text:
            assert not english(text), text


def test_the_english_words_check_catches_english(demo: Any) -> None:
    """The check itself: an English sentence of the same game is caught."""
    assert english("Anna builds a castle on territory 7.") >= {"builds", "castle", "territory"}
    assert not english("Anna várat épít a 7. tartományban.")
    assert re.search(r"[áéíóöőúüű]", "".join(demo[1].heard))
