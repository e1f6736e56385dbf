"""The production server for the page: waitress, sized for many open live streams.

Why waitress, and sized how: waitress is pure Python (installs on a Pi with pip, no
compiler), is a real HTTP/1.1 server (keep-alive, chunked streaming, slow-client
buffering), and sends each chunk as soon as it is written (its default
``send_bytes=1``), which is what Server-Sent Events need. Its one limit is that every
open response holds a worker thread for its whole life — an SSE stream is a thread for
as long as the page is open. So the pool is sized for the table's readers:
``threads=96`` by default (a club night is a few phones, a tablet, a projector: dozens,
not thousands), and live streams are capped at ``threads - RESERVED`` so that page
loads, the API and corrections always find a free thread; a stream over the cap gets a
503 and the page retries. Idle streams send a comment every 15 s, so
``channel_timeout=60`` only ever closes dead connections, and ``asyncore_use_poll``
lifts select()'s 1024-descriptor limit. Threads are cheap here: each waits on the
event bus's condition, costing no CPU until an event comes.

Two settings keep a stranger from tying the server up. ``max_request_body_size`` is the
app's own body limit (64 KB, not waitress's 1 GiB): a larger ``Content-Length`` is
refused as soon as the headers are in, before any of the body is spooled and before
the PIN is looked at. ``channel_request_lookahead=1`` keeps reading a connection while
its request runs, which is how waitress notices a closed tab
(``waitress.client_disconnected``): a live stream then ends within a tick and frees its
slot and thread, instead of holding them until its next keep-alive comment.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask
from waitress import wasyncore  # type: ignore[import-untyped]

from firmware.hub import Hub
from web.app import create_app
from web.auth import kept_keys
from web.context import context_of

if TYPE_CHECKING:  # `web.history` imports the log's module when the page first reads it
    from firmware.gamelog.store import GameLog

#: Worker threads kept free of live streams for pages, the API and corrections.
RESERVED = 8
THREADS = 96
CHANNEL_TIMEOUT_S = 60


@dataclass
class WebServer:
    """A running page: its address, its PIN, and `stop`."""

    url: str
    pin: str
    app: Flask
    _server: Any = field(repr=False)
    _thread: threading.Thread = field(repr=False)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    def stop(self, timeout: float = 5.0) -> None:
        """End every stream and close the server (returns within about ``timeout``)."""
        ctx = context_of(self.app)
        ctx.stopping.set()
        deadline = time.monotonic() + timeout / 2
        dispatcher = self._server.task_dispatcher
        while (ctx.streams or dispatcher.active_count) and time.monotonic() < deadline:
            time.sleep(0.02)  # streams end within a tick; let their tasks finish
        # then no more tasks, and every socket closed (idle keep-alive ones too), so the
        # serving loop ends now rather than when the last browser lets go
        dispatcher.shutdown(cancel_pending=True, timeout=timeout / 2)
        wasyncore.close_all(self._server._map)
        self._thread.join(timeout)


def serve(
    hub: Hub,
    host: str = "0.0.0.0",
    port: int = 8080,
    *,
    log: GameLog | str | Path | None = None,
    pin: str | None = None,
    language: str = "en",
    secret_key: bytes | None = None,
    keys_file: str | Path | None = None,
    threads: int = THREADS,
    allowed_hosts: Sequence[str] = (),
    camera_needs_pin: bool = False,
) -> WebServer:
    """Serve the page over ``hub`` in a background thread; ``port=0`` picks a free port.
    The appliance shows ``handle.pin`` on its display (``carolus run`` prints it when
    there is none). With ``keys_file`` the PIN and the session key are kept there, so
    browsers stay trusted across restarts (``pin``/``secret_key`` given win).
    ``allowed_hosts`` and ``camera_needs_pin`` are the ``[web]`` settings of the same
    names (see `web.app.create_app`)."""
    from waitress.server import create_server  # type: ignore[import-untyped]

    if threads < RESERVED + 4:
        raise ValueError(f"threads must be at least {RESERVED + 4}, not {threads}")
    if keys_file is not None:
        kept_pin, kept_secret = kept_keys(keys_file)
        pin, secret_key = pin or kept_pin, secret_key or kept_secret
    app = create_app(
        hub,
        log=log,
        pin=pin,
        language=language,
        secret_key=secret_key,
        listen=host,
        allowed_hosts=allowed_hosts,
        camera_needs_pin=camera_needs_pin,
    )
    context_of(app).max_streams = threads - RESERVED
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=threads * 2,
        channel_timeout=CHANNEL_TIMEOUT_S,
        asyncore_use_poll=True,
        ident="carolus",
        clear_untrusted_proxy_headers=True,
        max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
        channel_request_lookahead=1,
    )
    thread = threading.Thread(target=server.run, name="carolus-web", daemon=True)
    thread.start()
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    guard = context_of(app).guard
    return WebServer(f"http://{shown}:{server.effective_port}/", guard.pin, app, server, thread)
