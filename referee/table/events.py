"""Events of the live table: the engine's events stamped with a time, plus the table's own.

Every event is a JSON-able dict with ``kind`` and ``t`` (the time of the snapshot that
settled it). Engine events keep the fields of ``docs/record.md``; the table adds
announcements (``cubes-placed``, ``castle-pending``, ``cylinder-pending`` …), judgement
(``illegal``, ``question`` when the reading is in doubt, ``resolved``) and the log of
human interventions (``undone``, ``confirmed``, ``corrected``, ``answered``). Table
events carry a ``message``: the referee's English words, kept in the log; what people
see and hear is `referee.announcements.render` of the event's fields, in their language.
"""

from __future__ import annotations

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

TableEvent = dict[str, Any]


def stamp(event: Event, t: float | None) -> TableEvent:
    """An engine event as a table event: its record fields, ``t`` and its words."""
    data = event.to_json()
    data["t"] = t
    data["message"] = say(event)
    return data


def table_event(kind: str, t: float | None, message: str, **fields: Any) -> TableEvent:
    """A table event; a `Said` message also gives its msgid and fields (``say``,
    ``words``), so every box says it in its own language."""
    if isinstance(message, Said):
        fields = {**fields, "say": message.msgid, "words": message.words}
    return {"kind": kind, "t": t, **fields, "message": str(message)}


def describe(event: TableEvent, tr: Translator = ENGLISH) -> str:
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
