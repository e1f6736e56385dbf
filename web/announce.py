"""Bus events in the reader's language: `referee.announcements.render`, the one place
where the referee's sentences are written, with the page's catalog (`web.i18n`).

The page adds only the words it draws itself: the colour letters on its cubes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.support import Translations

from referee.announcements import WORDS as GAME_WORDS
from referee.announcements import Said, mark, render_json, translated
from web.i18n import LANGUAGES, translations

#: The game's words looked up by value, and the page's own: a cube's colour letter.
WORDS = (
    *GAME_WORDS,
    mark("letter", "red"),
    mark("letter", "green"),
    mark("letter", "yellow"),
    mark("letter", "blue"),
    mark("letter", "pink"),
)


def sentence(event: Mapping[str, Any], tr: Translations) -> str | None:
    """One sentence for a bus event as JSON (the SSE stream, the log's stored events), or
    ``None`` for events nobody needs to hear (``state``, ``gap``)."""
    return render_json(event, tr)


def texts(event: Mapping[str, Any]) -> dict[str, str]:
    """An event's sentence in every language of the page (a chore the view carries: the
    state is one for every reader, so each page picks its own language's words)."""
    return {lang: render_json(event, translations(lang)) or "" for lang in LANGUAGES}


def message_texts(message: str) -> dict[str, str]:
    """The appliance's status line in every language of the page (the view carries it,
    as it carries a chore's `texts`): a `said` message is said again from its msgid and
    fields; a msgid of the catalogs (the set-up step's words) is looked up; any other
    text stays as it is."""
    if not message:
        return {lang: "" for lang in LANGUAGES}
    if isinstance(message, Said):
        return {lang: translated(message, translations(lang)) for lang in LANGUAGES}
    return {lang: translations(lang).gettext(message) for lang in LANGUAGES}
