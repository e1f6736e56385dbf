"""What every view of one running page shares: the `Context`, and the request's language.

It lives apart from `web.app` so that the views (`web.api`, `web.pages`) import it and
the app factory imports the views, never the other way round: each blueprint module
imports alone, and the modules of ``web/`` form no cycle. One `Context` per app, on
``app.extensions["carolus"]``, keeps several apps (one per test) from sharing state.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

from babel.support import Translations
from flask import Flask, current_app, g, request

from firmware.hub import Hub
from web import i18n
from web.auth import Guard
from web.history import History
from web.live import StateCache

#: The key of the `Context` in ``app.extensions``.
KEY = "carolus"


@dataclass
class Context:
    """What one running page knows: the hub, its PIN guard, its log and its language."""

    hub: Hub
    guard: Guard
    cache: StateCache
    history: History | None
    language: str
    stopping: threading.Event = field(default_factory=threading.Event)
    epoch: str = field(default_factory=lambda: secrets.token_hex(3))
    """Names this run of the bus in SSE ids (``epoch.id``): after a restart the bus
    counts from 1 again, and an old page's Last-Event-ID must not be taken for a new one."""
    camera_needs_pin: bool = False
    """Whether the camera's picture is for browsers that entered the PIN only."""
    max_streams: int | None = None
    """Live streams allowed at once (`web.server` keeps threads free for the rest)."""
    streams: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open_stream(self) -> bool:
        """Count a new live stream in; False when there are too many already."""
        with self.lock:
            if self.max_streams is not None and self.streams >= self.max_streams:
                return False
            self.streams += 1
            return True

    def close_stream(self) -> None:
        with self.lock:
            self.streams -= 1


def context_of(app: Flask) -> Context:
    """The context `web.app.create_app` gave ``app`` (for the server, outside requests)."""
    ctx: Context = app.extensions[KEY]
    return ctx


def context() -> Context:
    """The context of the app serving the current request."""
    return context_of(current_app)


def tr() -> Translations:
    """The current request's catalog."""
    found: Translations | None = g.get("tr")
    if found is None:
        found = i18n.translations(language())
        g.tr = found
    return found


def language() -> str:
    """The current request's language: asked in the URL, else remembered in the cookie,
    else the club's default."""
    return i18n.pick(request.args.get("lang"), request.cookies.get(i18n.COOKIE), context().language)
