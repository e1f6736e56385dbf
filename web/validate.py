"""Checks of what a browser sends: each returns clean values or raises a 400 that says
which field was wrong and why."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from referee.announcements import N_, said, translated
from web.context import tr
from web.errors import ApiError

COLOURS = ("red", "green", "yellow", "blue", "pink")
CASTLES = ("white", "black", "grey")
SEATS = ("south", "west", "north", "east")
BUTTONS = ("majorities", "confirm")
#: More cubes of one colour than the game has cannot lie in one zone.
MAX_CUBES = 40
MAX_NAME = 24
#: No request of the page nests JSON deeper than 4; 16 leaves room and stops a body of
#: 30,000 brackets from recursing through the parser and every check after it.
MAX_DEPTH = 16
#: The largest id SQLite stores (a signed 64-bit integer): game ids and steps.
MAX_ID = 2**63 - 1
#: Longer digit strings are refused before `int` sees them: Python refuses over 4300
#: digits with a ValueError, and nothing here is longer than 19 digits anyway.
MAX_DIGITS = 19
#: How much of a wrong value an error message repeats.
SHOWN = 40


def _refused(text: str) -> ApiError:
    """A 400 whose reason (a `said` message: what a correction sent wrong) is in the
    reader's language, as the API's other refusals (issue 17); the field names and the
    words to send stay as the API spells them."""
    return ApiError(400, translated(text, tr()))


def shown(value: object) -> str:
    """A wrong value as an error message repeats it: its repr, cut short (a 60 KB value
    or a deep list must not come back whole, nor recurse through ``repr``)."""
    if isinstance(value, list | dict):
        text = "a list" if isinstance(value, list) else "an object"
        return f"{text} of {len(value)}"
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _depth(value: object) -> int:
    """How deep ``value`` nests (without recursion: the value may be deep)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            todo.extend((child, level + 1) for child in item)
    return deepest


def json_body() -> dict[str, Any]:
    """The request's JSON object (an empty body counts as ``{}``)."""
    data = request.get_data(cache=True)
    if not data:
        return {}
    if not request.is_json:
        raise _refused(said("send JSON with %(typed)s", typed="Content-Type: application/json"))
    try:
        body = json.loads(data)
    except RecursionError:
        raise _refused(_too_deep()) from None
    except ValueError:
        raise _refused(said("the body is not valid JSON")) from None
    if not isinstance(body, dict):
        raise _refused(said("the body must be a JSON object"))
    if _depth(body) > MAX_DEPTH:
        raise _refused(_too_deep())
    return body


def _too_deep() -> str:
    return said("the body nests deeper than %(count)s levels", count=MAX_DEPTH)


def digits(text: str) -> bool:
    """Plain ASCII digits only (``"¹".isdigit()`` is true, but it is no number)."""
    return text.isascii() and text.isdigit()


def whole(text: str, field: str, low: int = 0, high: int = MAX_ID, verb: str = "must be") -> int:
    """A whole number ``low``-``high`` written in ``text`` (a path piece, a query or a
    header), or a 400 naming ``field``; checked before `int` sees it. ``field`` is the
    API's name (``must be``) or one of `NUMBERS` (``is``: said in the reader's words)."""
    if not digits(text) or len(text) > MAX_DIGITS or not low <= int(text) <= high:
        words = {"low": low, "high": high, "given": shown(text)}
        if verb == "is" and field in NUMBERS:
            raise _refused(said(NUMBERS[field], **words))
        if verb == "must be":
            raise _refused(
                said(
                    "%(field)s must be a number from %(low)s to %(high)s, not %(given)s",
                    field=field,
                    **words,
                )
            )
        raise ApiError(400, f"{field} {verb} a number from {low} to {high}, not {shown(text)}")
    return int(text)


#: What a number in the API's paths is, said in the reader's words (`whole`).
NUMBERS = {
    "a game id": N_("a game id is a number from %(low)s to %(high)s, not %(given)s"),
    "a step": N_("a step is a number from %(low)s to %(high)s, not %(given)s"),
}


def territory(value: object) -> int:
    """A territory number 1-15 (from a path or a JSON field)."""
    if isinstance(value, str):
        return whole(value, "territory", 1, 15)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 15:
        raise _refused(
            said(
                "%(field)s must be a number from 1 to 15, not %(given)s",
                field="territory",
                given=shown(value),
            )
        )
    return value


def zone(value: object, seats: list[str]) -> str:
    """``territory:N``, ``court:SEAT`` or ``reserve:SEAT`` for a seat at the table."""
    if not isinstance(value, str):
        raise _refused(
            said(
                "%(field)s must be text like %(example)s, not %(given)s",
                field="zone",
                example="'territory:7'",
                given=shown(value),
            )
        )
    kind, _, where = value.partition(":")
    if kind == "territory":
        return f"territory:{territory(where)}"
    if kind in ("court", "reserve"):
        if where not in seats:
            raise _refused(
                said(
                    "%(field)s %(given)s: seat must be one of %(typed)s",
                    field="zone",
                    given=shown(value),
                    typed=", ".join(seats) or "none",
                )
            )
        return value
    raise _refused(
        said(
            "%(field)s %(given)s: must start with %(typed)s, %(typed2)s or %(typed3)s",
            field="zone",
            given=shown(value),
            typed="territory:",
            typed2="court:",
            typed3="reserve:",
        )
    )


def counts(value: object) -> dict[str, int]:
    """Cube counts for all five colours, each 0-40."""
    if not isinstance(value, dict):
        raise _refused(
            said(
                "%(field)s must be an object like %(example)s",
                field="counts",
                example='{"red": 1, ...}',
            )
        )
    unknown = sorted(set(value) - set(COLOURS))
    if unknown:
        raise _refused(
            said(
                "%(field)s: unknown colour %(given)s; use %(typed)s",
                field="counts",
                given=shown(unknown[0]),
                typed=", ".join(COLOURS),
            )
        )
    missing = [c for c in COLOURS if c not in value]
    if missing:
        raise _refused(
            said(
                "%(field)s: give every colour; %(given)s is missing",
                field="counts",
                given=repr(missing[0]),
            )
        )
    out = {}
    for c in COLOURS:
        n = value[c]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_CUBES:
            raise _refused(
                said(
                    "%(field)s must be a whole number from 0 to %(count)s, not %(given)s",
                    field=f"counts.{c}",
                    count=MAX_CUBES,
                    given=shown(n),
                )
            )
        out[c] = n
    return out


def button(name: str) -> str:
    if name not in BUTTONS:
        raise _refused(
            said(
                "no button %(given)s; the buttons are %(typed)s",
                given=shown(name),
                typed=", ".join(BUTTONS),
            )
        )
    return name


def answer(value: object) -> str:
    """The players' answer to the referee's question: ``yes`` or ``no``."""
    if value not in ("yes", "no"):
        raise _refused(
            said(
                "%(field)s must be %(typed)s or %(typed2)s, not %(given)s",
                field="answer",
                typed='"yes"',
                typed2='"no"',
                given=shown(value),
            )
        )
    return str(value)


def flag(value: object, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _refused(_not_a_flag(value, field))
    return value


def _not_a_flag(value: object, field: str) -> str:
    return said(
        "%(field)s must be %(typed)s or %(typed2)s, not %(given)s",
        field=field,
        typed="true",
        typed2="false",
        given=shown(value),
    )


def switch(value: object, field: str) -> bool:
    """A required true/false (a switch the page turns on or off)."""
    if not isinstance(value, bool):
        raise _refused(_not_a_flag(value, field))
    return value


def players(value: object) -> list[dict[str, str]]:
    """2-4 players with unique names and seats; castle colours as the rules allow
    (4 players: two teams of two, white and black)."""
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise _refused(said("%(field)s must be a list of 2 to 4 players", field="players"))
    out: list[dict[str, str]] = []
    for i, p in enumerate(value):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            raise _refused(
                said(
                    "%(field)s must be an object with %(typed)s, %(typed2)s and %(typed3)s",
                    field=where,
                    typed="name",
                    typed2="castles",
                    typed3="seat",
                )
            )
        name = p.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise _refused(
                said(
                    "%(field)s must be 1 to %(count)s characters, not %(given)s",
                    field=f"{where}.name",
                    count=MAX_NAME,
                    given=shown(name),
                )
            )
        castles = p.get("castles")
        if castles not in CASTLES:
            raise _refused(_none_of(f"{where}.castles", CASTLES, castles))
        seat = p.get("seat")
        if seat not in SEATS:
            raise _refused(_none_of(f"{where}.seat", SEATS, seat))
        out.append({"name": name.strip(), "castles": castles, "seat": seat})
    for field in ("name", "seat"):
        seen = [p[field] for p in out]
        double = next((v for v in seen if seen.count(v) > 1), None)
        if double is not None:
            raise _refused(
                said("two players have the %(field)s %(given)s", field=field, given=shown(double))
            )
    sides = [p["castles"] for p in out]
    if len(out) == 4:
        if sorted(sides) != ["black", "black", "white", "white"]:
            raise _refused(said("with 4 players, two play white castles and two black"))
    elif len(set(sides)) != len(sides):
        raise _refused(said("with 2 or 3 players, each plays his own castle colour"))
    return out


def _none_of(field: str, allowed: tuple[str, ...], value: object) -> str:
    """``players[0].seat must be one of south, west, north, east, not 'up'``: the words
    to send as the API spells them."""
    return said(
        "%(field)s must be one of %(typed)s, not %(given)s",
        field=field,
        typed=", ".join(allowed),
        given=shown(value),
    )
