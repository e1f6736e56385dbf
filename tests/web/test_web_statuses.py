"""What werkzeug answers by itself, in the reader's language (issue 17): a path the page
does not have (404), a method a path does not take (405), and every other
`HTTPException`. A browser gets a page in its language; the API keeps its JSON
``{"error": …}``; in English the words are werkzeug's, word for word."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import (
    HTTPException,
    ImATeapot,
    NotFound,
    RequestEntityTooLarge,
    default_exceptions,
)
from werkzeug.http import HTTP_STATUS_CODES

from conftest import needs_chromium
from web.app import create_app
from web.i18n import LANGUAGES, translations
from web.preview import PreviewHub
from web.statuses import STATUSES

OTHERS = [lang for lang in LANGUAGES if lang != "en"]

#: werkzeug's 404 and 405 in each language: the page's title and its sentence.
NOT_FOUND = {
    "en": (
        "Not Found",
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again.",
    ),
    "de": ("Nicht gefunden", "Die angefragte URL gibt es auf diesem Server nicht."),
    "it": ("Non trovato", "L'URL richiesto non è stato trovato su questo server."),
    "hu": ("Nem található", "A kért URL nem található ezen a szerveren."),
    "fi": ("Ei löytynyt", "Pyydettyä osoitetta ei löytynyt palvelimelta."),
}
NOT_ALLOWED = {
    "en": "The method is not allowed for the requested URL.",
    "de": "Diese Methode ist für die angefragte URL nicht erlaubt.",
    "it": "Il metodo non è consentito per l'URL richiesto.",
    "hu": "Ez a metódus nem engedélyezett a kért URL-en.",
    "fi": "Menetelmä ei ole sallittu pyydetylle osoitteelle.",
}


def _app(language: str) -> Flask:
    return create_app(PreviewHub(), pin="4321", language=language)


def _table(language: str) -> FlaskClient:
    """A browser of a table whose settings say ``language`` (no ``?lang=`` asked)."""
    return _app(language).test_client()


def test_every_status_werkzeug_raises_is_here_in_its_own_words() -> None:
    """A werkzeug that words a status otherwise would answer it in English: say so here."""
    assert set(STATUSES) == set(default_exceptions)
    for code, status in STATUSES.items():
        assert status.name == ("http", HTTP_STATUS_CODES[code]), code
        assert status.description == default_exceptions[code].description, code


@pytest.mark.parametrize("lang", OTHERS)
def test_every_status_is_said_in_every_language(lang: str) -> None:
    tr = translations(lang)
    for code, status in STATUSES.items():
        title, text = tr.pgettext(*status.name), tr.gettext(status.description)
        assert title and title != status.name[1], (lang, code, title)
        assert text and text != status.description, (lang, code, text)
        assert ("<code>" in text) == ("<code>" in status.description), (lang, code)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_an_unknown_path_is_a_page_in_the_tables_language(lang: str) -> None:
    answer = _table(lang).get("/no-such-page")
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    title, text = NOT_FOUND[lang]
    assert f'<html lang="{lang}">' in page
    assert f"<h2>404 {title}</h2>" in page.replace("&#39;", "'")
    assert text in page.replace("&#39;", "'")
    assert 'href="/"' in page  # back to the table, one click
    if lang != "en":
        assert NOT_FOUND["en"][1] not in page


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_an_unknown_api_path_is_json_in_the_tables_language(lang: str) -> None:
    answer = _table(lang).get("/api/no-such-thing")
    assert answer.status_code == 404
    body = answer.get_json()
    assert set(body) == {"error"}
    assert body["error"].startswith(NOT_FOUND[lang][1])
    if lang == "en":  # werkzeug's own words, as before
        assert body["error"] == NOT_FOUND["en"][1]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_wrong_method_names_what_is_allowed(lang: str) -> None:
    client = _table(lang)
    page = client.post("/history")
    assert page.status_code == 405 and page.mimetype == "text/html"
    assert NOT_ALLOWED[lang] in page.get_data(as_text=True).replace("&#39;", "'")
    assert {"GET", "HEAD"} <= set(page.headers["Allow"].replace(" ", "").split(","))
    api = client.delete("/api/undo")
    assert api.status_code == 405 and api.get_json() == {"error": NOT_ALLOWED[lang]}
    assert "POST" in api.headers["Allow"]


def test_the_browsers_language_goes_over_the_tables() -> None:
    client = _table("hu")
    asked = client.get("/nowhere?lang=it").get_data(as_text=True)
    assert '<html lang="it">' in asked and NOT_FOUND["it"][1] in asked.replace("&#39;", "'")
    remembered = client.get("/api/nowhere").get_json()["error"]  # the cookie
    assert remembered.startswith(NOT_FOUND["it"][1])
    assert (
        _table("hu").get("/api/nowhere?lang=de").get_json()["error"].startswith(NOT_FOUND["de"][1])
    )


def test_any_other_status_werkzeug_raises_and_a_fault_of_the_appliance() -> None:
    app = _app("fi")

    def teapot() -> str:
        raise ImATeapot

    def broken() -> str:
        raise RuntimeError("a bug")

    def told() -> str:
        raise NotFound("<b>no such</b> thing")  # whoever raised it worded it: not a msgid

    app.add_url_rule("/api/teapot", view_func=teapot)
    app.add_url_rule("/teapot", view_func=teapot, endpoint="teapot-page")
    app.add_url_rule("/broken", view_func=broken)
    app.add_url_rule("/told", view_func=told)
    client = app.test_client()
    assert client.get("/api/teapot").get_json() == {
        "error": "Tämä palvelin on teekannu, ei kahvinkeitin"
    }
    page = client.get("/teapot")
    assert page.status_code == 418
    assert "<h2>418 Olen teekannu</h2>" in page.get_data(as_text=True)
    fault = client.get("/broken")
    assert fault.status_code == 500 and fault.mimetype == "text/html"
    shown = fault.get_data(as_text=True)
    assert "Palvelimen sisäinen virhe" in shown and "laitteessa meni jotain vikaan" in shown
    assert "a bug" not in shown  # no internals for the browser
    told_page = client.get("/told").get_data(as_text=True)
    assert "&lt;b&gt;no such&lt;/b&gt; thing" in told_page and "<b>" not in told_page


def test_a_body_over_the_limit_while_read_is_said_in_the_readers_language() -> None:
    """Without a Content-Length to refuse it by (`web.gate`), werkzeug raises its 413
    while the body is read: the API says it in German on a German table."""
    app = _app("de")

    def read() -> str:
        raise RequestEntityTooLarge

    app.add_url_rule("/api/read", view_func=read, methods=["POST"])
    answer = app.test_client().post("/api/read")
    assert answer.status_code == 413
    assert answer.get_json() == {"error": "Die gesendeten Daten überschreiten die Größengrenze."}


def test_the_411_code_markup_is_kept_on_the_page_and_nothing_else() -> None:
    app = _app("de")

    def length() -> str:
        raise default_exceptions[411]

    app.add_url_rule("/length", view_func=length)
    page = app.test_client().get("/length").get_data(as_text=True)
    assert "einen gültigen <code>Content-Length</code>-Header." in page


def test_werkzeug_exceptions_are_all_http_exceptions() -> None:
    """`web.errors` answers `HTTPException`: every status of the table is one."""
    assert all(issubclass(kind, HTTPException) for kind in default_exceptions.values())


def test_the_api_description_names_the_405() -> None:
    from pathlib import Path

    spec = json.loads((Path(__file__).parents[2] / "web" / "openapi.json").read_text())
    assert "405 a method the path does not take" in spec["info"]["description"]


@needs_chromium
def test_a_browser_shows_the_page_in_its_language_and_can_change_it(browser: Any) -> None:
    """In chromium, under the page's own Content-Security-Policy: the style applies, no
    script or style is refused, and the language picker works on the error page too."""
    from web.server import serve

    server = serve(PreviewHub(), "127.0.0.1", 0, pin="4321", language="hu")
    try:
        page = browser.new_page()
        refused: list[str] = []
        page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
        answer = page.goto(server.url + "no-such-page")
        assert answer is not None and answer.status == 404
        assert page.inner_text("h2") == "404 Nem található"
        assert page.title() == "Carolus — Nem található"
        radius = page.eval_on_selector(".card", "e => getComputedStyle(e).borderTopLeftRadius")
        assert radius == "8px"  # style.css, allowed by the policy
        page.select_option("#lang-select", "fi")
        page.wait_for_function("document.documentElement.lang === 'fi'")
        assert page.inner_text("h2") == "404 Ei löytynyt"
        assert not [text for text in refused if "Content Security Policy" in text], refused
        page.close()
    finally:
        server.stop()
