"""A minimal SSE reader over a real socket, for the load test and the benchmark: it
records every message's id, kind and arrival time."""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any


class Reader(threading.Thread):
    """One browser tab holding ``/api/events`` open until it has seen ``until_id``."""

    def __init__(self, port: int, deadline: float) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.deadline = deadline
        self.until_id: int | None = None
        self.ready = threading.Event()
        self.ids: list[int] = []
        self.kinds: list[str] = []
        self.arrivals: dict[int, float] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._read()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _read(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        assert response.status == 200, response.status
        current: dict[str, Any] = {}
        while time.monotonic() < self.deadline:
            line = response.fp.readline()
            if not line:
                break
            text = line.decode().rstrip("\n")
            if text.startswith("id: "):
                current["id"] = int(text[4:].rpartition(".")[2])
            elif text.startswith("data: "):
                current["data"] = text[6:]
            elif text == "" and "data" in current:
                data = json.loads(current["data"])
                if data["kind"] == "hello":
                    self.ready.set()
                elif "id" in current:
                    # (a state sent after a batch that ended on another event carries no
                    # id: it is not a bus event, `web.live.write`; a busy host batches)
                    self.ids.append(current["id"])
                    self.kinds.append(data["kind"])
                    self.arrivals[current["id"]] = time.perf_counter()
                if self.until_id is not None and self.ids and self.ids[-1] >= self.until_id:
                    break
                current = {}
        connection.close()
