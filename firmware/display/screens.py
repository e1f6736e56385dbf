"""The OLED's screens: pure drawings of the view model on a 128x64 one-bit canvas.

Each ``draw_<screen>(draw, ...)`` paints one screen from plain data (the view model of
`firmware.view`, a table event, a `firmware.view.majority_view` dict) and nothing else,
so the panel, the web mirror and the tests all get the same pixels. The layout is built
for arm's length: the line that matters is in 16-pixel letters, details in 8-pixel ones.
Colours of cubes are written as words or initials (R G Y B P) — the panel is monochrome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from firmware.display.font import BIG, CASTLE, SMALL, TALL, Font
from firmware.display.words import word

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


def _unit_name(territories: Sequence[int]) -> str:
    if len(territories) == 1:
        return f"territory {territories[0]}"
    return f"region {where(territories)}"


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


def draw_turn(draw: ImageDraw.ImageDraw, view: View) -> None:
    """The live view: round, whose turn, what he does now, castles per player."""
    if view.get("phase") == "setup" or not view.get("players"):
        draw_setup(draw, view)
        return
    name = view.get("to_move") or ""
    player = next((p for p in view.get("players", []) if p["name"] == name), None)
    camera = view.get("status", {}).get("camera")
    note = {"lost": "NO CAMERA", "demo": "DEMO"}.get(camera or "", "")
    _bar(draw, f"Round {view.get('round', 0)}", note)
    y = _line(draw, BODY, name or "-")
    step = view.get("step")
    if view.get("phase") == "opening":
        discs = " ".join(str(d) for d in (player or {}).get("discs", []))
        doing, then = "chooses a disc", f"left: {discs}"
    elif step == "cubes":
        disc = (player or {}).get("disc")
        doing, then = f"plays {cubes_to_play(view, name)} cubes", f"disc {disc}"
    elif step == "emperor":
        disc = (player or {}).get("disc") or 1
        doing, then = "moves the emperor", f"1 to {disc} steps" if disc > 1 else "1 step"
    elif step == "refill":
        doing, then = "refills his reserve", ""
    else:
        doing, then = "", ""
    order = list(view.get("order", []))
    if name in order and order.index(name) + 1 < len(order):
        after = f"next {order[order.index(name) + 1]}"
        then = f"{then}, {after}" if then else after
    y = _line(draw, y + 1, doing, big=False)
    _line(draw, y, then, big=False)
    _scores(draw, view, HEIGHT - 8)


#: How `firmware.appliance` words its default set-up message (English only): the panel
#: says it in its own language instead, in words written to fit (`words.WORDS`).
APPLIANCE_SETUP = "Set up the table"

#: The camera's state in the set-up title bar: the long note, else a short one that
#: leaves the title whole.
_SETUP_NOTES = {"lost": ("NO CAMERA", "NO CAM"), "demo": ("DEMO", "DEMO"),
                "ok": ("camera ok", "cam ok")}


def setup_lines(view: View, language: str = "en") -> tuple[str, str, str, str, str]:
    """What the set-up screen writes: (title, note, names, message, bottom line).

    The appliance's default message becomes the panel's own words in ``language``; any
    other message (the camera's trouble, a refusal) is shown as it comes. ``names`` is
    empty when the message needs the room.
    """
    camera = view.get("status", {}).get("camera")
    title = word(language, "title", upper=True)
    note = ""
    for candidate in _SETUP_NOTES.get(camera or "", ("",)):
        note = candidate
        if SMALL.width(title) <= WIDTH - 4 - (SMALL.width(note) + 4 if note else 0):
            break
    message = str(view.get("status", {}).get("message") or "")
    bottom = ""
    if not message or message.startswith(APPLIANCE_SETUP):
        message, bottom = word(language, "pieces"), word(language, "then")
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


def draw_cubes(draw: ImageDraw.ImageDraw, view: View, event: Mapping[str, Any]) -> None:
    """Cubes played (or being placed): where each went, as big colour initials."""
    player = event.get("player", "")
    rows: list[tuple[str, list[str]]] = []
    if event.get("court"):
        rows.append(("court", list(event["court"])))
    for territory, colours in dict(event.get("territories", {})).items():
        if colours:
            rows.append((f"T{territory}", list(colours)))
    total = sum(len(colours) for _, colours in rows)
    _bar(draw, f"{player} plays", f"{total} cube{'s' if total != 1 else ''}")
    if not rows:
        _line(draw, BODY, "no cubes")
        return
    big = len(rows) <= 3
    y = BODY
    for label, colours in rows:
        letters = " ".join(c[0].upper() for c in colours)
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
    castle: Mapping[str, Any],
    *,
    title: str = "Castle to place",
    note: str = "",
) -> None:
    """ "White castle in 7": a castle the rules built (or took over) that must stand there."""
    _bar(draw, title, note)
    y = _line(draw, BODY, str(castle.get("side", "")).capitalize())
    territories = list(castle.get("territories", []))
    y = _line(draw, y + 1, f"castle in {where(territories)}")
    _line(draw, y + 2, _next_hint(view), big=False)


def draw_cylinder(
    draw: ImageDraw.ImageDraw,
    view: View,
    cylinder: Mapping[str, Any],
    *,
    title: str = "Move the cylinder",
    note: str = "",
) -> None:
    """ "Move the red cylinder to Anna": control changed hands, the cylinder must follow."""
    _bar(draw, title, note)
    y = _line(draw, BODY, str(cylinder.get("colour", "")).capitalize())
    to = cylinder.get("player") or cylinder.get("to") or ""
    y = _line(draw, y + 1, f"to {to}")
    _line(draw, y + 2, _next_hint(view), big=False)


def draw_chore(
    draw: ImageDraw.ImageDraw, view: View, chore: Mapping[str, Any], *, note: str = ""
) -> None:
    """A chore the table still owes, given in words only (``{"kind": "chore",
    "message": "move the red cylinder to Anna's court"}``): the sentence, big if it fits."""
    _bar(draw, "To do", note)
    message = str(chore.get("message") or "")
    _text(draw, BODY + 1, message[:1].upper() + message[1:] + ".", bottom=HEIGHT - 9)
    SMALL.draw(draw, (0, HEIGHT - 8), "Confirm when done", fill=ON)


def _next_hint(view: View) -> str:
    """Under a chore: who is playing meanwhile, so the live view is not missed."""
    name = view.get("to_move")
    return f"now: {name}, {view.get('step') or 'discs'}" if name else ""


def draw_illegal(draw: ImageDraw.ImageDraw, view: View, illegal: Mapping[str, Any]) -> None:
    """An illegal act, shown inverted (white screen) until the table is put right."""
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill=ON)
    code = str(illegal.get("code") or "")
    right = BIG.draw(draw, (2, 1), "ILLEGAL", fill=OFF) + 4
    for y, note in ((1, str(illegal.get("player") or "")), (9, code)):
        if note and SMALL.width(note) <= WIDTH - 2 - right:
            SMALL.draw(draw, (WIDTH - 2 - SMALL.width(note), y), note, fill=OFF)
    message = str(illegal.get("message") or code)
    lines = SMALL.wrap(message, WIDTH - 4)
    room = 5
    if len(lines) > room:
        lines = [*lines[: room - 1], SMALL.fit(" ".join(lines[room - 1 :]), WIDTH - 4)]
    y = 19
    for line in lines:
        SMALL.draw(draw, (2, y), line, fill=OFF)
        y += LINE


def draw_question(draw: ImageDraw.ImageDraw, view: View, question: Mapping[str, Any]) -> None:
    """The referee doubts the camera ("1 yellow on territory 7?"): the question, and which
    button answers what. Drawn plain, not inverted: it is no alarm."""
    _bar(draw, "Is this right?")
    message = str(question.get("message") or question.get("zone") or "")
    _text(draw, BODY + 1, message, bottom=HEIGHT - 9)
    SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit("Confirm=yes Maj.=no", WIDTH), fill=ON)


def draw_majority(
    draw: ImageDraw.ImageDraw, majority: Mapping[str, Any], page: int = 1, pages: int = 1
) -> None:
    """One territory or region on demand: each side's strength (big) and what it is made
    of (castles ⌂, cubes of the colours it controls), then what the emperor would do."""
    territories = list(majority.get("territories", []))
    owner = majority.get("owner")
    castle = f" {CASTLE}{owner}" if owner else ""
    note = f"{page}/{pages}"
    room = WIDTH - 8 - SMALL.width(note)
    title = _unit_name(territories) + castle
    if SMALL.width(title.upper()) > room:  # "4+5+6 ⌂WHITE" rather than a cut word
        title = where(territories) + castle
    _bar(draw, title, note)
    sides = list(majority.get("sides", []))
    pitch = 18 if len(sides) <= 2 else 17
    y = BODY
    for side in sides:
        total = str(side.get("total", 0))
        BIG.draw(draw, (22 - BIG.width(total), y + 1), total, fill=ON)
        who = f"{side.get('side', '')} {' '.join(side.get('players', []))}"
        SMALL.draw(draw, (28, y), SMALL.fit(who, WIDTH - 28), fill=ON)
        SMALL.draw(draw, (28, y + 8), _made_of(side, WIDTH - 28), fill=ON)
        y += pitch
    if len(sides) <= 2:
        SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(_verdict(majority), WIDTH), fill=ON)


COLOURS = ("red", "green", "yellow", "blue", "pink")


def _initials(colours: Sequence[str]) -> str:
    """``["yellow", "red", "yellow"]`` -> ``1R2Y`` (colour order, initials)."""
    return "".join(f"{colours.count(c)}{c[0].upper()}" for c in COLOURS if c in colours)


def hint_words(hint: Mapping[str, Any]) -> tuple[str, str]:
    """A hint in a few words: ``("2Y court 1Y 6", "emperor 3 -> take 5+6+7")``."""
    parts = [f"{_initials(hint.get('court', []))} court"] if hint.get("court") else []
    territories = dict(hint.get("territories", {}))
    parts += [f"{_initials(colours)} {key}" for key, colours in territories.items()]
    verdict = {"build": "build", "take": "take"}.get(str(hint.get("outcome")), "no castle")
    stop = where(list(hint.get("stop", [])))
    return " ".join(parts) or "no cubes", f"emperor {hint.get('emperor')} -> {verdict} {stop}"


def _threat_words(threat: Mapping[str, Any]) -> str:
    """``Bob take 5+6 3c`` or ``Bob win red 2c``."""
    if "colour" in threat:
        return f"{threat.get('player')} win {threat.get('colour')} {threat.get('needs')}c"
    action = "take" if threat.get("owner") else "build"
    unit = where(threat.get("territories", []))
    cubes = int(threat.get("cubes") or 0)
    return f"{threat.get('player')} {action} {unit} {f'{cubes}c' if cubes else 'free'}"


def draw_advice(
    draw: ImageDraw.ImageDraw, advice: Mapping[str, Any], page: int = 1, pages: int = 1
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
        _bar(draw, f"Hint {player}", note)
        y = BODY
        for words in hint_words(hint):  # big letters if they fit, else tall narrow ones
            font: Font = next((f for f in (BIG, TALL) if f.width(words) <= WIDTH), SMALL)
            font.draw(draw, (0, y), font.fit(words, WIDTH), fill=ON)
            y += 17 if font is not SMALL else LINE
        others = [t for t in found if t.get("player") != player]
        names = sorted({str(t.get("player")) for t in others})
        watch = f"watch {' '.join(names)}: {len(others)} threats" if others else "no threats next"
        SMALL.draw(draw, (0, HEIGHT - 8), SMALL.fit(watch, WIDTH), fill=ON)
        return
    _bar(draw, "Advisor", note)
    if not found:
        _text(draw, BODY + 1, "No hint now, no threats")
        return
    SMALL.draw(draw, (0, BODY), "No hint now. Threats:", fill=ON)
    y = BODY + LINE + 1
    for threat in sorted(found, key=lambda t: int(t.get("cubes", t.get("needs", 0)) or 0))[:4]:
        SMALL.draw(draw, (0, y), SMALL.fit(_threat_words(threat), WIDTH), fill=ON)
        y += LINE


def _made_of(side: Mapping[str, Any], width: int) -> str:
    castles = int(side.get("castles", 0))
    cubes = {c: n for c, n in dict(side.get("cubes", {})).items() if n}
    words = ([f"{castles}{CASTLE}"] if castles else []) + [f"{n} {c}" for c, n in cubes.items()]
    text = " ".join(words) or "nothing"
    if SMALL.width(text) > width:
        short = ([f"{castles}{CASTLE}"] if castles else []) + [
            f"{n}{c[0].upper()}" for c, n in cubes.items()
        ]
        text = " ".join(short)
    return SMALL.fit(text, width)


def _verdict(majority: Mapping[str, Any]) -> str:
    side = majority.get("side")
    return {
        "build": f"-> {side} would build",
        "take": f"-> {side} would take it",
        "keep": f"-> {majority.get('owner')} keeps it",
    }.get(str(majority.get("outcome")), "-> nothing happens")


def draw_announcement(
    draw: ImageDraw.ImageDraw, view: View, event: Mapping[str, Any], *, note: str = ""
) -> None:
    """Any other announcement: a title for its kind and the referee's sentence."""
    kind = str(event.get("kind", ""))
    _bar(draw, TITLES.get(kind, kind.replace("-", " ")), note)
    _text(draw, BODY + 1, str(event.get("message") or kind.replace("-", " ")))


def draw_game_over(draw: ImageDraw.ImageDraw, view: View) -> None:
    """The end: who won and why, with the final castles."""
    _bar(draw, "Game over", f"round {view.get('round', 0)}")
    winner = str(view.get("winner") or "")
    y = _line(draw, BODY, "A draw" if winner == "draw" else f"{winner} wins")
    reason = view.get("reason")
    why = {"castles": "by castles", "few-territories": "under 4 territories left"}.get(
        str(reason), str(reason or "")
    )
    _line(draw, y + 2, why, big=False)
    _scores(draw, view, HEIGHT - 8)


TITLES = {
    "control-gained": "Control",
    "castle-built": "New castle",
    "castle-taken": "Takeover",
    "merged": "Region",
    "returned": "Supply short",
    "emperor-moved": "Emperor",
    "refilled": "Refill",
    "turn-started": "Turn",
    "disc-chosen": "Disc",
    "undone": "Undone",
    "confirmed": "Confirmed",
    "corrected": "Corrected",
    "resolved": "Table in order",
    "setup": "Set-up",
    "resumed": "Resumed",
    "castle-pending": "Castle to place",
    "cylinder-pending": "Move the cylinder",
    "castles-placed": "Castles placed",
    "cylinder-moved": "Cylinder moved",
    "game-over": "Game over",
}
