"""Every error the app answers is JSON: ``{"error": reason, ...}`` with a 4xx status.

Refusals from the session (``companion.table.errors``) keep their status and details: a
stale ``state_id`` says the current one (409), a rules refusal names the ruling (422).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from companion.table.errors import RuleRefusedError, StaleStateError, TableError


class ApiError(Exception):
    """A request the API refuses before it reaches the session (bad body, wrong PIN)."""

    def __init__(self, status: int, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.extra = extra


def error_response(status: int, reason: str, **extra: Any) -> Response:
    response = jsonify({"error": reason, **extra})
    response.status_code = status
    return response


def table_error_body(exc: TableError) -> dict[str, Any]:
    """The session's own JSON body for its refusal (409 names the current state_id, 422 the
    ruling); built here too for an error class that has none."""
    body = exc.body() if callable(getattr(exc, "body", None)) else {}
    if not isinstance(body, dict) or "error" not in body:
        body = {"error": str(getattr(exc, "reason", "") or exc)}
    if isinstance(exc, StaleStateError):
        body.setdefault("state_id", exc.current_state_id)
        body.setdefault("current_state_id", exc.current_state_id)
    if isinstance(exc, RuleRefusedError):
        body.setdefault("ruling", exc.ruling)
        body.setdefault("reason", exc.reason)
    return body


_HTTP_REASONS = {
    400: "the request is malformed",
    404: "no such page or API endpoint",
    405: "this endpoint does not take that method",
    413: "the request body is too large",
    415: "the request body must be JSON",
}


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        response = error_response(exc.status, exc.reason, **exc.extra)
        if "retry_after" in exc.extra:
            response.headers["Retry-After"] = str(exc.extra["retry_after"])
        return response

    @app.errorhandler(TableError)
    def _table_error(exc: TableError) -> Response:
        status = int(getattr(exc, "status", 400) or 400)
        response = jsonify(table_error_body(exc))
        response.status_code = status
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        status = exc.code or 400
        reason = _HTTP_REASONS.get(status, exc.name.lower())
        response = error_response(status, reason)
        if status == 405 and exc.get_response().headers.get("Allow"):
            response.headers["Allow"] = exc.get_response().headers["Allow"]
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        # A bug, not the client's fault; the log keeps the traceback for whoever fixes it.
        app.logger.exception("unexpected error")
        return error_response(500, f"the table hit an internal error ({type(exc).__name__})")
