"""The set-up step's words on the OLED, in the table's language.

The panel is 128x64 one-bit pixels, so these are short forms written to fit (each is
checked against the panel in the tests), not the page's full sentences; like every word
on the panel they are in the one set of catalogs (`web.i18n`, context ``display``,
``docs/languages.md``), in the rulebooks' words (`docs/rules.md`, "Words"). The bitmap
font is CP437: letters it lacks (Hungarian ő, ű, capitals with an acute) are drawn as the
nearest it has (ö, ü, plain capitals).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from referee.announcements import mark
from web.i18n import LANGUAGES, translations

#: The set-up screens' words by key: the msgids (English) and their context.
KEYS = {
    "title": mark("display", "Set-up"),
    "ask": mark("display", "Lay out the tiles and court cards, nothing else"),
    "press": mark("display", "Then press Confirm"),
    "again": mark("display", "Confirm to try again"),
    "pieces": mark("display", "Now set up: emperor, one cube on each tile, reserves"),
    "then": mark("display", "Then choose discs"),
    # why a frame cannot be the bare table (`firmware.bare.PROBLEMS`)
    "no-frame": mark("display", "No camera picture yet"),
    "camera-lost": mark("display", "The camera is lost"),
    "moving": mark("display", "Hands off the mat, hold still"),
    "no-mat": mark("display", "Mat not found: all of it in view?"),
    "layout": mark("display", "The picture does not fit the mat"),
}


class _Catalogued(Mapping[str, dict[str, str]]):
    """The panel's set-up words of each language, read from its catalog when asked."""

    def __getitem__(self, language: str) -> dict[str, str]:
        if language not in LANGUAGES:
            raise KeyError(language)
        tr = translations(language)
        return {key: str(tr.pgettext(*msgid)) for key, msgid in KEYS.items()}

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


WORDS: Mapping[str, dict[str, str]] = _Catalogued()


#: What the CP437 bitmap font draws for letters it does not have.
_NEAREST = str.maketrans("őűŐŰÁÍÓÚ", "öüÖÜAIOU")


def language_of(configured: str) -> str:
    """``de_AT`` or ``de-DE`` is ``de``; a language the panel does not speak is English."""
    lang = configured.strip().replace("_", "-").split("-")[0].lower()
    return lang if lang in WORDS else "en"


def word(language: str, key: str, *, upper: bool = False) -> str:
    """The panel's words for ``key`` in ``language`` (English when untranslated); ``upper``
    for the title bar's capitals (``Í`` is not in the font, ``I`` is)."""
    text = WORDS[language_of(language)].get(key, key)
    return (text.upper() if upper else text).translate(_NEAREST)
