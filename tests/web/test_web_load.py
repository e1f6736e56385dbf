"""Thirty live pages on the real server follow a whole game without losing an event."""

from __future__ import annotations

import time

from sse_client import Reader

from web.preview import PreviewHub
from web.server import RESERVED, serve

CLIENTS = 30


def test_thirty_pages_follow_a_whole_game() -> None:
    hub = PreviewHub(seed=11)
    server = serve(hub, "127.0.0.1", 0, pin="4321")
    try:
        deadline = time.monotonic() + 40
        readers = [Reader(server.port, deadline) for _ in range(CLIENTS)]
        for reader in readers:
            reader.start()
        for reader in readers:
            assert reader.ready.wait(10), "a page never got its first message"
        start = hub.bus.last_id
        moves = hub.play_out()
        assert hub.game.is_over and moves > 50
        last = hub.bus.last_id
        for reader in readers:
            reader.until_id = last
        for reader in readers:
            reader.join(max(0.0, deadline - time.monotonic()))
            assert reader.error is None, reader.error
            assert not reader.is_alive(), "a page did not get the whole game in time"
            assert reader.ids == list(range(start + 1, last + 1))
            assert "gap" not in reader.kinds
            assert reader.kinds.count("game-over") == 1
        assert server.app.extensions["carolus"].streams <= CLIENTS
    finally:
        server.stop()
    assert not server._thread.is_alive()


def test_streams_over_the_cap_are_told_to_retry() -> None:
    import http.client

    hub = PreviewHub()
    server = serve(hub, "127.0.0.1", 0, pin="4321", threads=12)  # 4 streams allowed
    try:
        deadline = time.monotonic() + 10
        readers = [Reader(server.port, deadline) for _ in range(4)]
        for reader in readers:
            reader.start()
            assert reader.ready.wait(5)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        connection.request("GET", "/api/events")
        assert connection.getresponse().status == 503
        connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        connection.request("GET", "/api/state")  # pages and the API still answer
        assert connection.getresponse().status == 200
        connection.close()
        for reader in readers:
            reader.until_id = hub.bus.last_id + 1
        hub.advance()
        for reader in readers:
            reader.join(5)
    finally:
        server.stop()


class _Page:
    """One live page's stream over its own connection (kept whole until `close`: the
    response owns the socket, and dropping it would close the stream early)."""

    def __init__(self, port: int) -> None:
        import http.client

        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        self.connection.request("GET", "/api/events")
        self.response = self.connection.getresponse()
        self.status = self.response.status
        if self.status == 200:
            self.response.fp.readline()  # its first line is there: it holds its slot

    def close(self) -> None:
        self.response.close()
        self.connection.close()


def test_closed_pages_give_their_slots_back_at_once() -> None:
    """Every slot taken, every page closed, as many opened again: all get their stream
    within a second (a closed stream used to hold its slot until its next keep-alive
    comment, up to 15 s: 95 new pages got 95 x 503)."""
    server = serve(PreviewHub(), "127.0.0.1", 0, pin="4321", threads=20)
    slots = 20 - RESERVED
    try:
        for _ in range(2):
            opened = [_Page(server.port) for _ in range(slots)]
            assert [page.status for page in opened] == [200] * slots
            for page in opened:
                page.close()
            started = time.monotonic()
            again: list[_Page] = []
            while len(again) < slots and time.monotonic() - started < 1.0:
                page = _Page(server.port)
                if page.status == 200:
                    again.append(page)
                else:
                    page.close()
                    time.sleep(0.05)  # the page retries (its retry is 1 s)
            took = time.monotonic() - started
            assert len(again) == slots, f"{len(again)} of {slots} in {took:.2f} s"
            for page in again:
                page.close()
            deadline = time.monotonic() + 2
            while server.app.extensions["carolus"].streams and time.monotonic() < deadline:
                time.sleep(0.02)
            assert server.app.extensions["carolus"].streams == 0
    finally:
        server.stop()
