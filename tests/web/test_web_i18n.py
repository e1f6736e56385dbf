"""The page speaks English, German, Italian, Hungarian and Finnish: complete catalogs,
the referee's English sentences word for word, and the language chosen per browser."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from referee.announcements import say
from referee.game import Game
from referee.selfplay import play_game, table_players
from web.announce import WORDS, sentence
from web.i18n import LANGUAGES, messages, translations
from web.preview import PreviewHub

WEB = Path(__file__).resolve().parents[2] / "web"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def _catalog(lang: str) -> Catalog:
    with (WEB / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def _source_messages() -> set[tuple[str | None, str]]:
    """Every msgid the page's code, templates and scripts use (as pybabel extracts them)."""
    method_map = [
        ("**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("static/**.js", "javascript"),
    ]
    options = {"static/**.js": {"parse_template_string": "true"}}
    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
        "t": None,
        "pt": ((1, "c"), 2),
        "mark": ((1, "c"), 2),
        "N_": None,
        "said": None,  # the API's own refusals (issue 17)
    }
    found = set()
    for _, _, message, _, context in extract_from_dir(
        str(WEB), method_map, options_map=options, keywords=keywords
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found.add((context, msgid))
    return found


def test_every_word_of_the_page_is_translated_in_every_language() -> None:
    used = _source_messages()
    assert len(used) > 120
    for lang in OTHERS:
        catalog = _catalog(lang)
        for context, msgid in used:
            entry = catalog.get(msgid, context=context)
            assert entry is not None, f"{lang}: {msgid!r} ({context}) is not in the catalog"
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            assert all(strings), f"{lang}: {msgid!r} ({context}) is not translated"


def test_placeholders_survive_translation() -> None:
    for lang in OTHERS:
        catalog = _catalog(lang)
        problems = [(m.id, errors) for m, errors in catalog.check() if errors]
        assert not problems, f"{lang}: {problems[:3]}"


def test_colour_letters_tell_the_colours_apart_in_every_language() -> None:
    letters = [c for c in WORDS if c[0] == "letter"]
    for lang in LANGUAGES:
        tr = translations(lang)
        shown = [tr.pgettext("letter", word) for _, word in letters]
        assert len(set(shown)) == 5 and all(1 <= len(s) <= 2 for s in shown), (lang, shown)


def test_english_sentences_are_the_referees_word_for_word() -> None:
    english = translations("en")
    heard = 0
    for players, seed in [(2, 1), (3, 2), (4, 3), (2, 4)]:
        played = play_game(table_players(players), random.Random(seed))
        game = Game(played.setup)
        for move in played.move_stack:
            for event in game.push(move):
                assert sentence(event.to_json(), english) == say(event)
                heard += 1
    assert heard > 500


def test_german_uses_the_rulebook_words() -> None:
    german = translations("de")
    built = {"kind": "castle-built", "territories": [4, 5], "side": "white"}
    assert sentence(built, german) == "Weiß baut eine Burg auf Region 4+5."
    gained = {"kind": "control-gained", "colour": "red", "player": "Anna", "from": "Bob"}
    assert "Kontrolle über Rot von Bob" in (sentence(gained, german) or "")
    moved = {"kind": "emperor-moved", "player": "Bob", "steps": 2, "territory": 9}
    assert sentence(moved, german) == "Der Kaiser zieht 2 Schritte nach Provinz 9."
    assert sentence({"kind": "state"}, german) is None


@pytest.mark.parametrize(
    ("lang", "word"),
    [("de", "Burghof"), ("it", "Corte"), ("hu", "Várlap"), ("fi", "Hovi"), ("en", "Court")],
)
def test_each_language_has_the_court(lang: str, word: str) -> None:
    assert messages(lang).get("Court", "Court") == word


def test_language_per_browser_and_remembered(client: FlaskClient) -> None:
    page = client.get("/?lang=it").get_data(as_text=True)
    assert '<html lang="it">' in page and "Annunci" in page
    again = client.get("/table").get_data(as_text=True)  # the cookie remembers
    assert '<html lang="it">' in again and "Correzioni" in again
    assert client.get("/api/i18n").get_json()["lang"] == "it"
    hu = client.get("/history?lang=hu").get_data(as_text=True)
    assert "Előzmények" in hu
    assert client.get("/?lang=xx").status_code == 200  # an unknown language: the remembered one


def test_configured_language_is_the_default(hub: PreviewHub) -> None:
    from web.app import create_app

    app = create_app(hub, pin="4321", language="fi")
    page = app.test_client().get("/").get_data(as_text=True)
    assert '<html lang="fi">' in page and "Kuulutukset" in page
    regional = create_app(hub, pin="4321", language="de_AT").test_client().get("/")
    assert '<html lang="de">' in regional.get_data(as_text=True)
    unknown = create_app(hub, pin="4321", language="fr").test_client().get("/")
    assert '<html lang="en">' in unknown.get_data(as_text=True)  # the voice may speak it


def test_announcements_on_the_stream_are_in_the_browsers_language(
    client: FlaskClient, hub: PreviewHub
) -> None:
    client.get("/?lang=de")
    hub.advance()  # Bob lays a disc
    body = client.get("/api/events", buffered=False)
    hello = next(x for x in body.response if b"hello" in x)
    body.close()
    assert "legt die Zahlenscheibe" in hello.decode()


def test_no_compiled_catalogs_in_the_tree() -> None:
    assert not list((WEB / "translations").rglob("*.mo"))  # compiled in memory


TABLE_EVENTS = [
    {
        "kind": "cubes-placed",
        "player": "Anna",
        "court": ["red"],
        "territories": {"3": ["blue"]},
        "count": 2,
        "of": 3,
        "message": "Anna has placed 2 of 3 cubes: 1 red to the court; 1 blue on territory 3.",
    },
    {
        "kind": "castle-pending",
        "territories": [9],
        "side": "white",
        "message": "Build a white castle on territory 9.",
    },
    {
        "kind": "castles-placed",
        "territories": [9],
        "message": "The castles stand as the rules say.",
    },
    {
        "kind": "cylinder-pending",
        "colour": "yellow",
        "to": "south",
        "message": "Move the yellow cylinder to Anna's court.",
    },
    {
        "kind": "cylinder-moved",
        "colour": "yellow",
        "to": "pool",
        "message": "The yellow cylinder is on the pool.",
    },
    {"kind": "undone", "move": {}, "message": "Undone: Anna chose disc 3."},
    {"kind": "resolved", "code": "wrong-court", "message": "The table is legal again."},
    {"kind": "setup", "message": "Set-up accepted: Anna (white, south) ..."},
]


def test_the_table_referees_own_events_in_english_are_its_words() -> None:
    english = translations("en")
    for event in TABLE_EVENTS:
        assert sentence(event, english) == event["message"]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_table_referees_own_events_are_translated(lang: str) -> None:
    tr = translations(lang)
    for event in TABLE_EVENTS:
        said = sentence(event, tr)
        assert said and said != event["message"], (lang, event["kind"])
    placed = sentence(TABLE_EVENTS[0], tr) or ""
    assert "Anna" in placed and tr.pgettext("colour", "blue") in placed
    moved = sentence(TABLE_EVENTS[3], tr) or ""
    assert tr.pgettext("seat", "south") in moved and tr.pgettext("colour", "yellow") in moved


def test_a_hub_event_without_a_message_still_reads_well() -> None:
    assert sentence({"kind": "undone"}, translations("en")) == "The last step was undone."
    # The zone is named in the table's words, never by its id.
    assert sentence({"kind": "corrected", "zone": "territory:3"}, translations("de")) == (
        "Der Schiedsrichter wurde korrigiert: Provinz 3."
    )
    court = sentence({"kind": "corrected", "zone": "court:north"}, translations("hu")) or ""
    assert "court" not in court and "north" not in court
    assert translations("hu").pgettext("seat", "north") in court


def test_what_is_not_allowed_is_named_in_every_language() -> None:
    event = {
        "kind": "illegal",
        "code": "wrong-court",
        "player": "Anna",
        "message": "Anna put a red cube into Bob's court.",
    }
    assert sentence(event, translations("en")) == (
        "Not allowed (a cube in another player's court): Anna put a red cube into Bob's court."
    )
    # an English detail is left out rather than mixed in; given with its fields, said
    assert sentence(event, translations("de")) == "Nicht erlaubt: Ritter im fremden Burghof."
    fields = {
        "say": "%(cubes)s went into %(player)s's court; each player plays only to his own court",
        "words": {"cubes": ["red"], "player": "Bob"},
    }
    assert sentence({**event, **fields}, translations("de")) == (
        "Nicht erlaubt (Ritter im fremden Burghof): in den Burghof von Bob gesetzt: 1 Rot; "
        "jeder setzt nur in seinen eigenen Burghof"
    )
    codes = [word for context, word in WORDS if context == "illegal"]
    for lang in LANGUAGES:
        tr = translations(lang)
        assert all(tr.pgettext("illegal", code) != code for code in codes), lang
