"""GET /api/stream: Server-Sent Events of the live table, and their clean ending."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from web_helpers import PIN, TINY_WIN, make_app

from companion.table.session import TableSession
from web import stop_streams
from web.server import TableServer


def events(chunks: Iterable[bytes] | Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(event, data) pairs from a stream's chunks; comments and retry hints are skipped."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            name, data = "message", None
            for line in block.split("\n"):
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
            if data is not None:
                yield name, data


def until(stream: Iterator[tuple[str, Any]], wanted: str) -> tuple[list[str], Any]:
    """Read events up to the first ``wanted`` one; returns the names seen and its data."""
    seen = []
    for name, data in stream:
        seen.append(name)
        if name == wanted:
            return seen, data
    raise AssertionError(f"the stream ended before a {wanted!r} event (saw {seen})")


def test_the_stream_starts_with_the_state_then_follows_every_change(
        app: Flask, client: FlaskClient) -> None:
    response = client.get("/api/stream", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    stream = events(response.response)
    try:
        name, first = next(stream)
        assert name == "state"
        assert first == client.get("/api/state").get_json()

        answer = client.post("/api/actions", json={"state_id": first["state_id"],
                                                   "line": TINY_WIN[0]},
                             headers={"X-Table-PIN": PIN}).get_json()
        seen, state = until(stream, "state")
        assert state == answer
        # The intro and Jaffar's Histrionics are read aloud before the state arrives.
        says = [n for n in seen if n == "say"]
        assert len(says) >= 2
    finally:
        response.close()


def test_narration_arrives_as_say_events_with_text(client: FlaskClient) -> None:
    response = client.get("/api/stream", buffered=False)
    stream = events(response.response)
    try:
        _, first = next(stream)
        client.post("/api/actions", json={"state_id": first["state_id"], "line": TINY_WIN[0]},
                    headers={"X-Table-PIN": PIN})
        texts = []
        for name, data in stream:
            if name == "state":
                break
            if name == "say":
                texts.append(data["text"])
        assert any("PRINCESS... a GATE" in t for t in texts)
        assert any("Histrionics" in t for t in texts)
    finally:
        response.close()


def test_questions_are_pushed(client: FlaskClient, session: TableSession) -> None:
    response = client.get("/api/stream", buffered=False)
    stream = events(response.response)
    try:
        next(stream)
        session.ask({"id": "q-card", "text": "Which card was that?", "choices": ["QH", "QD"]})
        _, question = until(stream, "question")
        assert question == {"id": "q-card", "text": "Which card was that?",
                            "choices": ["QH", "QD"], "kind": "question"}
    finally:
        response.close()


def test_an_idle_stream_sends_heartbeats(client: FlaskClient) -> None:
    response = client.get("/api/stream", buffered=False)   # heartbeat every 0.3 s here
    stream = events(response.response)
    try:
        next(stream)
        started = time.monotonic()
        name, _ = next(stream)
        assert name == "ping"
        assert time.monotonic() - started < 2.0
    finally:
        response.close()


def test_a_client_going_away_ends_its_subscription(client: FlaskClient,
                                                   session: TableSession) -> None:
    before = session.subscriber_count()
    response = client.get("/api/stream", buffered=False)
    next(events(response.response))
    assert session.subscriber_count() == before + 1
    response.close()
    assert session.subscriber_count() == before


def test_stop_streams_ends_open_streams(app: Flask, client: FlaskClient) -> None:
    response = client.get("/api/stream", buffered=False)
    stream = events(response.response)
    next(stream)
    threading.Timer(0.1, stop_streams, args=(app,)).start()
    started = time.monotonic()
    rest = list(stream)                      # ends instead of blocking forever
    assert time.monotonic() - started < 3.0
    assert all(name == "ping" for name, _ in rest)
    response.close()


def test_streams_end_cleanly_when_the_real_server_stops(session: TableSession,
                                                        examples_dir: Path) -> None:
    app = make_app(session, examples_dir, STREAM_HEARTBEAT=15.0, STREAM_POLL=0.1)
    server = TableServer(app).start()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/api/stream")
        response = conn.getresponse()
        assert response.status == 200
        assert response.readline().startswith(b"retry:")
        while not response.readline().startswith(b"event: state"):
            pass
        assert session.subscriber_count() == 1
        started = time.monotonic()
        server.stop()
        response.read()                    # returns once the server ends the stream
        assert time.monotonic() - started < 5.0
        assert session.subscriber_count() == 0
    finally:
        conn.close()
        server.stop()
