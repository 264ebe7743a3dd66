"""``companion play`` as a person runs it: the demo moves, an events file plays a game, the
address, PIN and QR code are printed, and bad options get a clear message."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest
from table_helpers import COMPANION, EVENTS, FILM, REPO, TINY, Server, free_port

from companion.scenario import load_campaign


def _poll(server: Server, done: object, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    snap: dict = {}
    while time.monotonic() < deadline:
        snap = server.get("/api/state")
        if done(snap):  # type: ignore[operator]
            return snap
        time.sleep(0.1)
    raise AssertionError(f"timed out; last state {snap}")


def _run(args: list[str], port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*COMPANION, "play", "--port", str(port), "--host", "127.0.0.1",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=REPO)


def _started(port: int, proc: subprocess.Popen[bytes], data: Path) -> Server:
    server = Server(data)
    server.port = port
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        try:
            server.get("/api/state")
            return server
        except OSError:
            time.sleep(0.05)
    raise AssertionError("no answer")


def _stop(proc: subprocess.Popen[bytes]) -> str:
    if proc.poll() is None:
        proc.terminate()
    out, _ = proc.communicate(timeout=15)
    return out.decode()


def test_the_demo_plays_itself(tmp_path: Path) -> None:
    port = free_port()
    proc = _run(["--speed", "40", "--data", str(tmp_path), "--seed", "3", "--pin", "1111"],
                port)
    try:
        server = _started(port, proc, tmp_path)
        snap = _poll(server, lambda s: s["turn"] >= 3 and s["challenge"] is not None)
        assert snap["scenario"] in {x.id for x in load_campaign(FILM).scenarios}
        assert len(snap["view"]["narration"]) >= 5
    finally:
        out = _stop(proc)
    assert proc.returncode == 0, out
    assert f"Tablet: open http://127.0.0.1:{port}/" in out and "Table PIN: 1111" in out
    assert "\u2588" in out                                      # the QR code, in blocks
    assert "demo" in out and "Traceback" not in out
    assert (tmp_path / "demo" / "companion.sqlite3").exists()  # apart from real games


def test_an_events_file_plays_a_game(tmp_path: Path) -> None:
    port = free_port()
    proc = _run(["--events", str(EVENTS / "tiny-win.jsonl"), "--fast", "--campaign",
                 str(TINY), "--data", str(tmp_path), "--no-browser-qr"], port)
    try:
        server = _started(port, proc, tmp_path)
        snap = _poll(server, lambda s: s["result"] is not None)
        assert snap["result"] == "sinbad" and snap["view"]["questions"] == []
    finally:
        out = _stop(proc)
    assert "Feeding table events" in out and "\u2588" not in out


def test_a_camera_source_says_how_it_feeds_the_table(tmp_path: Path) -> None:
    port = free_port()
    proc = _run(["--video", str(tmp_path / "table.mp4"), "--campaign", str(TINY), "--data",
                 str(tmp_path), "--no-browser-qr"], port)
    try:
        server = _started(port, proc, tmp_path)
        assert server.get("/api/state")["turn"] == 0         # the tablet works meanwhile
    finally:
        out = _stop(proc)
    assert "same interpreter" in out and "Traceback" not in out


@pytest.mark.parametrize("args, words", [
    (["--campaign", "/nonexistent.toml", "--manual"], "no such campaign file"),
    (["--speed", "0"], "--speed"),
    (["--events", "/nonexistent.jsonl"], "no such events file"),
])
def test_bad_options_are_refused_clearly(tmp_path: Path, args: list[str], words: str) -> None:
    done = subprocess.run([*COMPANION, "play", "--data", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=30, cwd=REPO)
    assert done.returncode == 2 and words in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_busy_port_is_refused_clearly(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([*COMPANION, "play", "--manual", "--campaign", str(TINY),
                               "--data", str(tmp_path), "--host", "127.0.0.1", "--port",
                               str(port)], capture_output=True, text=True, timeout=30,
                              cwd=REPO)
    assert done.returncode == 1 and "cannot listen" in done.stderr
    assert "Traceback" not in done.stderr
