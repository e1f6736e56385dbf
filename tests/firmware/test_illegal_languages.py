"""An illegal act in the table's language (issue 17): the view's ``table.illegal`` carries
the act's msgid and fields (``say``, ``words``) and its whole sentence in every language
(``texts``), so the panel's illegal screen says what was done, with who and which cubes,
in Hungarian or German, not only the rule's short title; the English stays as it was."""

from __future__ import annotations

from typing import Any

import pytest
from luma.core.device import dummy
from test_demo_hungarian import english
from test_display import Clock
from test_questions import PLAYERS, Table

from firmware.appliance import Appliance
from firmware.display import Display, font
from firmware.display.panel import render
from referee.pieces import COLOURS

#: What Anna did (a red cube into Bob's court), said by the panel in each language.
DETAIL = {
    "hu": "1 vörös került Bob várlapjára; mindenki csak a saját várlapjára játszik",
    "de": "in den Burghof von Bob gesetzt: 1 Rot; jeder setzt nur in seinen eigenen Burghof",
}
#: The whole sentence the page shows (the rule's title, then what was done).
SENTENCE = {
    "hu": "Nem szabályos (lovag más várlapján): " + DETAIL["hu"],
    "de": "Nicht erlaubt (Ritter im fremden Burghof): " + DETAIL["de"],
}
ENGLISH = "1 red went into Bob's court; each player plays only to his own court"


def wrong_court(language: str) -> tuple[Appliance, Display]:
    """An appliance in ``language`` with its panel, where Anna, to move, has put a red
    cube into Bob's court."""
    display = Display(dummy(width=128, height=64, mode="1"), language=language, clock=Clock())
    appliance = Appliance(PLAYERS, outputs=[display], ask_bare=False)
    table = Table(appliance)
    table.mat.discs["south"].discard(2)
    table.show()
    table.mat.discs["north"].discard(3)
    table.show()
    red = COLOURS.index("red")
    table.mat.reserves["south"][red] -= 1
    table.mat.courts["north"][red] += 1
    events = table.show()
    assert [e.kind for e in events] == ["illegal"] and events[0].code == "wrong-court"
    return appliance, display


def drawn_lines(
    appliance: Appliance, display: Display, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """Every text the panel draws for the screen it shows now."""
    drawn: list[str] = []
    draw = font.Font.draw

    def drawing(self: font.Font, surface: Any, xy: tuple[int, int], text: str, fill: str) -> int:
        drawn.append(text)
        return draw(self, surface, xy, text, fill)

    monkeypatch.setattr(font.Font, "draw", drawing)
    render(appliance.state(), display.screen)
    return drawn


@pytest.mark.parametrize("language", ["hu", "de"])
def test_the_illegal_screen_says_the_whole_act_in_the_tables_language(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    appliance, display = wrong_court(language)
    assert display.screen.name == "illegal"
    lines = drawn_lines(appliance, display, monkeypatch)
    # the title, who did it, then what was done, wrapped over the lines below
    assert lines[1] == "Anna"
    assert " ".join(lines[2:]) == DETAIL[language]
    assert not {line: english(line) for line in lines if english(line)}
    illegal = appliance.state()["table"]["illegal"]
    assert illegal is not None
    assert illegal.get("texts", {})[language] == SENTENCE[language]
    assert not english(illegal.get("texts", {})[language])


def test_the_view_keeps_the_acts_english_and_adds_its_fields() -> None:
    appliance, _ = wrong_court("en")
    illegal = appliance.state()["table"]["illegal"]
    assert illegal is not None
    # the keys it always had, word for word, then the msgid, the fields and the texts
    assert list(illegal) == ["code", "message", "player", "say", "words", "texts"]
    assert (illegal["code"], illegal["message"], illegal["player"]) == (
        "wrong-court",
        ENGLISH,
        "Anna",
    )
    assert illegal.get("words") == {"cubes": ["red"], "player": "Bob"}
    texts = illegal.get("texts", {})
    assert texts["en"] == f"Not allowed (a cube in another player's court): {ENGLISH}"
    assert set(texts) == {"en", "de", "it", "hu", "fi"}
