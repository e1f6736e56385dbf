"""``carolus-snapshot/1``: what the camera saw in one frame, as typed counts.

Parsing checks shape and types and names the field of any misfit
(``courts.north.red``), so a bad stream is a one-line error, never a traceback.
A `Table` is the comparable part of a snapshot: two frames that saw the same table
are equal whatever their time or occlusion flag.

Two optional fields say how far the vision trusts its own reading: ``reader`` (the
method that read the frame, ``"reference"`` or ``"absolute"``) and ``confidence``
(``{zone: 0..1}`` for the zones it doubts; a zone not listed is sure). A reading below
`DOUBTFUL` is a question for the players, never an alarm: on a real camera, busy tile
art can hold a phantom cube for minutes, and a buzzer for that teaches people to
ignore the buzzer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from referee.pieces import CASTLE_COLOURS, COLOURS, SEATS, Cubes
from vision.snapshot import Snapshot as VisionSnapshot

FORMAT: Final = "carolus-snapshot/1"
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
    """A snapshot that is not one: the message names the field and the value."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


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

    def to_json(self) -> dict[str, Any]:
        return {
            "territories": {
                str(i): {
                    "cubes": cubes.as_dict(),
                    "castles": dict(zip(CASTLE_COLOURS, castles, strict=True)),
                }
                for i, (cubes, castles) in enumerate(
                    zip(self.territories, self.castles, strict=True), start=1
                )
            },
            "emperor": self.emperor,
            "courts": {seat: cubes.as_dict() for seat, cubes in self.courts.items()},
            "reserves": {seat: cubes.as_dict() for seat, cubes in self.reserves.items()},
            "cylinders": dict(zip(COLOURS, self.cylinders, strict=True)),
            "discs": {seat: sorted(discs) for seat, discs in self.discs.items()},
        }


@dataclass(frozen=True)
class Snapshot:
    """One frame: the table seen, when, and whether it can be trusted at all."""

    t: float | None
    mat: bool
    occluded: bool
    table: Table
    #: which method read the frame (``"reference"``, ``"absolute"``); None: not said
    reader: str | None = None
    #: zone -> how sure the vision is of that zone's reading; a zone not listed is sure
    confidence: Mapping[str, float] = field(default_factory=lambda: NO_DOUBTS)

    @property
    def trusted(self) -> bool:
        """Whether this frame may count towards settling (mat seen, nothing in the way)."""
        return self.mat and not self.occluded

    def certainty(self, zone: str) -> float:
        """How sure the vision is of ``zone`` (``territory:7``): 1.0 unless it said less."""
        return self.confidence.get(zone, 1.0)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT}
        if self.t is not None:
            data["t"] = self.t
        data["mat"] = self.mat
        data["occluded"] = self.occluded
        if self.reader is not None:
            data["reader"] = self.reader
        if self.confidence:
            data["confidence"] = dict(self.confidence)
        data.update(self.table.to_json())
        return data


def parse_snapshot(data: object) -> Snapshot:
    """Build a `Snapshot` from decoded JSON or from the vision's own
    `vision.snapshot.Snapshot`; `SnapshotError` names what is wrong.

    The vision's value goes through its JSON, so that a frame read live and the same
    frame read back from a file are judged by one set of checks.
    """
    if isinstance(data, VisionSnapshot):
        data = data.to_json()
    root = _object(data, "snapshot")
    fmt = _required(root, "format")
    if fmt != FORMAT:
        raise SnapshotError("format", f"expected {FORMAT!r}, got {fmt!r}")
    t_value = root.get("t")
    if t_value is not None and (isinstance(t_value, bool) or not isinstance(t_value, int | float)):
        raise SnapshotError("t", f"expected a number, got {t_value!r}")
    t = None if t_value is None else float(t_value)
    mat = _bool(_required(root, "mat"), "mat")
    occluded = _bool(_required(root, "occluded"), "occluded")
    reader = root.get("reader")
    if reader is not None and (not isinstance(reader, str) or reader not in READERS):
        raise SnapshotError("reader", f'expected "reference" or "absolute", got {reader!r}'[:120])
    confidence = _confidence(root.get("confidence"))

    places = _object(_required(root, "territories"), "territories")
    territories: list[Cubes] = []
    castles: list[Castles] = []
    for number in range(1, 16):
        key = str(number)
        if key not in places:
            raise SnapshotError(f"territories.{key}", "territory is missing")
        where = f"territories.{key}"
        spot = _object(places[key], where)
        territories.append(_cubes(_required(spot, "cubes", where), f"{where}.cubes"))
        counts = _object(_required(spot, "castles", where), f"{where}.castles")
        castles.append(
            (
                _count(counts, "white", f"{where}.castles"),
                _count(counts, "black", f"{where}.castles"),
                _count(counts, "grey", f"{where}.castles"),
            )
        )
    extra = sorted(set(places) - {str(n) for n in range(1, 16)})
    if extra:
        raise SnapshotError(f"territories.{extra[0]}", "there are only territories 1 to 15")

    emperor = _required(root, "emperor")
    if emperor is not None and (
        isinstance(emperor, bool) or not isinstance(emperor, int) or not 1 <= emperor <= 15
    ):
        raise SnapshotError("emperor", f"expected a territory 1..15 or null, got {emperor!r}")

    courts = _seats(_required(root, "courts"), "courts")
    reserves = _seats(_required(root, "reserves"), "reserves")
    cylinder_obj = _object(_required(root, "cylinders"), "cylinders")
    cylinders: list[str | None] = []
    for colour in COLOURS:
        place = _required(cylinder_obj, colour, "cylinders")
        if place is not None and place not in CYLINDER_PLACES:
            raise SnapshotError(
                f"cylinders.{colour}", f'expected a seat, "pool" or null, got {place!r}'
            )
        cylinders.append(place)
    disc_obj = _object(_required(root, "discs"), "discs")
    discs: dict[str, frozenset[int]] = {}
    for seat, numbers in disc_obj.items():
        where = f"discs.{seat}"
        if seat not in SEATS:
            raise SnapshotError(where, f"unknown seat {seat!r}")
        if not isinstance(numbers, list):
            raise SnapshotError(where, f"expected a list of disc numbers, got {numbers!r}")
        for n in numbers:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
                raise SnapshotError(where, f"expected disc numbers 1..5, got {n!r}")
        discs[seat] = frozenset(numbers)
    table = Table(
        tuple(territories),
        tuple(castles),
        emperor,
        courts,
        reserves,
        tuple(cylinders),
        discs,
    )
    return Snapshot(t, mat, occluded, table, reader, confidence)


def _confidence(value: object) -> Mapping[str, float]:
    """``{zone: 0..1}``, checked zone by zone; absent or null: every zone is sure."""
    if value is None:
        return NO_DOUBTS
    obj = _object(value, "confidence")
    doubts: dict[str, float] = {}
    for zone, level in obj.items():
        where = f"confidence.{zone}"
        if zone not in CONFIDENCE_ZONES:
            raise SnapshotError(
                where,
                "unknown zone; zones are territory:1..15, court:SEAT, reserve:SEAT, "
                "discs:SEAT, cylinder:COLOUR and emperor",
            )
        if (
            isinstance(level, bool)
            or not isinstance(level, int | float)
            or not 0.0 <= level <= 1.0  # also refuses NaN
        ):
            raise SnapshotError(where, f"expected a number from 0 to 1, got {level!r}")
        doubts[zone] = float(level)
    return MappingProxyType(doubts)


def _required(obj: Mapping[str, Any], key: str, prefix: str = "") -> Any:
    if key not in obj:
        raise SnapshotError(f"{prefix}.{key}" if prefix else key, "required field is missing")
    return obj[key]


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SnapshotError(where, f"expected an object, got {value!r}"[:120])
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise SnapshotError(where, f"expected true or false, got {value!r}")
    return value


def _count(obj: Mapping[str, Any], key: str, where: str) -> int:
    value = _required(obj, key, where)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SnapshotError(f"{where}.{key}", f"expected a count >= 0, got {value!r}")
    return value


def _cubes(value: object, where: str) -> Cubes:
    obj = _object(value, where)
    return Cubes([_count(obj, colour, where) for colour in COLOURS])


def _seats(value: object, where: str) -> dict[str, Cubes]:
    obj = _object(value, where)
    seats: dict[str, Cubes] = {}
    for seat, cubes in obj.items():
        if seat not in SEATS:
            raise SnapshotError(f"{where}.{seat}", f"unknown seat {seat!r}")
        seats[seat] = _cubes(cubes, f"{where}.{seat}")
    return seats
