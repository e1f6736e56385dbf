"""Moves: what a player decides, in the order the rules ask for it.

A turn of the action phase is three moves — `PlayCubes`, `MoveEmperor`, `Refill` — so
that a live table can be refereed step by step (the castle is announced before the
refill arrives). Moves carry raw values (colour names, territory numbers) so that the
engine, not the caller, decides what is unknown; equal moves compare equal whatever the
order of their cubes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


def _canonical_territory(key: int | str) -> int | str:
    """``"7"`` is territory 7; anything else stays as given for the engine to refuse."""
    if isinstance(key, str) and key.isdigit() and str(int(key)) == key:
        return int(key)
    return key


def _territory_sort_key(key: int | str) -> tuple[int, str]:
    return (key, "") if isinstance(key, int) else (10_000, key)


@dataclass(frozen=True)
class ChooseDisc:
    """Opening phase: ``player`` lays the disc ``number`` face up.

    >>> ChooseDisc("Anna", 3)
    ChooseDisc(player='Anna', number=3)
    """

    player: str
    number: int


@dataclass(frozen=True)
class PlayCubes:
    """Action 1: cubes from the reserve to the player's own court and onto territories.

    A territory inside a region stands for the whole region.

    >>> PlayCubes.of("Bob", court=["green", "green"], territories={4: ["red"]})
    PlayCubes(player='Bob', court=('green', 'green'), territories=((4, ('red',)),))
    """

    player: str
    court: tuple[str, ...] = ()
    territories: tuple[tuple[int | str, tuple[str, ...]], ...] = ()

    @classmethod
    def of(
        cls,
        player: str,
        court: Iterable[str] = (),
        territories: Mapping[int, Iterable[str]] | Mapping[str, Iterable[str]] | None = None,
    ) -> PlayCubes:
        placed: list[tuple[int | str, tuple[str, ...]]] = []
        for key, colours in (territories or {}).items():
            cubes = tuple(sorted(colours))
            if cubes:
                placed.append((_canonical_territory(key), cubes))
        placed.sort(key=lambda item: _territory_sort_key(item[0]))
        return cls(player, tuple(sorted(court)), tuple(placed))

    def count(self) -> int:
        return len(self.court) + sum(len(colours) for _, colours in self.territories)

    def colours(self) -> list[str]:
        return [*self.court, *(c for _, colours in self.territories for c in colours)]


@dataclass(frozen=True)
class MoveEmperor:
    """Action 2: the emperor goes ``steps`` units clockwise; a region is one step."""

    player: str
    steps: int


@dataclass(frozen=True)
class Refill:
    """Action 3: cubes taken from the supply as the dice said (a crown is the colour chosen).

    ``returned`` maps a colour to the *k* every player gave back from his court before
    the refill, when the supply ran short of it.
    """

    player: str
    colours: tuple[str, ...] = ()
    returned: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(
        cls, player: str, colours: Iterable[str], returned: Mapping[str, int] | None = None
    ) -> Refill:
        return cls(player, tuple(sorted(colours)), tuple(sorted((returned or {}).items())))


Move = ChooseDisc | PlayCubes | MoveEmperor | Refill


class MoveFormatError(ValueError):
    """JSON that names no move."""


def move_to_json(move: Move) -> dict[str, Any]:
    """A move as JSON, for the game log and the live page.

    >>> move = PlayCubes.of("Bob", ["green"], {4: ["red"]})
    >>> move_to_json(move)
    {'move': 'cubes', 'player': 'Bob', 'court': ['green'], 'territories': [[4, ['red']]]}
    >>> move_from_json(move_to_json(move)) == move
    True
    """
    if isinstance(move, ChooseDisc):
        return {"move": "disc", "player": move.player, "number": move.number}
    if isinstance(move, PlayCubes):
        return {
            "move": "cubes",
            "player": move.player,
            "court": list(move.court),
            "territories": [[key, list(colours)] for key, colours in move.territories],
        }
    if isinstance(move, MoveEmperor):
        return {"move": "emperor", "player": move.player, "steps": move.steps}
    if isinstance(move, Refill):
        data: dict[str, Any] = {
            "move": "refill",
            "player": move.player,
            "colours": list(move.colours),
        }
        if move.returned:
            data["returned"] = dict(move.returned)
        return data
    raise MoveFormatError(f"not a move: {move!r}")


def move_from_json(data: Any) -> Move:
    """The move a stored step names; `MoveFormatError` if it names none."""
    try:
        kind = data["move"]
        player = str(data["player"])
        if kind == "disc":
            return ChooseDisc(player, int(data["number"]))
        if kind == "cubes":
            places: dict[int | str, list[str]] = {}
            for key, colours in data["territories"]:
                places.setdefault(key, []).extend(colours)
            return PlayCubes(
                player,
                tuple(sorted(data["court"])),
                tuple((key, tuple(sorted(c))) for key, c in places.items()),
            )
        if kind == "emperor":
            return MoveEmperor(player, int(data["steps"]))
        if kind == "refill":
            return Refill.of(player, data["colours"], data.get("returned") or {})
    except (KeyError, TypeError, ValueError) as exc:
        raise MoveFormatError(f"stored step {data!r} is not a move: {exc}") from None
    raise MoveFormatError(f"stored step {data!r} is not a move: unknown kind {kind!r}")
