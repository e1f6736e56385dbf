"""The page preview's own events (`web.preview.PreviewHub`): a game begun with its
players, and the position changed (``state``: the page fetches the view again,
`web.live`). Each is a `referee.table.events.TableEvent` of its own ``kind``; the
preview's other events are the referee's (`Stamped`, `Confirmed` …) and the appliance's
(`firmware.events.Training`, `GameEnded`) with fewer fields.

>>> GameStarted(t=1.5, players=("Anna", "Bob")).to_json()
{'kind': 'game-started', 't': 1.5, 'players': ['Anna', 'Bob']}
>>> type(from_json(StateChanged(t=2.0).to_json())).__name__
'StateChanged'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from firmware.events import KINDS as APPLIANCE_KINDS
from referee.table.events import TableEvent, kind_field, registry


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class GameStarted(TableEvent):
    """The page preview began a new game with these players."""

    kind: str = kind_field("game-started")
    players: tuple[str, ...]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class StateChanged(TableEvent):
    """The position changed: the page fetches the view again (`web.live`)."""

    kind: str = kind_field("state")


#: The page preview's own kinds.
PreviewEvent = GameStarted | StateChanged

#: Every kind the page preview publishes, by name: the appliance's stream and its own.
KINDS: dict[str, type[TableEvent]] = {**APPLIANCE_KINDS, **registry(*get_args(PreviewEvent))}


def from_json(data: Mapping[str, Any]) -> TableEvent:
    """An event of the preview's stream from its JSON, as the class of its kind."""
    return TableEvent.from_json(data, KINDS)
