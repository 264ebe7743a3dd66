"""The table interpreter, driven by table-event files (tests/data/events/): camera events
become the same record lines a person would write, noise is ignored, and what the rules
refuse or the camera doubts becomes a question."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from table_helpers import EVENTS, TINY, open_session

from companion.record import read_lines, replay
from companion.table.errors import MalformedError
from companion.table.runtime import feed_events_file, read_events
from companion.table.session import TableSession

TINY_WIN = Path("/work/shared/examples/tiny-win.jsonl")


def feed(session: TableSession, events: list[dict[str, Any]]) -> None:
    for event in events:
        session.table_event(event)


def until(events: list[dict[str, Any]], t: float) -> list[dict[str, Any]]:
    return [e for e in events if e.get("t", 0) < t]


def after(events: list[dict[str, Any]], t: float) -> list[dict[str, Any]]:
    return [e for e in events if e.get("t", 0) >= t]


def test_a_whole_game_seen_by_the_camera(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed_events_file(s, EVENTS / "tiny-win.jsonl", threading.Event(), fast=True)
    expected = [line for _, line in read_lines(TINY_WIN)[1:]]
    game, state = replay(TINY_WIN)
    assert s.state.result == "sinbad"
    assert s.game.public(s.state) == game.public(state)
    # The same lines, with the paths the camera saw named.
    for got, want in zip(s.applied_lines(), expected, strict=True):
        if "sinbad" in want:
            for card in want["sinbad"].get("cards", []):
                card.setdefault("path", "muscle")
        assert got == want
    # Cards the rules moved (to the bank) were expected: no question, no action.
    assert s.questions() == []
    assert [e.source for e in s.journal.entries(s.game_id)][1:] == ["camera"] * 8
    s.close()


def test_noise_and_corrected_misreads_are_ignored(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed_events_file(s, EVENTS / "noise.jsonl", threading.Event(), fast=True)
    assert s.applied_lines() == [
        {"jaffar": ["3S"]},
        {"sinbad": {"budge": "nudge", "action": "play",
                    "cards": [{"card": "5H", "path": "friends"}]}},
        {"jaffar": ["8C"]},
    ]
    assert s.questions() == []
    s.close()


def test_a_card_waits_for_its_settle_time(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.table_event({"t": 1.0, "event": "placed", "card": "3S", "zone": "jaffar"})
    assert s.applied_lines() == []                   # not settled yet
    s.interpreter.advance(1.5)
    assert s.applied_lines() == []
    s.interpreter.advance(2.1)
    assert s.applied_lines() == [{"jaffar": ["3S"]}]
    s.close()


def test_a_card_the_rules_refuse_becomes_a_question(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    events = read_events(EVENTS / "refused.jsonl")
    feed(s, until(events, 9.0))
    s.interpreter.advance(8.9)
    [q] = s.questions()
    assert "cannot go on the muscle path" in q["text"] and "Take the nine of diamonds" in \
        q["text"]
    assert q["choices"] == ["taken back"] and q["kind"] == "table"
    assert s.applied_lines() == [{"jaffar": ["3S"]}]           # nothing changed silently
    feed(s, [e for e in events if 9.0 <= e["t"] < 15.0])
    s.interpreter.advance(14.9)
    assert s.questions() == []                                  # the card was taken back
    assert s.applied_lines()[-1] == {"sinbad": {"budge": "nudge", "action": "play", "cards": [
        {"card": "QC", "path": "muscle"}]}}
    feed(s, after(events, 15.0))
    s.interpreter.flush()
    [q] = s.questions()
    assert "already in Jaffar's stack" in q["text"]
    count = len(s.applied_lines())
    snap = s.answer(q["id"], "taken back", s.state_id)
    assert snap["view"]["questions"] == [] and len(s.applied_lines()) == count
    s.close()


def test_a_low_confidence_card_becomes_a_question(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    events = read_events(EVENTS / "lowconf.jsonl")
    feed(s, until(events, 6.0))
    s.interpreter.advance(5.9)
    [q] = s.questions()
    assert q["text"] == "Is this the seven of hearts (Jaffar's pile)?"
    assert q["choices"] == ["yes", "no"]
    assert s.applied_lines() == []
    s.answer(q["id"], "yes", s.state_id)
    assert s.applied_lines() == [{"jaffar": ["7H"]}]
    feed(s, [e for e in events if 6.0 <= e["t"] < 9.0])
    s.interpreter.advance(8.9)
    [q] = s.questions()
    assert "two of clubs" in q["text"]
    feed(s, after(events, 9.0))
    s.interpreter.flush()
    assert s.questions() == []
    assert s.applied_lines()[-1] == {"sinbad": {"budge": "nudge", "action": "play", "cards": [
        {"card": "3C", "path": "muscle"}]}}
    s.close()


def test_answering_no_to_a_doubtful_card_ignores_it(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.table_event({"t": 1.0, "event": "placed", "card": "7H", "zone": "jaffar",
                   "confidence": 0.3})
    [q] = s.questions()
    s.answer(q["id"], "no", s.state_id)
    s.interpreter.flush()
    assert s.applied_lines() == [] and s.questions() == []
    s.close()


def test_trade_and_antics(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed_events_file(s, EVENTS / "trade.jsonl", threading.Event(), fast=True)
    assert s.applied_lines() == [
        {"jaffar": ["3S"]},
        {"sinbad": {"budge": "nudge", "action": "trade", "give": "4D", "take": "2H"}},
        {"jaffar": ["6C"]},
        {"sinbad": {"action": "play", "cards": [{"card": "8S"}]}},
    ]
    assert s.questions() == []
    s.close()


def test_a_winning_jaffar_may_stop_after_one_card(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    for line in ({"jaffar": ["3S"]}, {"sinbad": {"budge": "nudge", "action": "draw",
                                                 "count": 2}},
                 {"jaffar": ["5C"]}, {"sinbad": {"action": "draw", "count": 2}}):
        s.apply_line(line, s.state_id)
    s.table_event({"event": "placed", "card": "4H", "zone": "jaffar"})
    assert s.applied_lines()[-1] == {"sinbad": {"action": "draw", "count": 2}}   # waits
    # Sinbad starting to act ends Jaffar's phase with his one card.
    s.table_event({"event": "placed", "card": "QC", "zone": "path:1"})
    assert s.applied_lines()[-2:] == [
        {"jaffar": ["4H"]},
        {"sinbad": {"action": "play", "cards": [{"card": "QC", "path": "muscle"}]}}]
    s.close()


def test_the_tablet_declares_a_draw_with_the_budge_card_on_the_table(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.table_event({"event": "placed", "card": "3S", "zone": "jaffar"})
    s.table_event({"event": "placed", "code": "budge:nudge", "zone": "budge"})
    # The tablet's draw button sends a plain draw line; the Budge card the camera saw joins it.
    s.apply_line({"sinbad": {"action": "draw", "count": 2}}, s.state_id)
    assert s.applied_lines()[-1] == {"sinbad": {"budge": "nudge", "action": "draw",
                                                "count": 2}}
    s.close()


def test_draw_then_play_when_losing(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, [{"event": "placed", "card": "3S", "zone": "jaffar"},
             {"event": "placed", "code": "budge:nudge", "zone": "budge"},
             {"event": "declare", "action": "draw", "count": 1}])
    assert len(s.applied_lines()) == 1                     # waits for the card
    s.table_event({"event": "placed", "card": "TH", "zone": "path:2"})
    assert s.applied_lines()[-1] == {"sinbad": {"budge": "nudge", "action": "draw_play",
                                                "cards": [{"card": "TH", "path": "friends"}]}}
    s.close()


def test_nothing_seen_for_sinbad_asks_what_he_did(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    feed(s, [{"event": "placed", "card": "3S", "zone": "jaffar"},
             {"event": "placed", "code": "budge:nudge", "zone": "budge"},
             {"event": "done"}])
    [q] = s.questions()
    assert "Nothing Sinbad did was seen" in q["text"] and "draw 2" in q["choices"]
    s.answer(q["id"], "draw 2", s.state_id)
    assert s.applied_lines()[-1] == {"sinbad": {"budge": "nudge", "action": "draw",
                                                "count": 2}}
    assert s.questions() == []
    s.close()


def test_a_card_taken_off_a_path_after_it_was_played_asks_to_undo(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    s.apply_line({"sinbad": {"budge": "nudge", "action": "play", "cards": [
        {"card": "QC", "path": "muscle"}]}}, s.state_id)
    s.table_event({"event": "removed", "card": "QC", "zone": "path:1"})
    [q] = s.questions()
    assert "Undo" in q["text"]
    s.answer(q["id"], "undo", s.state_id)
    assert s.applied_lines() == [{"jaffar": ["3S"]}]
    s.close()


@pytest.mark.parametrize("event, words", [
    ("nope", "JSON object"),
    ({"event": "flew"}, "\"event\" is one of"),
    ({"event": "placed", "zone": "bank"}, "\"card\" or a \"code\""),
    ({"event": "placed", "card": "XX", "zone": "bank"}, "not a card code"),
    ({"event": "placed", "card": "QH"}, "\"zone\""),
    ({"event": "placed", "card": "QH", "zone": "bank", "confidence": 3}, "confidence"),
    ({"event": "placed", "card": "QH", "zone": "bank", "t": -1}, "\"t\""),
    ({"event": "declare", "action": "draw", "count": 3}, "1 or 2"),
])
def test_malformed_events_are_refused_clearly(tmp_path: Path, event: object,
                                              words: str) -> None:
    s = open_session(tmp_path)
    with pytest.raises(MalformedError, match=words.replace("(", r"\(")):
        s.table_event(event)
    assert s.applied_lines() == [] and s.questions() == []
    s.close()


def test_events_fed_in_real_time(tmp_path: Path) -> None:
    """Without --fast the feeder waits for each event's time (here at 40x speed)."""
    import time

    s = open_session(tmp_path, TINY)
    started = time.monotonic()
    feed_events_file(s, EVENTS / "trade.jsonl", threading.Event(), speed=40.0)
    elapsed = time.monotonic() - started
    assert 15.0 / 40.0 - 0.05 <= elapsed < 3.0
    assert len(s.applied_lines()) == 4
    s.close()
