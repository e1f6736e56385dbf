"""The OLED's screens: pure drawings of the view model on a 128x64 one-bit canvas.

Each ``draw_<screen>(draw, ...)`` paints one screen from plain data (the view model of
`firmware.view`, an event's card of fields (`firmware.display.cards`), the words of an
event or a chore, a `firmware.view.majority_view` dict) and nothing else,
so the panel, the web mirror and the tests all get the same pixels. The layout is built
for arm's length: the line that matters is in 16-pixel letters, details in 8-pixel ones.
Colours of cubes are written as words or initials (R G Y B P) — the panel is monochrome.

Every word on the panel is the table's language: the referee's sentences come from
`referee.announcements.render` (the one vocabulary), and the panel's own short words are
in the same catalogs under the context ``display`` (``tr.pgettext("display", …)``),
written short enough for 128 pixels — `tests/firmware/test_display_languages.py` draws
every screen in every language and fails on a cut word.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from firmware.display.cards import Castle, Cubes, Cylinder
from firmware.display.font import BIG, CASTLE, SMALL, TALL, Font
from firmware.display.words import language_of, word
from firmware.view import NEW_GAME
from referee.announcements import (
    ENGLISH,
    Translator,
    colour,
    illegal_detail,
    mark,
    render,
    render_json,
    side,
    speaks_english,
)
from referee.table.events import Illegal, TableEvent
from web.i18n import translations

WIDTH = 128
HEIGHT = 64
ON = "white"
OFF = "black"

#: Small-font line pitch and where the body starts below the title bar.
LINE = 9
BODY = 11

View = Mapping[str, Any]


# ---------------------------------------------------------------- building blocks


def _bar(draw: ImageDraw.ImageDraw, title: str, right: str = "") -> None:
    """The title bar: white band, black small capitals, an optional note on the right."""
    draw.rectangle((0, 0, WIDTH - 1, 8), fill=ON)
    room = WIDTH - 4
    if right:
        room -= SMALL.width(right) + 4
        SMALL.draw(draw, (WIDTH - 2 - SMALL.width(right), 1), right, fill=OFF)
    SMALL.draw(draw, (2, 1), SMALL.fit(title.upper(), room), fill=OFF)


def _line(
    draw: ImageDraw.ImageDraw, y: int, text: str, *, x: int = 0, fill: str = ON, big: bool = True
) -> int:
    """One line, big when it fits the width, else small (cut with ".."); the next y."""
    font: Font = BIG if big and BIG.width(text) <= WIDTH - x else SMALL
    font.draw(draw, (x, y), font.fit(text, WIDTH - x), fill=fill)
    return y + (16 if font is BIG else LINE)


def _text(
    draw: ImageDraw.ImageDraw, y: int, text: str, *, fill: str = ON, bottom: int = HEIGHT
) -> int:
    """A sentence in the space from ``y`` to ``bottom``: big letters if it fits, else tall
    narrow ones, else small, the last line cut with ".." when even those do not fit."""
    for font, pitch in ((BIG, 16), (TALL, 16), (SMALL, LINE)):
        lines = font.wrap(text, WIDTH)
        room = max(1, (bottom - y + (pitch - font.height)) // pitch)
        if len(lines) <= room or font is SMALL:
            if len(lines) > room:
                lines = [*lines[: room - 1], font.fit(" ".join(lines[room - 1 :]), WIDTH)]
            for line in lines:
                font.draw(draw, (0, y), line, fill=fill)
                y += pitch
            return y
    return y  # pragma: no cover - the small font always returns


def text_fits(text: str, y: int, bottom: int = HEIGHT) -> bool:
    """Whether `_text` can write ``text`` between ``y`` and ``bottom`` without cutting it."""
    for font, pitch in ((BIG, 16), (TALL, 16), (SMALL, LINE)):
        room = max(1, (bottom - y + (pitch - font.height)) // pitch)
        if len(font.wrap(text, WIDTH)) <= room:
            return True
    return False


def where(territories: Sequence[int]) -> str:
    """``7`` or ``4+5+6``."""
    return "+".join(str(t) for t in territories)


def _d(tr: Translator, context: str, text: str) -> str:
    """The panel's own short words in the table's language: ``context`` is always
    ``display`` (the catalogs keep the panel's short forms apart from the page's words;
    extracted with ``-k _d:2c,3``)."""
    return str(tr.pgettext(context, text))


def _unit_name(tr: Translator, territories: Sequence[int]) -> str:
    if len(territories) == 1:
        return _d(tr, "display", "territory %(territory)s") % {"territory": territories[0]}
    return _d(tr, "display", "region %(territories)s") % {"territories": where(territories)}


def _letter(tr: Translator, name: str) -> str:
    """A cube colour's initial, as the page letters its cubes (``letter`` in the catalogs)."""
    letter = str(tr.pgettext("letter", name))
    return letter if letter != name else name[:1].upper()


def _scores(draw: ImageDraw.ImageDraw, view: View, y: int) -> None:
    """Each player's territories under his castles, e.g. ``Anna ⌂1  Bob ⌂0``."""
    players = view.get("players", [])
    text = ""
    for letters in (99, 3, 1):  # whole names, else their first letters
        text = "  ".join(f"{p['name'][:letters]} {CASTLE}{p['territories']}" for p in players)
        if SMALL.width(text) <= WIDTH:
            break
    SMALL.draw(draw, (0, y), SMALL.fit(text, WIDTH), fill=ON)


def cubes_to_play(view: View, name: str) -> int:
    """3 cubes a turn (4 with three players), or the whole reserve if it holds fewer."""
    players = view.get("players", [])
    per_turn = 4 if len(players) == 3 else 3
    for p in players:
        if p["name"] == name:
            return min(per_turn, sum(int(n) for n in p["reserve"].values()))
    return per_turn


# ---------------------------------------------------------------- screens


def draw_turn(draw: ImageDraw.ImageDraw, view: View, tr: Translator = ENGLISH) -> None:
    """The live view: round, whose turn, what he does now, castles per player."""
    if view.get("phase") == "setup" or not view.get("players"):
        draw_setup(draw, view)
        return
    name = view.get("to_move") or ""
    player = next((p for p in view.get("players", []) if p["name"] == name), None)
    camera = view.get("status", {}).get("camera")
    note = {"lost": _d(tr, "display", "NO CAMERA"), "demo": _d(tr, "display", "DEMO")}.get(
        camera or "", ""
    )
    _bar(draw, _d(tr, "display", "Round %(round)s") % {"round": view.get("round", 0)}, note)
    y = _line(draw, BODY, name or "-")
    step = view.get("step")
    if view.get("phase") == "opening":
        discs = " ".join(str(d) for d in (player or {}).get("discs", []))
        doing, then = (
            _d(tr, "display", "chooses a disc"),
            _d(tr, "display", "left: %(discs)s") % {"discs": discs},
        )
    elif step == "cubes":
        disc = (player or {}).get("disc")
        doing = _d(tr, "display", "plays %(count)s cubes") % {"count": cubes_to_play(view, name)}
        then = _d(tr, "display", "disc %(disc)s") % {"disc": disc}
    elif step == "emperor":
        disc = (player or {}).get("disc") or 1
        doing = _d(tr, "display", "moves the emperor")
        then = (
            _d(tr, "display", "1 to %(disc)s steps") % {"disc": disc}
            if disc > 1
            else _d(tr, "display", "1 step")
        )
    elif step == "refill":
        doing, then = _d(tr, "display", "refills his reserve"), ""
    else:
        doing, then = "", ""
    order = list(view.get("order", []))
    if name in order and order.index(name) + 1 < len(order):
        after = _d(tr, "display", "next %(player)s") % {"player": order[order.index(name) + 1]}
        then = f"{then}, {after}" if then else after
    y = _line(draw, y + 1, doing, big=False)
    _line(draw, y, then, big=False)
    _scores(draw, view, HEIGHT - 8)


#: How `firmware.appliance` words its default set-up message (English only): the panel
#: says it in its own language instead, in words written to fit (`words.WORDS`).
APPLIANCE_SETUP = "Set up the table"

#: The camera's state in the set-up title bar: the long note, else a short one that
#: leaves the title whole.
_SETUP_NOTES = {
    "lost": (mark("display", "NO CAMERA"), mark("display", "NO CAM")),
    "demo": (mark("display", "DEMO"), mark("display", "DEMO")),
    "ok": (mark("display", "camera ok"), mark("display", "cam ok")),
}


def setup_lines(view: View, language: str = "en") -> tuple[str, str, str, str, str]:
    """What the set-up screen writes: (title, note, names, message, bottom line).

    The appliance's default message becomes the panel's own words in ``language``; any
    other message (the camera's trouble, a new game) is shown in ``language`` as the view
    gives it (``status.texts``), else as it comes. ``names`` is
    empty when the message needs the room.
    """
    camera = view.get("status", {}).get("camera")
    title = word(language, "title", upper=True)
    tr = translations(language_of(language))
    note = ""
    for candidate in _SETUP_NOTES.get(camera or "", ()):
        note = _d(tr, *candidate)
        if SMALL.width(title) <= WIDTH - 4 - (SMALL.width(note) + 4 if note else 0):
            break
    status = view.get("status", {})
    message = str(status.get("message") or "")
    bottom = ""
    if not message or message.startswith(APPLIANCE_SETUP):
        message, bottom = word(language, "pieces"), word(language, "then")
    elif status.get("say") == NEW_GAME:
        # the names have a line of their own here: four long ones in a whole sentence
        # would not fit the panel
        message = _d(tr, "display", "New game: set up the table.")
    else:  # the appliance's words in the panel's language, where the view gives them
        message = str((status.get("texts") or {}).get(language_of(language)) or message)
    names = ""
    for letters in (99, 3, 1):  # whole names, else their first letters
        names = "  ".join(p["name"][:letters] for p in view.get("players", []))
        if SMALL.width(names) <= WIDTH:
            break
    end = HEIGHT - 9 if bottom else HEIGHT
    if not text_fits(message, BODY + 1 + LINE, end):
        names = ""
    return title, note, names, message, bottom


def draw_setup(draw: ImageDraw.ImageDraw, view: View, language: str = "en") -> None:
    """Before round 1: who plays, and what to lay out, in the panel's language; every
    line whole (a long message takes the names' line)."""
    title, note, names, message, bottom = setup_lines(view, language)
    _bar(draw, title, note)
    y = BODY + 1
    if names:
        SMALL.draw(draw, (0, y), names, fill=ON)
        y += LINE
    _text(draw, y, message, bottom=HEIGHT - 9 if bottom else HEIGHT)
    if bottom:
        SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(bottom, WIDTH), fill=ON)


def draw_lay_out(draw: ImageDraw.ImageDraw, view: View, language: str = "en") -> None:
    """The set-up step, 1 of 2: the tiles and court cards alone, then Confirm (the camera
    learns the bare table); after a refused Confirm, why, and to try again."""
    bare = view.get("bare") or {}
    problem = bare.get("problem")
    _bar(draw, word(language, "title", upper=True), "1/2")
    body = word(language, str(problem)) if problem else word(language, "ask")
    _text(draw, BODY + 1, body, bottom=HEIGHT - 9)
    bottom = word(language, "again" if problem else "press")
    SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(bottom, WIDTH), fill=ON)


def draw_pieces(draw: ImageDraw.ImageDraw, view: View, language: str = "en") -> None:
    """The set-up step, 2 of 2: the bare table is learnt, now the pieces."""
    _bar(draw, word(language, "title", upper=True), "2/2")
    _text(draw, BODY + 1, word(language, "pieces"), bottom=HEIGHT - 9)
    SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(word(language, "then"), WIDTH), fill=ON)


def draw_cubes(
    draw: ImageDraw.ImageDraw, view: View, cubes: Cubes, tr: Translator = ENGLISH
) -> None:
    """Cubes played (or being placed): where each went, as big colour initials."""
    player = cubes.player
    rows: list[tuple[str, list[str]]] = []
    if cubes.court:
        rows.append((_d(tr, "display", "court"), list(cubes.court)))
    for territory, put in cubes.territories:
        if put:
            rows.append(
                (_d(tr, "display", "T%(territory)s") % {"territory": territory}, list(put))
            )
    total = sum(len(colours) for _, colours in rows)
    count = tr.npgettext("display", "%(count)s cube", "%(count)s cubes", total)
    _bar(
        draw,
        _d(tr, "display", "%(player)s plays") % {"player": player},
        str(count) % {"count": total},
    )
    if not rows:
        _line(draw, BODY, _d(tr, "display", "no cubes"))
        return
    big = len(rows) <= 3
    y = BODY
    for label, colours in rows:
        letters = " ".join(_letter(tr, c) for c in colours)
        if big:
            SMALL.draw(draw, (0, y + 4), label, fill=ON)
            _line(draw, y, letters, x=38)
            y += 17
        else:
            SMALL.draw(draw, (0, y), label, fill=ON)
            SMALL.draw(draw, (38, y), SMALL.fit(letters, WIDTH - 38), fill=ON)
            y += LINE


def draw_castle(
    draw: ImageDraw.ImageDraw,
    view: View,
    castle: Castle,
    *,
    title: str = "",
    note: str = "",
    tr: Translator = ENGLISH,
) -> None:
    """ "White castle in 7": a castle the rules built (or took over) that must stand there."""
    _bar(draw, title or _d(tr, "display", "Castle to place"), note)
    y = _line(draw, BODY, side(tr, castle.side).capitalize())
    territories = castle.territories
    y = _line(draw, y + 1, _d(tr, "display", "castle in %(where)s") % {"where": where(territories)})
    _line(draw, y + 2, _next_hint(view, tr), big=False)


def draw_cylinder(
    draw: ImageDraw.ImageDraw,
    view: View,
    cylinder: Cylinder,
    *,
    title: str = "",
    note: str = "",
    tr: Translator = ENGLISH,
) -> None:
    """ "Move the red cylinder to Anna": control changed hands, the cylinder must follow."""
    _bar(draw, title or _d(tr, "display", "Move the cylinder"), note)
    y = _line(draw, BODY, colour(tr, cylinder.colour).capitalize())
    y = _line(draw, y + 1, _d(tr, "display", "to %(player)s") % {"player": cylinder.to})
    _line(draw, y + 2, _next_hint(view, tr), big=False)


def draw_chore(
    draw: ImageDraw.ImageDraw,
    view: View,
    chore: Mapping[str, Any],
    *,
    note: str = "",
    tr: Translator = ENGLISH,
) -> None:
    """A chore the table still owes, given in words only (``{"kind": "chore",
    "message": "move the red cylinder to Anna's court"}``): the sentence, big if it fits.
    ``chore`` is the view model's (its JSON: the page shows the same chores)."""
    _bar(draw, _d(tr, "display", "To do"), note)
    message = str(render_json(chore, tr) or "")
    _text(draw, BODY + 1, message[:1].upper() + message[1:] + ".", bottom=HEIGHT - 9)
    SMALL.draw(
        draw, (0, HEIGHT - 8), SMALL.fit(_d(tr, "display", "Confirm when done"), WIDTH), fill=ON
    )


#: The steps of a turn, as the panel names them under a chore.
_STEPS = {
    "cubes": mark("display", "cubes"),
    "emperor": mark("display", "emperor"),
    "refill": mark("display", "refill"),
    None: mark("display", "discs"),
}


def _next_hint(view: View, tr: Translator = ENGLISH) -> str:
    """Under a chore: who is playing meanwhile, so the live view is not missed."""
    name = view.get("to_move")
    step = view.get("step") or None
    doing = _d(tr, *_STEPS[step]) if step in _STEPS else str(step)
    return (
        _d(tr, "display", "now: %(player)s, %(step)s") % {"player": name, "step": doing}
        if name
        else ""
    )


def draw_illegal(
    draw: ImageDraw.ImageDraw,
    view: View,
    illegal: Illegal | Mapping[str, Any],
    tr: Translator = ENGLISH,
) -> None:
    """An illegal act, shown inverted (white screen) until the table is put right:
    the referee's `Illegal` event, or the act the view model says stands
    (``table.illegal``, JSON: the page shows the same)."""
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=ON)
    if isinstance(illegal, Illegal):
        code, player = illegal.code, illegal.player or ""
    else:
        code, player = str(illegal.get("code") or ""), str(illegal.get("player") or "")
    right = BIG.draw(draw, (2, 1), _d(tr, "display", "ILLEGAL"), fill=OFF) + 4
    shown = code if speaks_english(tr) else ""  # the code is the English rule's id
    for y, note in ((1, player), (9, shown)):
        if note and SMALL.width(note) <= WIDTH - 2 - right:
            SMALL.draw(draw, (WIDTH - 2 - SMALL.width(note), y), note, fill=OFF)
    message = illegal_detail(illegal, tr) or code
    lines = SMALL.wrap(message, WIDTH - 4)
    room = 5
    if len(lines) > room:
        lines = [*lines[: room - 1], SMALL.fit(" ".join(lines[room - 1 :]), WIDTH - 4)]
    y = 19
    for line in lines:
        SMALL.draw(draw, (2, y), line, fill=OFF)
        y += LINE


def draw_question(
    draw: ImageDraw.ImageDraw, view: View, question: Mapping[str, Any], tr: Translator = ENGLISH
) -> None:
    """The referee doubts the camera ("1 yellow on territory 7?"): the question, and which
    button answers what. Drawn plain, not inverted: it is no alarm. ``question`` is the
    view model's (``table.question``, JSON: the page shows the same)."""
    _bar(draw, _d(tr, "display", "Is this right?"))
    _text(draw, BODY + 1, question_text(question, tr), bottom=HEIGHT - 9)
    SMALL.draw(
        draw, (0, HEIGHT - 8), SMALL.fit(_d(tr, "display", "Confirm=yes Maj.=no"), WIDTH), fill=ON
    )


def question_text(question: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """The question the panel asks, in ``tr``'s language, from the view model's
    ``table.question``. The view keeps the question's fields but not its kind (the page
    knows where it reads it), so it is said as a ``question`` event: from its zone and
    counts, and in English the referee's own words."""
    asked = {"kind": "question", **question}
    return str(render_json(asked, tr) or question.get("zone") or "")


def draw_majority(
    draw: ImageDraw.ImageDraw,
    majority: Mapping[str, Any],
    page: int = 1,
    pages: int = 1,
    tr: Translator = ENGLISH,
) -> None:
    """One territory or region on demand: each side's strength (big) and what it is made
    of (castles ⌂, cubes of the colours it controls), then what the emperor would do."""
    territories = list(majority.get("territories", []))
    owner = majority.get("owner")
    castle = f" {CASTLE}{_side_name(tr, owner)}" if owner else ""
    note = f"{page}/{pages}"
    room = WIDTH - 8 - SMALL.width(note)
    title = _unit_name(tr, territories) + castle
    if SMALL.width(title.upper()) > room:  # "4+5+6 ⌂WHITE" rather than a cut word
        title = where(territories) + castle
    _bar(draw, title, note)
    sides = list(majority.get("sides", []))
    pitch = 18 if len(sides) <= 2 else 17
    y = BODY
    for side in sides:  # noqa: F402 - a majority's side, not the word function
        total = str(side.get("total", 0))
        BIG.draw(draw, (22 - BIG.width(total), y + 1), total, fill=ON)
        who = f"{_side_name(tr, side.get('side', ''))} {' '.join(side.get('players', []))}"
        SMALL.draw(draw, (28, y), SMALL.fit(who, WIDTH - 28), fill=ON)
        SMALL.draw(draw, (28, y + 8), _made_of(side, WIDTH - 28, tr), fill=ON)
        y += pitch
    if len(sides) <= 2:
        SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(_verdict(majority, tr), WIDTH), fill=ON)


COLOURS = ("red", "green", "yellow", "blue", "pink")


def _side_name(tr: Translator, name: object) -> str:
    return side(tr, str(name))


def _initials(colours: Sequence[str], tr: Translator = ENGLISH) -> str:
    """``["yellow", "red", "yellow"]`` -> ``1R2Y`` (colour order, initials)."""
    return "".join(f"{colours.count(c)}{_letter(tr, c)}" for c in COLOURS if c in colours)


def hint_words(hint: Mapping[str, Any], tr: Translator = ENGLISH) -> tuple[str, str]:
    """A hint in a few words: ``("2Y court 1Y 6", "emperor 3 -> take 5+6+7")``."""
    court = _d(tr, "display", "%(cubes)s court")
    parts = [court % {"cubes": _initials(hint.get("court", []), tr)}] if hint.get("court") else []
    territories = dict(hint.get("territories", {}))
    parts += [f"{_initials(colours, tr)} {key}" for key, colours in territories.items()]
    verdict = {"build": _d(tr, "display", "build"), "take": _d(tr, "display", "take")}.get(
        str(hint.get("outcome")), _d(tr, "display", "no castle")
    )
    stop = where(list(hint.get("stop", [])))
    then = _d(tr, "display", "emperor %(steps)s -> %(verdict)s %(stop)s") % {
        "steps": hint.get("emperor"),
        "verdict": verdict,
        "stop": stop,
    }
    return " ".join(parts) or _d(tr, "display", "no cubes"), then


def _threat_words(threat: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """``Bob take 5+6 3c`` or ``Bob win red 2c``."""
    if "colour" in threat:
        return _d(tr, "display", "%(player)s win %(colour)s %(needs)sc") % {
            "player": threat.get("player"),
            "colour": colour(tr, str(threat.get("colour"))),
            "needs": threat.get("needs"),
        }
    action = _d(tr, "display", "take") if threat.get("owner") else _d(tr, "display", "build")
    unit = where(threat.get("territories", []))
    cubes = int(threat.get("cubes") or 0)
    cost = (
        _d(tr, "display", "%(cubes)sc") % {"cubes": cubes} if cubes else _d(tr, "display", "free")
    )
    return f"{threat.get('player')} {action} {unit} {cost}"


def draw_advice(
    draw: ImageDraw.ImageDraw,
    advice: Mapping[str, Any],
    page: int = 1,
    pages: int = 1,
    tr: Translator = ENGLISH,
) -> None:
    """The advisor's page (training mode): the best play for the player about to play
    cubes, in a few words, and how many threats the others hold; before the cubes step,
    the nearest threats instead."""
    note = f"{page}/{pages}" if pages > 1 else ""
    hint = advice.get("hint")
    threats = dict(advice.get("threats", {}))
    found = list(threats.get("units", [])) + list(threats.get("colours", []))
    if hint:
        player = str(hint.get("player", ""))
        _bar(draw, _d(tr, "display", "Hint %(player)s") % {"player": player}, note)
        y = BODY
        for words in hint_words(hint, tr):  # big letters if they fit, else tall narrow ones
            font: Font = next((f for f in (BIG, TALL) if f.width(words) <= WIDTH), SMALL)
            font.draw(draw, (0, y), font.fit(words, WIDTH), fill=ON)
            y += 17 if font is not SMALL else LINE
        others = [t for t in found if t.get("player") != player]
        names = sorted({str(t.get("player")) for t in others})
        if others:
            watch = _d(tr, "display", "watch %(players)s: %(count)s threats") % {
                "players": " ".join(names),
                "count": len(others),
            }
        else:
            watch = _d(tr, "display", "no threats next")
        SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(watch, WIDTH), fill=ON)
        return
    _bar(draw, _d(tr, "display", "Advisor"), note)
    if not found:
        _text(draw, BODY + 1, _d(tr, "display", "No hint now, no threats"))
        return
    SMALL.draw(
        draw, (0, BODY), SMALL.fit(_d(tr, "display", "No hint now. Threats:"), WIDTH), fill=ON
    )
    y = BODY + LINE + 1
    for threat in sorted(found, key=lambda t: int(t.get("cubes", t.get("needs", 0)) or 0))[:4]:
        SMALL.draw(draw, (0, y), SMALL.fit(_threat_words(threat, tr), WIDTH), fill=ON)
        y += LINE


def _made_of(side: Mapping[str, Any], width: int, tr: Translator = ENGLISH) -> str:
    castles = int(side.get("castles", 0))
    cubes = {c: n for c, n in dict(side.get("cubes", {})).items() if n}
    words = ([f"{castles}{CASTLE}"] if castles else []) + [
        f"{n} {colour(tr, c)}" for c, n in cubes.items()
    ]
    text = " ".join(words) or _d(tr, "display", "nothing")
    if SMALL.width(text) > width:
        short = ([f"{castles}{CASTLE}"] if castles else []) + [
            f"{n}{_letter(tr, c)}" for c, n in cubes.items()
        ]
        text = " ".join(short)
    return SMALL.fit(text, width)


def _verdict(majority: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    words = {
        "side": side(tr, str(majority.get("side"))),
        "owner": side(tr, str(majority.get("owner"))),
    }
    verdicts = {
        "build": _d(tr, "display", "-> %(side)s would build"),
        "take": _d(tr, "display", "-> %(side)s would take it"),
        "keep": _d(tr, "display", "-> %(owner)s keeps it"),
    }
    return (
        verdicts.get(str(majority.get("outcome")), _d(tr, "display", "-> nothing happens")) % words
    )


def draw_announcement(
    draw: ImageDraw.ImageDraw,
    view: View,
    event: TableEvent,
    *,
    note: str = "",
    tr: Translator = ENGLISH,
) -> None:
    """Any other announcement: a title for its kind and the referee's sentence."""
    kind = event.kind
    _bar(draw, title(tr, kind), note)
    _text(draw, BODY + 1, render(event, tr) or kind.replace("-", " "))


def title(tr: Translator, kind: str) -> str:
    """The title bar of an announcement of ``kind``."""
    return _d(tr, *TITLES[kind]) if kind in TITLES else kind.replace("-", " ")


def draw_game_over(draw: ImageDraw.ImageDraw, view: View, tr: Translator = ENGLISH) -> None:
    """The end: who won and why, with the final castles."""
    _bar(
        draw,
        _d(tr, "display", "Game over"),
        _d(tr, "display", "round %(round)s") % {"round": view.get("round", 0)},
    )
    winner = str(view.get("winner") or "")
    won = _d(tr, "display", "%(winner)s wins") % {"winner": side(tr, winner)}
    y = _line(draw, BODY, _d(tr, "display", "A draw") if winner == "draw" else won)
    reason = view.get("reason")
    why = {
        "castles": _d(tr, "display", "by castles"),
        "few-territories": _d(tr, "display", "under 4 territories"),
    }.get(str(reason), str(reason or ""))
    _line(draw, y + 2, why, big=False)
    _scores(draw, view, HEIGHT - 8)


#: The title bar of each announcement, by event kind.
TITLES = {
    "control-gained": mark("display", "Control"),
    "castle-built": mark("display", "New castle"),
    "castle-taken": mark("display", "Takeover"),
    "merged": mark("display", "Region"),
    "returned": mark("display", "Supply short"),
    "emperor-moved": mark("display", "Emperor"),
    "refilled": mark("display", "Refill"),
    "turn-started": mark("display", "Turn"),
    "disc-chosen": mark("display", "Disc"),
    "undone": mark("display", "Undone"),
    "confirmed": mark("display", "Confirmed"),
    "corrected": mark("display", "Corrected"),
    "resolved": mark("display", "Table in order"),
    "setup": mark("display", "Set-up"),
    "resumed": mark("display", "Resumed"),
    "castle-pending": mark("display", "Castle to place"),
    "cylinder-pending": mark("display", "Move the cylinder"),
    "castles-placed": mark("display", "Castles placed"),
    "cylinder-moved": mark("display", "Cylinder moved"),
    "game-over": mark("display", "Game over"),
    "bare-ask": mark("display", "Set-up"),
    "bare-refused": mark("display", "Set-up"),
    "bare-table": mark("display", "Set-up"),
    "game-started": mark("display", "New game"),
    "game-ended": mark("display", "Game ended"),
    "training": mark("display", "Training"),
}
