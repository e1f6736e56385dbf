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
from firmware.events import Resumed
from firmware.view import game_view
from referee.announcements import said
from referee.events import (
    CastleBuilt,
    CastleTaken,
    ControlGained,
    EmperorMoved,
    Merged,
    Returned,
)
from referee.table.events import (
    Confirmed,
    Corrected,
    Resolved,
    SetupAccepted,
    Stamped,
    TableEvent,
    Undone,
)
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
ANNOUNCED: dict[str, TableEvent] = {
    "control-gained": Stamped(engine=ControlGained(2, 1, "pink", "Anna", "Bob"), t=None),
    "castle-built": Stamped(engine=CastleBuilt(2, 1, (7,), "black"), t=None),
    "castle-taken": Stamped(engine=CastleTaken(2, 1, (5, 6, 7), "white", "black"), t=None),
    "merged": Stamped(engine=Merged(2, 1, (4, 5, 6), "white"), t=None),
    "returned": Stamped(engine=Returned(2, 1, "yellow", 2), t=None),
    "emperor-moved": Stamped(engine=EmperorMoved(2, 1, "Bob", 3, 9), t=None),
    "undone": Undone(t=None, message="Nothing to undo.", move=None),
    "confirmed": Confirmed(t=None, message="Confirmed: nothing was pending."),
    "corrected": Corrected(t=None, message="Corrected.", zone="court:north"),
    "resolved": Resolved(t=None, message="The table is back in order.", code=None, player=None),
    "setup": SetupAccepted(
        t=None,
        message="Set-up accepted.",
        unconfirmed=(),
        territories=(),
        emperor=1,
        reserves={},
    ),
    "resumed": Resumed(t=None, message="Resumed.", game=3),
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


def _announcing(event: TableEvent) -> Callable[[Display], None]:
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
