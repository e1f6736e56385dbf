"""The event bus: every reader sees every event, in order, at its own pace."""

from __future__ import annotations

import threading

from firmware.bus import EventBus, Gap
from referee.table.events import OtherEvent


def tick(n: int) -> OtherEvent:
    return OtherEvent(kind="tick", fields={"n": n})


def n_of(event: object) -> int:
    """The number a `tick` carries."""
    assert isinstance(event, OtherEvent), event
    number = event.fields["n"]
    assert isinstance(number, int)
    return number


def test_thirty_readers_see_every_event_in_order() -> None:
    bus = EventBus()
    seen: list[list[int]] = [[] for _ in range(30)]

    def read(index: int) -> None:
        reader = bus.subscribe(since=0)
        while True:
            item = reader.get(timeout=5)
            if item is None:
                return
            seen[index].append(n_of(item[1]))
            if n_of(item[1]) == 499:
                return

    threads = [threading.Thread(target=read, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for n in range(500):
        bus.publish(tick(n))
    for t in threads:
        t.join(timeout=10)
    assert all(s == list(range(500)) for s in seen)


def test_a_reconnecting_reader_resumes_after_its_last_id() -> None:
    bus = EventBus()
    for n in range(5):
        bus.publish(tick(n))
    reader = bus.subscribe(since=3)
    item = reader.get(timeout=0)
    assert item is not None and item[0] == 4 and n_of(item[1]) == 3


def test_a_reader_that_fell_behind_is_told_of_the_gap() -> None:
    bus = EventBus(history=3)
    reader = bus.subscribe(since=0)
    for n in range(10):
        bus.publish(tick(n))
    first = reader.get(timeout=0)
    assert first is not None and first[1] == Gap(7)
    assert first[1].to_json() == {"kind": "gap", "id": 7}  # as the page gets it
    second = reader.get(timeout=0)
    assert second is not None and n_of(second[1]) == 7


def test_close_wakes_a_waiting_reader() -> None:
    bus = EventBus()
    reader = bus.subscribe()
    threading.Timer(0.05, bus.close).start()
    assert reader.get(timeout=5) is None
