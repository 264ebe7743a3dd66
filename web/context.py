"""What the app keeps beside Flask: the live session, the PIN and the stop signal."""

from __future__ import annotations

import hmac
import threading
import time
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

    # Event streams whose responses are not finished yet; stop_streams waits for them.
    open_streams: int = 0
    streams_done: threading.Condition = field(default_factory=threading.Condition)

    def stream_opened(self) -> None:
        with self.streams_done:
            self.open_streams += 1

    def stream_closed(self) -> None:
        with self.streams_done:
            self.open_streams -= 1
            self.streams_done.notify_all()

    def wait_for_streams(self, timeout: float) -> bool:
        """True once every open stream has ended (within ``timeout`` seconds)."""
        with self.streams_done:
            return self.streams_done.wait_for(lambda: self.open_streams <= 0, timeout)

    # Wrong PINs per client address: (count, locked until). A 4-digit PIN falls to a script
    # in seconds without this; with it, guessing takes days.
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)

    def pin_ok(self, given: str | None) -> bool:
        if not given:
            return False
        # Constant time, so that the answer's timing says nothing about the PIN.
        return hmac.compare_digest(given.strip().encode("utf-8"), self.pin.encode("utf-8"))

    def locked_for(self, client: str) -> float:
        """Seconds this client must wait before its next PIN is even looked at."""
        with self.lock:
            _, until = self.failures.get(client, (0, 0.0))
            return max(0.0, until - time.monotonic())

    def record_pin(self, client: str, ok: bool, tries: int, lockout: float) -> None:
        with self.lock:
            if ok:
                self.failures.pop(client, None)
                return
            count, _ = self.failures.get(client, (0, 0.0))
            count += 1
            until = time.monotonic() + lockout if count % tries == 0 else 0.0
            self.failures[client] = (count, until)
            if len(self.failures) > 1024:          # a flood of addresses must not grow memory
                self.failures.pop(next(iter(self.failures)))


def table(app: Flask | None = None) -> TableContext:
    """The table of ``app`` (default: the app handling the current request)."""
    ctx: TableContext = (app or current_app).extensions["table"]
    return ctx
