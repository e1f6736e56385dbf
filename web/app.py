"""The Flask app: one factory, given the hub (and optionally the game log).

`create_app` is what the appliance's server and the tests both build; everything the
views need lives in one `web.context.Context` on ``app.extensions["carolus"]``, so
several apps (one per test) never share state. This module imports the views and nothing
imports it back (the views reach the context through `web.context`), so there is no
import cycle in ``web/``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, Response, request

from firmware.hub import Hub
from web import api, errors, gate, i18n, pages
from web.auth import Guard, new_pin
from web.context import KEY, Context, tr
from web.history import History
from web.live import StateCache

if TYPE_CHECKING:  # `web.history` imports the log's module when the page first reads it
    from firmware.gamelog.store import GameLog

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def create_app(
    hub: Hub,
    *,
    log: GameLog | str | Path | None = None,
    pin: str | None = None,
    language: str = i18n.DEFAULT,
    secret_key: bytes | None = None,
    listen: str | None = None,
    allowed_hosts: Sequence[str] = (),
    camera_needs_pin: bool = False,
) -> Flask:
    """The page over ``hub`` (a `firmware.hub.Hub`). ``log`` is a `GameLog` or the
    path of one, for the history; ``pin`` the appliance's PIN (a new one if None, in
    ``app.extensions["carolus"].guard.pin``); ``language`` the club's default (one the
    page does not speak falls back to English);
    ``secret_key`` keeps browsers trusted across restarts when it is kept;
    ``listen`` (the address the server listens on) and ``allowed_hosts`` are the names
    the page answers to besides the machine's own (`web.gate`); ``camera_needs_pin``
    keeps the camera's picture from browsers without the PIN."""
    language = i18n.closest(language)
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        SESSION_COOKIE_NAME="carolus_session",
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[KEY] = Context(
        hub=hub,
        guard=Guard(pin or new_pin()),
        cache=StateCache(hub.bus, hub.state),
        history=History(log) if log is not None else None,
        language=language,
        camera_needs_pin=camera_needs_pin,
    )
    errors.install(app, tr, pages.error_page)
    gate.install(app, gate.HostCheck.build(listen, allowed_hosts))
    _install_i18n(app)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(pages.blueprint)
    return app


def _install_i18n(app: Flask) -> None:
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text, **kw: tr().gettext(text) % kw if kw else tr().gettext(text),
        ngettext=lambda s, p, n, **kw: tr().ngettext(s, p, n) % {"num": n, **kw},
        pgettext=lambda ctx, text, **kw: tr().pgettext(ctx, text),
        newstyle=True,
    )

    @app.after_request
    def guard_the_page(response: Response) -> Response:
        """Everything is served by the appliance itself: no other origin may run script,
        be fetched, or frame the page (clickjacking of the corrections page)."""
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.after_request
    def remember_language(response: Response) -> Response:
        asked = request.args.get("lang")
        if asked in i18n.LANGUAGES:
            response.set_cookie(
                i18n.COOKIE, asked, max_age=365 * 86400, samesite="Strict", httponly=False
            )
        return response
