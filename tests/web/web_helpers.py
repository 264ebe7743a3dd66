"""Helpers shared by the web tests (a module of its own: ``conftest`` is not importable by
name once several test folders have one)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

from companion.table.session import TableSession
from web import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

PIN = "2468"

# Debian's Chromium, started without the background work this machine's closed network refuses
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 8000

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


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless (a clear failure when it is not installed)."""
    import pytest

    if not CHROMIUM.exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM} "
                    "(scripts/setup.sh --test installs it)")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def tablet_page(browser: Browser, url: str, *, width: int = 1024, height: int = 768,
                pin: str | None = PIN, still: bool = False) -> tuple[Page, list[str]]:
    """A fresh tablet at ``url`` holding the PIN (unless ``pin`` is None), and the list the
    page's script errors are gathered in; ``still`` turns animations off (the page honours
    reduced motion), so that a screenshot is the same on every run."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  reduced_motion="reduce" if still else "no-preference")
    context.set_default_timeout(TIMEOUT_MS)
    if pin is not None:
        context.add_init_script(f"localStorage.setItem('table.pin', {pin!r});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page, errors
