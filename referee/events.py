"""What happened: the append-only log of a game, one `Event` per fact.

Events are facts derived by the rules (control gained, castle built, …) plus the steps
of play that a live table wants to announce (disc chosen, turn started). The record
kinds (``RECORD_KINDS``) are exactly those ``carolus check`` reports.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

#: The kinds ``carolus check --json`` lists, as defined in ``docs/record.md``.
RECORD_KINDS = frozenset(
    {"control-gained", "castle-built", "castle-taken", "merged", "returned", "game-over"}
)

#: Python field names that are keywords in the JSON form.
_JSON_NAMES = {"previous": "from"}


@dataclass(frozen=True)
class Event:
    round: int
    turn: int
    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"round": self.round, "turn": self.turn, "kind": self.kind}
        for field in fields(self)[2:]:
            value = getattr(self, field.name)
            data[_JSON_NAMES.get(field.name, field.name)] = (
                list(value) if isinstance(value, tuple) else value
            )
        return data


@dataclass(frozen=True)
class DiscChosen(Event):
    player: str
    number: int
    kind: ClassVar[str] = "disc-chosen"


@dataclass(frozen=True)
class TurnStarted(Event):
    player: str
    disc: int
    kind: ClassVar[str] = "turn-started"


@dataclass(frozen=True)
class CubesPlayed(Event):
    player: str
    court: tuple[str, ...]
    territories: dict[str, list[str]]
    kind: ClassVar[str] = "cubes-played"


@dataclass(frozen=True)
class ControlGained(Event):
    colour: str
    player: str
    previous: str | None
    kind: ClassVar[str] = "control-gained"


@dataclass(frozen=True)
class EmperorMoved(Event):
    player: str
    steps: int
    territory: int
    kind: ClassVar[str] = "emperor-moved"


@dataclass(frozen=True)
class CastleBuilt(Event):
    territories: tuple[int, ...]
    side: str
    kind: ClassVar[str] = "castle-built"


@dataclass(frozen=True)
class CastleTaken(Event):
    territories: tuple[int, ...]
    side: str
    previous: str
    kind: ClassVar[str] = "castle-taken"


@dataclass(frozen=True)
class Merged(Event):
    territories: tuple[int, ...]
    side: str
    kind: ClassVar[str] = "merged"


@dataclass(frozen=True)
class Returned(Event):
    colour: str
    k: int
    kind: ClassVar[str] = "returned"


@dataclass(frozen=True)
class Refilled(Event):
    player: str
    colours: tuple[str, ...]
    kind: ClassVar[str] = "refilled"


@dataclass(frozen=True)
class GameOver(Event):
    winner: str
    reason: str
    kind: ClassVar[str] = "game-over"
