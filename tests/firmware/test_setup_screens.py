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
from referee.announcements import said
from web.announce import message_texts

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


def waiting_view(camera: str = "ok", message: str | None = None) -> dict[str, Any]:
    """The set-up screen before the game (no bare-table step), as the appliance words it:
    its message in every language (`web.announce.message_texts`, issue 17)."""
    view = setup_view()
    view["status"]["camera"] = camera
    if message is not None:
        view["status"]["message"] = message
        view["status"]["texts"] = message_texts(message)
    return view


WAITING = {
    "waiting": waiting_view(),
    "waiting-demo": waiting_view("demo"),
    # what the camera loop says when the camera went away (`firmware.watch`)
    "waiting-no-camera": waiting_view("lost", said("Camera lost. Reconnecting…")),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(WAITING))
def test_the_waiting_set_up_screen_matches_its_reference(name: str, language: str) -> None:
    device = dummy(width=128, height=64, mode="1")
    display = Display(device, language=language)
    display.update(WAITING[name])
    assert display.screen.name == "setup"
    check_reference(f"setup-{name}-{language}", device.image)


def watch_cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the panel's font cuts to fit their width ("..") from now on, as drawn."""
    from firmware.display import font

    cut: list[str] = []
    fit = font.Font.fit

    def watching(self: font.Font, text: str, width: int) -> str:
        out = fit(self, text, width)
        if out != text:
            cut.append(text)
        return out

    monkeypatch.setattr(font.Font, "fit", watching)
    return cut


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_set_up_screen_cuts_a_word_in_any_language(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every set-up screen drawn in every language: nothing is cut with ".." (issue 15:
    "…each reserve;..") and nothing runs off the panel's 128 x 64 pixels."""
    cut = watch_cuts(monkeypatch)
    views = [
        *(v for _, v in VIEWS.values()),
        *WAITING.values(),
        *(step_view("ask", problem) for problem in PROBLEMS),
    ]
    for view in views:
        device = dummy(width=128, height=64, mode="1")
        Display(device, language=language).update(view)
        assert device.image.size == (WIDTH, HEIGHT)
    assert cut == [], (language, cut)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_waiting_screen_speaks_the_panel_language(language: str) -> None:
    from firmware.display.screens import setup_lines

    title, note, names, message, bottom = setup_lines(WAITING["waiting"], language)
    assert title == word(language, "title", upper=True) and note
    assert message == word(language, "pieces") and bottom == word(language, "then")
    assert names == "Anna  Bob"
