"""Crash and resume with a real server: ``companion play --manual`` is killed with SIGKILL
mid-game, again and again, while requests are in flight; every restart must show exactly the
changes that were acknowledged (and at most the one in flight), and the game goes on."""

from __future__ import annotations

import http.client
import random
import threading
import time
from pathlib import Path
from typing import Any

from table_helpers import FILM, Server

from companion.record import replay
from companion.scenario import load_campaign
from companion.sinbad import Game, Phase, action_from_line
from companion.table.demo import DemoConfig, DemoSinbad

KILLS = 8


def test_sigkill_mid_game_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data, FILM)
    game = Game(load_campaign(FILM))
    rng = random.Random(2024)
    sinbad = DemoSinbad(random.Random(9))
    # Our mirror of what the server must hold: the applied lines, and the state_id.
    applied: list[dict[str, Any]] = []
    state = game.initial_state()
    acked_id = 0
    total_requests = 0
    try:
        snap = server.start()
        acked_id = snap["state_id"]
        for _round in range(KILLS):
            in_flight: list[tuple[str, dict[str, Any] | None]] = []
            killer = threading.Timer(rng.uniform(0.15, 0.6), server.kill)
            killer.start()
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline and state.phase is not Phase.OVER:
                if applied and rng.random() < 0.1:
                    request: tuple[str, dict[str, Any] | None] = ("undo", None)
                elif state.phase is Phase.JAFFAR:
                    request = ("jaffar", None)
                else:
                    request = ("line", sinbad.choose(game, state, DemoConfig()))
                in_flight = [request]
                try:
                    status, body = _send(server, request, acked_id)
                except (OSError, http.client.HTTPException):
                    break                                    # killed under our feet
                total_requests += 1
                assert status == 200, body
                acked_id = body["state_id"]
                state = _mirror(game, state, applied, request, body)
                if request[0] == "line":
                    sinbad.after(request[1] or {})
                in_flight = []
            killer.join()
            server.kill()
            snap = server.start()
            # Exactly what was acknowledged, or that plus the request in flight.
            if snap["state_id"] != acked_id:
                assert in_flight, f"state {snap['state_id']} but nothing was in flight"
                assert snap["state_id"] == acked_id + 1
                state = _mirror(game, state, applied, in_flight[0], snap)
                if in_flight[0][0] == "line":
                    sinbad.after(in_flight[0][1] or {})
                acked_id = snap["state_id"]
            public = game.public(state)
            assert {k: snap[k] for k in public} == public
            sinbad.sync(state)
        print(f"crash test: {KILLS} kills, {total_requests} requests, state {acked_id}")
        assert total_requests > 20
        # The exported record replays to the same state.
        record = tmp_path / "out.jsonl"
        text = _get_text(server, "/api/record")
        record.write_text(text)
        replayed_game, replayed = replay(record)
        assert replayed_game.public(replayed) == game.public(state)
    finally:
        server.kill()


def _send(server: Server, request: tuple[str, dict[str, Any] | None], state_id: int
          ) -> tuple[int, Any]:
    kind, line = request
    if kind == "undo":
        return server.post("/api/undo", {"state_id": state_id})
    if kind == "jaffar":
        return server.post("/api/jaffar/auto", {"state_id": state_id})
    return server.post("/api/actions", {"state_id": state_id, "line": line})


def _mirror(game: Game, state: Any, applied: list[dict[str, Any]],
            request: tuple[str, dict[str, Any] | None], snap: dict[str, Any]) -> Any:
    kind, line = request
    if kind == "undo":
        applied.pop()
        state = game.initial_state()
        for old in applied:
            state = game.apply(state, action_from_line(old)).state
        return state
    if kind == "jaffar":
        line = {"jaffar": snap["jaffar_last"]}
    assert line is not None
    outcome = game.apply(state, action_from_line(line))
    assert outcome.ok, outcome.refusal
    applied.append(line)
    return outcome.state


def _get_text(server: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.base + path, timeout=5) as resp:
        return str(resp.read().decode())
