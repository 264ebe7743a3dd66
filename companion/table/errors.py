"""Errors of the live table session, each carrying the HTTP status the web layer answers with.

A :class:`TableError` always leaves the session unchanged: nothing is journaled, nothing is
published. ``reason`` is a sentence a player can read; :meth:`TableError.body` is the JSON body.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """Base of the session's errors; ``status`` is the HTTP status to answer with."""

    status: int = 500

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def body(self) -> dict[str, Any]:
        return {"error": self.reason}


class MalformedError(TableError):
    """A request body or game-record line that is not well formed (HTTP 400)."""

    status = 400


class StaleStateError(TableError):
    """The client acted on a state it no longer sees (HTTP 409): ``current_state_id`` is now."""

    status = 409

    def __init__(self, given: object, current_state_id: int) -> None:
        super().__init__(f"stale state_id: was {given!r}, expected {current_state_id} "
                         "(the table changed; look again and retry)")
        self.given = given
        self.current_state_id = current_state_id

    def body(self) -> dict[str, Any]:
        return {"error": self.reason, "state_id": self.current_state_id,
                "current_state_id": self.current_state_id}


class RuleRefusedError(TableError):
    """The rules refuse the action (HTTP 422): ``ruling`` names the RULINGS.md entry."""

    status = 422

    def __init__(self, ruling: str, reason: str) -> None:
        super().__init__(reason)
        self.ruling = ruling

    def body(self) -> dict[str, Any]:
        return {"error": f"{self.reason} ({self.ruling})", "ruling": self.ruling,
                "reason": self.reason}


class NotFoundError(TableError):
    """An unknown game or question (HTTP 404)."""

    status = 404


class JournalError(TableError):
    """The journal cannot be opened or read (a damaged file, a folder we may not write)."""

    status = 500
