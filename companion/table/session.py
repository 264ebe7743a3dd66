"""The live table session: one game at a time, journaled, with undo, redo and questions.

The state a tablet sees is the fold of the journal: on open, the session replays the game's
accepted lines through the rules engine. Every change is committed to the journal (fsync'd)
*before* it is published to subscribers, so what a player has seen survives a ``kill -9``.

Thread-safe: the web server calls in from many threads; one re-entrant lock serialises every
change, and subscribers are fed through bounded queues so a slow reader never grows memory.

>>> from pathlib import Path; import tempfile
>>> s = TableSession.open(Path(tempfile.mkdtemp()), TINY_CAMPAIGN, seed=1)
>>> s.apply_line({"jaffar": ["3S"]}, s.state_id)["turn"]
1
"""

from __future__ import annotations

import itertools
import json
import random
import secrets
import threading
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cards import Card, full_deck
from companion.record import Header
from companion.scenario import Campaign, Challenge, ScenarioError, load_campaign
from companion.sinbad import (
    Game,
    JaffarPlays,
    Note,
    Phase,
    RecordLineError,
    SinbadState,
    action_from_line,
    action_to_line,
)
from companion.table.errors import (
    JournalError,
    MalformedError,
    NotFoundError,
    RuleRefusedError,
    StaleStateError,
    TableError,
)
from companion.table.journal import Fold, Journal, Summary, fold_lines

REPO_ROOT = Path(__file__).resolve().parents[2]
TINY_CAMPAIGN = Path("/work/shared/examples/tiny-campaign.toml")


@dataclass(frozen=True)
class SessionConfig:
    """Tunables of the session (memory bounds, mostly)."""

    narration_lines: int = 20        # the tablet shows the last lines of narration
    subscriber_queue: int = 64       # events kept for a slow subscriber; older ones drop
    max_questions: int = 16          # open questions kept; the oldest is dropped beyond
    checkpoint_every: int = 32       # undo replays at most this many lines from a checkpoint
    recent_states: int = 16          # states kept for the most recent lines (quick undo)
    max_jaffar_probe: int = 6        # most cards a Jaffar phase can ask for (2 + extras)


DEFAULT_CONFIG = SessionConfig()


# ---------------------------------------------------------------------------------------------
# Subscriptions


class Subscription:
    """A subscriber's queue of ``(event, data)``: ``state``, ``say`` or ``question``.

    Bounded: when the reader falls behind, the oldest events are dropped (``dropped`` counts
    them). Every ``state`` event carries the whole state, so a reader who lost some still ends
    up showing the latest.
    """

    def __init__(self, owner: TableSession, maxlen: int) -> None:
        self._owner = owner
        self._queue: deque[tuple[str, dict[str, Any]]] = deque(maxlen=maxlen)
        self._cond = threading.Condition()
        self.dropped = 0
        self.closed = False

    def put(self, event: str, data: dict[str, Any]) -> None:
        with self._cond:
            if self.closed:
                return
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append((event, data))
            self._cond.notify()

    def get(self, timeout: float | None = None) -> tuple[str, dict[str, Any]] | None:
        """The next event, or None after ``timeout`` seconds (or once closed)."""
        with self._cond:
            if not self._queue and not self.closed:
                self._cond.wait(timeout)
            if self._queue:
                return self._queue.popleft()
            return None

    def pending(self) -> int:
        with self._cond:
            return len(self._queue)

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._queue.clear()
            self._cond.notify_all()
        self._owner._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------------------------
# Questions


@dataclass(frozen=True)
class Question:
    """Something the table asks a player. ``resolve`` (internal) runs with the chosen answer;
    ``lines`` (from :meth:`TableSession.ask`) maps a choice to a record line to apply."""

    id: str
    text: str
    choices: tuple[str, ...]
    kind: str = "question"
    lines: Mapping[str, Any] = field(default_factory=dict)
    resolve: Callable[[str], None] | None = None
    tag: str = ""                          # lets the interpreter find and close its questions
    capture: str = ""                      # the camera's picture the question is about

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "text": self.text, "choices": list(self.choices),
                               "kind": self.kind}
        if self.capture:
            # The tablet may answer with the real card instead (POST /api/captures/<id>/correct).
            out["capture"] = self.capture
        return out


# ---------------------------------------------------------------------------------------------
# Rule helpers shared with the interpreter and the demo


def virtual_jaffar_cards(seed: int, state: SinbadState, played_total: int, count: int,
                         avoid: Collection[Card] = ()) -> list[Card]:
    """The next ``count`` cards of Jaffar's virtual deck: a permutation seeded by the game's
    seed and by how many times his stack was reshuffled, skipping the cards in his stack.

    Follows S7's reshuffle: when his deck is empty, his stack becomes the new deck. Cards in
    ``avoid`` were already played this phase (seen on the table, not yet in the state): the
    deck goes on after them.
    """
    stack = set(state.jaffar_stack)
    deck = state.jaffar_deck
    played = played_total
    for card in avoid:
        if deck == 0:
            deck, stack = len(stack), set()
        stack.add(card)
        deck -= 1
        played += 1
    chosen: list[Card] = []
    for _ in range(count):
        if deck == 0:
            deck, stack = len(stack), set()
        cycle = played // 52
        order = list(full_deck())
        random.Random(f"{seed}:{cycle}").shuffle(order)
        # Not one he played this very phase either: a reshuffle mid-phase (S7) could deal
        # it again, but a player would think the table misread it.
        card = next(c for c in order if c not in stack and c not in chosen
                    and c not in avoid)
        chosen.append(card)
        stack.add(card)
        deck -= 1
        played += 1
    return chosen


def jaffar_counts(game: Game, state: SinbadState, filler: list[Card]) -> tuple[int, ...]:
    """How many cards Jaffar may play in the phase that comes next, found by asking the
    engine itself (the turn start may change the scoreboard, S6, before his phase)."""
    if state.phase is not Phase.JAFFAR:
        return ()
    return tuple(k for k in range(len(filler) + 1)
                 if game.apply(state, JaffarPlays(tuple(filler[:k]))).ok)


def describe_line(line: Any) -> str:
    """A short human description of a record line, for narration and logs."""
    try:
        action = action_from_line(line)
    except RecordLineError:
        return json.dumps(line)
    if isinstance(action, JaffarPlays):
        return ("Jaffar plays " + " ".join(c.code for c in action.cards)) if action.cards \
            else "Jaffar skips"
    body = action_to_line(action)["sinbad"]
    what = body["action"]
    words = {"draw": f"Sinbad draws {body.get('count', 1)}", "pass": "Sinbad passes",
             "trade": f"Sinbad trades {body.get('give')} for {body.get('take')}"}
    text = words.get(what) or ("Sinbad " + ("draws and plays " if what == "draw_play"
                                            else "plays ")
                               + " ".join(c["card"] for c in body.get("cards", [])))
    if "budge" in body:
        text = f"Budge card {body['budge']}; {text}"
    return text


def _check_state_id(given: object, current: int) -> None:
    if not isinstance(given, int) or isinstance(given, bool):
        raise MalformedError(f"\"state_id\" must be a whole number (got {given!r})")
    if given != current:
        raise StaleStateError(given, current)


# ---------------------------------------------------------------------------------------------
# The session


class TableSession:
    """One data folder's journal and the game being played from it."""

    def __init__(self, journal: Journal, config: SessionConfig = DEFAULT_CONFIG) -> None:
        self.journal = journal
        self.config = config
        self._lock = threading.RLock()
        self._subscribers: set[Subscription] = set()
        self._questions: dict[str, Question] = {}
        self._question_ids = itertools.count(1)
        self._interpreter: Any = None   # companion.table.interpreter.TableInterpreter
        self._reset_game_fields()

    def _reset_game_fields(self) -> None:
        self.game_id = 0
        self.title = ""
        self.campaign_path = ""
        self.rules: dict[str, Any] = {}
        self.seed = 0
        self.game: Game | None = None
        self.state_id = 0
        self._start: SinbadState | None = None
        self._state: SinbadState | None = None
        self._applied: list[Any] = []
        self._redo: list[Any] = []
        self._checkpoints: dict[int, SinbadState] = {}
        self._narration: deque[str] = deque(maxlen=self.config.narration_lines)
        self._snapshot: dict[str, Any] | None = None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path, campaign: Path | None = None, *, game_id: int | None = None,
             rules: dict[str, Any] | None = None, new: bool = False, title: str | None = None,
             seed: int | None = None, config: SessionConfig = DEFAULT_CONFIG) -> TableSession:
        """Open the journal in ``data_dir`` and resume a game, or start one.

        Resumes ``game_id``; else the newest game of ``campaign`` (when a campaign is named)
        or the newest game of all; starts a new game when there is none, or when ``new``.
        """
        session = cls(Journal.open(Path(data_dir)), config)
        try:
            if game_id is not None and not new:
                session._load(game_id)
                return session
            target: int | None = None
            if not new:
                target = session._resume_target(campaign)
            if target is None:
                if campaign is None:
                    raise MalformedError("there is no saved game to resume: name a campaign "
                                         "file to start one")
                session.new_game(campaign, rules=rules, title=title, seed=seed)
            else:
                session._load(target)
        except BaseException:
            session.close()
            raise
        return session

    def _resume_target(self, campaign: Path | None) -> int | None:
        if campaign is None:
            return self.journal.latest_game()
        wanted = str(Path(campaign).expanduser().resolve())
        rows = [g for g in self.journal.games() if g.campaign == wanted]
        if not rows:
            return None
        return max(rows, key=lambda g: g.last_state_id).id

    def close(self) -> None:
        with self._lock:
            for sub in list(self._subscribers):
                sub.close()
            self.journal.close()

    # -- games -----------------------------------------------------------------------------

    def new_game(self, campaign: Path, *, rules: dict[str, Any] | None = None,
                 title: str | None = None, seed: int | None = None) -> int:
        """Start a new game of ``campaign`` (journaled) and make it the current one."""
        path = Path(campaign).expanduser().resolve()
        loaded, game = _load_game(path, rules or {})
        if seed is None:
            seed = secrets.randbelow(2**31)
        start = game.initial_state()
        name = title or loaded.title
        with self._lock:
            game_id, state_id = self.journal.create_game(
                name, str(path), dict(rules or {}), seed, _summary(game, start))
            self._install(game_id, name, str(path), dict(rules or {}), seed, game, start,
                          Fold((), (), state_id))
            self._publish_state()
        return game_id

    def switch(self, game_id: int) -> None:
        """Make a saved game the current one (replaying its journal).

        Switching away from the game played last journals a ``resume`` entry, so that the
        state id tablets see keeps rising (and a restart resumes this game)."""
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            raise MalformedError(f"a game is named by its number (got {game_id!r})")
        with self._lock:
            previous = self.game_id
            try:
                self._load(game_id)
            except TableError:
                if previous and previous != game_id:
                    self._load(previous)     # a game that cannot be opened changes nothing
                raise
            if self.journal.latest_game() != game_id:
                self.state_id = self.journal.append(game_id, "resume", None, "",
                                                    _summary(self._game(), self.state))
                self._snapshot = None
            self._publish_state()

    def _load(self, game_id: int) -> None:
        with self._lock:
            row = self.journal.game(game_id)
            try:
                _, game = _load_game(Path(row.campaign), row.rules)
            except MalformedError as exc:
                raise JournalError(f"game {game_id} cannot be resumed: {exc.reason}") from None
            fold = fold_lines(self.journal.entries(game_id))
            self._install(game_id, row.title, row.campaign, row.rules, row.seed, game,
                          game.initial_state(), fold)

    def list_games(self) -> list[dict[str, Any]]:
        with self._lock:
            out = [g.as_dict() for g in self.journal.games()]
            for g in out:
                g["current"] = g["id"] == self.game_id
            return out

    def _install(self, game_id: int, title: str, campaign: str, rules: dict[str, Any],
                 seed: int, game: Game, start: SinbadState, fold: Fold) -> None:
        """Make a game current: replay its applied lines, keeping checkpoints and narration."""
        self._reset_game_fields()
        self.game_id, self.title, self.campaign_path = game_id, title, campaign
        self.rules, self.seed, self.game = rules, seed, game
        self._start = start
        self._questions.clear()
        if self._interpreter is not None:
            self._interpreter.reset()
        state = start
        self._say_notes(_opening_notes(game, start), publish=False)
        self._checkpoints[0] = start
        for i, line in enumerate(fold.applied, start=1):
            try:
                outcome = game.apply(state, action_from_line(line))
            except RecordLineError as exc:
                raise JournalError(f"game {game_id}: journaled line {i} is malformed "
                                   f"({exc})") from None
            if outcome.refusal is not None:
                raise JournalError(f"game {game_id}: journaled line {i} is now refused by "
                                   f"{outcome.refusal.ruling} ({outcome.refusal.reason}); was "
                                   f"the campaign file {campaign} edited?")
            state = outcome.state
            self._applied.append(line)
            self._remember(state)
            self._say_notes(outcome.notes, publish=False)
        self._redo = list(fold.redo)
        self._state = state
        self.state_id = fold.last_state_id

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> SinbadState:
        assert self._state is not None, "no game is open"
        return self._state

    def _game(self) -> Game:
        assert self.game is not None, "no game is open"
        return self.game

    def snapshot(self) -> dict[str, Any]:
        """The public state (FORMATS "companion replay") + state_id, game and the tablet view."""
        with self._lock:
            if self._snapshot is None:
                game, state = self._game(), self.state
                snap = game.public(state)
                snap["state_id"] = self.state_id
                snap["game"] = "sinbad"
                snap["game_id"] = self.game_id
                snap["title"] = self.title
                snap["view"] = self._view(game, state)
                self._snapshot = snap
            # A copy: callers (the web layer) may mutate what they get.
            copy: dict[str, Any] = json.loads(json.dumps(self._snapshot))
            return copy

    def _view(self, game: Game, state: SinbadState) -> dict[str, Any]:
        scenario = game.scenario(state)
        challenge = game.challenge(state)
        upcoming = game.next_challenge(state) if challenge is None else _challenge_after(
            game, state)
        paths = []
        # When a challenge is about to begin its paths are shown already, so that the card
        # played with the Budge card can be aimed at one of them in the same tap.
        shown = challenge if challenge is not None else (upcoming if game.budge_due(state)
                                                         else None)
        for p in game.upcoming_paths(state):
            spec = shown.path(p.id) if shown else None
            flavor = [spec.flavor_line(i) for i in range(len(p.cards))] if spec else []
            paths.append({
                "id": p.id, "need": [s.resource for s in p.need],
                "cards": [c.code for c in p.cards], "flavor": [f for f in flavor if f],
                "next": p.next_suit.resource if p.next_suit else None, "done": p.filled,
            })
        if state.phase is Phase.JAFFAR:
            counts = jaffar_counts(game, state, self._virtual_cards(self.config.max_jaffar_probe))
            jaffar_cards = [min(counts), max(counts)] if counts else [0, 0]
        else:
            jaffar_cards = list(game.jaffar_card_range(state))
        return {
            "scenario": {"id": scenario.id, "title": scenario.title},
            "challenge": ({"id": challenge.id, "title": challenge.title, "text": challenge.text}
                          if challenge else None),
            "next_challenge": upcoming.title if upcoming else None,
            "paths": paths,
            "budge": [{"id": b.id, "title": b.title, "text": b.text,
                       "effects": [e.describe() for e in b.effects]}
                      for b in game.budge_cards(state)],
            "budge_due": game.budge_due(state),
            "phase": state.phase.value,
            "sinbad_actions": list(game.sinbad_actions(state)),
            "jaffar_cards": jaffar_cards,
            "jaffar_last": [c.code for c in state.jaffar_last],
            "jaffar_stack_count": len(state.jaffar_stack),
            "jaffar_deck": state.jaffar_deck,
            "lose_turn": state.phase is Phase.SINBAD and state.now.lose_turn,
            "narration": list(self._narration),
            "questions": [q.public() for q in self._questions.values()],
            "result": state.result,
            "can_undo": bool(self._applied),
            "can_redo": bool(self._redo),
            "turn": state.turn,
            "sleep": state.sleep,
            "scoreboard": state.scoreboard,
        }

    def applied_lines(self) -> list[Any]:
        with self._lock:
            return list(self._applied)

    def export_record(self, game_id: int | None = None) -> str:
        """The game as a JSON Lines game record that ``companion replay`` accepts."""
        with self._lock:
            if game_id is None or game_id == self.game_id:
                campaign, rules, lines = self.campaign_path, self.rules, list(self._applied)
            else:
                row = self.journal.game(game_id)
                campaign, rules = row.campaign, row.rules
                lines = list(fold_lines(self.journal.entries(game_id)).applied)
        header = Header("sinbad", campaign, dict(rules)).as_line()
        return "".join(json.dumps(x) + "\n" for x in [header, *lines])

    # -- changing --------------------------------------------------------------------------

    def apply_line(self, line: object, state_id: int, *, source: str = "tablet"
                   ) -> dict[str, Any]:
        """Apply one game-record line: journal it (committed to disk), then publish it."""
        with self._lock:
            _check_state_id(state_id, self.state_id)
            if self._interpreter is not None:
                line = self._interpreter.complete_line(line)
            try:
                action = action_from_line(line)
            except RecordLineError as exc:
                raise MalformedError(str(exc)) from None
            game = self._game()
            outcome = game.apply(self.state, action)
            if outcome.refusal is not None:
                raise RuleRefusedError(outcome.refusal.ruling, outcome.refusal.reason)
            canonical = action_to_line(action)
            self.state_id = self.journal.append(self.game_id, "line", canonical, source,
                                                _summary(game, outcome.state))
            self._applied.append(canonical)
            self._redo.clear()
            before = self.state
            self._state = outcome.state
            self._remember(outcome.state)
            if self._interpreter is not None:
                self._interpreter.after_action(before, outcome, canonical)
            self._say_notes(outcome.notes)
            self._publish_state()
            return self.snapshot()

    def undo(self, state_id: int, *, source: str = "tablet") -> dict[str, Any]:
        """Undo the last applied line (journaled: an ``undo`` entry is appended)."""
        with self._lock:
            _check_state_id(state_id, self.state_id)
            if not self._applied:
                raise RuleRefusedError("undo", "there is nothing to undo")
            line = self._applied[-1]
            previous = self._state_at(len(self._applied) - 1)
            self.state_id = self.journal.append(self.game_id, "undo", None, source,
                                                _summary(self._game(), previous))
            self._applied.pop()
            self._redo.append(line)
            self._forget_after(len(self._applied))
            self._state = previous
            if self._interpreter is not None:
                self._interpreter.reset()
                self._interpreter.undone(line)
            self._say(f"Undone: {describe_line(line)}.")
            self._publish_state()
            return self.snapshot()

    def redo(self, state_id: int, *, source: str = "tablet") -> dict[str, Any]:
        """Apply again the line undone last (journaled: a ``redo`` entry is appended)."""
        with self._lock:
            _check_state_id(state_id, self.state_id)
            if not self._redo:
                raise RuleRefusedError("redo", "there is nothing to redo")
            line = self._redo[-1]
            game = self._game()
            outcome = game.apply(self.state, action_from_line(line))
            if outcome.refusal is not None:     # cannot happen: the same line, the same state
                raise RuleRefusedError(outcome.refusal.ruling, outcome.refusal.reason)
            self.state_id = self.journal.append(self.game_id, "redo", None, source,
                                                _summary(game, outcome.state))
            self._redo.pop()
            self._applied.append(line)
            self._state = outcome.state
            self._remember(outcome.state)
            if self._interpreter is not None:
                self._interpreter.reset()
            self._say(f"Redone: {describe_line(line)}.")
            self._say_notes(outcome.notes)
            self._publish_state()
            return self.snapshot()

    def auto_jaffar(self, state_id: int, *, source: str = "auto") -> dict[str, Any]:
        """Jaffar plays his phase from a virtual deck: as many cards as he may (1 when Losing,
        2 when Winning, more with extra cards), never a card already in his stack."""
        with self._lock:
            _check_state_id(state_id, self.state_id)
            game, state = self._game(), self.state
            if state.phase is not Phase.JAFFAR:
                why = "the game is over" if state.phase is Phase.OVER else \
                    "it is Sinbad's phase"
                raise RuleRefusedError("S4", f"Jaffar cannot play now: {why}")
            cards = self._virtual_cards(self.config.max_jaffar_probe)
            counts = jaffar_counts(game, state, cards)
            if not counts:
                # Every count refused: let the engine say why, for the smallest sensible one.
                outcome = game.apply(state, JaffarPlays(tuple(cards[:1])))
                assert outcome.refusal is not None
                raise RuleRefusedError(outcome.refusal.ruling, outcome.refusal.reason)
            line = {"jaffar": [c.code for c in cards[:max(counts)]]}
            return self.apply_line(line, state_id, source=source)

    def _virtual_cards(self, count: int) -> list[Card]:
        played = sum(len(line["jaffar"]) for line in self._applied if "jaffar" in line)
        return virtual_jaffar_cards(self.seed, self.state, played, count)

    # -- questions -------------------------------------------------------------------------

    def ask(self, question: dict[str, Any]) -> None:
        """Put a question to the players: ``{"text", "choices", "kind"?, "id"?, "lines"?}``;
        ``lines`` maps a choice to a record line applied when that choice is answered."""
        if not isinstance(question, Mapping):
            raise MalformedError("a question is an object with \"text\" and \"choices\"")
        text, choices = question.get("text"), question.get("choices")
        if not isinstance(text, str) or not text.strip():
            raise MalformedError("a question needs a \"text\"")
        if (not isinstance(choices, list) or not choices
                or not all(isinstance(c, str) and c for c in choices)):
            raise MalformedError("a question needs \"choices\": a list of answers")
        lines = question.get("lines", {})
        if not isinstance(lines, Mapping) or any(k not in choices for k in lines):
            raise MalformedError("a question's \"lines\" maps some of its choices to lines")
        kind = question.get("kind", "question")
        qid = question.get("id")
        self.put_question(text, choices, kind=str(kind),
                          qid=str(qid) if qid is not None else None, lines=dict(lines))

    def put_question(self, text: str, choices: Iterable[str], *, kind: str = "question",
                     resolve: Callable[[str], None] | None = None, tag: str = "",
                     qid: str | None = None, lines: Mapping[str, Any] | None = None,
                     capture: str = "") -> str:
        """Ask a question (internal form: ``resolve`` runs with the answer). Returns its id."""
        with self._lock:
            if qid is None or qid in self._questions:
                qid = f"q{next(self._question_ids)}"
                while qid in self._questions:
                    qid = f"q{next(self._question_ids)}"
            q = Question(qid, text.strip(), tuple(choices), kind, dict(lines or {}), resolve,
                         tag, capture)
            self._questions[qid] = q
            while len(self._questions) > self.config.max_questions:
                del self._questions[next(iter(self._questions))]
            self._snapshot = None
            self._publish("question", q.public())
            self._publish_state()
            return qid

    def questions(self) -> list[dict[str, Any]]:
        with self._lock:
            return [q.public() for q in self._questions.values()]

    def close_questions(self, tag: str) -> int:
        """Withdraw the open questions tagged ``tag`` or ``tag:...`` (the situation resolved
        itself). Returns how many were open."""
        with self._lock:
            gone = [qid for qid, q in self._questions.items()
                    if q.tag == tag or q.tag.startswith(tag + ":")]
            for qid in gone:
                del self._questions[qid]
            if gone:
                self._publish_state()
            return len(gone)

    def answer(self, question_id: str, choice: str, state_id: int) -> dict[str, Any]:
        with self._lock:
            _check_state_id(state_id, self.state_id)
            q = self._questions.get(question_id)
            if q is None:
                raise NotFoundError(f"no open question {question_id!r}")
            if choice not in q.choices:
                raise MalformedError(f"{choice!r} is not an answer to this question "
                                     f"(answers: {', '.join(q.choices)})")
            line = q.lines.get(choice)
            if line is not None:
                self.apply_line(line, state_id, source="answer")   # raises: question stays
            del self._questions[question_id]
            self._snapshot = None
            if q.resolve is not None:
                try:
                    q.resolve(choice)
                except TableError as exc:
                    self._say(f"That did not work: {exc.reason}")
            self._publish_state()
            return self.snapshot()

    def correct_reading(self, state_id: int, card: Card, zone: str, read: str | None,
                        capture: str) -> dict[str, Any]:
        """A player puts right what the camera read (``read``, None: nothing) in ``zone``,
        pictured in ``capture``: the real card is ``card``. Returns the new snapshot with
        ``"outcome"`` (see :meth:`TableInterpreter.correct`)."""
        with self._lock:
            _check_state_id(state_id, self.state_id)
            outcome = "kept"            # a finished game takes no more cards
            if self.state.phase is not Phase.OVER:
                outcome = self.interpreter.correct(card, zone, read, capture)
            self._publish_state()
            return {**self.snapshot(), "outcome": outcome}

    # -- the table interpreter -------------------------------------------------------------

    @property
    def interpreter(self) -> Any:
        """The table interpreter fed by camera events and tablet declarations (made lazily)."""
        with self._lock:
            if self._interpreter is None:
                from companion.table.interpreter import TableInterpreter
                self._interpreter = TableInterpreter(self)
            return self._interpreter

    def table_event(self, event: object) -> None:
        """Feed one table event (FORMATS "Table events", or ``done``/``declare``)."""
        with self._lock:
            self.interpreter.feed(event)

    # -- subscriptions ---------------------------------------------------------------------

    def subscribe(self) -> Subscription:
        """A queue of events; the current state is queued first."""
        with self._lock:
            sub = Subscription(self, self.config.subscriber_queue)
            self._subscribers.add(sub)
            sub.put("state", self.snapshot())
            return sub

    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(sub)

    def _publish(self, event: str, data: dict[str, Any]) -> None:
        for sub in list(self._subscribers):
            sub.put(event, data)

    def _publish_state(self) -> None:
        self._snapshot = None
        if self._subscribers:
            self._publish("state", self.snapshot())

    # -- narration -------------------------------------------------------------------------

    def _say(self, text: str, publish: bool = True) -> None:
        if not text:
            return
        self._narration.append(text)
        self._snapshot = None
        if publish:
            self._publish("say", {"text": text})

    def say(self, text: str) -> None:
        """Narrate something that is not a game change (the demo, the interpreter)."""
        with self._lock:
            self._say(text)
            self._publish_state()

    def _say_notes(self, notes: Iterable[Note], publish: bool = True) -> None:
        for note in notes:
            if note.kind == "say" and note.text:
                self._say(note.text, publish)

    # -- undo bookkeeping ------------------------------------------------------------------

    def _remember(self, state: SinbadState) -> None:
        """Keep the state after the newest applied line: checkpoints every few lines plus the
        most recent ones, so memory stays bounded however long the game."""
        n = len(self._applied)
        self._checkpoints[n] = state
        old = n - self.config.recent_states
        if old > 0 and old % self.config.checkpoint_every:
            self._checkpoints.pop(old, None)

    def _forget_after(self, n: int) -> None:
        for k in [k for k in self._checkpoints if k > n]:
            del self._checkpoints[k]

    def _state_at(self, n: int) -> SinbadState:
        """The state after the first ``n`` applied lines."""
        if n in self._checkpoints:
            return self._checkpoints[n]
        base = max(k for k in self._checkpoints if k <= n)
        state = self._checkpoints[base]
        game = self._game()
        for line in self._applied[base:n]:
            state = game.apply(state, action_from_line(line)).state
        return state


# ---------------------------------------------------------------------------------------------


def _load_game(path: Path, rules: Mapping[str, Any]) -> tuple[Campaign, Game]:
    try:
        campaign = load_campaign(path)
        game_rules = campaign.rules.with_overrides(rules, "rules")
    except ScenarioError as exc:
        raise MalformedError(str(exc)) from None
    except OSError as exc:
        raise MalformedError(f"{path}: cannot be read ({exc})") from None
    return campaign, Game(campaign, game_rules)


def _summary(game: Game, state: SinbadState) -> Summary:
    return Summary(state.turn, state.sleep, game.scenario(state).id, state.result)


def _opening_notes(game: Game, state: SinbadState) -> tuple[Note, ...]:
    title = game.campaign.title
    return (Note("say", f"A new game: {title}."),)


def _challenge_after(game: Game, state: SinbadState) -> Challenge | None:
    steps = game.scenario(state).steps
    start = (state.challenge_index if state.challenge_index is not None else -1) + 1
    return next((s for s in steps[start:] if isinstance(s, Challenge)), None)

