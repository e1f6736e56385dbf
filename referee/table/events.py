"""Events of the live table: the engine's events stamped with a time, plus the table's own.

A `TableEvent` has a ``kind``, ``t`` (the time of the snapshot that settled it) and the
referee's ``message``; an engine event stamped by the table keeps the `referee.events`
object it came from (``engine``), so a reader that wants a `CastleBuilt` gets one rather
than a dict to pick apart. The table adds announcements (``cubes-placed``,
``castle-pending``, ``cylinder-pending`` …), judgement (``illegal``, ``question`` when the
reading is in doubt, ``resolved``) and the log of human interventions (``undone``,
``confirmed``, ``corrected``, ``answered``); the appliance adds its own (``camera``,
``warning``, ``bare-table`` …) of the same type. What people see and hear is
`referee.announcements.render` of the event's fields, in their language.

JSON is only at the edges (the bus's SSE stream, the game log, ``carolus follow
--json``): `TableEvent.to_json` gives the fields of ``docs/record.md`` (engine events) or
``docs/table.md`` in their order, `TableEvent.from_json` reads them back. An event is
also a read-only mapping of that JSON, because the announcements, the outputs and the
referee read a field by its name in events live and logged alike.

>>> from referee.events import CastleBuilt
>>> built = stamp(CastleBuilt(3, 2, (6,), "white"), 41.5)
>>> built.kind, built.t, built["territories"], built.engine == CastleBuilt(3, 2, (6,), "white")
('castle-built', 41.5, [6], True)
>>> TableEvent.from_json(built.to_json()) == built
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from referee.announcements import (
    ENGLISH,
    Said,
    Translator,
    illegal_detail,
    render,
    say,
    speaks_english,
)
from referee.events import Event

#: The keys a table event has whatever its kind; every other key is one of its fields.
_OWN = ("kind", "t", "message", "id")


@dataclass(frozen=True, eq=False)
class TableEvent(Mapping[str, Any]):
    """One thing the table said, as every box passes it on: typed where all events
    agree (``kind``, ``t``, ``message``, the bus's ``id``), the kind's own fields by name.

    Equality is that of the JSON form, so an event equals its JSON dict."""

    kind: str
    t: float | None
    message: str | None = None
    """The referee's English words, kept in the log (``None``: an event that has none,
    as the page preview's)."""
    fields: Mapping[str, Any] = field(default_factory=dict)
    """The kind's own fields, JSON values (``say`` and ``words``: a `Said` message's msgid
    and fields, for `referee.announcements.render`)."""
    engine: Event | None = None
    """The rules' event this one stamps, if it is one."""
    id: int | None = None
    """The bus's number for it, once published (`firmware.bus.EventBus.publish`)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object the edges carry, keys in their documented order."""
        return dict(self._json)

    @classmethod
    def of(cls, event: Event, t: float | None, message: str | None = None) -> TableEvent:
        """The rules' ``event`` stamped with ``t`` (and, from the referee, its words)."""
        fields = {k: v for k, v in event.to_json().items() if k != "kind"}
        return cls(event.kind, t, message, fields, event)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableEvent:
        """An event from its JSON form (the log, a bus of another process). Raises
        `ValueError` without a ``kind``."""
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise ValueError(f"a table event needs a 'kind': {dict(data)!r}")
        t = data.get("t")
        message = data.get("message")
        number = data.get("id")
        return cls(
            kind,
            t if isinstance(t, int | float) and not isinstance(t, bool) else None,
            str(message) if message is not None else None,
            {k: v for k, v in data.items() if k not in _OWN},
            id=number if isinstance(number, int) else None,
        )

    def published(self, number: int) -> TableEvent:
        """This event as the bus numbered it."""
        return TableEvent(self.kind, self.t, self.message, self.fields, self.engine, number)

    @property
    def say(self) -> str | None:
        """The msgid of a `Said` message, if the referee gave one."""
        found = self.fields.get("say")
        return found if isinstance(found, str) else None

    @cached_property
    def _json(self) -> dict[str, Any]:
        if self.engine is not None:
            data: dict[str, Any] = {**self.engine.to_json(), "t": self.t}
            data.update((k, v) for k, v in self.fields.items() if k not in data)
        else:
            data = {"kind": self.kind, "t": self.t, **self.fields}
        if self.message is not None:
            data["message"] = self.message
        if self.id is not None:
            data["id"] = self.id
        return data

    def __getitem__(self, key: str) -> Any:
        return self._json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json)

    def __len__(self) -> int:
        return len(self._json)

    def __repr__(self) -> str:
        return f"TableEvent({self._json!r})"


def stamp(event: Event, t: float | None) -> TableEvent:
    """An engine event as a table event: its record fields, ``t`` and its words."""
    return TableEvent.of(event, t, say(event))


def table_event(kind: str, t: float | None, message: str, **fields: Any) -> TableEvent:
    """A table event; a `Said` message also gives its msgid and fields (``say``,
    ``words``), so every box says it in its own language."""
    if isinstance(message, Said):
        fields = {**fields, "say": message.msgid, "words": message.words}
    return TableEvent(kind, t, str(message), fields)


def describe(event: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """One line of commentary (``carolus follow``): time, then the words."""
    t = event.get("t")
    when = f"{t:8.1f}s" if isinstance(t, int | float) else "       -"
    text = render(event, tr) or event["kind"]
    if not speaks_english(tr):
        return f"{when}  {text}"  # another language says the whole sentence, no marker
    if event["kind"] == "illegal":
        who = f", {event['player']}" if event.get("player") else ""
        text = f"ILLEGAL ({event.get('code')}{who}): {illegal_detail(event, tr)}"
    elif event["kind"] == "question":
        code = f" ({event['code']})" if event.get("code") else ""
        text = f"QUESTION{code}: {text}"
    return f"{when}  {text}"
