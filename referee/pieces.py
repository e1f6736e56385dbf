"""The game's pieces as plain values: cube colours, castle colours, seats, cube counts.

Cubes of one kind are interchangeable, so a handful of cubes is a count per colour
(`Cubes`), always in the rules' colour order: red, green, yellow, blue, pink.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Literal, TypeGuard

Colour = Literal["red", "green", "yellow", "blue", "pink"]
CastleColour = Literal["white", "black", "grey"]
Seat = Literal["south", "west", "north", "east"]

COLOURS: Final[tuple[Colour, ...]] = ("red", "green", "yellow", "blue", "pink")
CASTLE_COLOURS: Final[tuple[CastleColour, ...]] = ("white", "black", "grey")
SEATS: Final[tuple[Seat, ...]] = ("south", "west", "north", "east")
TERRITORIES: Final[tuple[int, ...]] = tuple(range(1, 16))

COLOUR_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(COLOURS)}


def is_colour(value: object) -> TypeGuard[Colour]:
    return value in COLOUR_INDEX


def is_castle_colour(value: object) -> TypeGuard[CastleColour]:
    return value in CASTLE_COLOURS


def is_seat(value: object) -> TypeGuard[Seat]:
    return value in SEATS


class Cubes(tuple[int, int, int, int, int]):
    """Cube counts per colour, immutable and hashable.

    >>> Cubes.of(["red", "red", "pink"])
    Cubes(red=2, pink=1)
    >>> Cubes.of(["red"]) + Cubes.of(["blue"]) == Cubes.of(["blue", "red"])
    True
    >>> Cubes.of(["red", "red"]).covers(Cubes.of(["red"]))
    True
    """

    __slots__ = ()

    def __new__(cls, counts: Iterable[int] = (0, 0, 0, 0, 0)) -> Cubes:
        values = tuple(counts)
        if len(values) != 5:
            raise ValueError(f"cube counts need 5 colours, got {len(values)}")
        return super().__new__(cls, values)

    @classmethod
    def of(cls, colours: Iterable[str]) -> Cubes:
        counts = [0, 0, 0, 0, 0]
        for colour in colours:
            counts[COLOUR_INDEX[colour]] += 1
        return tuple.__new__(cls, counts)

    @classmethod
    def from_mapping(cls, counts: Mapping[Colour, int]) -> Cubes:
        return cls(counts.get(c, 0) for c in COLOURS)

    def get(self, colour: Colour) -> int:
        """The count of one colour."""
        return self[COLOUR_INDEX[colour]]

    # Arithmetic is unrolled: the engine adds cubes on every move (see BENCHMARKS.md).
    def __add__(self, other: tuple[int, ...]) -> Cubes:  # type: ignore[override]
        return tuple.__new__(
            Cubes,
            (
                self[0] + other[0],
                self[1] + other[1],
                self[2] + other[2],
                self[3] + other[3],
                self[4] + other[4],
            ),
        )

    def __sub__(self, other: tuple[int, ...]) -> Cubes:
        return tuple.__new__(
            Cubes,
            (
                self[0] - other[0],
                self[1] - other[1],
                self[2] - other[2],
                self[3] - other[3],
                self[4] - other[4],
            ),
        )

    @classmethod
    def sum(cls, handfuls: Iterable[tuple[int, ...]]) -> Cubes:
        """All the handfuls together."""
        totals = tuple(map(sum, zip(*handfuls, strict=True)))
        return tuple.__new__(cls, totals) if totals else NO_CUBES

    def covers(self, other: Cubes) -> bool:
        return all(a >= b for a, b in zip(self, other, strict=True))

    def total(self) -> int:
        return sum(self)

    def colours(self) -> list[Colour]:
        """The cubes as a list of colours, in colour order."""
        return [c for c, n in zip(COLOURS, self, strict=True) for _ in range(n)]

    def as_dict(self) -> dict[Colour, int]:
        return dict(zip(COLOURS, self, strict=True))

    def __repr__(self) -> str:
        parts = [f"{c}={n}" for c, n in zip(COLOURS, self, strict=True) if n]
        return f"Cubes({', '.join(parts)})"

    def describe(self) -> str:
        """Human words: ``2 red, 1 pink`` (``no cubes`` when empty)."""
        parts = [f"{n} {c}" for c, n in zip(COLOURS, self, strict=True) if n]
        return ", ".join(parts) if parts else "no cubes"


NO_CUBES: Final[Cubes] = Cubes()
