"""GET /api/stream: the table's changes as Server-Sent Events.

``event: state`` carries the same JSON as GET /api/state on every change, ``event: say`` the
narration (``{"text": ...}``), ``event: question`` what the table asks a player. The first
event of every connection is the current state (the session queues it on subscribing), so a
client that reconnects is whole again.
A ``ping`` event every STREAM_HEARTBEAT seconds keeps proxies and sleepy Wi-Fi from closing
an idle connection and lets the page notice a dead one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app

from web.context import table

bp = Blueprint("stream", __name__, url_prefix="/api")


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One Server-Sent Event; JSON never holds a raw newline, so one data line suffices."""
    head = f"event: {event}\n"
    if event_id is not None:
        head += f"id: {event_id}\n"
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


@bp.get("/stream")
def stream() -> Response:
    ctx = table()
    heartbeat = float(current_app.config["STREAM_HEARTBEAT"])
    poll = float(current_app.config["STREAM_POLL"])
    # The session queues the current state first, so every connection starts whole.
    subscription = ctx.session.subscribe()
    ctx.stream_opened()

    def events() -> Iterator[str]:
        try:
            # Tell EventSource to retry soon after a drop; the page adds its own backoff.
            yield "retry: 2000\n\n"
            last_sent = time.monotonic()
            # A closed subscription (the session shut down) ends the stream too.
            while not ctx.stopping.is_set() and not getattr(subscription, "closed", False):
                item = subscription.get(min(poll, heartbeat))
                now = time.monotonic()
                if item is not None:
                    event, data = item
                    event_id = data.get("state_id") if event == "state" else None
                    yield sse(event, data, event_id)
                    last_sent = now
                elif now - last_sent >= heartbeat:
                    yield ": heartbeat\n" + sse("ping", {"t": round(time.time(), 1)})
                    last_sent = now
        finally:
            # Runs when the client goes away (the next write fails) or the server stops.
            subscription.close()

    response = Response(events(), mimetype="text/event-stream")
    # A body that is never iterated never runs the generator's finally; this runs regardless,
    # after the server has written the stream's last chunk.
    response.call_on_close(subscription.close)
    response.call_on_close(ctx.stream_closed)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
