"""Errors the page's API answers with: a status and one clear sentence, as JSON.

Bad input is a 400 naming the field and the value; a command the table refuses is a
409; a missing piece of hardware a 404/501. Never a 500 for something a user typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.announcements import ENGLISH, Said, Translator, said, translated


class ApiError(Exception):
    """An answer other than 200: ``status`` and a ``message`` for a person: a `said`
    message is answered in the reader's language (issue 17), the JSON as it was."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def install(app: Flask, reader: Callable[[], Translator] = lambda: ENGLISH) -> None:
    """Answer every error under ``/api`` as ``{"error": message}``; a `said` message in
    the language of ``reader()``, the request's catalog (`web.context.tr`: the URL, the
    cookie, else the table's language)."""

    def in_language(message: str) -> str:
        """A refusal's sentence in the reader's language: a `said` message is said again
        from its msgid and fields; any other text (werkzeug's own) stays as it is."""
        if not isinstance(message, Said):
            return str(message)
        try:
            return translated(message, reader())
        except (KeyError, RuntimeError):  # an app without a Carolus context: English
            return str(message)

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> Any:
        return jsonify(error=in_language(exc.message)), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return jsonify(error=exc.description or exc.name), exc.code or 500

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        """A fault of the appliance, not of the request: the traceback goes to the log
        (for whoever fixes it), the browser gets one sentence and no internals."""
        app.logger.error("unexpected error on %s %s", request.method, request.path, exc_info=exc)
        text = said("something went wrong inside the appliance; it was logged")
        return jsonify(error=in_language(text)), 500
