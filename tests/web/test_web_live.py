"""The live stream (SSE): a hello with the whole table, then every bus event with its
id, the fresh state after each change, and a resume after Last-Event-ID without loss."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence

from flask.testing import FlaskClient

from conftest import sse_messages
from referee.events import Event
from referee.table.events import Stamped, TableEvent
from web.preview import PreviewHub


def bus_id(message: dict[str, str]) -> int:
    """The bus id in an SSE id (``epoch.id``)."""
    return int(message["id"].rpartition(".")[2])


def _read(client: FlaskClient, count: int, **headers: str) -> list[dict[str, str]]:
    """The first ``count`` messages of a fresh stream."""
    answer = client.get("/api/events", buffered=False, headers=headers)
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    chunks: Iterator[bytes] = iter(answer.response)
    got: list[dict[str, str]] = []
    text = ""
    while len(got) < count:
        text += next(chunks).decode()
        got = sse_messages(text)
    answer.close()
    return got[:count]


def test_hello_carries_the_table_and_the_latest_announcements(
    client: FlaskClient, hub: PreviewHub
) -> None:
    for _ in range(4):
        hub.advance()
    first = _read(client, 1)[0]
    hello = json.loads(first["data"])
    assert hello["kind"] == "hello" and hello["id"] == hub.bus.last_id
    assert first["id"].endswith(f".{hub.bus.last_id}")  # a reconnect resumes after it
    assert hello["state"] == hub.state()
    texts = [e["text"] for e in hello["recent"]]
    assert texts[0] == "Bob lays disc " + str(hub.game.chosen_discs()[0][1]) + "."
    assert all(e["kind"] != "state" for e in hello["recent"])


def test_every_event_follows_with_its_bus_id(client: FlaskClient, hub: PreviewHub) -> None:
    start = hub.bus.last_id
    timer = threading.Timer(0.2, hub.advance)  # Bob lays his disc
    timer.start()
    messages = _read(client, 1 + 2)  # hello, then the move's event and the new table
    timer.join()
    ids = [bus_id(m) for m in messages[1:]]
    assert ids == list(range(start + 1, start + 1 + len(ids)))
    published = dict(hub.bus.since(start))
    assert json.loads(messages[-1]["data"])["state"]["choosers"] == ["Anna"]
    for m in messages[1:]:
        data = json.loads(m["data"])
        assert data["kind"] == published[bus_id(m)].kind
        if data["kind"] == "state":
            assert "state" not in data or data["state"]["round"] == 2
        else:
            assert data["text"]  # said in words


def test_reconnect_with_last_event_id_misses_nothing(client: FlaskClient, hub: PreviewHub) -> None:
    seen = hub.bus.last_id
    for _ in range(6):  # the page was away for six moves
        hub.advance()
    missed = hub.bus.since(seen)
    epoch = client.application.extensions["carolus"].epoch
    messages = _read(client, 1 + len(missed), **{"Last-Event-ID": f"{epoch}.{seen}"})
    assert [bus_id(m) for m in messages[1:]] == [i for i, _ in missed]
    kinds = [json.loads(m["data"])["kind"] for m in messages[1:]]
    assert kinds == [e.kind for _, e in missed]
    # sent in one burst: only the newest state carries the table, the others their id
    bodies = ["state" in json.loads(m["data"]) for m in messages[1:] if '"state"' in m["data"]]
    assert bodies[-1] and not any(bodies[:-1])


def test_a_page_that_saw_nothing_yet_resumes_from_the_start(client: FlaskClient) -> None:
    hub = PreviewHub()
    app = client.application
    app.extensions["carolus"].hub = hub
    from web.live import StateCache

    app.extensions["carolus"].cache = StateCache(hub.bus, hub.state)
    assert bus_id(_read(client, 1)[0]) == 0
    hub.advance()  # published while the page was away
    messages = _read(client, 3, **{"Last-Event-ID": "0"})
    hello = json.loads(messages[0]["data"])
    assert hello["recent"] == []  # the missed events follow on the stream, not twice
    assert [json.loads(m["data"])["kind"] for m in messages[1:]] == ["disc-chosen", "state"]


def test_a_reader_too_far_behind_is_told_of_the_gap(client: FlaskClient) -> None:
    from firmware.bus import EventBus

    hub = PreviewHub(bus=EventBus(history=10))
    for _ in range(10):
        hub.advance()
    app = client.application
    app.extensions["carolus"].hub = hub
    from web.live import StateCache

    app.extensions["carolus"].cache = StateCache(hub.bus, hub.state)
    messages = _read(client, 2, **{"Last-Event-ID": "1"})
    assert json.loads(messages[1]["data"])["kind"] == "gap"


def test_bad_last_event_id_is_400(client: FlaskClient) -> None:
    answer = client.get("/api/events", headers={"Last-Event-ID": "abc"})
    assert answer.status_code == 400 and "Last-Event-ID" in answer.get_json()["error"]


def test_the_stream_ends_when_the_server_stops(client: FlaskClient) -> None:
    stopping = client.application.extensions["carolus"].stopping
    answer = client.get("/api/events", buffered=False)
    chunks = iter(answer.response)
    next(chunks)
    stopping.set()
    rest = list(chunks)  # returns within a tick instead of hanging
    assert all(b"data" not in c or b"hello" in c for c in rest)


def test_state_is_computed_once_per_event_for_all_readers(hub: PreviewHub) -> None:
    from web.live import StateCache

    calls = []

    def state() -> dict[str, object]:
        calls.append(1)
        return hub.state()

    cache = StateCache(hub.bus, state)
    hub.advance()
    last = hub.bus.last_id
    for _ in range(30):
        cache.json_at_least(last)
    assert len(calls) == 1
    hub.advance()
    cache.json_at_least(hub.bus.last_id)
    assert len(calls) == 2


class SilentHub(PreviewHub):
    """A hub like the appliance's, which publishes its events but no ``state``."""

    def _publish(self, events: Sequence[Event | TableEvent]) -> None:
        for event in events:
            if isinstance(event, Event):
                event = Stamped(engine=event, t=0.0)
            self.bus.publish(event)


def test_a_hub_without_state_events_still_updates_the_page(client: FlaskClient) -> None:
    from web.live import StateCache

    hub = SilentHub()
    app = client.application
    app.extensions["carolus"].hub = hub
    app.extensions["carolus"].cache = StateCache(hub.bus, hub.state)
    timer = threading.Timer(0.2, hub.advance)  # Bob lays a disc
    timer.start()
    messages = _read(client, 3)
    timer.join()
    disc, state = (json.loads(m["data"]) for m in messages[1:])
    assert disc["kind"] == "disc-chosen" and state["kind"] == "state"
    assert "id" not in messages[2]  # not a bus event: Last-Event-ID stays the disc's
    assert state["state"]["choosers"] == ["Anna"]


def test_table_events_speak_their_own_words() -> None:
    from web.announce import sentence
    from web.i18n import translations

    event = {"kind": "camera", "status": "lost", "message": "The camera lost the mat."}
    assert sentence(event, translations("de")) == "The camera lost the mat."
    assert sentence({"kind": "resolved"}, translations("it")) == "Il tavolo è di nuovo a posto."


def test_a_page_from_before_a_restart_gets_every_event_of_this_run(
    client: FlaskClient, hub: PreviewHub
) -> None:
    for _ in range(2):
        hub.advance()
    everything = hub.bus.since(0)
    # the page saw event 400 of the appliance's previous run (before a power cut)
    messages = _read(client, 1 + len(everything), **{"Last-Event-ID": "a1b2c3.400"})
    assert [bus_id(m) for m in messages[1:]] == [i for i, _ in everything]


def test_resume_from() -> None:
    from web.live import resume_from

    assert resume_from("abc.7", "abc") == 7
    assert resume_from("old.7", "abc") == 0
    assert resume_from("12", "abc") == 12
    assert resume_from("abc.x", "abc") is None and resume_from("", "abc") is None


def test_the_preview_hands_back_the_events_it_published() -> None:
    """`PreviewHub.advance` gives its events typed, as the bus has them (with their time),
    each followed on the bus by the page's ``state``, and the SSE text of one is its
    JSON with the reader's sentence."""
    from web.events import StateChanged
    from web.i18n import translations
    from web.live import StateCache, render

    hub = PreviewHub()
    made = hub.advance()
    assert made and all(isinstance(e, Stamped) and e.t is not None for e in made)
    on_bus = [e for _, e in hub.bus.since(0)]
    assert [e.engine for e in on_bus[:-1] if isinstance(e, Stamped)] == [
        e.engine for e in made if isinstance(e, Stamped)
    ]
    assert isinstance(on_bus[-1], StateChanged) and on_bus[-1].to_json()["kind"] == "state"
    cache = StateCache(hub.bus, hub.state)
    text = render(1, on_bus[0], cache, translations("en"), "e")
    data = json.loads(text.split("data: ", 1)[1])
    assert data == {**on_bus[0].to_json(), "text": data["text"]} and data["text"]
