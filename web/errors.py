"""Errors the page's API answers with: a status and one clear sentence, as JSON.

Bad input is a 400 naming the field and the value; a command the table refuses is a
409; a missing piece of hardware a 404/501. Never a 500 for something a user typed.
What werkzeug answers by itself (a path or a method the page does not have, a body
outgrowing the limit) is said in the reader's language too (`web.statuses`): as JSON
under ``/api``, elsewhere as a page a browser shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify, make_response, request
from werkzeug.exceptions import HTTPException

from referee.announcements import ENGLISH, Said, Translator, said, translated
from web.statuses import STATUSES, Answer, answered

#: Where the JSON API lives (`web.api`'s blueprint); every other path is for browsers.
API = "/api"


class ApiError(Exception):
    """An answer other than 200: ``status`` and a ``message`` for a person: a `said`
    message is answered in the reader's language (issue 17), the JSON as it was."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def for_the_api() -> bool:
    """Whether the current request is the API's (answered in JSON) or a browser's."""
    return request.path == API or request.path.startswith(API + "/")


def install(
    app: Flask,
    reader: Callable[[], Translator] = lambda: ENGLISH,
    page: Callable[[Answer], str] | None = None,
) -> None:
    """Answer every error under ``/api`` as ``{"error": message}``; a `said` message in
    the language of ``reader()``, the request's catalog (`web.context.tr`: the URL, the
    cookie, else the table's language). werkzeug's own answers and a fault of the
    appliance outside ``/api`` are ``page(answer)``, HTML in the same language, when a
    page is given (JSON otherwise, as the API's)."""

    def catalog() -> Translator:
        try:
            return reader()
        except (KeyError, RuntimeError):  # an app without a Carolus context: English
            return ENGLISH

    def in_language(message: str) -> str:
        """A refusal's sentence in the reader's language: a `said` message is said again
        from its msgid and fields; any other text stays as it is."""
        if not isinstance(message, Said):
            return str(message)
        try:
            return translated(message, catalog())
        except (KeyError, RuntimeError):  # not to be said in that catalog: English, as given
            return str(message)

    def shown(answer: Answer) -> Response:
        """``answer`` as the API's JSON, or as a page for a browser. A page that cannot
        be drawn (the fault may be the page's own) is logged and answered as JSON."""
        if page is not None and not for_the_api():
            try:
                return make_response(page(answer), answer.code)
            except Exception as exc:  # whatever broke, the answer still goes
                app.logger.error("the error page for %s failed", answer.code, exc_info=exc)
        return make_response(jsonify(error=answer.text), answer.code)

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> Any:
        return jsonify(error=in_language(exc.message)), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        """werkzeug's own answer in the reader's words, with its headers (a 405's
        ``Allow``) but not its HTML."""
        response = shown(answered(exc, catalog()))
        for name, value in exc.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        """A fault of the appliance, not of the request: the traceback goes to the log
        (for whoever fixes it), the browser gets one sentence and no internals."""
        app.logger.error("unexpected error on %s %s", request.method, request.path, exc_info=exc)
        text = in_language(said("something went wrong inside the appliance; it was logged"))
        title = str(catalog().pgettext(*STATUSES[500].name))
        return shown(Answer(500, title, text))
