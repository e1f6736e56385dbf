"""The languages of every box: gettext catalogs read from the ``.po`` files when needed.

The ``.po`` files in ``web/translations/<lang>/LC_MESSAGES/`` are the only source: they
are compiled in memory when first asked for (no ``.mo`` in git, no build step). They are
one catalog for every box, not only the page: the referee's announcements and messages
(`referee.announcements`, rendered with a catalog passed in, so ``referee`` needs no
Babel), the display's screens (context ``display``), the voice and ``carolus follow``
load theirs here (this module needs Babel only, no Flask). The language of a request is
``?lang=`` (remembered in a cookie), else the cookie, else the club's configured
language. Refresh the catalogs after changing strings (``docs/languages.md``)::

    .venv/bin/pybabel extract -F web/babel.cfg -k t -k pt:1c,2 -k mark:1c,2 -k N_ -k said \
        -k _d:2c,3 --no-location --sort-output -w 100 -o web/translations/messages.pot .
    .venv/bin/pybabel update -N --ignore-obsolete -w 100 -i web/translations/messages.pot \
        -d web/translations
"""

from __future__ import annotations

import io
import logging
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "hu": "Magyar",
    "fi": "Suomi",
}
DEFAULT = "en"
log = logging.getLogger("carolus.web")
COOKIE = "carolus_lang"
FOLDER = Path(__file__).resolve().parent / "translations"


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of ``lang`` (English: the msgids themselves)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    path = FOLDER / lang / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return Translations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def messages(lang: str) -> dict[str, str]:
    """Every translated message of ``lang`` as msgid -> text, for the page's script."""
    catalog = translations(lang)
    out: dict[str, str] = {}
    for key, text in catalog._catalog.items():
        if isinstance(key, str) and key and isinstance(text, str):
            out[key] = text
    return out


def closest(configured: str) -> str:
    """The page's language for a configured one: ``de_AT`` or ``de-DE`` is ``de``; one the
    page does not speak (the voice may) is English, with a warning in the log."""
    lang = configured.strip().replace("_", "-").split("-")[0].lower()
    if lang in LANGUAGES:
        return lang
    log.warning(
        "the web page does not speak %r; it uses English (it speaks %s)",
        configured,
        ", ".join(LANGUAGES),
    )
    return DEFAULT


def pick(asked: str | None, remembered: str | None, configured: str) -> str:
    """The language to use: asked in the URL, else remembered, else configured."""
    for lang in (asked, remembered, configured):
        if lang in LANGUAGES:
            return lang
    return DEFAULT
