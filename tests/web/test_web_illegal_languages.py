"""The page's illegal-act banner in the reader's language (issue 17): ``/api/state``'s
``table.illegal`` carries the act's whole sentence in every language (``texts``), and the
page shows its own language's — in Hungarian or German what was done, with who and which
cubes, no English word — where it showed the referee's English words after a translated
title."""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import needs_chromium
from firmware.appliance import Appliance
from referee.pieces import COLOURS
from referee.setup import Player
from referee.table.simulate import Mat
from web.app import create_app
from web.server import serve

PLAYERS = [Player("Anna", "white", "south"), Player("Bob", "black", "north")]
RESERVES = {
    "south": "red red red green green blue pink",
    "north": "green yellow yellow blue blue pink pink",
}
#: What the page says of Anna's red cube in Bob's court, in each language (the whole
#: sentence, to the letter: no English word is left in it).
BANNER = {
    "hu": "Nem szabályos (lovag más várlapján): 1 vörös került Bob várlapjára; mindenki "
    "csak a saját várlapjára játszik",
    "de": "Nicht erlaubt (Ritter im fremden Burghof): in den Burghof von Bob gesetzt: 1 Rot; "
    "jeder setzt nur in seinen eigenen Burghof",
    "en": "Not allowed (a cube in another player's court): 1 red went into Bob's court; "
    "each player plays only to his own court",
}


def wrong_court() -> Appliance:
    """An appliance where Anna, to move in round 1, has put a red cube into Bob's court."""
    appliance = Appliance(PLAYERS, ask_bare=False)
    mat = Mat()
    frames = 0

    def show() -> list[Any]:
        nonlocal frames
        events = []
        for occluded in [True, True, *[False] * 5]:
            snapshot = {"format": "carolus-snapshot/1", "t": frames / 5, "mat": True}
            snapshot.update(occluded=occluded, reader="reference", **mat.to_json())
            frames += 1
            events += appliance.feed(snapshot)
        return events

    for n, colour in enumerate(COLOURS * 3):
        mat.territories[n][COLOURS.index(colour)] = 1
    mat.emperor = 1
    for seat, colours in RESERVES.items():
        mat.discs[seat] = set(range(1, 6))
        for c in colours.split():
            mat.reserves[seat][COLOURS.index(c)] += 1  # type: ignore[arg-type]
    show()
    mat.discs["south"].discard(2)
    show()
    mat.discs["north"].discard(3)
    show()
    red = COLOURS.index("red")
    mat.reserves["south"][red] -= 1
    mat.courts["north"][red] += 1
    assert [e.kind for e in show()] == ["illegal"]
    return appliance


@pytest.fixture(scope="module")
def appliance() -> Appliance:
    return wrong_court()


def test_the_states_illegal_act_has_its_sentence_in_every_language(appliance: Appliance) -> None:
    client = create_app(appliance).test_client()
    illegal = client.get("/api/state").get_json()["table"]["illegal"]
    # the fields it always had, as they were, and the sentence by language code
    assert illegal["code"] == "wrong-court" and illegal["player"] == "Anna"
    assert illegal["message"] == BANNER["en"].split(": ", 1)[1]
    assert set(illegal["texts"]) == {"en", "de", "it", "hu", "fi"}
    for lang, text in BANNER.items():
        assert illegal["texts"][lang] == text, lang
    for lang in ("de", "it", "hu", "fi"):  # the referee's English words are not in it
        words = set(re.findall(r"\w+", illegal["texts"][lang]))
        assert not {"red", "went", "court", "player", "plays"} & words, lang


@needs_chromium
@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_banner_says_the_act_in_the_pages_language(
    browser: Any, appliance: Appliance, lang: str
) -> None:
    server = serve(appliance, "127.0.0.1", 0, pin="2468")
    try:
        page = browser.new_page(bypass_csp=True)
        page.goto(f"{server.url}?lang={lang}")
        page.wait_for_selector("#banner", state="visible")
        page.wait_for_function(
            "text => document.getElementById('banner').textContent === text", arg=BANNER[lang]
        )
        page.close()
    finally:
        server.stop()
