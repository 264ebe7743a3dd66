"""Helpers shared by the web tests (a module of its own: ``conftest`` is not importable by
name once several test folders have one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion.table.session import TableSession
from web import create_app

PIN = "2468"

# The tiny campaign's winning game (shared/examples/tiny-win.jsonl), one line a phase.
TINY_WIN: list[dict[str, Any]] = [
    {"jaffar": ["3S"]},
    {"sinbad": {"budge": "nudge", "action": "play", "cards": [{"card": "QC", "path": "muscle"}]}},
    {"jaffar": ["5C"]},
    {"sinbad": {"action": "draw", "count": 2}},
    {"jaffar": ["4H", "9D"]},
    {"sinbad": {"action": "play", "cards": [{"card": "KC", "path": "muscle"}]}},
    {"jaffar": ["2S", "7S"]},
    {"sinbad": {"action": "play", "cards": [{"card": "JC"}]}},
]


def make_app(session: TableSession, examples_dir: Path, **config: Any) -> Flask:
    settings: dict[str, Any] = {"TESTING": True, "CAMPAIGNS_DIR": str(examples_dir),
                                "STREAM_HEARTBEAT": 0.3, "STREAM_POLL": 0.05}
    settings.update(config)
    return create_app(session, pin=PIN, test_config=settings)
