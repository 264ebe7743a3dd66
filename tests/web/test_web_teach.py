"""The tablet's "Teach this deck": /api/teach driven through Flask's test client on a table
whose camera is a real video file of REAL cards (fed by companion.table.runtime's camera
feeder, as `companion play --video` does), and the teach screen in a real Chromium."""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_helpers import PIN, launch_chromium, make_app, tablet_page

from companion.table.runtime import PlayOptions, feed_camera
from companion.table.session import TableSession

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
import realdata  # noqa: E402
import teach_video as tv  # noqa: E402

from vision.pipeline import DeckProfile  # noqa: E402
from vision.teach import CameraTeaching, active_profile  # noqa: E402
from vision.watch import WatchControl  # noqa: E402
from web.teach import NO_CAMERA, enable  # noqa: E402

if realdata.data_dir() is None:  # a missing folder must fail the run, not skip it
    raise RuntimeError("the shared photos are missing: expected ../shared/data beside "
                       "the repository")

HEADERS = {"X-Table-PIN": PIN}


@pytest.fixture(scope="module")
def crops() -> dict[str, Any]:
    import cv2

    cv2.setNumThreads(1)
    return tv.real_crops("webcam-grey", "train")


def post(client: FlaskClient, path: str, body: dict[str, Any] | None = None,
         pin: str | None = PIN) -> Any:
    headers = {"X-Table-PIN": pin} if pin else {}
    return client.post(f"/api/teach/{path}", json=body or {}, headers=headers)


def wait_for(client: FlaskClient, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = client.get("/api/teach").get_json()
        if check(status) or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def test_teach_from_the_tablet_on_the_camera_video(
        tmp_path: Path, session: TableSession, examples_dir: Path,
        crops: dict[str, Any]) -> None:
    a, b, c = sorted(crops)[20:23]
    video = tv.write_video(tmp_path / "table.avi", tv.shots_frames(
        crops, [tv.Shot(a), tv.Shot(b, still=11, hand=3)]))
    data = tmp_path / "data"
    decks = data / "decks"
    app = make_app(session, examples_dir)
    control = WatchControl()
    enable(app, CameraTeaching(control, decks))
    client = app.test_client()

    status = client.get("/api/teach").get_json()
    assert status["camera"] is True and status["active"] is False
    assert status["camera_state"] == "waiting"
    # Changing needs the PIN; bad names and card lists change nothing.
    assert post(client, "start", {"name": "webcam"}, pin=None).status_code == 403
    bad = post(client, "start", {"name": "../etc"})
    assert bad.status_code == 400 and "deck name" in bad.get_json()["error"]
    bad = post(client, "start", {"name": "webcam", "cards": "ZZ"})
    assert bad.status_code == 400 and "--cards ZZ" in bad.get_json()["error"]
    assert post(client, "start", {"name": 5}).status_code == 400
    assert post(client, "skip").status_code == 409
    assert not decks.exists()

    started = post(client, "start", {"name": "webcam", "cards": f"{a},{b},{c}"})
    assert started.status_code == 200, started.get_json()
    assert started.get_json()["card"] == a and started.get_json()["phase"] == "waiting"
    assert post(client, "start", {"name": "other"}).status_code == 409

    # The camera: the runtime's own feeder, reading the video through vision.watch.
    stop = threading.Event()
    opts = PlayOptions(mode="video", campaign=None, data=data, video=video)
    feeder = threading.Thread(target=feed_camera, args=(session, opts, stop, control))
    feeder.start()
    try:
        status = wait_for(client, lambda s: s["done"] == 2 and s["camera_state"] == "ended")
    finally:
        stop.set()
        feeder.join(10)
    assert status["taught"] == [a, b], status
    assert status["card"] == c and status["camera_state"] == "ended"
    assert status["frames"] > 20
    assert set(DeckProfile.load(decks / "webcam.profile").cards) == {a, b}
    assert (decks / "active").read_text().strip() == "webcam"
    # The frames went to the teacher, not to the game.
    assert not any("placed" in line for line in session.interpreter.log)
    # The camera reads with the taught deck from the next frame on.
    assert control.profile is not None and set(control.profile.cards) == {a, b}

    redone = post(client, "redo").get_json()
    assert redone["card"] == b and redone["taught"] == [a]
    assert set(DeckProfile.load(decks / "webcam.profile").cards) == {a}
    assert post(client, "skip").get_json()["skipped"] == [b]
    done = post(client, "finish").get_json()
    assert done["active"] is False and done["phase"] == "finished"
    assert "not shown: " + c in done["message"]
    assert done["decks"] == ["webcam"]
    assert control._tap is None, "the camera goes back to the game"
    assert post(client, "finish").status_code == 409
    # Next time the table starts, its camera reads with this deck.
    assert active_profile(decks) == (decks / "webcam.profile", "")


def test_teach_without_a_camera_says_so(client: FlaskClient) -> None:
    status = client.get("/api/teach").get_json()
    assert status == {"camera": False, "active": False, "message": NO_CAMERA}
    refused = post(client, "start", {"name": "x"})
    assert refused.status_code == 409 and "no camera" in refused.get_json()["error"]


# -- the teach screen in a real browser -------------------------------------------------------


@pytest.mark.browser
def test_teach_screen_in_chromium(tmp_path: Path, session: TableSession,
                                  examples_dir: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    from web.server import TableServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app: Flask = make_app(session, examples_dir)
    control = WatchControl()
    teaching = CameraTeaching(control, tmp_path / "decks")
    enable(app, teaching)
    with TableServer(app) as server, sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page, errors = tablet_page(browser, server.url + "/")
            page.locator("#menu-open").click()
            page.locator("#teach-open").click()
            expect(page.locator("#teach-setup")).to_be_visible()
            expect(page.locator("#teach-camera")).to_contain_text("camera is starting")
            page.locator("#teach-name").fill("red-deck")
            page.locator("#teach-cards").select_option("H")
            page.locator("#teach-start").click()
            expect(page.locator("#teach-prompt")).to_have_text(
                "Show the ace of hearts, alone, under the camera")
            expect(page.locator("#teach-card .card[data-card='AH']")).to_be_visible()
            expect(page.locator("#teach-phase")).to_have_text("Waiting for the card…")
            expect(page.locator("#teach-progress")).to_have_text("0/13 cards taught")
            page.locator("#teach-skip").click()
            expect(page.locator("#teach-prompt")).to_contain_text("Show the two of hearts")
            expect(page.locator("#teach-progress")).to_contain_text("skipped 1")
            page.locator("#teach-finish").click()
            expect(page.locator("#teach-setup")).to_be_visible()
            expect(page.locator("#teach-live")).to_be_hidden()
            assert teaching.status()["skipped"] == ["AH"]
            assert teaching.status()["active"] is False
            assert errors == []
        finally:
            browser.close()


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    yield app.test_client()
