"""Errors the page's API answers with: a status and one clear sentence, as JSON.

Bad input is a 400 naming the field and the value; a command the table refuses is a
409; a missing piece of hardware a 404/501. Never a 500 for something a user typed.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """An answer other than 200: ``status`` and a ``message`` for a person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def install(app: Flask) -> None:
    """Answer every error under ``/api`` as ``{"error": message}``."""

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> Any:
        return jsonify(error=exc.message), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return jsonify(error=exc.description or exc.name), exc.code or 500

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        """A fault of the appliance, not of the request: the traceback goes to the log
        (for whoever fixes it), the browser gets one sentence and no internals."""
        app.logger.error("unexpected error on %s %s", request.method, request.path, exc_info=exc)
        return jsonify(error="something went wrong inside the appliance; it was logged"), 500
