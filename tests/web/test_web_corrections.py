"""Putting right a card the camera could not read, on the tablet, during a game: the game goes
on with the real card, the deck profile on disk learns the camera's picture, and the camera
reads that card right afterwards.

The camera is a real video (the printed board, as ``vision.tablevideo`` draws it, with the
REAL queen of spades of ``shared/data/deck-sheet`` lying on Jaffar's pile, made a German
deck's: "D" for Dame in its corners, its picture painted over; the untaught recognizer finds
that card but cannot read it), fed through
``companion.table.runtime.feed_camera`` as ``companion play --video`` does; the table is a
real session on a SQLite journal behind the real Flask app."""

from __future__ import annotations

import logging
import sys
import threading
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
from vision.teach import CameraTeaching  # noqa: E402
from vision.watch import WatchControl  # noqa: E402
from web.teach import enable  # noqa: E402

if realdata.data_dir() is None:  # a missing folder must fail the run, not skip it
    raise RuntimeError("the shared photos are missing: expected ../shared/data beside "
                       "the repository")


DAME_FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"


@pytest.fixture(scope="module")
def queen_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A queen as a German deck prints it: the REAL queen of spades of the Italian deck, its
    "Q" indices overprinted with "D" (Dame) and its picture painted over, so that its
    corners show a rank no deck the recognizer knows has, and its middle no picture."""
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    if not Path(DAME_FONT).is_file():  # a missing font must fail the run, not crash it
        pytest.fail(f"{DAME_FONT} is missing: apt-get install -y fonts-liberation")
    faces = {card.code: img for img, card in realdata.deck_sheet_samples()}
    face = faces["QS"].copy()
    h, w = face.shape[:2]
    ink = np.median(face[: int(0.05 * h), int(0.3 * w) : int(0.7 * w)].reshape(-1, 3), axis=0)
    paper = tuple(int(x) for x in ink)
    dame = cv2.FontFace(DAME_FONT)
    for _ in range(2):  # the top-left index, then (turned half round) the bottom-right one
        cv2.rectangle(face, (int(0.02 * w), int(0.02 * h)), (int(0.16 * w), int(0.16 * h)),
                      paper, -1)
        cv2.putText(face, "D", (int(0.03 * w), int(0.145 * h)), (20, 20, 20), dame,
                    int(0.12 * h))
        face = np.ascontiguousarray(np.rot90(face, 2))
    face[int(0.13 * h) : int(0.87 * h), int(0.17 * w) : int(0.83 * w)] = paper
    folder = tmp_path_factory.mktemp("video")
    return tv.board_video(folder / "queen.avi", face, "jaffar", frames=30)


class Table:
    """A camera table: the session, the app with the tablet's teaching and corrections, and
    the camera feeder (run to the video's end by :meth:`watch`)."""

    def __init__(self, session: TableSession, examples_dir: Path, data: Path,
                 video: Path) -> None:
        self.session = session
        self.data = data
        self.decks = data / "decks"
        self.video = video
        self.control = WatchControl()
        self.app: Flask = make_app(session, examples_dir)
        enable(self.app, CameraTeaching(self.control, self.decks))
        self.client: FlaskClient = self.app.test_client()

    def watch(self) -> None:
        opts = PlayOptions(mode="video", campaign=None, data=self.data, video=self.video)
        feeder = threading.Thread(target=feed_camera,
                                  args=(self.session, opts, threading.Event(), self.control))
        feeder.start()
        feeder.join(60)
        assert not feeder.is_alive()

    def correct(self, capture: str, body: dict[str, Any], pin: str | None = PIN) -> Any:
        headers = {"X-Table-PIN": pin} if pin else {}
        return self.client.post(f"/api/captures/{capture}/correct", json=body,
                                headers=headers)

    def files(self) -> dict[str, bytes]:
        if not self.decks.exists():
            return {}
        return {p.name: p.read_bytes() for p in sorted(self.decks.iterdir())}


def test_an_unread_card_put_right_on_the_tablet_is_read_next_time(
        tmp_path: Path, session: TableSession, examples_dir: Path, queen_video: Path) -> None:
    table = Table(session, examples_dir, tmp_path / "data", queen_video)
    start_id = session.state_id
    table.watch()

    # The camera saw a card it could not read: the table asks which card it is, with the
    # camera's picture of it, and nothing moved in the game.
    questions = table.client.get("/api/questions").get_json()["questions"]
    asked = [q for q in questions if q.get("capture")]
    assert len(asked) == 1, questions
    question = asked[0]
    assert question["kind"] == "card" and "cannot read" in question["text"]
    assert "Jaffar's pile" in question["text"]
    capture = question["capture"]
    assert session.state_id == start_id and session.applied_lines() == []
    listed = table.client.get("/api/captures").get_json()
    assert listed["camera"] is True and listed["profile"] is None
    assert listed["suggested_deck"] == "table"
    assert [c["id"] for c in listed["captures"]] == [capture]
    assert listed["captures"][0]["card"] is None
    assert listed["captures"][0]["zone"] == "jaffar"
    picture = table.client.get(f"/api/captures/{capture}/image")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert picture.data[:2] == b"\xff\xd8"
    assert table.client.get("/api/captures/c999/image").status_code == 404

    # Garbage, and requests that cannot be learnt, get a clear JSON error and change nothing.
    good = {"state_id": start_id, "card": "QS"}
    bad: list[tuple[str, dict[str, Any], str | None, int, str]] = [
        (capture, good, None, 403, "PIN"),
        (capture, good, "0000", 403, "wrong PIN"),
        (capture, {"state_id": start_id}, PIN, 400, "\"card\""),
        (capture, {"state_id": start_id, "card": "ZZ"}, PIN, 400, "\"card\""),
        (capture, {"state_id": start_id, "card": 12}, PIN, 400, "\"card\""),
        (capture, {"card": "QS"}, PIN, 400, "state_id"),
        (capture, {**good, "learn": "yes"}, PIN, 400, "\"learn\""),
        (capture, {**good, "deck": "../../etc"}, PIN, 400, "deck name"),
        (capture, {**good, "deck": 7}, PIN, 400, "\"deck\""),
        ("c999", good, PIN, 404, "no picture"),
        (capture, {**good, "state_id": start_id + 5}, PIN, 409, "stale"),
        # No deck profile is active: the answer says so and offers to start one.
        (capture, good, PIN, 409, "no deck profile is active"),
    ]
    for cap, body, pin, status, words in bad:
        answer = table.correct(cap, body, pin)
        assert answer.status_code == status, (body, answer.get_json())
        assert words in answer.get_json()["error"], answer.get_json()
    no_profile = table.correct(capture, good).get_json()
    assert no_profile["profile"] is None and no_profile["suggested_deck"] == "table"
    not_json = table.client.post(f"/api/captures/{capture}/correct", data=b"{nope",
                                 headers={"X-Table-PIN": PIN,
                                          "Content-Type": "application/json"})
    assert not_json.status_code == 400 and "not valid JSON" in not_json.get_json()["error"]
    # A broken profile file named as the active deck: a clear message, the file untouched.
    table.decks.mkdir(parents=True)
    (table.decks / "table.profile").write_bytes(b"PK\x03\x04 half a zip")
    (table.decks / "active").write_text("table\n")
    before = table.files()
    broken = table.correct(capture, good)
    assert broken.status_code == 409, broken.get_json()
    assert "not a readable deck profile" in broken.get_json()["error"]
    assert table.files() == before
    (table.decks / "table.profile").unlink()
    (table.decks / "active").unlink()
    # None of it changed the game, the question or the profiles.
    assert session.state_id == start_id and session.applied_lines() == []
    assert table.files() == {}
    assert [q["id"] for q in session.questions()] == [question["id"]]

    # The player says it is the queen of spades and starts remembering this deck.
    fixed = table.correct(capture, {**good, "deck": "table"})
    assert fixed.status_code == 200, fixed.get_json()
    body = fixed.get_json()
    assert body["correction"] == {
        "capture": capture, "card": "QS", "card_name": "queen of spades", "read": None,
        "zone": "jaffar", "game": "placed", "learned": True,
        "note": "Learned: the queen of spades", "deck": "table",
        "profile": str(table.decks / "table.profile"), "created": True, "samples": 1}
    # The game goes on with it (Jaffar played it), and the question is answered.
    assert session.applied_lines() == [{"jaffar": ["QS"]}]
    assert body["state_id"] == session.state_id > start_id
    assert session.questions() == []
    assert "Learned: the queen of spades." in body["view"]["narration"]
    # The profile on disk has it, and it is the table's deck from now on.
    profile_file = table.decks / "table.profile"
    assert DeckProfile.load(profile_file).cards == ["QS"]
    assert (table.decks / "active").read_text().strip() == "table"
    size_after_one = profile_file.stat().st_size
    listed = table.client.get("/api/captures").get_json()
    assert listed["deck"] == "table" and listed["captures"][0]["learned"] == "QS"

    # The camera sees the same card again: with the learnt deck it reads the queen of spades
    # (no question any more), and that reading is the card already played, not a new move.
    table.watch()
    assert table.control.profile is not None and table.control.profile.cards == ["QS"]
    seen = [c for c in table.control.captures() if c.card is not None]
    assert [c.card for c in seen] == ["QS"], [c.to_json() for c in table.control.captures()]
    assert seen[0].zone == "jaffar" and seen[0].confidence >= 0.8
    assert "expected: placed QS jaffar" in session.interpreter.log
    assert session.applied_lines() == [{"jaffar": ["QS"]}]
    assert session.questions() == []

    # Another picture of the same card, confirmed by a player, makes the profile grow.
    state_id = session.state_id
    more = table.correct(seen[0].id, {"state_id": state_id, "card": "QS"})
    assert more.status_code == 200, more.get_json()
    assert more.get_json()["correction"]["game"] == "kept"
    assert more.get_json()["correction"]["created"] is False
    assert DeckProfile.load(profile_file).cards == ["QS", "QS"]
    assert profile_file.stat().st_size > size_after_one
    assert session.applied_lines() == [{"jaffar": ["QS"]}]


def test_corrections_without_a_camera_say_so(client: FlaskClient, session: TableSession) -> None:
    listed = client.get("/api/captures").get_json()
    assert listed["camera"] is False and listed["captures"] == []
    refused = client.post("/api/captures/c1/correct", json={"state_id": session.state_id,
                                                            "card": "QS"},
                          headers={"X-Table-PIN": PIN})
    assert refused.status_code == 409 and "no camera" in refused.get_json()["error"]


# -- the same on the tablet page, in a real browser -------------------------------------------


@pytest.mark.browser
def test_tablet_answers_which_card_and_starts_a_deck(
        tmp_path: Path, session: TableSession, examples_dir: Path, queen_video: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    from web.server import TableServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    table = Table(session, examples_dir, tmp_path / "data", queen_video)
    table.watch()
    capture = next(q["capture"] for q in session.questions() if q.get("capture"))
    with TableServer(table.app) as server, sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            page, errors = tablet_page(browser, server.url + "/")
            box = page.locator(f".question[data-capture='{capture}']")
            expect(box).to_contain_text("cannot read the card on Jaffar's pile")
            # The camera's picture of the card is shown beside the question.
            expect(box.locator("img.question-pic")).to_be_visible()
            assert box.locator("img.question-pic").evaluate("i => i.naturalWidth") > 0
            box.locator(".suit-btn[data-suit='S']").click()
            box.locator(".rank-btn[data-card='QS']").click()
            # No deck is remembered yet: the tablet offers to start one.
            expect(page.locator("#learn-dialog")).to_be_visible()
            expect(page.locator("#learn-start")).to_have_text('Remember this deck ("table")')
            page.locator("#learn-start").click()
            expect(page.locator("#message")).to_have_text(
                "Learned: the queen of spades: the camera will know it next time.")
            expect(page.locator(".question")).to_have_count(0)
            expect(page.locator("#jaffar-last .card[data-card='QS']")).to_be_visible()
            assert errors == []
        finally:
            browser.close()
    assert session.applied_lines() == [{"jaffar": ["QS"]}]
    assert DeckProfile.load(table.decks / "table.profile").cards == ["QS"]
