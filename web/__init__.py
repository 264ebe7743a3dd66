"""The table's web side: a Flask app that shows the game to tablets and takes their overrides.

``create_app(session, pin=...)`` builds the app around one live :class:`TableSession`
(``companion.table``): the JSON API and the event stream (FORMATS.md "The table's HTTP API"),
and the tablet page. The app holds no game state of its own; every view asks the session.

>>> from web import create_app   # doctest: +SKIP
>>> app = create_app(session, pin="1234")   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

from web.context import TableContext, table
from web.errors import register_error_handlers

if TYPE_CHECKING:
    from companion.table.session import TableSession

__all__ = ["TableContext", "create_app", "stop_streams", "table"]

# A record line is a few hundred bytes; nothing the tablet sends comes near this.
MAX_BODY_BYTES = 64 * 1024


def create_app(session: TableSession, *, pin: str,
               test_config: Mapping[str, Any] | None = None) -> Flask:
    """The table's Flask app around a live session; changes need ``pin`` (X-Table-PIN).

    ``test_config`` overrides Flask settings and these of our own:
    ``STREAM_HEARTBEAT`` (seconds between heartbeats on /api/stream, default 15),
    ``STREAM_POLL`` (how often an idle stream checks for shutdown, default 0.25 s),
    ``CAMPAIGNS_DIR`` (the folder whose campaign files the tablet may start new games from;
    default: the repository's ``scenarios/``), ``PIN_TRIES`` and ``PIN_LOCKOUT`` (after that
    many wrong PINs an address waits that many seconds; default 5 and 30).
    """
    if not isinstance(pin, str) or not pin:
        raise ValueError("the table needs a non-empty PIN")
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
        STREAM_HEARTBEAT=15.0,
        STREAM_POLL=0.25,
        CAMPAIGNS_DIR=str(Path(__file__).resolve().parent.parent / "scenarios"),
        PIN_TRIES=5,
        PIN_LOCKOUT=30.0,
        # The page changes with the code; a tablet must not keep yesterday's script.
        SEND_FILE_MAX_AGE_DEFAULT=0,
    )
    if test_config is not None:
        app.config.update(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["table"] = TableContext(session, pin)

    from web import api, corrections, display, stream, teach

    app.register_blueprint(api.bp)
    app.register_blueprint(teach.bp)
    app.register_blueprint(corrections.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(display.bp)
    register_error_handlers(app)
    return app


def stop_streams(app: Flask, wait: float = 2.0) -> bool:
    """End every open /api/stream response, and wait up to ``wait`` seconds until each has
    sent its last byte: call before stopping the server, so that tablets see a stream that
    ended (and reconnect) rather than one cut off mid-chunk. True when all ended in time."""
    ctx = table(app)
    ctx.stopping.set()
    return ctx.wait_for_streams(wait)
