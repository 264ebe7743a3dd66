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
    ``STREAM_POLL`` (how often an idle stream checks for shutdown, default 0.5 s),
    ``CAMPAIGNS_DIR`` (the folder whose campaign files the tablet may start new games from;
    default: the repository's ``scenarios/``).
    """
    if not isinstance(pin, str) or not pin:
        raise ValueError("the table needs a non-empty PIN")
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
        STREAM_HEARTBEAT=15.0,
        STREAM_POLL=0.5,
        CAMPAIGNS_DIR=str(Path(__file__).resolve().parent.parent / "scenarios"),
        # The page changes with the code; a tablet must not keep yesterday's script.
        SEND_FILE_MAX_AGE_DEFAULT=0,
    )
    if test_config is not None:
        app.config.update(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["table"] = TableContext(session, pin)

    from web import api, display, stream

    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(display.bp)
    register_error_handlers(app)
    return app


def stop_streams(app: Flask) -> None:
    """End every open /api/stream response; call before stopping the server so that its
    threads finish instead of waiting on a heartbeat."""
    table(app).stopping.set()
