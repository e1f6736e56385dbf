"""``carolus-snapshot/1`` from outside, checked; and `Table`, the part of it a referee
judges.

A snapshot has one type, `vision.snapshot.Snapshot`, defined in the box that makes it.
`parse_snapshot` turns untrusted JSON (a ``.jsonl`` stream, an HTTP body) into that type
field by field, and names the field of any misfit (``courts.north.red``), so a bad
stream is a one-line error, never a traceback. The reader's own value goes through the
same checks (through its JSON), so a frame read live and the same frame read back from a
file are judged alike.

`Table` is not a second snapshot: it is never parsed nor written, only derived from one
(`table_of`). It is the comparable part of a frame, in the engine's own pieces: two
frames that saw the same table give equal tables whatever their time, occlusion flag or
doubts, and the referee compares, corrects (`Table.replace`) and adds up those counts
thousands of times a game with `referee.pieces.Cubes`, a tuple that adds and subtracts,
where the vision's `Cubes` is a record of five names. It is a function of the snapshot
rather than a cached property on it because the vision must not know the rules' types;
the settler derives it once per frame and keeps it beside the frame's doubts.

Two optional fields say how far the vision trusts its own reading: ``reader`` (the
method that read the frame, ``"reference"`` or ``"absolute"``) and ``confidence``
(``{zone: 0..1}`` for the zones it doubts; a zone not listed is sure). A reading below
`DOUBTFUL` is a question for the players, never an alarm: on a real camera, busy tile
art can hold a phantom cube for minutes, and a buzzer for that teaches people to
ignore the buzzer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final

from referee.announcements import clause, said
from referee.pieces import COLOURS, SEATS, Cubes
from vision.snapshot import FORMAT, ReaderKind, Snapshot, Territory
from vision.snapshot import Castles as SeenCastles
from vision.snapshot import Cubes as SeenCubes

CYLINDER_PLACES: Final = frozenset({*SEATS, "pool"})
READERS: Final = frozenset({"reference", "absolute"})
#: A zone read with less confidence than this is doubtful: asked about, never buzzed.
DOUBTFUL: Final = 0.5
#: The zones a confidence may be given for (``territory:N`` covers cubes and castles).
CONFIDENCE_ZONES: Final = frozenset(
    {f"territory:{n}" for n in range(1, 16)}
    | {f"{kind}:{seat}" for kind in ("court", "reserve", "discs") for seat in SEATS}
    | {f"cylinder:{colour}" for colour in COLOURS}
    | {"emperor"}
)
NO_DOUBTS: Final[Mapping[str, float]] = MappingProxyType({})

Castles = tuple[int, int, int]
"""Castles standing on one tile, counted per colour: white, black, grey."""


class SnapshotError(ValueError):
    """A snapshot that is not one: the message names the field and the value.

    The message is a `said` message (its first argument: ``field: why``), so every
    command says it again in its language; the field (``courts.north.red``), the value
    and the JSON's own words (``"pool"``, ``null``) go in as they are spelt."""

    def __init__(self, field: str, message: str) -> None:
        whole = said("%(field)s: %(clause)s", field=field, clause=clause(message))
        super().__init__(whole if field else message)
        self.field = field
        self.message = message


def _got(value: object, before: str) -> str:
    """``value`` as the message shows it (``repr``), cut so that the whole message, its
    first words ``before`` included, is at most 120 characters."""
    return repr(value)[: max(0, 120 - len(before))]


@dataclass(frozen=True)
class Table:
    """The pieces on the mat as counts: everything a referee may judge."""

    territories: tuple[Cubes, ...]  # territory 1..15 at index 0..14
    castles: tuple[Castles, ...]
    emperor: int | None
    courts: Mapping[str, Cubes]
    reserves: Mapping[str, Cubes]
    cylinders: tuple[str | None, ...]  # per colour: seat, "pool" or None (unseen)
    discs: Mapping[str, frozenset[int]]

    def territory(self, number: int) -> Cubes:
        return self.territories[number - 1]

    def castle_on(self, number: int) -> Castles:
        return self.castles[number - 1]

    def replace(self, **changes: Any) -> Table:
        """A copy with some fields changed (corrections, the simulator)."""
        fields: dict[str, Any] = {
            "territories": self.territories,
            "castles": self.castles,
            "emperor": self.emperor,
            "courts": self.courts,
            "reserves": self.reserves,
            "cylinders": self.cylinders,
            "discs": self.discs,
        }
        fields.update(changes)
        return Table(**fields)


def table_of(snapshot: Snapshot) -> Table:
    """The table ``snapshot`` saw, as the referee compares it (see the module).

    >>> from vision.snapshot import empty_snapshot
    >>> table = table_of(Snapshot.from_json(empty_snapshot(["south", "north"], mat=True)))
    >>> table.territory(6), table.castle_on(6), table.discs["north"]
    (Cubes(), (0, 0, 0), frozenset())
    """
    spots = snapshot.territories
    return Table(
        tuple([_counts(spot.cubes) for spot in spots]),
        tuple([_castles(spot.castles) for spot in spots]),
        snapshot.emperor,
        {seat: _counts(cubes) for seat, cubes in snapshot.courts.items()},
        {seat: _counts(cubes) for seat, cubes in snapshot.reserves.items()},
        tuple([snapshot.cylinders.get(colour) for colour in COLOURS]),
        {seat: frozenset(numbers) for seat, numbers in snapshot.discs.items()},
    )


def _counts(cubes: SeenCubes) -> Cubes:
    # five counts, checked by the parser: made as `referee.pieces.Cubes` makes its sums
    return tuple.__new__(Cubes, (cubes.red, cubes.green, cubes.yellow, cubes.blue, cubes.pink))


def _castles(castles: SeenCastles) -> Castles:
    return (castles.white, castles.black, castles.grey)


def parse_snapshot(data: object) -> Snapshot:
    """The `Snapshot` of decoded JSON, or of the vision's own `Snapshot` checked again;
    `SnapshotError` names what is wrong.

    The vision's value goes through its JSON, so that a frame read live and the same
    frame read back from a file are judged by one set of checks. Disc numbers come out
    ascending, as the contract has them.
    """
    if isinstance(data, Snapshot):
        data = data.to_json()
    root = _object(data, "snapshot")
    fmt = _required(root, "format")
    if fmt != FORMAT:
        raise SnapshotError(
            "format", said("expected %(typed)s, got %(given)s", typed=repr(FORMAT), given=repr(fmt))
        )
    t_value = root.get("t")
    if t_value is not None and (isinstance(t_value, bool) or not isinstance(t_value, int | float)):
        raise SnapshotError("t", said("expected a number, got %(given)s", given=repr(t_value)))
    t = None if t_value is None else float(t_value)
    mat = _bool(_required(root, "mat"), "mat")
    occluded = _bool(_required(root, "occluded"), "occluded")
    reader = _reader(root.get("reader"))
    confidence = _confidence(root.get("confidence"))

    places = _object(_required(root, "territories"), "territories")
    territories: list[Territory] = []
    for number in range(1, 16):
        key = str(number)
        if key not in places:
            raise SnapshotError(f"territories.{key}", said("territory is missing"))
        where = f"territories.{key}"
        spot = _object(places[key], where)
        cubes = _counts_of(_required(spot, "cubes", where), f"{where}.cubes")
        counts = _object(_required(spot, "castles", where), f"{where}.castles")
        castles = (
            _count(counts, "white", f"{where}.castles"),
            _count(counts, "black", f"{where}.castles"),
            _count(counts, "grey", f"{where}.castles"),
        )
        territories.append(_territory(*cubes, *castles))
    extra = sorted(set(places) - {str(n) for n in range(1, 16)})
    if extra:
        raise SnapshotError(f"territories.{extra[0]}", said("there are only territories 1 to 15"))

    emperor = _required(root, "emperor")
    if emperor is not None and (
        isinstance(emperor, bool) or not isinstance(emperor, int) or not 1 <= emperor <= 15
    ):
        raise SnapshotError(
            "emperor",
            said(
                "expected a territory 1..15 or %(typed)s, got %(given)s",
                typed="null",
                given=repr(emperor),
            ),
        )

    courts = _seats(_required(root, "courts"), "courts")
    reserves = _seats(_required(root, "reserves"), "reserves")
    cylinder_obj = _object(_required(root, "cylinders"), "cylinders")
    cylinders: dict[str, str | None] = {}
    for colour in COLOURS:
        place = _required(cylinder_obj, colour, "cylinders")
        if place is not None and place not in CYLINDER_PLACES:
            raise SnapshotError(
                f"cylinders.{colour}",
                said(
                    "expected a seat, %(typed)s or %(typed2)s, got %(given)s",
                    typed='"pool"',
                    typed2="null",
                    given=repr(place),
                ),
            )
        cylinders[colour] = place
    disc_obj = _object(_required(root, "discs"), "discs")
    discs: dict[str, tuple[int, ...]] = {}
    for seat, numbers in disc_obj.items():
        where = f"discs.{seat}"
        if seat not in SEATS:
            raise SnapshotError(where, said("unknown seat %(given)s", given=repr(seat)))
        if not isinstance(numbers, list):
            raise SnapshotError(
                where, said("expected a list of disc numbers, got %(given)s", given=repr(numbers))
            )
        for n in numbers:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
                raise SnapshotError(
                    where, said("expected disc numbers 1..5, got %(given)s", given=repr(n))
                )
        discs[seat] = tuple(sorted(numbers))
    return Snapshot(
        mat=mat,
        occluded=occluded,
        territories=tuple(territories),
        emperor=emperor,
        courts=MappingProxyType(courts),
        reserves=MappingProxyType(reserves),
        cylinders=MappingProxyType(cylinders),
        discs=MappingProxyType(discs),
        t=t,
        reader=reader,
        confidence=confidence,
    )


def _reader(value: object) -> ReaderKind | None:
    if value is None:
        return None
    if value == "reference":
        return "reference"
    if value == "absolute":
        return "absolute"
    before = 'expected "reference" or "absolute", got '
    raise SnapshotError(
        "reader",
        said(
            "expected %(typed)s or %(typed2)s, got %(given)s",
            typed='"reference"',
            typed2='"absolute"',
            given=_got(value, before),
        ),
    )


def _confidence(value: object) -> Mapping[str, float] | None:
    """``{zone: 0..1}``, checked zone by zone; absent or null: not said (every zone is
    sure), which the snapshot keeps apart from ``{}`` as its JSON does."""
    if value is None:
        return None
    obj = _object(value, "confidence")
    doubts: dict[str, float] = {}
    for zone, level in obj.items():
        where = f"confidence.{zone}"
        if zone not in CONFIDENCE_ZONES:
            raise SnapshotError(
                where,
                said(
                    "unknown zone; zones are %(typed)s and %(typed2)s",
                    typed="territory:1..15, court:SEAT, reserve:SEAT, discs:SEAT, cylinder:COLOUR",
                    typed2="emperor",
                ),
            )
        if (
            isinstance(level, bool)
            or not isinstance(level, int | float)
            or not 0.0 <= level <= 1.0  # also refuses NaN
        ):
            raise SnapshotError(
                where, said("expected a number from 0 to 1, got %(given)s", given=repr(level))
            )
        doubts[zone] = float(level)
    return MappingProxyType(doubts)


def _required(obj: Mapping[str, Any], key: str, prefix: str = "") -> Any:
    if key not in obj:
        raise SnapshotError(f"{prefix}.{key}" if prefix else key, said("required field is missing"))
    return obj[key]


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        before = "expected an object, got "
        given = _got(value, before)
        raise SnapshotError(where, said("expected an object, got %(given)s", given=given))
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise SnapshotError(
            where,
            said(
                "expected %(typed)s or %(typed2)s, got %(given)s",
                typed="true",
                typed2="false",
                given=repr(value),
            ),
        )
    return value


def _count(obj: Mapping[str, Any], key: str, where: str) -> int:
    value = _required(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SnapshotError(
            f"{where}.{key}", said("expected a count >= 0, got %(given)s", given=repr(value))
        )
    return value


def _counts_of(value: object, where: str) -> tuple[int, ...]:
    obj = _object(value, where)
    return tuple([_count(obj, colour, where) for colour in COLOURS])


# A frame's counts are mostly those of the frame before, and the values are immutable:
# each is made once and shared, which halves the time a snapshot takes to parse (the
# vision's frozen values cost more to make than to find).
@lru_cache(maxsize=4096)
def _cubes_of(red: int, green: int, yellow: int, blue: int, pink: int) -> SeenCubes:
    return SeenCubes(red, green, yellow, blue, pink)


@lru_cache(maxsize=4096)
def _territory(
    red: int, green: int, yellow: int, blue: int, pink: int, white: int, black: int, grey: int
) -> Territory:
    return Territory(_cubes_of(red, green, yellow, blue, pink), SeenCastles(white, black, grey))


def _seats(value: object, where: str) -> dict[str, SeenCubes]:
    obj = _object(value, where)
    seats: dict[str, SeenCubes] = {}
    for seat, cubes in obj.items():
        if seat not in SEATS:
            raise SnapshotError(f"{where}.{seat}", said("unknown seat %(given)s", given=repr(seat)))
        seats[seat] = _cubes_of(*_counts_of(cubes, f"{where}.{seat}"))
    return seats


__all__ = [
    "CONFIDENCE_ZONES",
    "CYLINDER_PLACES",
    "DOUBTFUL",
    "FORMAT",
    "NO_DOUBTS",
    "READERS",
    "Castles",
    "Snapshot",
    "SnapshotError",
    "Table",
    "parse_snapshot",
    "table_of",
]
