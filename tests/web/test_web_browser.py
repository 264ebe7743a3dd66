"""The tablet page in a real browser: Debian's Chromium driven by Playwright against a real
server on 127.0.0.1 and a real session. Plays the tiny campaign through the page's buttons,
undoes, gets a stale change refused, and saves the README's screenshots."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from web_helpers import PIN, TIMEOUT_MS, TINY_WIN, launch_chromium, make_app, tablet_page

from companion.table.session import TableSession
from web.server import TableServer

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = launch_chromium(playwright)
    yield browser
    browser.close()


@pytest.fixture
def server(session: TableSession, examples_dir: Path) -> Iterator[TableServer]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)   # no line per request
    app = make_app(session, examples_dir, STREAM_HEARTBEAT=2.0, STREAM_POLL=0.1)
    with TableServer(app) as running:
        yield running


def open_page(browser: Browser, server: TableServer, *, width: int = 1024, height: int = 768,
              pin: str | None = None, still: bool = False) -> tuple[Page, list[str]]:
    """A fresh tablet (see :func:`web_helpers.tablet_page`), once it shows the state."""
    page, errors = tablet_page(browser, server.url + "/", width=width, height=height, pin=pin,
                               still=still)
    expect(page.locator("body")).to_have_attribute("data-state-id", str_id(server))
    return page, errors


def str_id(server: TableServer) -> str:
    session = server.app.extensions["table"].session
    return str(session.state_id)


def pick(page: Page, code: str) -> None:
    """A card through the picker: its suit (when the picker asks), then its rank."""
    suit = page.locator(f".suit-btn[data-suit='{code[-1]}']")
    if suit.count():
        suit.click()
    page.locator(f".rank-btn[data-card='{code}']").click()


@contextmanager
def one_change(page: Page, session: TableSession) -> Iterator[None]:
    """The taps inside make one change at the table, and the page shows its result."""
    before = session.state_id
    yield
    page.wait_for_function("n => (window.tablePage.state || {}).state_id > n", arg=before)
    assert session.state_id > before
    expect(page.locator("body")).to_have_attribute("data-state-id", str(session.state_id))


def test_a_short_game_played_through_the_buttons(browser: Browser, server: TableServer,
                                                 session: TableSession) -> None:
    page, errors = open_page(browser, server)
    body = page.locator("body")
    meter = page.locator("#meter")
    expect(meter).to_have_attribute("data-sleep", "10")
    expect(page.locator("#scoreboard")).to_have_attribute("data-state", "losing")
    expect(page.locator("#phase-title")).to_have_text("Jaffar's turn")

    # Turn 1. The first change asks for the PIN; a wrong one says so and asks again.
    pick(page, "3S")
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.fill("#pin-input", "0000")
    page.click("#pin-ok")
    expect(page.locator("#pin-error")).to_be_visible()
    assert session.applied_lines() == []
    page.fill("#pin-input", PIN)
    page.click("#pin-ok")
    expect(body).to_have_attribute("data-phase", "sinbad")
    expect(page.locator("#jaffar-last .card[data-card='3S']")).to_be_visible()
    expect(page.locator("#narration")).to_contain_text("Histrionics")

    # The Budge card is the only one, so it is chosen; the new challenge's card goes by suit.
    expect(page.locator(".budge[data-budge='nudge']")).to_have_class("budge chosen")
    # Its paths are shown before it begins, so a card could also be aimed at one of them.
    expect(page.locator("button.path[data-path='friends']")).to_be_visible()
    with one_change(page, session):
        pick(page, "QC")
    expect(page.locator(".path[data-path='muscle'] .card[data-card='QC']")).to_be_visible()
    expect(page.locator("#challenge-title")).to_have_text("The Locked Gate")

    # Turn 2: Jaffar's Magic takes the Muscle card back; Sinbad draws and the meter drops.
    with one_change(page, session):
        pick(page, "5C")
    expect(page.locator(".path[data-path='muscle'] .card")).to_have_count(0)
    with one_change(page, session):
        page.click("#sinbad-draw")
    expect(meter).to_have_attribute("data-sleep", "9")
    expect(page.locator("#notches .notch.marker")).to_have_attribute("data-n", "9")
    expect(page.locator("[data-count='hand']")).to_have_text("9")

    # Turn 3 of the challenge: Jaffar is Winning and plays two cards, one tap each.
    expect(page.locator("#phase-hint")).to_contain_text("1 or 2 cards")
    pick(page, "4H")
    expect(page.locator("#jaffar-done")).to_be_visible()
    with one_change(page, session):
        pick(page, "9D")
    expect(page.locator("#scoreboard")).to_have_attribute("data-state", "winning")
    expect(page.locator(".score-winning")).to_have_text("I'M WINNING!!!!")

    # Sinbad taps the Muscle path and picks the King: two taps.
    with one_change(page, session):
        page.click("button.path[data-path='muscle']")
        pick(page, "KC")
    expect(page.locator(".path[data-path='muscle'] .card[data-card='KC']")).to_be_visible()
    expect(page.locator(".path[data-path='muscle'] .flavor")).to_contain_text(
        "Sinbad flexes at the gate.")

    # Undo takes the card back off the path; redo puts it back.
    with one_change(page, session):
        page.click("#undo")
    expect(page.locator(".path[data-path='muscle'] .card")).to_have_count(0)
    expect(body).to_have_attribute("data-phase", "sinbad")
    with one_change(page, session):
        page.click("#redo")
    expect(page.locator(".path[data-path='muscle'] .card[data-card='KC']")).to_be_visible()

    # Turn 4: two Histrionics wake the girl up to the top of the meter.
    with one_change(page, session):
        pick(page, "2S")
        pick(page, "7S")
    expect(meter).to_have_attribute("data-sleep", "10")

    # The Jack of clubs completes the Muscle path: Sinbad wins, and the page says so.
    page.click("button.path[data-path='muscle']")
    pick(page, "JC")
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("Sinbad wins!")
    # The record the page wrote: tiny-win.jsonl, except where a path was or was not named.
    expected = [dict(line) for line in TINY_WIN]
    expected[1] = {"sinbad": {"budge": "nudge", "action": "play", "cards": [{"card": "QC"}]}}
    expected[7] = {"sinbad": {"action": "play", "cards": [{"card": "JC", "path": "muscle"}]}}
    assert session.applied_lines() == expected
    assert errors == []
    page.context.close()


def test_jaffar_plays_for_me(browser: Browser, server: TableServer,
                             session: TableSession) -> None:
    page, errors = open_page(browser, server, pin=PIN)
    page.click("#jaffar-auto")
    expect(page.locator("body")).to_have_attribute("data-phase", "sinbad")
    expect(page.locator("#jaffar-last .card")).to_have_count(1)
    assert session.snapshot()["jaffar_deck"] == 51
    assert errors == []
    page.context.close()


def test_a_refusal_is_shown_and_nothing_changes(browser: Browser, server: TableServer,
                                                session: TableSession) -> None:
    session.apply_line(TINY_WIN[0], session.state_id)
    page, errors = open_page(browser, server, pin=PIN)
    before = session.state_id
    # The Locked Gate wants Muscle or Friends: a Diamond fits no path, and the rules say so.
    pick(page, "4D")
    expect(page.locator("#message")).to_contain_text("The rules say no")
    expect(page.locator("#message")).to_contain_text("S8b")
    assert session.state_id == before
    assert errors == []
    page.context.close()


def test_a_stale_change_is_refused_and_the_page_catches_up(browser: Browser,
                                                           server: TableServer,
                                                           session: TableSession) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(f"localStorage.setItem('table.pin', {PIN!r});")
    # No event stream: the page sees only what it fetched, like a tablet whose Wi-Fi dozed.
    context.route("**/api/stream", lambda route: route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-phase", "jaffar")
    expect(page.locator("#offline")).to_be_visible()

    # Another tablet plays Jaffar's card meanwhile.
    session.apply_line(TINY_WIN[0], session.state_id)
    changed = session.state_id

    page.click("#jaffar-auto")                       # made against the old state
    expect(page.locator("#message")).to_contain_text("The table changed")
    expect(page.locator("body")).to_have_attribute("data-state-id", str(changed))
    expect(page.locator("body")).to_have_attribute("data-phase", "sinbad")
    assert session.state_id == changed                # the stale change did nothing
    assert session.snapshot()["jaffar_last"] == ["3S"]

    # The stream comes back and the page reconnects by itself.
    context.unroute("**/api/stream")
    expect(page.locator("#offline")).to_be_hidden(timeout=12000)
    assert errors == []
    context.close()


def _layout_report(page: Page) -> dict[str, Any]:
    report: dict[str, Any] = page.evaluate("""() => {
      const small = [];
      for (const b of document.querySelectorAll('button')) {
        const r = b.getBoundingClientRect();
        if (!r.width || !r.height || b.closest('dialog:not([open])')) continue;
        const name = `${b.id || b.className} ${r.width}x${r.height}`;
        if (r.height < 56 || r.width < 56) small.push(name);
      }
      return {scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
              scrollHeight: document.documentElement.scrollHeight, height: innerHeight, small};
    }""")
    return report


def test_screenshots_and_layout_at_tablet_sizes(browser: Browser, server: TableServer,
                                                session: TableSession) -> None:
    for line in [TINY_WIN[0],
                 {"sinbad": {"budge": "nudge", "action": "play",
                             "cards": [{"card": "QC", "path": "muscle"},
                                       {"card": "2H", "path": "friends"}]}},
                 {"jaffar": ["4D"]}]:
        session.apply_line(line, session.state_id)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    page, errors = open_page(browser, server, width=1024, height=768, still=True)
    expect(page.locator(".path[data-path='friends'] .flavor")).to_contain_text(
        "Poochie finds a ladder.")
    report = _layout_report(page)
    assert report["scrollWidth"] <= report["width"], report
    assert report["scrollHeight"] <= report["height"], report   # landscape: no scrolling
    assert report["small"] == [], report
    page.screenshot(path=str(SCREENSHOTS / "tablet-landscape.png"))
    page.context.close()

    page, errors2 = open_page(browser, server, width=768, height=1024, still=True)
    page.click("button.path[data-path='friends']")      # the card picker for that path
    expect(page.locator(".rank-btn[data-card='QH']")).to_be_visible()
    report = _layout_report(page)
    assert report["scrollWidth"] <= report["width"], report
    assert report["small"] == [], report
    page.screenshot(path=str(SCREENSHOTS / "tablet-portrait.png"))
    page.context.close()

    page, errors3 = open_page(browser, server, width=390, height=844)   # a phone
    report = _layout_report(page)
    assert report["scrollWidth"] <= report["width"], report
    page.context.close()
    assert errors == errors2 == errors3 == []


def test_narration_is_read_aloud_and_the_settings_are_remembered(
        browser: Browser, server: TableServer, session: TableSession) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(TIMEOUT_MS)
    # Listen in on the browser's own speech: record each utterance, then speak it as usual.
    context.add_init_script("""
      window.spoken = [];
      if ('speechSynthesis' in window) {
        const speak = speechSynthesis.speak.bind(speechSynthesis);
        speechSynthesis.speak = (u) => { window.spoken.push(u.text); speak(u); };
      }
    """)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-state-id", str(session.state_id))
    assert page.evaluate("'speechSynthesis' in window")

    session.apply_line(TINY_WIN[0], session.state_id)
    page.wait_for_function("window.spoken.some(t => t.includes('Histrionics'))")
    assert any("PRINCESS... a GATE" in t for t in page.evaluate("window.spoken"))
    expect(page.locator("#narration-now")).to_contain_text("Histrionics")

    # Voice off is remembered across a reload, and then nothing more is spoken.
    page.click("#speech-toggle")
    expect(page.locator("#speech-toggle")).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#speech-toggle")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#speech-toggle")).to_have_text("Voice off")
    session.apply_line(TINY_WIN[1], session.state_id)
    expect(page.locator("#narration-now")).to_contain_text("flexes")
    assert page.evaluate("window.spoken") == []
    context.close()


OVERRIDES_CAMPAIGN = """
id = "overrides"
title = "Every Button Once"
scenarios = ["buttons.toml"]
"""

OVERRIDES_SCENARIO = """
id = "buttons"
title = "The Test of Buttons"
intro = "Every button, once."

[[steps]]
kind = "challenge"
id = "first-door"
title = "The First Door"
text = "A door with two ways through."
[[steps.paths]]
id = "muscle"
need = ["muscle", "muscle", "muscle"]
flavor = ["Push.", "Push harder.", "The door gives up."]
[[steps.paths]]
id = "friends"
need = ["friends", "friends", "friends"]

[[steps]]
kind = "challenge"
id = "second-door"
title = "The Second Door"
text = "A door that opens for luck alone."
[[steps.paths]]
id = "luck"
need = ["luck"]

[[budge]]
id = "sleepy"
title = "Sleepy"
text = "Sinbad yawns, and Jaffar dozes off too."
effects = [{ lose_turn = true }, { jaffar_skip = true }]

[[budge]]
id = "plain"
title = "Plain"
text = "Nothing happens."
"""


def test_every_manual_override_through_the_buttons(browser: Browser, tmp_path: Path,
                                                   examples_dir: Path) -> None:
    """Budge choice, two cards at once, a skipped Jaffar phase, a lost turn, "that's all",
    a trade, Antics, draw-then-play, and the end: each through the page's own buttons."""
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "overrides.toml").write_text(OVERRIDES_CAMPAIGN)
    (folder / "buttons.toml").write_text(OVERRIDES_SCENARIO)
    session = TableSession.open(tmp_path / "table", folder / "overrides.toml", seed=3)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = make_app(session, examples_dir, STREAM_HEARTBEAT=2.0, STREAM_POLL=0.1)
    try:
        with TableServer(app) as server:
            page, errors = open_page(browser, server, pin=PIN)
            sleep = page.locator("#meter")

            with one_change(page, session):
                pick(page, "3S")
            # Two Budge cards: nothing can be played until one is chosen.
            expect(page.locator("#sinbad-draw")).to_be_disabled()
            page.click(".budge[data-budge='sleepy']")
            page.click(".mode[data-mode='two']")
            pick(page, "QC")                          # waits in the tray...
            expect(page.locator(".tray .card[data-card='QC']")).to_be_visible()
            with one_change(page, session):
                pick(page, "2H")                      # ...and goes with the second
            expect(page.locator(".path[data-path='friends'] .card[data-card='2H']")
                   ).to_be_visible()

            with one_change(page, session):          # the Budge card made Jaffar skip
                page.click("#jaffar-skip")
            with one_change(page, session):          # and Sinbad lose his turn
                page.click("#sinbad-pass")
            expect(sleep).to_have_attribute("data-sleep", "9")

            pick(page, "8S")                          # Winning: one card is enough
            with one_change(page, session):
                page.click("#jaffar-done")
            expect(sleep).to_have_attribute("data-sleep", "10")
            page.click("#sinbad-trade")
            pick(page, "5S")
            with one_change(page, session):
                pick(page, "AD")
            expect(sleep).to_have_attribute("data-sleep", "9")

            with one_change(page, session):
                pick(page, "6D")
                pick(page, "7D")
            page.click("#sinbad-antics")
            with one_change(page, session):
                pick(page, "9S")
            expect(sleep).to_have_attribute("data-sleep", "10")

            with one_change(page, session):
                pick(page, "6H")
                pick(page, "8H")
            page.click("button.path[data-path='muscle']")
            with one_change(page, session):
                pick(page, "KC")
            pick(page, "4C")
            with one_change(page, session):
                page.click("#jaffar-done")            # Magic takes the King back (S7)
            expect(page.locator(".path[data-path='muscle'] .card")).to_have_count(1)
            page.click("button.path[data-path='muscle']")
            with one_change(page, session):
                pick(page, "JC")
            pick(page, "5H")
            with one_change(page, session):
                page.click("#jaffar-done")
            page.click("button.path[data-path='muscle']")
            with one_change(page, session):
                pick(page, "TC")                      # the Muscle path is complete
            expect(page.locator("#challenge-title")).to_have_text("Next: The Second Door")
            expect(page.locator("#scoreboard")).to_have_attribute("data-state", "losing")

            # Losing again: the last Budge card is chosen by itself; draw one, then play.
            with one_change(page, session):
                pick(page, "3C")
            expect(page.locator(".budge[data-budge='plain']")).to_have_class("budge chosen")
            page.click(".mode[data-mode='draw_play']")
            with one_change(page, session):
                pick(page, "5D")
            expect(page.locator("#end-title")).to_have_text("Sinbad wins!")
            lines = session.applied_lines()
            assert errors == []
            page.context.close()
    finally:
        session.close()
    assert lines[1] == {"sinbad": {"budge": "sleepy", "action": "play",
                                   "cards": [{"card": "QC"}, {"card": "2H"}]}}
    assert lines[2:4] == [{"jaffar": []}, {"sinbad": {"action": "pass"}}]
    assert lines[5] == {"sinbad": {"action": "trade", "give": "5S", "take": "AD"}}
    assert lines[7] == {"sinbad": {"action": "play", "cards": [{"card": "9S"}]}}
    assert lines[-1] == {"sinbad": {"budge": "plain", "action": "draw_play",
                                    "cards": [{"card": "5D"}]}}


def test_games_are_started_and_switched_from_the_menu(browser: Browser, server: TableServer,
                                                      session: TableSession) -> None:
    session.apply_line(TINY_WIN[0], session.state_id)
    first = session.game_id
    page, errors = open_page(browser, server, pin=PIN)
    page.click("#menu-open")
    expect(page.locator("#games li.current")).to_contain_text("playing now")
    page.select_option("#campaign-choice", "tiny-campaign.toml")
    page.click("#game-new")
    expect(page.locator("#menu")).to_be_hidden()
    expect(page.locator("[data-count='turn']")).to_have_text("0")
    assert session.game_id != first

    page.click("#menu-open")
    expect(page.locator("#games li")).to_have_count(2)
    page.locator("#games li:not(.current) button").click()
    expect(page.locator("#menu")).to_be_hidden()
    expect(page.locator("#jaffar-last .card[data-card='3S']")).to_be_visible()
    assert session.game_id == first
    assert errors == []
    page.context.close()
