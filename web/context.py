"""What the app keeps beside Flask: the live session, the PIN and the stop signal."""

from __future__ import annotations

import hmac
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:
    from companion.table.session import TableSession


@dataclass
class TableContext:
    session: TableSession
    pin: str
    # Set when the server stops: every open event stream ends within STREAM_POLL seconds.
    stopping: threading.Event = field(default_factory=threading.Event)
    # The threaded server calls views concurrently; one change at a time keeps the
    # state_id check and the change it guards together even if the session does not lock.
    lock: threading.RLock = field(default_factory=threading.RLock)

    def pin_ok(self, given: str | None) -> bool:
        if not given:
            return False
        # Constant time, so that the answer's timing says nothing about the PIN.
        return hmac.compare_digest(given.strip().encode("utf-8"), self.pin.encode("utf-8"))


def table(app: Flask | None = None) -> TableContext:
    """The table of ``app`` (default: the app handling the current request)."""
    ctx: TableContext = (app or current_app).extensions["table"]
    return ctx
