"""Server-Sent Events: the bus, pushed to every open page.

Each page holds one ``GET /api/events`` stream. Its first message (``hello``, with the
id of the last bus event it covers) is the whole view model plus the latest
announcements; then every bus event follows with its bus id as the SSE ``id:``
(``epoch.id``, see `resume_from`), so a browser that reconnects sends
``Last-Event-ID`` and gets exactly the events it missed (or a ``gap`` when they left
the history). A
``state`` event carries the fresh view model, computed once per event for all readers
(see `write` for bursts and for hubs that publish no ``state`` events).
Comments (``: ping``) keep idle streams alive through proxies and let the server notice
closed tabs.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from babel.support import Translations

from firmware.bus import Announcement, EventBus, Gap
from firmware.view import View
from web.announce import sentence
from web.events import StateChanged

#: Announcements sent with the first message of a stream.
RECENT = 20
#: Seconds between keep-alive comments on an idle stream.
HEARTBEAT_S = 15.0
#: How often a waiting stream looks at the stop flag and whether its browser went.
TICK_S = 0.25
#: Digits of the longest bus id a page may send back.
MAX_DIGITS = 19


class StateCache:
    """The view model as JSON, computed at most once per bus event whatever the number
    of readers (and at least every `FRESH_S`, for a hub whose table changes without an
    event)."""

    FRESH_S = 1.0

    def __init__(self, bus: EventBus, state: Callable[[], View]) -> None:
        self._bus = bus
        self._state = state
        self._lock = threading.Lock()
        self._id = -1
        self._at = 0.0
        self._json = ""

    def json_at_least(self, event_id: int) -> str:
        """The view model as of bus event ``event_id`` or later."""
        with self._lock:
            now = time.monotonic()
            if self._id < event_id or now - self._at > self.FRESH_S:
                last = self._bus.last_id
                self._json = json.dumps(self._state(), ensure_ascii=False)
                self._id, self._at = last, now
            return self._json


def recent(bus: EventBus, tr: Translations, upto: int, count: int = RECENT) -> list[dict[str, Any]]:
    """The latest announcements up to event ``upto``, oldest first, with their text
    (later ones follow on the stream itself, so none is shown twice)."""
    out: list[dict[str, Any]] = []
    for event_id, event in bus.since(max(0, upto - 20 * count)):
        if event_id > upto:
            break
        data = event.to_json()
        text = sentence(data, tr)
        if text is not None:
            out.append({**data, "text": text})
    return out[-count:]


def frame(event_id: str | None, data: str) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}data: {data}\n\n"


def resume_from(last_event_id: str, epoch: str) -> int | None:
    """The bus id after which a reconnecting page resumes: its own id in this run of
    the bus; 0 (everything kept) when it last saw an earlier run; ``None`` if the id is
    not one of ours."""
    seen, dot, number = last_event_id.strip().rpartition(".")
    if not (number.isascii() and number.isdigit()) or len(number) > MAX_DIGITS:
        return None  # (a longer number is no bus id, and `int` refuses 4300 digits)
    if dot and seen != epoch:
        return 0  # the appliance restarted since: every event of this run is new to it
    return int(number)


def stream(
    bus: EventBus,
    cache: StateCache,
    tr: Translations,
    since: int | None,
    stopping: threading.Event,
    heartbeat: float = HEARTBEAT_S,
    epoch: str = "0",
    gone: Callable[[], bool] = lambda: False,
) -> Iterator[str]:
    """The SSE text of one page's stream, until the server stops, the bus closes or the
    browser goes (``gone``: a closed tab must give its slot back now, not at the next
    keep-alive write, up to `HEARTBEAT_S` later)."""
    start = bus.last_id if since is None else min(since, bus.last_id)
    yield "retry: 1000\n\n"
    latest = json.dumps(recent(bus, tr, start), ensure_ascii=False)
    state = cache.json_at_least(start)
    hello = f'{{"kind": "hello", "id": {start}, "recent": {latest}, "state": {state}}}'
    yield frame(f"{epoch}.{start}", hello)  # a reconnect resumes here if nothing followed
    reader = bus.subscribe(since=start)
    quiet = 0.0
    while not stopping.is_set() and not gone():
        item = reader.get(timeout=TICK_S)
        if item is None:
            if bus.closed:
                return
            quiet += TICK_S
            if quiet >= heartbeat:
                quiet = 0.0
                yield ": ping\n\n"
            continue
        quiet = 0.0
        items = [item]
        while len(items) < 100:  # send what piled up in one write
            item = reader.get(timeout=0)
            if item is None:
                break
            items.append(item)
        yield "".join(write(items, cache, tr, epoch))


def write(
    items: list[tuple[int, Announcement]], cache: StateCache, tr: Translations, epoch: str
) -> Iterator[str]:
    """The messages for events that piled up. Only the last ``state`` among them carries
    the view model (earlier ones are stale already: they keep their id, so nothing is
    lost, but not their 7 KB); a hub that publishes no ``state`` events gets one after
    the last event anyway (without an id: it is not a bus event)."""
    states = [isinstance(event, StateChanged) for _, event in items]
    newest = max((i for i, state in enumerate(states) if state), default=-1)
    for i, (event_id, event) in enumerate(items):
        if states[i] and i != newest:
            yield frame(f"{epoch}.{event_id}", f'{{"kind": "state", "id": {event_id}}}')
        else:
            yield render(event_id, event, cache, tr, epoch)
    last_id, last = items[-1]
    if not isinstance(last, StateChanged | Gap):
        state = cache.json_at_least(last_id)
        yield frame(None, f'{{"kind": "state", "id": {last_id}, "state": {state}}}')


def render(
    event_id: int, event: Announcement, cache: StateCache, tr: Translations, epoch: str
) -> str:
    """One bus event as an SSE message in the reader's language."""
    if isinstance(event, StateChanged):
        state = f'{{"kind": "state", "id": {event_id}, "state": {cache.json_at_least(event_id)}}}'
        return frame(f"{epoch}.{event_id}", state)
    data = event.to_json()
    text = sentence(data, tr)
    return frame(f"{epoch}.{event_id}", json.dumps({**data, "text": text}, ensure_ascii=False))
