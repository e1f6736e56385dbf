"""The set-up step's words on the OLED, in the page's five languages.

The panel is 128x64 one-bit pixels, so these are short forms written to fit (each is
checked against the panel in the tests), not the page's full sentences from the Babel
catalogs; the game's words are the rulebooks' (`docs/rules.md`, "Words"). The bitmap
font is CP437: letters it lacks (Hungarian ő, ű, capitals with an acute) are drawn as the
nearest it has (ö, ü, plain capitals).
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Set-up",
        "ask": "Lay out the tiles and court cards, nothing else",
        "press": "Then press Confirm",
        "again": "Confirm to try again",
        "pieces": "Now set up: emperor, one cube on each tile, reserves",
        "then": "Then choose discs",
        "no-frame": "No camera picture yet",
        "camera-lost": "The camera is lost",
        "moving": "Hands off the mat, hold still",
        "no-mat": "Mat not found: all of it in view?",
        "layout": "The picture does not fit the mat",
    },
    "de": {
        "title": "Aufbau",
        "ask": "Nur Provinzen und Burghöfe auslegen, sonst nichts",
        "press": "Dann Bestätigen",
        "again": "Nochmal: Bestätigen",
        "pieces": "Jetzt: Kaiser, ein Ritter je Provinz, Reserven",
        "then": "Dann Zahlenscheiben",
        "no-frame": "Noch kein Kamerabild",
        "camera-lost": "Kamera verloren",
        "moving": "Hände weg von der Matte, stillhalten",
        "no-mat": "Matte nicht gefunden: ganz im Bild?",
        "layout": "Das Bild passt nicht zur Matte",
    },
    "it": {
        "title": "Preparazione",
        "ask": "Disponi solo territori e Corti, nient'altro",
        "press": "Poi premi Conferma",
        "again": "Conferma per riprovare",
        "pieces": "Ora: Imperatore, un paladino per territorio, riserve",
        "then": "Poi scegliete i gettoni",
        "no-frame": "Ancora nessuna immagine",
        "camera-lost": "Telecamera persa",
        "moving": "Via le mani dal tappeto, fermi",
        "no-mat": "Tappeto non trovato: tutto in vista?",
        "layout": "L'immagine non va col tappeto",
    },
    "hu": {
        "title": "Előkészítés",
        "ask": "Csak a tartományokat és a várlapokat tedd ki",
        "press": "Aztán: Megerősítés",
        "again": "Ismét: Megerősítés",
        "pieces": "Most: császár, tartományonként egy lovag, tartalékok",
        "then": "Aztán korongválasztás",
        "no-frame": "Még nincs kamerakép",
        "camera-lost": "Elveszett a kamera",
        "moving": "Kezeket el a szőnyegről!",
        "no-mat": "Nincs meg a szőnyeg: egészen látszik?",
        "layout": "A kép nem illik a szőnyeghez",
    },
    "fi": {
        "title": "Alkuasetelma",
        "ask": "Aseta vain aluelaatat ja hovit, ei muuta",
        "press": "Paina sitten Vahvista",
        "again": "Vahvista uudelleen",
        "pieces": "Nyt: keisari, paladiini joka alueelle, reservit",
        "then": "Valitkaa sitten kiekot",
        "no-frame": "Ei vielä kamerakuvaa",
        "camera-lost": "Kamera on kadonnut",
        "moving": "Kädet pois matolta, paikallaan",
        "no-mat": "Mattoa ei löydy: onko se kuvassa?",
        "layout": "Kuva ei sovi mattoon",
    },
}

#: What the CP437 bitmap font draws for letters it does not have.
_NEAREST = str.maketrans("őűŐŰÁÍÓÚ", "öüÖÜAIOU")


def language_of(configured: str) -> str:
    """``de_AT`` or ``de-DE`` is ``de``; a language the panel does not speak is English."""
    lang = configured.strip().replace("_", "-").split("-")[0].lower()
    return lang if lang in WORDS else "en"


def word(language: str, key: str, *, upper: bool = False) -> str:
    """The panel's words for ``key`` in ``language`` (English when missing); ``upper``
    for the title bar's capitals (``Í`` is not in the font, ``I`` is)."""
    text = WORDS.get(language_of(language), WORDS["en"]).get(key) or WORDS["en"].get(key, key)
    return (text.upper() if upper else text).translate(_NEAREST)
