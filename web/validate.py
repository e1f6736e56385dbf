"""Checks of what a browser sends: each returns clean values or raises a 400 that says
which field was wrong and why."""

from __future__ import annotations

from typing import Any

from flask import request

from web.errors import ApiError

COLOURS = ("red", "green", "yellow", "blue", "pink")
CASTLES = ("white", "black", "grey")
SEATS = ("south", "west", "north", "east")
BUTTONS = ("majorities", "confirm")
#: More cubes of one colour than the game has cannot lie in one zone.
MAX_CUBES = 40
MAX_NAME = 24


def json_body() -> dict[str, Any]:
    """The request's JSON object (an empty body counts as ``{}``)."""
    if not request.get_data(cache=True):
        return {}
    if not request.is_json:
        raise ApiError(400, "send JSON with Content-Type: application/json")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object")
    return body


def digits(text: str) -> bool:
    """Plain ASCII digits only (``"¹".isdigit()`` is true, but it is no number)."""
    return text.isascii() and text.isdigit()


def territory(value: object) -> int:
    """A territory number 1-15 (from a path or a JSON field)."""
    number = value
    if isinstance(value, str) and digits(value):
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 15:
        raise ApiError(400, f"territory must be a number from 1 to 15, not {value!r}")
    return number


def zone(value: object, seats: list[str]) -> str:
    """``territory:N``, ``court:SEAT`` or ``reserve:SEAT`` for a seat at the table."""
    if not isinstance(value, str):
        raise ApiError(400, f"zone must be text like 'territory:7', not {value!r}")
    kind, _, where = value.partition(":")
    if kind == "territory":
        return f"territory:{territory(where)}"
    if kind in ("court", "reserve"):
        if where not in seats:
            raise ApiError(400, f"zone {value!r}: seat must be one of {', '.join(seats) or 'none'}")
        return value
    raise ApiError(400, f"zone {value!r}: must start with territory:, court: or reserve:")


def counts(value: object) -> dict[str, int]:
    """Cube counts for all five colours, each 0-40."""
    if not isinstance(value, dict):
        raise ApiError(400, 'counts must be an object like {"red": 1, ...}')
    unknown = sorted(set(value) - set(COLOURS))
    if unknown:
        raise ApiError(400, f"counts: unknown colour {unknown[0]!r}; use {', '.join(COLOURS)}")
    missing = [c for c in COLOURS if c not in value]
    if missing:
        raise ApiError(400, f"counts: give every colour; {missing[0]!r} is missing")
    out = {}
    for c in COLOURS:
        n = value[c]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_CUBES:
            raise ApiError(
                400, f"counts.{c} must be a whole number from 0 to {MAX_CUBES}, not {n!r}"
            )
        out[c] = n
    return out


def button(name: str) -> str:
    if name not in BUTTONS:
        raise ApiError(400, f"no button {name!r}; the buttons are {', '.join(BUTTONS)}")
    return name


def answer(value: object) -> str:
    """The players' answer to the referee's question: ``yes`` or ``no``."""
    if value not in ("yes", "no"):
        raise ApiError(400, f'answer must be "yes" or "no", not {value!r}')
    return str(value)


def flag(value: object, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"{field} must be true or false, not {value!r}")
    return value


def switch(value: object, field: str) -> bool:
    """A required true/false (a switch the page turns on or off)."""
    if not isinstance(value, bool):
        raise ApiError(400, f"{field} must be true or false, not {value!r}")
    return value


def players(value: object) -> list[dict[str, str]]:
    """2-4 players with unique names and seats; castle colours as the rules allow
    (4 players: two teams of two, white and black)."""
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise ApiError(400, "players must be a list of 2 to 4 players")
    out: list[dict[str, str]] = []
    for i, p in enumerate(value):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            raise ApiError(400, f"{where} must be an object with name, castles and seat")
        name = p.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise ApiError(400, f"{where}.name must be 1 to {MAX_NAME} characters, not {name!r}")
        castles = p.get("castles")
        if castles not in CASTLES:
            raise ApiError(
                400, f"{where}.castles must be one of {', '.join(CASTLES)}, not {castles!r}"
            )
        seat = p.get("seat")
        if seat not in SEATS:
            raise ApiError(400, f"{where}.seat must be one of {', '.join(SEATS)}, not {seat!r}")
        out.append({"name": name.strip(), "castles": castles, "seat": seat})
    for field in ("name", "seat"):
        seen = [p[field] for p in out]
        double = next((v for v in seen if seen.count(v) > 1), None)
        if double is not None:
            raise ApiError(400, f"two players have the {field} {double!r}")
    sides = [p["castles"] for p in out]
    if len(out) == 4:
        if sorted(sides) != ["black", "black", "white", "white"]:
            raise ApiError(400, "with 4 players, two play white castles and two black")
    elif len(set(sides)) != len(sides):
        raise ApiError(400, "with 2 or 3 players, each plays his own castle colour")
    return out
