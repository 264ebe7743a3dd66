"""Running the app on a real socket in a background thread (``companion play``, tests).

Werkzeug's threaded server gives each request a thread, which the event streams need: a
stream holds its thread for as long as a tablet watches.
"""

from __future__ import annotations

import threading

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from web import stop_streams


class TableServer:
    """``app`` served on ``host:port`` (port 0 picks a free one) until :meth:`stop`."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self._server: BaseWSGIServer = make_server(host, port, app, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        name="table-web", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_port)

    @property
    def url(self) -> str:
        return f"http://{self._server.host}:{self.port}"

    def start(self) -> TableServer:
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in the calling thread (Ctrl-C to stop)."""
        try:
            self._server.serve_forever()
        finally:
            self.stop()

    def stop(self) -> None:
        # Streams first: they would otherwise keep their threads until the next heartbeat.
        stop_streams(self.app)
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()

    def __enter__(self) -> TableServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
