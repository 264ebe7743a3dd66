"""Helpers for the live-table tests: campaigns, sessions, a real server process."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from companion.table.session import TableSession

REPO = Path(__file__).resolve().parents[2]
TINY = Path("/work/shared/examples/tiny-campaign.toml")
FILM = REPO / "scenarios" / "seven-seas.toml"
EVENTS = REPO / "tests" / "data" / "events"
COMPANION = [sys.executable, "-m", "companion"]


def open_session(data: Path, campaign: Path = TINY, seed: int = 7, **kw: Any) -> TableSession:
    return TableSession.open(data, campaign, seed=seed, **kw)


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what legitimately differs between equal states (the id of the
    change, narration, the undo/redo flags)."""
    out = json.loads(json.dumps(snapshot))
    out.pop("state_id", None)
    view = out.get("view", {})
    for key in ("narration", "can_undo", "can_redo", "questions"):
        view.pop(key, None)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``companion play --manual`` as a real child process."""

    PIN = "4321"

    def __init__(self, data: Path, campaign: Path = TINY, extra: tuple[str, ...] = ()) -> None:
        self.data, self.campaign, self.extra = data, campaign, extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> dict[str, Any]:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [*COMPANION, "play", "--manual", "--pin", self.PIN, "--data", str(self.data),
             "--campaign", str(self.campaign), "--port", str(self.port), "--host",
             "127.0.0.1", "--no-browser-qr", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=REPO)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise AssertionError(f"the server exited ({self.proc.returncode}): {out}")
            try:
                return self.get("/api/state")
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        raise AssertionError("the server did not answer /api/state in time")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=5) as resp:
            return json.loads(resp.read())

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        req = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Table-PIN": self.PIN})
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.close_pipes()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.close_pipes()

    def close_pipes(self) -> None:
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()


def rss_kib() -> int:
    """Resident memory of this process, in KiB (Linux)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")
