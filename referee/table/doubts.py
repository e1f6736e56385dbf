"""Doubts: the zones of the table the referee is not sure of, and the questions it asks.

The vision names zones as ``territory:7`` (cubes and castles on that tile),
``court:south``, ``reserve:south``, ``discs:south``, ``cylinder:red`` and ``emperor``;
the corrections name the same places ``territory 7`` / ``castles 7``, ``court south`` …
(`referee.table.corrections`). This module converts between the two, finds the zones in
which two tables differ, and words a question about one zone the way the referee words
its other announcements ("1 yellow on territory 7?"), for the players to answer yes
(the camera is right) or no (the camera is wrong).
"""

from __future__ import annotations

from collections.abc import Callable

from referee.announcements import Said, said
from referee.pieces import CASTLE_COLOURS, COLOURS, SEATS, Cubes
from referee.table.corrections import read
from referee.table.snapshot import Table


def parts(zone: str) -> tuple[str, ...]:
    """The correction zones making up a vision zone: ``territory:7`` is the tile's cubes
    (``territory 7``) and its castles (``castles 7``)."""
    kind, _, key = zone.partition(":")
    if kind == "territory":
        return (f"territory {key}", f"castles {key}")
    return (f"{kind} {key}".strip(),)


def zone_of(part: str) -> str:
    """The vision zone holding a correction zone: ``castles 7`` -> ``territory:7``."""
    kind, _, key = part.partition(" ")
    if kind == "castles":
        kind = "territory"
    return f"{kind}:{key}" if key else kind


def table_parts(table: Table) -> list[str]:
    """Every correction zone of ``table``, in the order the referee judges them."""
    zones = [f"territory {n}" for n in range(1, 16)] + [f"castles {n}" for n in range(1, 16)]
    for kind, seats in (("court", table.courts), ("reserve", table.reserves)):
        zones += [f"{kind} {seat}" for seat in SEATS if seat in seats]
    zones.append("emperor")
    zones += [f"cylinder {colour}" for colour in COLOURS]
    zones += [f"discs {seat}" for seat in SEATS if seat in table.discs]
    return zones


def changed(before: Table, after: Table) -> list[str]:
    """The correction zones that read differently in ``after`` than in ``before``."""
    if before == after:
        return []
    seen = dict.fromkeys(table_parts(before) + table_parts(after))
    return [part for part in seen if read(before, part) != read(after, part)]


def zones(parts_: list[str]) -> list[str]:
    """The vision zones of some correction zones, each once, in order."""
    return list(dict.fromkeys(zone_of(part) for part in parts_))


def counts(table: Table, zone: str) -> dict[str, object]:
    """What the camera reads in ``zone``, as JSON: cubes and castles by colour (only
    those present), ``{"territory": 7}`` for the emperor, ``{"place": "south"}`` for a
    cylinder, ``{"discs": [1, 2]}`` for a tray."""
    kind, _, key = zone.partition(":")
    if kind == "territory":
        cubes = table.territory(int(key))
        castles = table.castle_on(int(key))
        return {
            **{c: n for c, n in cubes.as_dict().items() if n},
            **{c: n for c, n in zip(CASTLE_COLOURS, castles, strict=True) if n},
        }
    if kind in ("court", "reserve"):
        value = read(table, f"{kind} {key}")
        assert isinstance(value, Cubes)
        return {c: n for c, n in value.as_dict().items() if n}
    if kind == "emperor":
        return {"territory": table.emperor}
    if kind == "cylinder":
        return {"place": table.cylinders[COLOURS.index(key)]}  # type: ignore[arg-type,unused-ignore]
    return {"discs": sorted(table.discs.get(key, frozenset()))}


def question(table: Table, zone: str, part: str | None, holder: Callable[[str], str]) -> Said:
    """The question about ``zone`` as the camera reads it in ``table``, e.g.
    ``"1 yellow on territory 7?"``; ``part`` (``castles 7``) says which of a tile's
    readings is in doubt; ``holder`` names who sits at a seat (`Reading.holder`: the
    player's name, else the seat).
    The question keeps its msgid and fields (`referee.announcements.Said`): every
    language asks it."""
    kind, _, key = zone.partition(":")
    if kind == "territory":
        number = int(key)
        if part is not None and part.startswith("castles"):
            castles = table.castle_on(number)
            sides = [c for c, n in zip(CASTLE_COLOURS, castles, strict=True) for _ in range(n)]
            if not sides:
                return said("No castle on territory %(territory)s?", territory=number)
            if len(sides) == 1:
                return said(
                    "A %(side)s castle on territory %(territory)s?", side=sides[0], territory=number
                )
            return said(
                "%(count)s castles: %(castles)s on territory %(territory)s?",
                count=len(sides),
                castles=sides,
                territory=number,
            )
        cubes = table.territory(number).colours()
        if not cubes:
            return said("No cubes on territory %(territory)s?", territory=number)
        return said("%(cubes)s on territory %(territory)s?", cubes=cubes, territory=number)
    if kind in ("court", "reserve"):
        held = (table.courts if kind == "court" else table.reserves).get(key, Cubes()).colours()
        who = holder(key)
        if kind == "court":
            if not held:
                return said("No cubes in %(place)s?", place=who)
            return said("%(cubes)s in %(place)s?", cubes=held, place=who)
        if not held:
            return said("No cubes in %(reserve)s?", reserve=who)
        return said("%(cubes)s in %(reserve)s?", cubes=held, reserve=who)
    if kind == "emperor":
        if table.emperor is None:
            return said("No emperor on the ring?")
        return said("The emperor on territory %(territory)s?", territory=table.emperor)
    if kind == "cylinder":
        seen = table.cylinders[COLOURS.index(key)]  # type: ignore[arg-type,unused-ignore]
        if seen is None:
            return said("No %(colour)s cylinder anywhere?", colour=key)
        if seen == "pool":
            return said("The %(colour)s cylinder in the pool?", colour=key)
        return said("The %(colour)s cylinder on %(place)s?", colour=key, place=holder(seen))
    discs = sorted(table.discs.get(key, frozenset()))
    tray = holder(key)
    if not discs:
        return said("No discs in %(tray)s?", tray=tray)
    if len(discs) == 1:
        return said("Disc %(numbers)s in %(tray)s?", numbers=discs, tray=tray)
    return said("Discs %(numbers)s in %(tray)s?", numbers=discs, tray=tray)
