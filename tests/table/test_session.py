"""The session: undo/redo as a stack of journaled changes, stale state ids, auto Jaffar,
questions and subscriptions."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from table_helpers import FILM, TINY, comparable, open_session

from companion.sinbad import Phase
from companion.table.demo import DemoConfig, DemoSinbad, demo_step
from companion.table.errors import (
    MalformedError,
    NotFoundError,
    RuleRefusedError,
    StaleStateError,
)
from companion.table.session import TableSession


def test_undo_of_apply_is_identity_over_a_whole_game(tmp_path: Path) -> None:
    """undo(apply(s)) == s and redo(undo(apply(s))) == apply(s), at every step of a game of
    the film campaign (seeded), deep enough to cross the session's checkpoints."""
    s = open_session(tmp_path, FILM, seed=11)
    sinbad = DemoSinbad(random.Random(3))
    history = [comparable(s.snapshot())]
    for _ in range(120):
        before = comparable(s.snapshot())
        if not demo_step(s, sinbad, DemoConfig()):
            break
        after = comparable(s.snapshot())
        assert comparable(s.undo(s.state_id)) == before
        assert comparable(s.redo(s.state_id)) == after
        history.append(after)
    # Walk all the way back, then all the way forward again.
    for expected in reversed(history[:-1]):
        assert comparable(s.undo(s.state_id)) == expected
    with pytest.raises(RuleRefusedError, match="nothing to undo"):
        s.undo(s.state_id)
    for expected in history[1:]:
        assert comparable(s.redo(s.state_id)) == expected
    with pytest.raises(RuleRefusedError, match="nothing to redo"):
        s.redo(s.state_id)
    s.close()


def test_a_new_action_clears_the_redo_stack(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    s.undo(s.state_id)
    assert s.snapshot()["view"]["can_redo"]
    s.apply_line({"jaffar": ["4S"]}, s.state_id)
    assert not s.snapshot()["view"]["can_redo"]
    with pytest.raises(RuleRefusedError):
        s.redo(s.state_id)
    s.close()
    again = TableSession.open(tmp_path)          # the journal agrees
    assert not again.snapshot()["view"]["can_redo"]
    assert again.applied_lines() == [{"jaffar": ["4S"]}]
    again.close()


def test_stale_state_id_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    old = s.state_id
    s.apply_line({"jaffar": ["3S"]}, old)
    count = s.journal.entry_count()
    snap = s.snapshot()
    for call in (lambda: s.apply_line({"jaffar": ["4S"]}, old), lambda: s.undo(old),
                 lambda: s.redo(old), lambda: s.auto_jaffar(old)):
        with pytest.raises(StaleStateError) as info:
            call()
        assert info.value.status == 409
        assert info.value.current_state_id == s.state_id == old + 1
        assert info.value.body()["state_id"] == old + 1
        assert "expected 2" in info.value.reason
    assert s.journal.entry_count() == count and s.snapshot() == snap
    with pytest.raises(MalformedError):
        s.apply_line({"jaffar": ["4S"]}, True)     # type: ignore[arg-type]
    s.close()


@pytest.mark.parametrize("line, error, status", [
    ({"jaffar": "3S"}, MalformedError, 400),
    ({"sinbad": {"action": "fly"}}, MalformedError, 400),
    ("not a line", MalformedError, 400),
    ({"jaffar": ["ZZ"]}, MalformedError, 400),
    ({"sinbad": {"action": "draw", "count": 2}}, RuleRefusedError, 422),   # Jaffar first (S4)
    ({"jaffar": ["3S", "4S"]}, RuleRefusedError, 422),                     # Losing: 1 (S7)
])
def test_bad_lines_are_refused_and_nothing_changes(tmp_path: Path, line: object,
                                                   error: type, status: int) -> None:
    s = open_session(tmp_path)
    snap, count = s.snapshot(), s.journal.entry_count()
    with pytest.raises(error) as info:
        s.apply_line(line, s.state_id)
    assert info.value.status == status and info.value.reason
    assert s.snapshot() == snap and s.journal.entry_count() == count
    s.close()


def test_refusal_names_the_ruling(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    with pytest.raises(RuleRefusedError) as info:
        s.apply_line({"sinbad": {"action": "draw", "count": 2}}, s.state_id)
    assert info.value.ruling == "S8a" and "Budge" in info.value.reason
    s.close()


def test_auto_jaffar_plays_by_the_scoreboard_from_a_seeded_deck(tmp_path: Path) -> None:
    lines = []
    for _ in range(2):
        s = open_session(tmp_path / f"g{_}", seed=42)
        s.auto_jaffar(s.state_id)
        lines.append(s.applied_lines())
        s.close()
    assert lines[0] == lines[1] and len(lines[0][0]["jaffar"]) == 1     # seeded; Losing: 1
    s = open_session(tmp_path / "long", FILM, seed=5)
    sinbad = DemoSinbad(random.Random(1))
    seen_winning = False
    for _ in range(400):
        state = s.state
        if state.phase is Phase.OVER:
            break
        if state.phase is not Phase.JAFFAR:
            demo_step(s, sinbad, DemoConfig())
            continue
        stack, deck = {c.code for c in state.jaffar_stack}, state.jaffar_deck
        allowed = s.snapshot()["view"]["jaffar_cards"]
        snap = s.auto_jaffar(s.state_id)
        played = snap["jaffar_last"]
        # The cards drawn before his deck runs out are never ones in his stack; after a
        # reshuffle (S7) the stack is his deck again.
        assert not set(played[:deck]) & stack
        assert len(set(played)) == len(played)
        assert len(played) == allowed[1]           # a computer Jaffar plays all he may
        if snap["scoreboard"] == "winning" and not s.state.now.jaffar_skip:
            seen_winning = True
            assert len(played) >= 2
    assert seen_winning
    # His deck ran out at least once and was reshuffled from his stack.
    total = sum(len(x["jaffar"]) for x in s.applied_lines() if "jaffar" in x)
    assert total > 52
    if s.state.phase is Phase.SINBAD:
        with pytest.raises(RuleRefusedError, match="Sinbad's phase"):
            s.auto_jaffar(s.state_id)
    s.close()


def test_questions_ask_answer_and_lines(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    with pytest.raises(MalformedError):
        s.ask({"text": "", "choices": ["a"]})
    with pytest.raises(MalformedError):
        s.ask({"text": "Which?", "choices": []})
    s.ask({"text": "Did Jaffar play the 3 of spades?", "choices": ["yes", "no"],
           "lines": {"yes": {"jaffar": ["3S"]}}})
    [q] = s.questions()
    assert q["choices"] == ["yes", "no"] and q["kind"] == "question"
    assert s.snapshot()["view"]["questions"] == [q]
    with pytest.raises(MalformedError):
        s.answer(q["id"], "maybe", s.state_id)
    with pytest.raises(NotFoundError):
        s.answer("q999", "yes", s.state_id)
    with pytest.raises(StaleStateError):
        s.answer(q["id"], "yes", s.state_id - 1)
    snap = s.answer(q["id"], "yes", s.state_id)
    assert snap["jaffar_last"] == ["3S"] and s.questions() == []
    s.close()


def test_subscribers_get_state_say_and_questions(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    sub = s.subscribe()
    first = sub.get(1)
    assert first is not None and first[0] == "state"
    got: list[tuple[str, dict]] = []
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            item = sub.get(0.2)
            if item:
                got.append(item)

    t = threading.Thread(target=reader)
    t.start()
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    s.ask({"text": "Ready?", "choices": ["yes"]})
    deadline = threading.Event()
    for _ in range(50):
        if {"state", "say", "question"} <= {e for e, _ in got}:
            break
        deadline.wait(0.05)
    done.set()
    t.join()
    kinds = {e for e, _ in got}
    assert {"state", "say", "question"} <= kinds
    says = [d["text"] for e, d in got if e == "say"]
    assert any("Histrionics" in x for x in says)
    states = [d for e, d in got if e == "state"]
    assert states[-1]["state_id"] == s.state_id
    sub.close()
    assert s.subscriber_count() == 0
    assert sub.get(0.01) is None
    s.close()


def test_a_subscriber_that_never_reads_stays_bounded(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    lazy = s.subscribe()
    for i in range(200):
        s.say(f"line {i}")
    assert lazy.pending() == s.config.subscriber_queue
    assert lazy.dropped > 0
    # The newest events are the ones kept: the last state is never lost.
    items = [lazy.get(0) for _ in range(lazy.pending())]
    assert items[-1] is not None and items[-1][0] == "state"
    assert items[-1][1]["view"]["narration"][-1] == "line 199"
    lazy.close()
    s.close()


def test_view_for_the_tablet(tmp_path: Path) -> None:
    s = open_session(tmp_path)
    view = s.snapshot()["view"]
    assert view["scenario"] == {"id": "gate", "title": "The Gate of Basra"}
    assert view["challenge"] is None and view["next_challenge"] == "The Locked Gate"
    assert view["budge"][0]["id"] == "nudge" and view["budge"][0]["effects"] == ["sleep +1"]
    assert view["phase"] == "jaffar" and view["jaffar_cards"] == [1, 1]
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    view = s.snapshot()["view"]
    assert view["budge_due"] and view["sinbad_actions"] == ["draw", "play", "trade",
                                                            "draw_play"]
    s.apply_line({"sinbad": {"budge": "nudge", "action": "play",
                             "cards": [{"card": "QC", "path": "muscle"}]}}, s.state_id)
    snap = s.snapshot()
    view = snap["view"]
    assert snap["game"] == "sinbad" and snap["state_id"] == s.state_id
    assert view["challenge"]["title"] == "The Locked Gate"
    muscle = view["paths"][0]
    assert muscle == {"id": "muscle", "need": ["muscle", "muscle"], "cards": ["QC"],
                      "flavor": ["Sinbad flexes at the gate."], "next": "muscle",
                      "done": False}
    assert "Sinbad flexes at the gate." in view["narration"]
    assert view["can_undo"] and not view["can_redo"] and view["jaffar_last"] == ["3S"]
    assert len(view["narration"]) <= 20
    s.close()


def test_winning_jaffar_range_accounts_for_the_turn_start(tmp_path: Path) -> None:
    """At the start of turn 3 of a challenge Jaffar becomes Winning (S6) before he plays: the
    tablet must offer him 1 or 2 cards, though the scoreboard still reads Losing."""
    s = open_session(tmp_path)
    for line in ({"jaffar": ["3S"]},
                 {"sinbad": {"budge": "nudge", "action": "draw", "count": 2}},
                 {"jaffar": ["5C"]}, {"sinbad": {"action": "draw", "count": 2}}):
        s.apply_line(line, s.state_id)
    snap = s.snapshot()
    assert snap["scoreboard"] == "losing" and snap["view"]["jaffar_cards"] == [1, 2]
    snap = s.auto_jaffar(s.state_id)
    assert len(snap["jaffar_last"]) == 2 and snap["scoreboard"] == "winning"
    s.close()


def test_resume_picks_the_named_campaign_or_starts_it(tmp_path: Path) -> None:
    s = open_session(tmp_path, TINY)
    s.apply_line({"jaffar": ["3S"]}, s.state_id)
    first = s.game_id
    s.close()
    film = TableSession.open(tmp_path, FILM)
    assert film.game_id != first and film.state.turn == 0
    film.close()
    tiny = TableSession.open(tmp_path, TINY)
    assert tiny.game_id == first and tiny.state.turn == 1
    tiny.close()
