"""The OLED in the table's language: every screen drawn in Hungarian (the longest words
of the five) against reference images on luma's dummy device
(``tests/firmware/reference/hu-*.png``; regenerate as `test_display` says), and every
screen in every language drawn whole: no word cut with "..", no letter the font lacks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from luma.core.device import dummy
from test_display import (
    SCREENS,
    Clock,
    _emperor,
    check_reference,
    club_night,
)

from firmware.display import Display, screens
from firmware.display.font import NEAREST, Font
from firmware.view import game_view
from referee.announcements import said
from web.i18n import translations

LANGUAGES = ("en", "de", "it", "hu", "fi")

#: The table referee's free-text alarm as it comes now: with its msgid and fields.
_WRONG_COURT = said(
    "%(cubes)s went into %(player)s's court; each player plays only to his own court",
    cubes=["red"],
    player="Anna",
)
ILLEGAL = {
    "kind": "illegal",
    "code": "wrong-court",
    "player": "Bob",
    "message": str(_WRONG_COURT),
    "say": _WRONG_COURT.msgid,
    "words": _WRONG_COURT.words,
}
_DOUBT = said("%(cubes)s on territory %(territory)s?", cubes=["yellow"], territory=7)
QUESTION = {
    "kind": "question",
    "zone": "territory:7",
    "part": None,
    "counts": {"yellow": 1},
    "message": str(_DOUBT),
    "say": _DOUBT.msgid,
    "words": _DOUBT.words,
}

#: One example of every announcement the panel shows (`panel.ANNOUNCED`; the cubes are
#: in `test_display`).
ANNOUNCED: dict[str, dict[str, Any]] = {
    "control-gained": {"kind": "control-gained", "colour": "pink", "player": "Anna", "from": "Bob"},
    "castle-built": {"kind": "castle-built", "territories": [7], "side": "black"},
    "castle-taken": {
        "kind": "castle-taken",
        "territories": [5, 6, 7],
        "side": "white",
        "from": "black",
    },
    "merged": {"kind": "merged", "territories": [4, 5, 6], "side": "white"},
    "returned": {"kind": "returned", "colour": "yellow", "k": 2},
    "emperor-moved": {"kind": "emperor-moved", "player": "Bob", "steps": 3, "territory": 9},
    "undone": {"kind": "undone", "message": "Nothing to undo."},
    "confirmed": {"kind": "confirmed", "message": "Confirmed: nothing was pending."},
    "corrected": {"kind": "corrected", "zone": "court:north", "message": "Corrected."},
    "resolved": {"kind": "resolved", "message": "The table is back in order."},
    "setup": {"kind": "setup", "message": "Set-up accepted."},
    "resumed": {"kind": "resumed", "message": "Resumed."},
}


def _illegal(display: Display) -> None:
    display.update(game_view(club_night(), illegal=ILLEGAL))


def _question(display: Display) -> None:
    view = game_view(club_night())
    view["table"]["question"] = QUESTION
    display.update(view)


def _draw(display: Display) -> None:
    view = game_view(club_night())
    view.update(finished=True, winner="draw", reason="few-territories")
    display.update(view)


def _announcing(event: dict[str, Any]) -> Callable[[Display], None]:
    def show(display: Display) -> None:
        _emperor(display)
        display.on_event(event)

    return show


def _screen_of(kind: str) -> str:
    return {
        "control-gained": "cylinder",
        "castle-built": "castle",
        "castle-taken": "castle",
    }.get(kind, "announcement")


#: Every screen: the live ones of `test_display` (its chore is English words only, as
#: an older appliance passed them) and the announcements, alarms and questions.
EVERY: dict[str, tuple[Callable[[Display], None], str]] = {
    **{name: SCREENS[name] for name in SCREENS if name not in ("illegal", "chore")},
    "illegal": (_illegal, "illegal"),
    "question": (_question, "question"),
    "draw": (_draw, "game-over"),
    **{
        f"announce-{kind}": (_announcing(event), _screen_of(kind))
        for kind, event in ANNOUNCED.items()
    },
}


def _show(name: str, language: str) -> Any:
    setup, screen = EVERY[name]
    device = dummy(width=128, height=64, mode="1")
    display = Display(device, announce_seconds=5, majorities_seconds=30, clock=Clock())
    display.language = language
    setup(display)
    assert display.screen.name == screen, (name, display.screen.name)
    return device.image


@pytest.mark.parametrize("name", sorted(EVERY))
def test_every_screen_in_hungarian_matches_its_reference(name: str) -> None:
    check_reference(f"hu-{name}", _show(name, "hu"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_screen_cuts_a_word_or_lacks_a_letter(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every screen in every language: no text cut with ".." to fit the 128 pixels, and
    every letter drawn from the font (the nearest where it lacks one), never as "?"."""
    cut: list[str] = []
    drawn: list[str] = []
    fit, draw = Font.fit, Font.draw

    def fitting(self: Font, text: str, width: int) -> str:
        out = fit(self, text, width)
        if out != text:
            cut.append(text)
        return out

    def drawing(self: Font, canvas: Any, xy: tuple[int, int], text: str, fill: str) -> int:
        drawn.append(text)
        return draw(self, canvas, xy, text, fill)

    monkeypatch.setattr(Font, "fit", fitting)
    monkeypatch.setattr(Font, "draw", drawing)
    for name in EVERY:
        cut.clear()
        _show(name, language)
        assert cut == [], (language, name, cut)
    for text in drawn:
        for char in text:
            char = NEAREST.get(char, char)
            assert char.isascii() or char.encode("cp437", "ignore") or char == "\u2302", text


def test_the_panel_speaks_the_configured_language() -> None:
    english, hungarian = _show("turn", "en"), _show("turn", "hu")
    assert english.tobytes() != hungarian.tobytes()
    assert screens.title(translations("hu"), "castle-built") == "Új vár"
