"""``carolus-snapshot/1``: what the camera saw in one frame, as one typed value.

This module is pure Python (no OpenCV, no numpy) so that the referee, the appliance and
the web page can import the type without the camera stack.

`Snapshot` is what `vision.reader.Reader.read` returns; JSON exists only at the edges
(`carolus vision read`, snapshot files, the referee's parser), through one pair,
`Snapshot.to_json` / `Snapshot.from_json`. The JSON is the contract of
the table format (``docs/table.md``) to the letter, with the fields the reader adds beside it:
``t`` (when given), ``reader`` (``"reference"`` or ``"absolute"``) and ``confidence``
(``{zone: 0..1}`` for the zones it doubts). `to_json` writes the keys in the order the
reader always wrote them, so a snapshot file is the same byte for byte.

The reader itself still counts into a `SnapshotJSON` dict (`empty_snapshot`) and turns
it into a `Snapshot` once, at the end of a frame: its counting adds pieces one blob at a
time into nested counters, which a frozen value would have to rebuild at every blob, and
the zones that did not change are copied from the last frame's dict (`vision.steady`).
`SnapshotJSON` types that dict, so the counting is checked as well.

`from_json` trusts its input to have the contract's shape (the reader's own dict, or
a file this module wrote); streams from outside are checked field by field by
`referee.table.snapshot.parse_snapshot`, which returns this same type (and checks a
`Snapshot` again, through its JSON). This is the one snapshot type of the project: the
camera loop, the appliance, the referee and ``carolus follow`` all take it; the referee derives from
it only the counts it compares (`referee.table.snapshot.table_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal, NotRequired, TypedDict, TypeVar

from vision.layout import CASTLE_COLOURS, CUBE_COLOURS

FORMAT: Final = "carolus-snapshot/1"
#: Territories are numbered 1 to 15 on every mat.
TERRITORIES: Final = 15

ReaderKind = Literal["reference", "absolute"]


class TerritoryJSON(TypedDict):
    cubes: dict[str, int]
    castles: dict[str, int]


class SnapshotJSON(TypedDict):
    """A snapshot as JSON (``table.md``): the reader's working dict and the file line."""

    format: str
    mat: bool
    occluded: bool
    territories: dict[str, TerritoryJSON]
    emperor: int | None
    courts: dict[str, dict[str, int]]
    reserves: dict[str, dict[str, int]]
    cylinders: dict[str, str | None]
    discs: dict[str, list[int]]
    t: NotRequired[float]
    reader: NotRequired[str]
    confidence: NotRequired[dict[str, float]]


def empty_snapshot(seats: Sequence[str], mat: bool = False) -> SnapshotJSON:
    """Every count zero, nothing placed: where a reading starts, and the whole reading
    of a frame without the mat."""
    return {
        "format": FORMAT,
        "mat": mat,
        "occluded": False,
        "territories": {str(n): {"cubes": dict.fromkeys(CUBE_COLOURS, 0),
                                 "castles": dict.fromkeys(CASTLE_COLOURS, 0)}
                        for n in range(1, TERRITORIES + 1)},
        "emperor": None,
        "courts": {s: dict.fromkeys(CUBE_COLOURS, 0) for s in seats},
        "reserves": {s: dict.fromkeys(CUBE_COLOURS, 0) for s in seats},
        "cylinders": dict.fromkeys(CUBE_COLOURS),
        "discs": {s: [] for s in seats},
    }


@dataclass(frozen=True)
class Cubes:
    """Cubes counted by colour (in one territory, court or reserve)."""

    red: int = 0
    green: int = 0
    yellow: int = 0
    blue: int = 0
    pink: int = 0

    def __getitem__(self, colour: str) -> int:
        """The count of one colour by its name, as the layout and the JSON name it.

        >>> Cubes(blue=2)["blue"]
        2
        """
        if colour not in CUBE_COLOURS:
            raise KeyError(colour)
        return int(getattr(self, colour))

    def total(self) -> int:
        return self.red + self.green + self.yellow + self.blue + self.pink

    def to_json(self) -> dict[str, int]:
        return {colour: self[colour] for colour in CUBE_COLOURS}

    @classmethod
    def from_json(cls, counts: Mapping[str, int]) -> Cubes:
        return cls(**{colour: int(counts[colour]) for colour in CUBE_COLOURS})


@dataclass(frozen=True)
class Castles:
    """Castles standing on one tile, by colour."""

    white: int = 0
    black: int = 0
    grey: int = 0

    def __getitem__(self, colour: str) -> int:
        if colour not in CASTLE_COLOURS:
            raise KeyError(colour)
        return int(getattr(self, colour))

    def total(self) -> int:
        return self.white + self.black + self.grey

    def to_json(self) -> dict[str, int]:
        return {colour: self[colour] for colour in CASTLE_COLOURS}

    @classmethod
    def from_json(cls, counts: Mapping[str, int]) -> Castles:
        return cls(**{colour: int(counts[colour]) for colour in CASTLE_COLOURS})


@dataclass(frozen=True)
class Territory:
    """What stands on one tile."""

    cubes: Cubes = Cubes()
    castles: Castles = Castles()

    def to_json(self) -> TerritoryJSON:
        return {"cubes": self.cubes.to_json(), "castles": self.castles.to_json()}


K = TypeVar("K")
V = TypeVar("V")


def _frozen(items: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class Snapshot:
    """One frame, as counts: the pieces seen and whether the frame can be trusted.

    Seats are those of the layout, in its order; every seat has its court, reserve and
    disc tray, every colour its cylinder entry. A frame without the mat (``mat`` false)
    has every count zero and says nothing about the table.

    >>> snap = Snapshot.from_json(empty_snapshot(["south", "north"], mat=True))
    >>> snap.territory(6).cubes.total(), snap.emperor, snap.discs["north"]
    (0, None, ())
    >>> Snapshot.from_json(snap.to_json()) == snap
    True
    """

    mat: bool
    occluded: bool
    #: territory 1..15 at index 0..14 (`territory` takes the number)
    territories: tuple[Territory, ...]
    #: the territory the emperor stands on; None: not seen
    emperor: int | None
    courts: Mapping[str, Cubes]
    reserves: Mapping[str, Cubes]
    #: per cube colour: the seat whose court holds that cylinder, "pool", or None (unseen)
    cylinders: Mapping[str, str | None]
    #: per seat: the disc numbers still lying in its tray, ascending
    discs: Mapping[str, tuple[int, ...]]
    #: seconds since the stream started; None: not given (a single image)
    t: float | None = None
    #: how the frame was read: against the bare table or by colour alone; None: not said
    #: (a frame without the mat)
    reader: ReaderKind | None = None
    #: zone -> how sure the reader is of it, for the zones it doubts; None: not said
    #: (a frame without the mat), which the JSON tells apart from "no doubts" ({})
    confidence: Mapping[str, float] | None = field(default=None)

    def territory(self, number: int) -> Territory:
        return self.territories[number - 1]

    @property
    def trusted(self) -> bool:
        """Whether this frame may count towards settling the table (mat seen, nothing
        in the way): the referee judges only such frames."""
        return self.mat and not self.occluded

    def certainty(self, zone: str) -> float:
        """How sure the reader is of ``zone`` (``territory:7``): 1.0 unless it said less.

        >>> Snapshot.from_json({**empty_snapshot(["south"], mat=True),
        ...                     "confidence": {"territory:7": 0.25}}).certainty("territory:7")
        0.25
        """
        return 1.0 if self.confidence is None else self.confidence.get(zone, 1.0)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.courts)

    def to_json(self) -> SnapshotJSON:
        data: SnapshotJSON = {
            "format": FORMAT,
            "mat": self.mat,
            "occluded": self.occluded,
            "territories": {str(n): spot.to_json()
                            for n, spot in enumerate(self.territories, start=1)},
            "emperor": self.emperor,
            "courts": {seat: cubes.to_json() for seat, cubes in self.courts.items()},
            "reserves": {seat: cubes.to_json() for seat, cubes in self.reserves.items()},
            "cylinders": dict(self.cylinders),
            "discs": {seat: list(discs) for seat, discs in self.discs.items()},
        }
        if self.t is not None:
            data["t"] = self.t
        if self.reader is not None:
            data["reader"] = self.reader
        if self.confidence is not None:
            data["confidence"] = dict(self.confidence)
        return data

    @classmethod
    def from_json(cls, data: SnapshotJSON) -> Snapshot:
        """The value of a snapshot dict of the contract's shape (see the module)."""
        spots = data["territories"]
        reader = data.get("reader")
        confidence = data.get("confidence")
        t = data.get("t")
        return cls(
            mat=bool(data["mat"]),
            occluded=bool(data["occluded"]),
            territories=tuple(
                Territory(Cubes.from_json(spots[str(n)]["cubes"]),
                          Castles.from_json(spots[str(n)]["castles"]))
                for n in range(1, TERRITORIES + 1)),
            emperor=None if data["emperor"] is None else int(data["emperor"]),
            courts=_frozen({s: Cubes.from_json(c) for s, c in data["courts"].items()}),
            reserves=_frozen({s: Cubes.from_json(c) for s, c in data["reserves"].items()}),
            cylinders=_frozen(data["cylinders"]),
            discs=_frozen({s: tuple(int(d) for d in discs)
                           for s, discs in data["discs"].items()}),
            t=None if t is None else float(t),
            reader=_reader(reader),
            confidence=None if confidence is None else _frozen(
                {zone: float(level) for zone, level in confidence.items()}),
        )


def _reader(value: str | None) -> ReaderKind | None:
    if value is None:
        return None
    if value == "reference":
        return "reference"
    if value == "absolute":
        return "absolute"
    raise ValueError(f'reader: expected "reference" or "absolute", got {value!r}')


__all__ = ["FORMAT", "Castles", "Cubes", "Snapshot", "SnapshotJSON", "Territory",
           "TerritoryJSON", "empty_snapshot"]
