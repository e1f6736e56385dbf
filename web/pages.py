"""The HTML pages: live table, history, camera, corrections. Each is a small template;
the drawing and the live updates are plain scripts in ``web/static`` (no build step, no
CDN: everything is served by the appliance). `error_page` is the page a browser gets
for a path or a method the appliance does not have (`web.errors`), in its language."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup, escape

from web import i18n
from web.context import context, language
from web.hub_extras import offered
from web.statuses import Answer

blueprint = Blueprint("pages", __name__)


def _page(template: str, **extra: Any) -> str:
    ctx = context()
    return render_template(
        template,
        lang=language(),
        languages=i18n.LANGUAGES,
        csrf=ctx.guard.csrf_token(),
        trusted=ctx.guard.trusted(),
        extras=offered(ctx.hub),
        **extra,
    )


@blueprint.get("/")
def live() -> str:
    return _page("live.html", page="live")


@blueprint.get("/history")
def history() -> str:
    return _page("history.html", page="history")


@blueprint.get("/camera")
def camera() -> str:
    return _page("camera.html", page="camera")


@blueprint.get("/table")
def table() -> str:
    return _page("table.html", page="table")


def error_page(answer: Answer) -> str:
    """What the browser shows for ``answer``: the page's header (so the language can be
    changed and the table is one click away), the status and werkzeug's sentence in the
    reader's words. The only markup a sentence of werkzeug's holds is ``<code>`` (411):
    that is kept, everything else is shown as text."""
    text = str(escape(answer.text)).replace("&lt;code&gt;", "<code>")
    text = text.replace("&lt;/code&gt;", "</code>")
    return _page("error.html", page="error", answer=answer, text=Markup(text))
