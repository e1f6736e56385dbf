"""Every announcement in every language: one example of each event kind (and of each
free-text message of the table referee, by its msgid) is rendered in en, de, it, hu and
fi by `referee.announcements.render_json` (their JSON form, as the log and the page's
stream carry them; `render` says a typed event through it); each is a whole sentence,
and no English word is left in the four other languages (an allow-list names the words
that are the same)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from referee.announcements import ENGLISH, render_json, said, translated
from web.i18n import LANGUAGES, translations

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]

#: One event of every kind the boxes pass on, in its JSON form (as the bus and the log
#: carry it); variants where a kind has more than one sentence.
EVENTS: dict[str, dict[str, Any]] = {
    "disc-chosen": {"kind": "disc-chosen", "player": "Anna", "number": 3},
    "turn-started": {"kind": "turn-started", "round": 2, "player": "Anna", "disc": 3},
    "cubes-played": {
        "kind": "cubes-played",
        "player": "Bob",
        "court": ["blue"],
        "territories": {"7": ["green", "blue"]},
    },
    "cubes-played-none": {"kind": "cubes-played", "player": "Bob", "court": [], "territories": {}},
    "control-gained": {"kind": "control-gained", "colour": "red", "player": "Anna", "from": None},
    "control-gained-from": {
        "kind": "control-gained",
        "colour": "pink",
        "player": "Anna",
        "from": "Bob",
    },
    "emperor-moved": {"kind": "emperor-moved", "player": "Bob", "steps": 1, "territory": 7},
    "emperor-moved-far": {"kind": "emperor-moved", "player": "Bob", "steps": 3, "territory": 9},
    "castle-built": {"kind": "castle-built", "territories": [6], "side": "white"},
    "castle-taken": {
        "kind": "castle-taken",
        "territories": [5, 6, 7],
        "side": "black",
        "from": "white",
    },
    "merged": {"kind": "merged", "territories": [4, 5, 6], "side": "grey"},
    "returned": {"kind": "returned", "colour": "yellow", "k": 2},
    "refilled": {"kind": "refilled", "player": "Anna", "colours": ["red", "red", "pink"]},
    "game-over": {"kind": "game-over", "winner": "white", "reason": "castles"},
    "game-over-draw": {"kind": "game-over", "winner": "draw", "reason": "few-territories"},
    "illegal": {
        "kind": "illegal",
        "code": "turn-order",
        "player": "Bob",
        "message": "Not Bob's turn.",
    },
    "resolved": {"kind": "resolved", "code": "wrong-court", "message": "The table is back."},
    "undone": {"kind": "undone", "move": None, "message": "Nothing to undo."},
    "confirmed": {"kind": "confirmed", "done": [], "message": "Confirmed: nothing."},
    "castles-placed": {"kind": "castles-placed", "territories": [9], "message": "Done."},
    "setup": {"kind": "setup", "message": "Set-up accepted."},
    "bare-ask": {"kind": "bare-ask", "message": "Lay out the tiles."},
    "bare-table": {"kind": "bare-table", "message": "Now the pieces."},
    "bare-refused": {"kind": "bare-refused", "problem": "moving", "message": "Moving."},
    "resumed": {"kind": "resumed", "game": 3, "message": "Resumed game 3."},
    "answered-yes": {"kind": "answered", "answer": "yes", "message": "Answered yes."},
    "answered-no": {"kind": "answered", "answer": "no", "message": "Answered no."},
    "corrected": {"kind": "corrected", "zone": "court:north", "message": "Corrected."},
    "cubes-placed": {
        "kind": "cubes-placed",
        "player": "Anna",
        "court": ["red"],
        "territories": {"3": ["blue"]},
        "count": 2,
        "of": 3,
        "message": "Anna has placed 2 of 3 cubes.",
    },
    "castle-pending": {
        "kind": "castle-pending",
        "territories": [9],
        "side": "white",
        "message": "Said.",
    },
    "cylinder-pending": {
        "kind": "cylinder-pending",
        "colour": "yellow",
        "to": "south",
        "message": "Said.",
    },
    "cylinder-pending-pool": {
        "kind": "cylinder-pending",
        "colour": "yellow",
        "to": "pool",
        "message": "Said.",
    },
    "cylinder-moved": {
        "kind": "cylinder-moved",
        "colour": "green",
        "to": "east",
        "message": "Said.",
    },
    "cylinder-moved-pool": {
        "kind": "cylinder-moved",
        "colour": "green",
        "to": "pool",
        "message": "Said.",
    },
    "question": {
        "kind": "question",
        "zone": "territory:7",
        "part": None,
        "counts": {"yellow": 1},
        "message": "Said.",
    },
    "training-on": {"kind": "training", "on": True},
    "training-off": {"kind": "training", "on": False},
    "game-started": {"kind": "game-started"},
    "game-ended": {"kind": "game-ended"},
}

#: Example values of a message's fields, by the field's name (see `_FIELD_WORDS`).
VALUES: dict[str, object] = {
    "cubes": ["red", "blue", "blue"],
    "player": "Anna",
    "actor": "Bob",
    "mover": "Bob",
    "took": "Bob",
    "order": "Anna, Bob",
    "territory": 7,
    "territories": [4, 5],
    "side": "white",
    "old": "black",
    "colour": "red",
    "place": "Anna",
    "place2": "pool",
    "reserve": "north",
    "tray": "Anna",
    "numbers": [1, 2],
    "discs": [2, 4],
    "castles": ["white", "grey"],
    "sides": ["white", "black", "grey"],
    "seats": ["south", "west", "north", "east"],
    "where": [4, 5, 6],
    "counted": {"cubes": ["red", "red", "blue"], "castles": 2},
    "units": [[True, [4, 5], "white", [1, 0, 0, 2, 0]], [False, [6], None, [0, 0, 0, 0, 0]]],
    "pieces": ["red", "red", "green"],
    "colours": ["red", "green", "yellow", "blue", "pink"],
    "refilled": ["red", "blue"],
    "part": "court south",
    "zones": ["territory:4", "reserve:south", "emperor", "cylinder:red"],
    "expected": "Bob",
    "given": "'16'",
    "clause": {"say": "No emperor on the ring?", "words": {}},
    "clauses": [
        {"say": "%(cubes)s to the court", "words": {"cubes": ["red"]}},
        {
            "say": "%(cubes)s on territory %(territory)s",
            "words": {"cubes": ["blue"], "territory": 3},
        },
    ],
    "items": [
        {
            "say": "%(player)s (%(side)s, %(seat)s) %(cubes)s",
            "words": {"player": "Anna", "side": "white", "seat": "south", "cubes": ["red"]},
        },
        {
            "say": "%(player)s (%(side)s, %(seat)s) %(cubes)s",
            "words": {"player": "Bob", "side": "black", "seat": "north", "cubes": ["pink"]},
        },
    ],
}

#: The modules whose messages travel with their msgid and fields (`said`, and `N_` for a
#: msgid chosen before `said` is called): the table referee's and the rules' own.
SAID = {
    "problems.py": {"said": None},
    "doubts.py": {"said": None},
    "reading.py": {"said": None, "N_": None},
    "referee.py": {"said": None, "N_": None},
    "corrections.py": {"said": None},
}
RULES = [
    ROOT / "referee" / "game.py",
    ROOT / "referee" / "setup.py",
    ROOT / "referee" / "check.py",
    ROOT / "referee" / "record.py",  # why a file is not a record
    ROOT / "firmware" / "hub.py",  # a refused command's own words around the referee's
    ROOT / "firmware" / "appliance.py",  # the appliance's own refusals
    ROOT / "firmware" / "bare.py",
    ROOT / "firmware" / "follow.py",  # carolus follow --ask: an answer it cannot take
    ROOT / "web" / "api.py",  # the API's own refusals (400, 401, 501)
    ROOT / "web" / "validate.py",  # a correction sent wrong (400)
]


def _free_text() -> dict[str, str]:
    """Every message the table referee words with `said` (its illegal acts and its
    questions), by msgid, as pybabel extracts them."""
    found = {}
    paths = [(ROOT / "referee" / "table" / name, keys) for name, keys in SAID.items()]
    paths += [(path, {"said": None, "N_": None}) for path in RULES]
    for path, keys in paths:
        for _, msgid, _, _ in extract_from_file("python", str(path), keywords=keys):
            found[f"said: {msgid}"] = msgid
    assert len(found) > 120
    return found


FREE_TEXT = _free_text()


def _said_event(msgid: str) -> dict[str, Any]:
    names = re.findall(r"%\((\w+)\)s", msgid)
    words = {n: VALUES.get(n, VALUES.get(n.rstrip("0123456789"), 3)) for n in names}
    text = said(msgid, **words)
    kind = "question" if text.endswith("?") else "illegal"
    return {
        "kind": kind,
        "code": "cube-moved",
        "zone": "territory:7",
        "say": text.msgid,
        "words": text.words,
        "message": str(text),
    }


ALL = {**EVENTS, **{key: _said_event(msgid) for key, msgid in FREE_TEXT.items()}}

#: Words that are the same in English and another language (names, shared words),
#: or short words that are words in both (Italian "a", Finnish "on").
SAME = {
    "anna",
    "bob",
    "carolus",  # the game's name
    "magnus",
    "region",  # de
    "reserve",  # de
    "a",  # it, hu: "to", "the"
    "an",  # de: "on" ("Trainingsmodus an")
    "in",  # de, it
    "e",  # it: "and"
    "is",
    "no",  # it: "no"
    "on",  # fi: "is"
    "per",  # it: "by", "for"
    "due",  # it: "two" (werkzeug's 422 says "due to", web/statuses.py)
    "most",  # hu: "now"
    "pin",  # the PIN, a PIN-kód, PIN-koodi
    "json",  # the format's name
    "text",  # de: "Text"
    "file",  # it: "file"
    "west",  # de: the seat "West"
    # the command line's help (issue 17: argparse in the table's language)
    "video",  # de, it, fi
    "layout",  # de: das Layout
    "also",  # de: "so"
    "was",  # de: "what"
    "serve",  # it: "is needed"
}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _english_vocabulary() -> set[str]:
    """Every word of the English sentences: all msgids of the catalogs (the page's too),
    the English titles of the illegal codes, and the examples as English renders them."""
    words: set[str] = set()
    with (ROOT / "web" / "translations" / "messages.pot").open("rb") as pot:
        template = read_po(pot)
    english = translations("en")
    for message in template:
        if not message.id or message.context == "letter":
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            words |= _words(re.sub(r"%\(\w+\)s", " ", msgid))
        if message.context == "illegal":
            words |= _words(str(english.pgettext("illegal", message.id)))
    for event in ALL.values():
        words |= _words(render_json(event, ENGLISH) or "")
    return {w for w in words if len(w) > 1} - SAME


ENGLISH_WORDS = _english_vocabulary()


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("name", sorted(ALL))
def test_every_event_is_a_whole_sentence_in_every_language(name: str, lang: str) -> None:
    event = ALL[name]
    text = render_json(event, translations(lang))
    assert text, (name, lang)
    assert "%(" not in text and text != event["kind"], (name, lang, text)
    assert text[:1] == text[:1].upper() or text[:1].isdigit() or name.startswith("said"), text
    if lang == "en":
        return
    english = render_json(event, translations("en"))
    assert text != english, (name, lang, text)
    left = _words(text) & ENGLISH_WORDS
    assert not left, f"{lang} {name}: English words {sorted(left)} in {text!r}"


def test_english_is_the_referees_own_words() -> None:
    """In English the table's events keep their ``message`` and a free-text message reads
    exactly as before it had fields (`said` keeps the English sentence)."""
    for name, event in ALL.items():
        text = render_json(event, translations("en")) or ""
        if event.get("say") and event["kind"] == "question":
            assert text == event["message"][:1].upper() + event["message"][1:], name
        elif event.get("say"):
            assert text.endswith(": " + event["message"]), name


def test_every_free_text_message_is_in_the_catalogs() -> None:
    for lang in OTHERS:
        tr = translations(lang)
        for msgid in FREE_TEXT.values():
            assert tr.gettext(msgid) != msgid, (lang, msgid)


KEYWORDS = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": None,
    "said": None,
    "mark": ((1, "c"), 2),
    "_d": ((2, "c"), 3),
}


def test_every_word_of_the_referee_and_the_display_is_translated() -> None:
    """What `web/babel.cfg` extracts from outside the page (the page's own words are in
    `tests/web/test_web_i18n.py`): in every catalog, translated, nothing left fuzzy."""
    # every Python file the catalogs are extracted from, as web/babel.cfg names them
    sections = re.findall(r"^\[python: (.+)\]$", (ROOT / "web" / "babel.cfg").read_text(), re.M)
    globs = [pattern.replace("**.", "**/*.") for pattern in sections]  # babel's ** -> pathlib's
    sources = sorted({path for pattern in globs for path in ROOT.glob(pattern)})
    assert ROOT / "firmware" / "watch.py" in sources and ROOT / "web" / "api.py" in sources
    used = set()
    for path in sources:
        for _, message, _, context in extract_from_file("python", str(path), KEYWORDS):
            used.add((context, message[0] if isinstance(message, tuple) else message))
    assert len(used) > 230
    for lang in OTHERS:
        with (ROOT / "web" / "translations" / lang / "LC_MESSAGES" / "messages.po").open(
            "rb"
        ) as po:
            catalog = read_po(po, locale=lang)
        for context, msgid in used:
            entry = catalog.get(msgid, context=context)
            assert entry is not None and not entry.fuzzy, (lang, context, msgid)
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            assert all(strings), (lang, context, msgid)


def test_a_bad_set_up_and_a_refused_seat_are_said_in_hungarian() -> None:
    """The set-up's configuration errors and the table referee's refusals keep their
    msgid and fields (issue 17): the same English, and Hungarian at a Hungarian table."""
    from referee.errors import BadSetupError, RefusedError
    from referee.setup import Player, Setup
    from referee.table.referee import TableReferee

    hu = translations("hu")
    five = tuple(Player(name, "white") for name in ("A", "B", "C", "D", "E"))
    with pytest.raises(BadSetupError) as crowded:
        Setup(five, ("red",) * 15, 1).check()
    assert str(crowded.value) == "Carolus Magnus is for 2, 3 or 4 players, not 5"
    assert translated(crowded.value.message, hu) == (
        "A Carolus Magnust 2, 3 vagy 4 játékos játssza, nem 5"
    )
    twins = (Player("Anna", "white"), Player("Anna", "black"))
    with pytest.raises(BadSetupError) as named:
        Setup(twins, ("red",) * 15, 1).check()
    assert translated(named.value.message, hu) == "a(z) 'Anna' játékosnév 2 alkalommal szerepel"
    seatless = [Player("Anna", "white", "kitchen"), Player("Bob", "black", "north")]
    with pytest.raises(RefusedError) as refused:
        TableReferee(seatless)
    assert str(refused.value) == "Anna needs a seat (south, west, north, east), not 'kitchen'"
    assert translated(refused.value.message, hu) == (
        "Anna számára oldalt kell választani (dél, nyugat, észak, kelet), nem ezt: 'kitchen'"
    )
