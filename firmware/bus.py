"""The appliance's event bus: one ordered stream of announcements, many readers.

Every event the referee produces is published once, gets a growing ``id``, and stays in a
bounded history. Readers (the game log, the display, each web page's SSE stream) read
the history at their own pace from the id they last saw — so a browser that reconnects
with ``Last-Event-ID`` misses nothing, and a slow reader never blocks the referee.

Events are `referee.table.events.TableEvent` values, one class per kind (the referee's
in `referee.table.events`, the appliance's in `firmware.events`, the page preview's in
`web.events`), numbered by the bus; readers tell them by their class, and a reader that
fell behind the history gets a `Gap`. JSON is made only where an event leaves the
appliance (`TableEvent.to_json`: the SSE stream, the log, a command's reply).

>>> from firmware.events import CameraStatus
>>> bus = EventBus()
>>> bus.publish(CameraStatus(t=0.0, message="Camera ok.", status="ok"))
1
>>> reader = bus.subscribe(since=0)
>>> reader.get(timeout=0)
(1, CameraStatus({'kind': 'camera', 't': 0.0, 'status': 'ok', 'message': 'Camera ok.', 'id': 1}))
>>> reader.get(timeout=0) is None
True
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from referee.table.events import TableEvent


@dataclass(frozen=True)
class Gap:
    """Events between the reader's last and ``id`` left the history before it read them
    (a page that slept): it should fetch the whole state again."""

    id: int
    kind: str = "gap"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id}


#: What a reader of the bus gets.
Announcement = TableEvent | Gap


class EventBus:
    """Thread-safe publish/subscribe over a bounded history of events."""

    def __init__(self, history: int = 5000) -> None:
        self._events: deque[tuple[int, TableEvent]] = deque(maxlen=history)
        self._last = 0
        self._changed = threading.Condition()
        self._closed = False

    @property
    def last_id(self) -> int:
        return self._last

    def publish(self, event: TableEvent) -> int:
        """Append ``event``; returns its id (the event is kept with it, `TableEvent.id`)."""
        with self._changed:
            self._last += 1
            self._events.append((self._last, event.published(self._last)))
            self._changed.notify_all()
            return self._last

    def since(self, last_seen: int) -> list[tuple[int, TableEvent]]:
        """Events after ``last_seen`` still in the history, oldest first."""
        with self._changed:
            return [(i, e) for i, e in self._events if i > last_seen]

    def subscribe(self, since: int | None = None) -> Subscription:
        """A reader starting after event ``since`` (default: from now on)."""
        return Subscription(self, self._last if since is None else since)

    def wait(self, last_seen: int, timeout: float | None) -> bool:
        """Block until an event newer than ``last_seen`` exists (or timeout / close)."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._last > last_seen or self._closed, timeout=timeout
            )

    def close(self) -> None:
        """Wake every reader for shutdown."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed


class Subscription:
    """One reader's position in the bus."""

    def __init__(self, bus: EventBus, last_seen: int) -> None:
        self._bus = bus
        self.last_seen = last_seen
        self._pending: deque[tuple[int, Announcement]] = deque()

    def get(self, timeout: float | None = None) -> tuple[int, Announcement] | None:
        """The next event, waiting up to ``timeout`` seconds; ``None`` if none came.

        If the reader fell so far behind that events left the history, a `Gap` says
        so before the oldest one still kept.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._pending:
            fresh = self._bus.since(self.last_seen)
            if fresh:
                if fresh[0][0] > self.last_seen + 1:
                    self._pending.append((fresh[0][0] - 1, Gap(fresh[0][0] - 1)))
                self._pending.extend(fresh)
                break
            if self._bus.closed:
                return None
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            self._bus.wait(self.last_seen, left)
        item = self._pending.popleft()
        self.last_seen = item[0]
        return item
