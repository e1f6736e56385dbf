"""The set-up step's OLED screens in every language: pixel for pixel against reference
images (``tests/firmware/reference/setup-*.png``; regenerate as `test_display` says), and
every sentence whole on the 128x64 panel, never cut."""

from __future__ import annotations

from typing import Any

import pytest
from luma.core.device import dummy
from test_display import check_reference, setup_view

from firmware.bare import PROBLEMS
from firmware.display import Display
from firmware.display.font import SMALL
from firmware.display.screens import BODY, HEIGHT, WIDTH, text_fits
from firmware.display.words import WORDS, language_of, word

LANGUAGES = ("en", "de", "it", "hu", "fi")


def step_view(step: str, problem: str | None = None) -> dict[str, Any]:
    view = setup_view()
    view["bare"] = {"step": step, "problem": problem, "message": ""}
    return view


VIEWS = {
    "lay-out": ("lay-out", step_view("ask")),
    "lay-out-no-mat": ("lay-out", step_view("ask", "no-mat")),
    "pieces": ("pieces", step_view("learnt")),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_set_up_screens_match_their_reference(name: str, language: str) -> None:
    screen, view = VIEWS[name]
    device = dummy(width=128, height=64, mode="1")
    display = Display(device, language=language)
    display.update(view)
    assert display.screen.name == screen
    check_reference(f"setup-{name}-{language}", device.image)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_set_up_sentence_fits_the_panel_whole(language: str) -> None:
    assert set(WORDS[language]) == set(WORDS["en"])
    assert set(PROBLEMS) <= set(WORDS[language])  # every refusal has its words
    title = word(language, "title", upper=True)
    assert SMALL.width(title) <= WIDTH - 4 - SMALL.width("1/2") - 4
    for key in ("ask", "pieces", *PROBLEMS):
        assert text_fits(word(language, key), BODY + 1, HEIGHT - 9), (language, key)
    for key in ("press", "again", "then"):
        assert SMALL.width(word(language, key)) <= WIDTH, (language, key)
    for key in WORDS[language]:  # every letter is in the panel's font, none drawn as "?"
        for text in (word(language, key), word(language, key, upper=True)):
            assert all(c.isascii() or c.encode("cp437", "ignore") for c in text), text


def test_the_configured_language_picks_the_panel_words() -> None:
    assert language_of("de_AT") == "de" and language_of("sv") == "en"
    assert word("hu", "title") == "Elökészítés"  # ő drawn as the font's nearest
    assert word("hu", "title", upper=True) == "ELÖKÉSZITÉS"
    assert word("de", "press") == "Dann Bestätigen"
