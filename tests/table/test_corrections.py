"""A player puts right what the camera read, during a game (``TableSession.correct_reading``,
which ``POST /api/captures/<id>/correct`` calls): a doubtful reading, a card the camera could
not read, a wrong card the camera already played, and a camera line the tablet undid. The
game goes on with the right card, and the camera reading that card again later is no new
move. Real sessions on a real SQLite journal; the events are what ``vision.watch`` sends when
it keeps pictures (``"capture"``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_helpers import open_session

from companion.cards import Card
from companion.table.errors import MalformedError, StaleStateError
from companion.table.session import TableSession


def feed(session: TableSession, *events: dict[str, Any]) -> None:
    for event in events:
        session.table_event(event)


def placed(t: float, card: str, zone: str, capture: str, confidence: float = 0.95
           ) -> dict[str, Any]:
    return {"t": t, "event": "placed", "card": card, "zone": zone, "confidence": confidence,
            "capture": capture}


def test_a_doubtful_reading_answered_with_the_real_card(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, placed(1.0, "7H", "jaffar", "c1", confidence=0.5))
    (question,) = s.questions()
    assert question["text"].startswith("Is this the seven of hearts")
    assert question["capture"] == "c1" and question["choices"] == ["yes", "no"]
    snap = s.correct_reading(s.state_id, Card.from_code("QS"), "jaffar", "7H", "c1")
    assert snap["outcome"] == "placed"
    assert s.applied_lines() == [{"jaffar": ["QS"]}]
    assert s.questions() == []
    # The camera, now reading it right, and the wrong reading leaving: no new move.
    feed(s, {"t": 3.0, "event": "removed", "card": "7H", "zone": "jaffar"},
         placed(3.0, "QS", "jaffar", "c2"))
    s.interpreter.flush()
    assert s.applied_lines() == [{"jaffar": ["QS"]}]
    assert s.questions() == []
    s.close()


def test_an_unread_card_is_asked_about_until_it_leaves(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, {"t": 1.0, "event": "unread", "zone": "path:1", "capture": "c4"})
    (question,) = s.questions()
    assert question["kind"] == "card" and question["capture"] == "c4"
    assert question["text"] == ("The camera cannot read the card on path 1. "
                                "Which card is it?")
    feed(s, {"t": 2.0, "event": "unread", "zone": "path:1", "capture": "c4", "gone": True})
    assert s.questions() == []
    # Off the board, an unreadable card is nobody's move: no question.
    feed(s, {"t": 3.0, "event": "unread", "zone": "table", "capture": "c5"})
    assert s.questions() == []
    for bad in ({"event": "unread", "zone": "path:1"},
                {"event": "unread", "zone": "path:1", "capture": "c6", "gone": "yes"},
                {"event": "placed", "card": "QS", "zone": "jaffar", "capture": 12}):
        with pytest.raises(MalformedError):
            s.table_event(bad)
    assert s.questions() == [] and s.applied_lines() == []
    s.close()


def test_a_wrong_card_the_camera_played_is_replayed_right(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, placed(1.0, "7H", "jaffar", "c1"), {"t": 3.0, "event": "done"})
    assert s.applied_lines() == [{"jaffar": ["7H"]}]
    snap = s.correct_reading(s.state_id, Card.from_code("QS"), "jaffar", "7H", "c1")
    assert snap["outcome"] == "replayed"
    assert s.applied_lines() == [{"jaffar": ["QS"]}]
    sources = [(e.kind, e.source) for e in s.journal.entries(s.game_id)][1:]
    assert sources == [("line", "camera"), ("undo", "correction"), ("line", "camera")]
    feed(s, {"t": 5.0, "event": "removed", "card": "7H", "zone": "jaffar"},
         placed(5.0, "QS", "jaffar", "c3"))
    s.interpreter.flush()
    assert s.applied_lines() == [{"jaffar": ["QS"]}] and s.questions() == []
    # A stale state changes nothing.
    with pytest.raises(StaleStateError):
        s.correct_reading(s.state_id - 1, Card.from_code("KS"), "jaffar", "QS", "c1")
    assert s.applied_lines() == [{"jaffar": ["QS"]}]
    s.close()


def test_undoing_a_camera_line_asks_which_card_was_misread(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, placed(1.0, "3S", "jaffar", "c1"), {"t": 2.0, "event": "done"},
         {"t": 4.0, "event": "placed", "code": "budge:nudge", "zone": "budge"},
         placed(5.0, "QC", "path:1", "c2"), {"t": 8.0, "event": "done"})
    played = {"sinbad": {"budge": "nudge", "action": "play",
                         "cards": [{"card": "QC", "path": "muscle"}]}}
    assert s.applied_lines() == [{"jaffar": ["3S"]}, played]
    s.undo(s.state_id)
    (question,) = s.questions()
    assert question["capture"] == "c2" and question["choices"] == ["it was right"]
    assert "misread the queen of clubs (path 1)" in question["text"]
    snap = s.correct_reading(s.state_id, Card.from_code("KC"), "path:1", "QC", "c2")
    assert snap["outcome"] == "replayed"
    played["sinbad"]["cards"] = [{"card": "KC", "path": "muscle"}]
    assert s.applied_lines() == [{"jaffar": ["3S"]}, played]
    assert s.questions() == []
    s.close()
