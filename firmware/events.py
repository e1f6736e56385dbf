"""The appliance's own events: what it says besides the referee, in the same stream.

The camera's state, a button press that only changes the display, the bare-table step,
training mode, a game begun, ended or resumed, a log that refused a write: the appliance
makes these (`firmware.appliance`, `firmware.bare`), so they are defined here, each a
`referee.table.events.TableEvent` of its own ``kind`` with its fields by name, and
travel with the referee's on the bus, into the log and to the page. Their JSON is
``docs/table.md``'s, in the order of each class's fields (the ``kind`` strings are the
log's, unchanged since they were dicts).

`KINDS` is the registry of every kind the appliance reads back (the referee's and
these); `from_json` reads one with it.

>>> event = CameraStatus(t=3.0, message="Camera lost.", status="lost")
>>> event.to_json()
{'kind': 'camera', 't': 3.0, 'status': 'lost', 'message': 'Camera lost.'}
>>> from_json(event.to_json()) == event, type(from_json(event.to_json())).__name__
(True, 'CameraStatus')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from referee.table.events import KINDS as TABLE_KINDS
from referee.table.events import TableEvent, kind_field, registry


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Resumed(TableEvent):
    """The appliance carries on a logged game after a restart."""

    kind: str = kind_field("resumed")
    game: int


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CameraStatus(TableEvent):
    """The camera's state: ``ok``, ``lost``, ``demo`` …"""

    kind: str = kind_field("camera")
    status: str


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class LogNotWritten(TableEvent):
    """The game log refused a write (a full or read-only card); the game goes on."""

    kind: str = kind_field("warning")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Training(TableEvent):
    """Training mode turned on or off for this game."""

    kind: str = kind_field("training")
    on: bool


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class NewGame(TableEvent):
    """A new game was set up on the appliance (the players, in the message)."""

    kind: str = kind_field("new-game")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class GameEnded(TableEvent):
    """The running game was stopped; it stays in the log as it stood."""

    kind: str = kind_field("game-ended")


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class ButtonPressed(TableEvent):
    """A button press that only changes what the display shows."""

    kind: str = kind_field("button")
    button: str
    long: bool


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class BareAsk(TableEvent):
    """Lay the table bare, then Confirm (`firmware.bare`)."""

    kind: str = kind_field("bare-ask")
    step: str = "ask"


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class BareLearnt(TableEvent):
    """The bare table is learnt: now the pieces (`firmware.bare`)."""

    kind: str = kind_field("bare-table")
    step: str = "learnt"


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class BareRefused(TableEvent):
    """The frame could not be the bare table (`firmware.bare.PROBLEMS` code)."""

    kind: str = kind_field("bare-refused")
    problem: str | None


#: The appliance's own kinds.
ApplianceEvent = (
    Resumed | CameraStatus | LogNotWritten | Training | NewGame | GameEnded | ButtonPressed
    | BareAsk | BareLearnt | BareRefused
)

#: Every kind the appliance reads back by name: the table referee's and its own.
KINDS: dict[str, type[TableEvent]] = {**TABLE_KINDS, **registry(*get_args(ApplianceEvent))}


def from_json(data: Mapping[str, Any]) -> TableEvent:
    """An event of the appliance's stream from its JSON, as the class of its kind
    (`referee.table.events.TableEvent.from_json` with `KINDS`)."""
    return TableEvent.from_json(data, KINDS)
