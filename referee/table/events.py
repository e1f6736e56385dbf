"""Events of the live table: one frozen dataclass per kind, with its fields by name.

Every event has its ``kind``, ``t`` (the time of the snapshot that settled it), the
English ``message`` (a `Said` keeps its msgid and fields, so every box says it again in
its own language) and, once the bus numbered it, ``id``; each kind adds its own fields,
named as ``docs/table.md`` names them. The engine's events are not copied: `Stamped`
carries the `referee.events` value it stamps (``engine``), so a reader that wants a
`CastleBuilt` gets one rather than a dict to pick apart. The table adds announcements
(`CubesPlaced`, `CastlePending`, `CylinderPending` …), judgement (`Illegal`, `Question`
when the reading is in doubt, `Resolved`) and the log of human interventions (`Undone`,
`Confirmed`, `Corrected`, `Answered`).

The boxes above the referee make kinds of their own in the same stream (the bus, the
log, ``/api/events``), each defined in the box that makes it, as a `TableEvent` too:
the appliance's in `firmware.events` (the camera, the buttons, the bare-table step …),
the page preview's in `web.events`. Each box keeps a registry of the kinds it reads
back (`registry`; `firmware.events.KINDS` is the referee's and the appliance's), which
it gives `TableEvent.from_json`. A kind the registry does not know (an event of another
version's log, another box's) reads as an `OtherEvent`, which keeps its fields as they
came.

JSON is only at the edges (the bus's SSE stream, the game log, ``carolus follow
--json``): `TableEvent.to_json` gives the fields of ``docs/record.md`` (engine events)
or ``docs/table.md``, in the order of each class's fields, which is the order they were
always written in; `TableEvent.from_json` reads them back. The boxes read an event by its
class and attributes (`firmware.display.cards`, the buttons, `web.live`, `describe`),
never as a dict: an event is no mapping, so a box that asks ``event["code"]`` fails at
once (and under ``mypy``) rather than reading a JSON key that a renamed field no longer
writes. Two events are equal when their JSON is (a typed event read back equals the
one written), and an event never equals a dict.

>>> from referee.events import CastleBuilt
>>> built = stamp(CastleBuilt(3, 2, (6,), "white"), 41.5)
>>> built.kind, built.t, built.engine == CastleBuilt(3, 2, (6,), "white")
('castle-built', 41.5, True)
>>> built == built.to_json()
False
>>> TableEvent.from_json(built.to_json()) == built
True
>>> asked = Corrected(t=12.0, message="Corrected.", zone="territory:7")
>>> asked.to_json()
{'kind': 'corrected', 't': 12.0, 'zone': 'territory:7', 'message': 'Corrected.'}
>>> type(TableEvent.from_json(asked.to_json())).__name__
'Corrected'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, ClassVar, Literal, Self

from referee import events as engine_events
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

#: The fields every event has whatever its kind (`TableEvent`'s own).
_COMMON = frozenset({"kind", "t", "message", "id"})
#: The keys a `Said` message adds to the JSON, after the kind's own fields.
_WORDS = ("say", "words")


def kind_field(name: str) -> Any:
    """The ``kind`` field of one event class: fixed, never given to the constructor."""
    return field(default=name, init=False)


@dataclass(frozen=True, eq=False, kw_only=True)
class TableEvent:
    """One thing the table said, as every box passes it on: ``kind``, ``t``,
    ``message`` and the bus's ``id`` here, the kind's own fields in its class.

    Equality is that of the JSON form among events (a typed event and the `OtherEvent`
    of the same JSON are equal: the log cannot tell them apart); events are not
    hashable, as their fields hold lists and mappings."""

    kind: str = kind_field("")
    t: float | None = None
    message: str | None = None
    """The referee's English words, kept in the log (``None``: an event that has none,
    as the page preview's); a `Said` also gives its msgid and fields (``say``,
    ``words``), for `referee.announcements.render`."""
    id: int | None = None
    """The bus's number for it, once published (`firmware.bus.EventBus.publish`)."""

    #: own fields left out of the JSON while they are None (the page preview's events
    #: carry fewer fields than the appliance's of the same kind)
    unless_none: ClassVar[frozenset[str]] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """The JSON object the edges carry, keys in their documented order."""
        return dict(self._json)

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], kinds: Mapping[str, type[TableEvent]] | None = None
    ) -> TableEvent:
        """An event from its JSON form (the log, a bus of another process), as the class
        of its kind among the referee's (`KINDS`) and the rules' or, given, ``kinds`` (a
        box's own registry, `firmware.events.KINDS`); as an `OtherEvent` when the kind is
        unknown or its fields do not fit the kind's (the JSON is kept as it came either
        way). Raises `ValueError` without a ``kind``."""
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise ValueError(f"a table event needs a 'kind': {dict(data)!r}")
        t = data.get("t")
        when = t if isinstance(t, int | float) and not isinstance(t, bool) else None
        text = data.get("message")
        message = None if text is None else _message(str(text), data)
        number = data.get("id")
        number = number if isinstance(number, int) else None
        own = {k: v for k, v in data.items() if k not in _COMMON}
        if isinstance(message, Said):
            own = {k: v for k, v in own.items() if k not in _WORDS}
        other = OtherEvent(kind=kind, t=when, message=message, id=number, fields=own)
        try:
            typed = _typed(kind, when, message, number, own, kinds or KINDS)
        except (KeyError, TypeError, ValueError):
            return other
        return typed if typed is not None and typed.to_json() == other.to_json() else other

    def published(self, number: int) -> Self:
        """This event as the bus numbered it."""
        return dataclasses.replace(self, id=number)

    @property
    def say(self) -> str | None:
        """The msgid of a `Said` message, if the referee gave one."""
        return self.message.msgid if isinstance(self.message, Said) else None

    def _own(self) -> dict[str, Any]:
        """The kind's own fields as JSON, in their order."""
        out: dict[str, Any] = {}
        for own in fields(self):
            if own.name in _COMMON:
                continue
            value = getattr(self, own.name)
            if value is None and own.name in self.unless_none:
                continue
            out[own.name] = _json_value(value)
        return out

    @cached_property
    def _json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "t": self.t, **self._own()}
        message = self.message
        if isinstance(message, Said):
            data["say"], data["words"] = message.msgid, message.words
        if message is not None:
            data["message"] = str(message)
        if self.id is not None:
            data["id"] = self.id
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableEvent):
            return NotImplemented
        return self._json == other._json

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._json!r})"


# ------------------------------------------------------------ the rules' events


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Stamped(TableEvent):
    """An event of the rules (`referee.events`: ``turn-started``, ``castle-built`` …)
    stamped with the table's time (and, from the referee, its words, `stamp`); its JSON
    is the record's fields, then ``t``."""

    engine: Event

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", self.engine.kind)

    @cached_property
    def _json(self) -> dict[str, Any]:
        data: dict[str, Any] = {**self.engine.to_json(), "t": self.t}
        if self.message is not None:
            data["message"] = str(self.message)
        if self.id is not None:
            data["id"] = self.id
        return data


# ------------------------------------------------------------ the table referee's


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Question(TableEvent):
    """The reading of a zone is in doubt: the players are asked before anything is
    judged on it (``docs/table.md``, "Questions")."""

    kind: str = kind_field("question")
    zone: str
    #: for a territory, which of its parts is asked about (``cubes``, ``castles``)
    part: str | None
    #: what the camera reads there (`referee.table.doubts.counts`)
    counts: Mapping[str, object]
    #: the illegal act the reading would be, if it is one
    code: str | None
    player: str | None
    #: why it is asked: ``doubtful``, ``setup``, ``standing``, ``untouched``, ``corrected``,
    #: ``unaccounted`` (a cube left a reserve and is seen nowhere, or is seen where no
    #: reserve gave it), ``refill`` (a refill read from a reserve the vision doubted),
    #: ``disc`` (a disc choice read from a tray the vision doubted),
    #: ``judged-again`` (a move judged again puts a cube on a tile the vision doubts),
    #: ``castle-denied`` (people denied a castle nobody earned: is the tile as the game
    #: has it?)
    why: str
    round: int
    turn: int


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Illegal(TableEvent):
    """An illegal act the camera is sure of: it holds the game until put right."""

    kind: str = kind_field("illegal")
    code: str
    player: str | None
    round: int
    turn: int


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Resolved(TableEvent):
    """The table is in order again: the standing alarm or question is over."""

    kind: str = kind_field("resolved")
    code: str | None
    player: str | None


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Undone(TableEvent):
    """Undo took back a step (``move``, as `referee.moves.move_to_json` writes it;
    None: there was nothing to take back)."""

    kind: str = kind_field("undone")
    move: Mapping[str, Any] | None


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Confirmed(TableEvent):
    """Confirm pressed: the jobs the camera cannot see that people say are done
    (None: the page preview, which does not say)."""

    kind: str = kind_field("confirmed")
    done: tuple[str, ...] | None = None
    unless_none: ClassVar[frozenset[str]] = frozenset({"done"})


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Answered(TableEvent):
    """The players answered the standing question."""

    kind: str = kind_field("answered")
    zone: str
    answer: Literal["yes", "no"]
    code: str | None


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class Corrected(TableEvent):
    """Someone said what a zone holds (the page preview also says the ``counts``)."""

    kind: str = kind_field("corrected")
    zone: str
    counts: Mapping[str, int] | None = None
    unless_none: ClassVar[frozenset[str]] = frozenset({"counts"})


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class SetupAccepted(TableEvent):
    """The set-up is accepted and the game begins: the record's set-up, and the zones
    nobody answered about (``unconfirmed``)."""

    kind: str = kind_field("setup")
    unconfirmed: tuple[str, ...]
    territories: tuple[str, ...]
    emperor: int
    reserves: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CubesPlaced(TableEvent):
    """A player's cubes so far this turn, before the turn is complete."""

    kind: str = kind_field("cubes-placed")
    player: str
    court: tuple[str, ...]
    #: territory number (as text) -> the cubes put there
    territories: Mapping[str, tuple[str, ...]]
    count: int
    of: int


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CastlesPlaced(TableEvent):
    """The castles the rules built stand on the table now."""

    kind: str = kind_field("castles-placed")
    territories: tuple[int, ...]


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CastlePending(TableEvent):
    """A castle the rules built (or took over) still has to be put on the table."""

    kind: str = kind_field("castle-pending")
    territories: tuple[int, ...]
    side: str


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CylinderPending(TableEvent):
    """A cylinder still has to move ``to`` a seat's court or the pool."""

    kind: str = kind_field("cylinder-pending")
    colour: str
    to: str


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class CylinderMoved(TableEvent):
    """A cylinder the referee reminded of is where it belongs now."""

    kind: str = kind_field("cylinder-moved")
    colour: str
    to: str


@dataclass(frozen=True, eq=False, kw_only=True, repr=False)
class OtherEvent(TableEvent):
    """An event of a kind this module does not type, or whose fields do not fit its
    kind: its fields kept as they came (`TableEvent.from_json`)."""

    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def _own(self) -> dict[str, Any]:
        return dict(self.fields)


def registry(*classes: type[TableEvent]) -> dict[str, type[TableEvent]]:
    """Event classes by their ``kind``: a box's registry for `TableEvent.from_json`
    (each box that makes events of its own adds them to `KINDS`)."""
    return {str(cls.__dataclass_fields__["kind"].default): cls for cls in classes}


#: The table referee's kinds by name, for `TableEvent.from_json`.
KINDS: dict[str, type[TableEvent]] = registry(
    Question, Illegal, Resolved, Undone, Confirmed, Answered, Corrected, SetupAccepted,
    CubesPlaced, CastlesPlaced, CastlePending, CylinderPending, CylinderMoved,
)  # fmt: skip

#: The rules' event classes by kind (`Stamped`).
ENGINE_KINDS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in vars(engine_events).values()
    if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
}
#: Engine fields whose JSON name is a Python keyword (`referee.events.Event.to_json`).
_ENGINE_NAMES = {"previous": "from"}


def _typed(
    kind: str,
    t: float | None,
    message: str | None,
    number: int | None,
    own: dict[str, Any],
    kinds: Mapping[str, type[TableEvent]],
) -> TableEvent | None:
    """The typed event of ``kind`` from its JSON fields; None for a kind not typed.
    Raises on fields that do not fit (`from_json` keeps those as they came)."""
    if kind in ENGINE_KINDS:
        made = ENGINE_KINDS[kind]
        values: dict[str, Any] = {
            f.name: _from_json_value(own[_ENGINE_NAMES.get(f.name, f.name)], str(f.type))
            for f in fields(made)
        }
        return Stamped(engine=made(**values), t=t, message=message, id=number)
    typed = kinds.get(kind)
    if typed is None:
        return None
    given: dict[str, Any] = {}
    for f in fields(typed):
        if f.name in _COMMON:
            continue
        if f.name in own:
            given[f.name] = _from_json_value(own[f.name], str(f.type))
        elif f.name not in typed.unless_none and f.default is dataclasses.MISSING:
            raise KeyError(f.name)
    return typed(t=t, message=message, id=number, **given)


def _message(text: str, data: Mapping[str, Any]) -> str:
    """The message of an event's JSON: a `Said` again when it gave its msgid and fields."""
    msgid, words = data.get("say"), data.get("words")
    if not isinstance(msgid, str) or not isinstance(words, dict):
        return text
    again = Said(text)
    again.msgid, again.words = msgid, words
    return again


def _json_value(value: object) -> object:
    """A field's value as JSON: tuples as lists, mappings as objects, all the way down."""
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _json_value(item) for key, item in value.items()}
    return value


def _from_json_value(value: object, annotation: str) -> object:
    """A JSON value as the field declares it: a list becomes the tuple it was."""
    if annotation.startswith("tuple") and isinstance(value, list):
        return tuple(value)
    return value


#: A kind of event by its class: a table event's own class, or for a `Stamped` the
#: rules' event class it carries (a box's list of kinds it acts on is a set of these).
EventClass = type[TableEvent] | type[Event]


def is_one_of(event: TableEvent, classes: Collection[EventClass]) -> bool:
    """Whether ``event`` is of one of ``classes``: a `Stamped` by the rules' event it
    carries (`CastleBuilt` …), any other by its own class (`Illegal`, an appliance's
    `firmware.events.CameraStatus` …). Exact classes, as a kind is exact: an
    `OtherEvent` of a kind read back from a log is none of them."""
    return type(event.engine if isinstance(event, Stamped) else event) in classes


def stamp(event: Event, t: float | None) -> Stamped:
    """An engine event as a table event: its record fields, ``t`` and its words."""
    return Stamped(engine=event, t=t, message=say(event))


def describe(event: TableEvent, tr: Translator = ENGLISH) -> str:
    """One line of commentary (``carolus follow``): time, then the words."""
    t = event.t
    when = f"{t:8.1f}s" if t is not None else "       -"
    text = render(event, tr) or event.kind
    if not speaks_english(tr):
        return f"{when}  {text}"  # another language says the whole sentence, no marker
    if isinstance(event, Illegal):
        who = f", {event.player}" if event.player else ""
        text = f"ILLEGAL ({event.code}{who}): {illegal_detail(event, tr)}"
    elif isinstance(event, Question):
        code = f" ({event.code})" if event.code else ""
        text = f"QUESTION{code}: {text}"
    return f"{when}  {text}"
