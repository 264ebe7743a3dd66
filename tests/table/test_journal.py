"""The journal: append-only SQLite, the fold, resuming, several games, export (companion play's
state must survive anything)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from table_helpers import COMPANION, TINY, comparable, open_session

from companion.record import replay
from companion.table.errors import JournalError, MalformedError, NotFoundError
from companion.table.journal import Entry, Journal, fold_lines
from companion.table.session import TableSession

MIDGAME = [
    {"jaffar": ["3S"]},
    {"sinbad": {"budge": "nudge", "action": "play", "cards": [{"card": "QC", "path": "muscle"}]}},
    {"jaffar": ["5C"]},
    {"sinbad": {"action": "draw", "count": 2}},
    {"jaffar": ["4H", "9D"]},
]


def play(session: TableSession, lines: list[dict]) -> None:
    for line in lines:
        session.apply_line(line, session.state_id)


def test_journal_uses_wal_and_full_sync(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    try:
        conn = journal._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2      # FULL
    finally:
        journal.close()


def test_round_trip_resumes_the_same_state(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME)
    before, state_id = s.snapshot(), s.state_id
    s.close()
    again = TableSession.open(tmp_path)
    try:
        assert again.state_id == state_id
        assert comparable(again.snapshot()) == comparable(before)
        assert again.applied_lines() == MIDGAME
        # The narration is rebuilt from the journal too.
        assert again.snapshot()["view"]["narration"] == before["view"]["narration"]
    finally:
        again.close()


def test_state_is_the_fold_of_the_journal(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME)
    s.undo(s.state_id)
    s.undo(s.state_id)
    s.redo(s.state_id)
    entries = list(s.journal.entries(s.game_id))
    assert [e.kind for e in entries] == ["start"] + ["line"] * 5 + ["undo", "undo", "redo"]
    assert [e.state_id for e in entries] == list(range(1, 10))      # one id per change
    fold = fold_lines(iter(entries))
    assert list(fold.applied) == MIDGAME[:4]
    assert list(fold.redo) == [MIDGAME[4]]
    assert fold.last_state_id == s.state_id == 9
    s.close()


def test_fold_rules() -> None:
    def e(i: int, kind: str, line: object = None) -> Entry:
        return Entry(i, kind, line, "", 0.0)

    fold = fold_lines(iter([e(1, "start"), e(2, "line", "a"), e(3, "line", "b"),
                            e(4, "undo"), e(5, "line", "c"), e(6, "undo"), e(7, "redo")]))
    assert fold.applied == ("a", "c") and fold.redo == ()   # a new line cleared the redo
    with pytest.raises(JournalError, match="undo with nothing"):
        fold_lines(iter([e(1, "start"), e(2, "undo")]))


def test_undo_appends_and_nothing_is_ever_deleted(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME)
    count = s.journal.entry_count()
    for _ in range(5):
        s.undo(s.state_id)
    assert s.journal.entry_count() == count + 5
    conn = sqlite3.connect(tmp_path / Journal.FILE_NAME)
    lines = [json.loads(r[0]) for r in conn.execute(
        "SELECT line FROM entries WHERE kind='line' ORDER BY id")]
    conn.close()
    assert lines == MIDGAME
    s.close()


def test_several_games_resume_any(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME[:2])
    first = s.game_id
    second = s.new_game(TINY, title="Second", seed=3)
    play(s, MIDGAME[:1])
    assert s.game_id == second
    games = s.list_games()
    assert [g["id"] for g in games] == [first, second]
    assert [g["turn"] for g in games] == [1, 1]
    assert games[1]["title"] == "Second" and games[1]["current"]
    before = s.state_id
    s.switch(first)
    assert s.applied_lines() == MIDGAME[:2]
    # A switch is journaled ("resume"): state ids keep rising for the tablets.
    assert s.state_id == before + 1
    assert s.snapshot()["state_id"] == s.state_id and s.snapshot()["game_id"] == first
    s.apply_line(MIDGAME[2], s.state_id)
    s.close()
    # The most recently changed game is the one resumed; any can be named.
    again = TableSession.open(tmp_path)
    assert again.game_id == first and again.applied_lines() == MIDGAME[:3]
    again.close()
    named = TableSession.open(tmp_path, game_id=second)
    assert named.applied_lines() == MIDGAME[:1]
    with pytest.raises(NotFoundError):
        named.switch(99)
    assert named.game_id == second            # a failed switch changes nothing
    named.close()


def test_new_game_is_refused_clearly_for_a_bad_campaign(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("id = 'x'\nscenarios = ['nope.toml']\n")
    with pytest.raises(MalformedError, match="nope.toml"):
        TableSession.open(tmp_path / "data", bad)
    with pytest.raises(MalformedError, match="no saved game"):
        TableSession.open(tmp_path / "empty")


def test_export_replays_to_the_same_state(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME)
    s.undo(s.state_id)
    s.apply_line({"jaffar": ["4H"]}, s.state_id)      # Winning: he may stop after 1
    record = tmp_path / "game.jsonl"
    record.write_text(s.export_record())
    game, state = replay(record)
    assert game.public(state) == {k: v for k, v in s.snapshot().items()
                                  if k in game.public(state)}
    # And through the command line, as a person would.
    out = subprocess.run([*COMPANION, "replay", str(record)], capture_output=True, text=True,
                         check=True)
    printed = json.loads(out.stdout)
    assert all(printed[k] == s.snapshot()[k] for k in printed)
    s.close()


def test_games_and_export_commands(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    play(s, MIDGAME)
    s.new_game(TINY, seed=1)
    s.close()
    listed = subprocess.run([*COMPANION, "games", "--data", str(tmp_path)],
                            capture_output=True, text=True, check=True).stdout
    assert "A Very Short Bedtime Story" in listed and "  1" in listed and "  2*" in listed
    out = tmp_path / "one.jsonl"
    done = subprocess.run([*COMPANION, "export", "--data", str(tmp_path), "--game", "1",
                           str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["campaign"] == str(TINY) and lines[1:] == MIDGAME
    replayed = subprocess.run([*COMPANION, "replay", str(out)], capture_output=True,
                              text=True, check=True)
    assert json.loads(replayed.stdout)["turn"] == 3
    missing = subprocess.run([*COMPANION, "export", "--data", str(tmp_path), "--game", "9",
                              str(out)], capture_output=True, text=True)
    assert missing.returncode == 1 and "no saved game 9" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_a_damaged_journal_is_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / Journal.FILE_NAME).write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="cannot open the journal"):
        TableSession.open(tmp_path, TINY)
    done = subprocess.run([*COMPANION, "games", "--data", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "cannot open the journal" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_game_whose_campaign_changed_is_refused_clearly(tmp_path: Path) -> None:
    campaign = tmp_path / "c.toml"
    campaign.write_text(TINY.read_text())
    (tmp_path / "tiny-gate.toml").write_text((TINY.parent / "tiny-gate.toml").read_text())
    s = open_session(tmp_path / "data", campaign)
    play(s, MIDGAME[:2])
    other = s.new_game(TINY, seed=2)
    # Someone edits the campaign: the Muscle path no longer exists.
    gate = tmp_path / "tiny-gate.toml"
    gate.write_text(gate.read_text().replace('id = "muscle"', 'id = "brawn"'))
    with pytest.raises(JournalError, match="edited"):
        s.switch(1)
    assert s.game_id == other and s.state.turn == 0      # still on the game that works
    s.close()
