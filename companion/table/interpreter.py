"""The table interpreter: table events (what the camera saw) become game-record lines.

Events are FORMATS.md "Table events" -- ``{"t", "event": "placed"|"removed", "card"|"code",
"zone", "confidence"}`` -- plus two the tablet (or an events file) sends for what a camera
cannot see: ``{"event": "done"}`` (the player says the phase is over) and
``{"event": "declare", "action": "draw", "count": 2}`` / ``{"event": "declare",
"action": "pass"}`` (draws and lost turns are declared, RULINGS S14).

How events become actions, by the current phase:

* a card placed in zone ``jaffar`` is Jaffar's play. When he plays 1 card that completes his
  phase; when he may play 2 (Winning) we wait for the second card, for Sinbad to start
  acting, or for ``done``;
* ``path:<n>`` (1-based, in the challenge's path order) or ``path:<id>``: Sinbad plays the card
  onto that path; a spade placed in ``bank`` is his Antics; a non-spade placed in ``bank`` with
  a card taken from the bank is a trade; ``budge:<id>`` placed in ``budge`` is his Budge card,
  held until his action (one record line holds both);
* a phase ends when the other player starts acting, or on ``done``; Sinbad's phase also ends by
  itself when his action cannot grow any more (2 cards played when Losing, 1 when Winning, a
  trade, a declared draw).

With a camera, a placed card's event carries ``"capture"``: the id of the picture the camera
kept of it (``vision.watch``), which the questions about that card carry too. A card the
camera sees but cannot read comes as ``{"event": "unread", "zone", "capture"}`` and becomes a
question "which card is it?"; :meth:`TableInterpreter.correct` takes a player's answer (the
real card for a capture) and puts it into the game in place of the reading, and undoing a
line the camera applied asks whether it misread one of its cards.

Nothing changes silently: what the rules refuse, and what was seen with low confidence, becomes
a question on the tablet. Noise is filtered by time: a placed card only counts once it has lain
``settle_s`` seconds; one taken back sooner is forgotten (a misread corrected by the camera,
removed then placed again, is the same case). Cards the rules move by themselves (Jaffar's
removals and an overcome challenge send path cards to the bank; effects take from or add to the
bank) are *expected*, and their events are consumed without becoming actions.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.cards import Card, CardCodeError, Suit
from companion.sinbad import JaffarPlays, Outcome, Phase, SinbadState, action_from_line
from companion.table.errors import MalformedError, RuleRefusedError, TableError

if TYPE_CHECKING:
    from companion.table.session import TableSession


@dataclass(frozen=True)
class InterpreterConfig:
    min_confidence: float = 0.80    # a reading below this is asked about, never applied
    settle_s: float = 1.0           # a placed card must lie this long before it counts
    expect_for_actions: int = 3     # expected card moves are kept for this many actions


DEFAULT_INTERPRETER_CONFIG = InterpreterConfig()
EVENT_KINDS = ("placed", "removed", "done", "declare", "unread")
MAX_CAPTURE_ID = 40
TAG = "interp"                      # every question the interpreter asks carries this prefix


@dataclass(frozen=True)
class Observation:
    """One table event, validated. ``card`` or ``code`` is set for placed/removed."""

    t: float | None
    event: str
    zone: str = ""
    card: Card | None = None
    code: str | None = None
    confidence: float = 1.0
    action: str = ""                # declare: draw / pass
    count: int = 0
    settled: bool = False           # confirmed by a player: no settle time
    capture: str = ""               # the camera's picture of it (vision.watch), if any
    gone: bool = False              # unread: the unreadable card has left

    @property
    def thing(self) -> str:
        return self.card.code if self.card else (self.code or "")

    def describe(self) -> str:
        what = self.card.name if self.card else (self.code or "something")
        return f"the {what}" if self.card else what


def parse_event(event: object) -> Observation:
    """Validate one table event; raises MalformedError with a reason a person reads."""
    if not isinstance(event, Mapping):
        raise MalformedError("a table event is a JSON object such as "
                             "{\"event\": \"placed\", \"card\": \"QH\", \"zone\": \"path:1\"}")
    kind = event.get("event")
    if kind not in EVENT_KINDS:
        raise MalformedError(f"\"event\" is one of {', '.join(EVENT_KINDS)} (got {kind!r})")
    t = event.get("t")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool)
                          or not math.isfinite(t) or t < 0):
        raise MalformedError(f"\"t\" is the time in seconds, a number >= 0 (got {t!r})")
    ts = None if t is None else float(t)
    capture = event.get("capture", "")
    if not isinstance(capture, str) or len(capture) > MAX_CAPTURE_ID:
        raise MalformedError("\"capture\" is the id of a camera picture, such as \"c12\"")
    if kind == "done":
        return Observation(ts, "done")
    if kind == "unread":
        zone = event.get("zone")
        if not isinstance(zone, str) or not zone.strip() or not capture:
            raise MalformedError("an unread event names its \"zone\" and its \"capture\"")
        gone = event.get("gone", False)
        if not isinstance(gone, bool):
            raise MalformedError("\"gone\" is true or false")
        return Observation(ts, "unread", zone.strip().lower(), capture=capture, gone=gone)
    if kind == "declare":
        action = event.get("action")
        if action == "pass":
            return Observation(ts, "declare", action="pass")
        if action == "draw":
            count = event.get("count", 1)
            if count not in (1, 2) or isinstance(count, bool):
                raise MalformedError("a declared draw is of 1 or 2 cards")
            return Observation(ts, "declare", action="draw", count=int(count))
        raise MalformedError("a declaration is {\"action\": \"draw\", \"count\": n} or "
                             "{\"action\": \"pass\"}")
    zone = event.get("zone")
    if not isinstance(zone, str) or not zone.strip():
        raise MalformedError("a placed/removed event names its \"zone\"")
    card_raw, code = event.get("card"), event.get("code")
    if (card_raw is None) == (code is None):
        raise MalformedError("a placed/removed event has a \"card\" or a \"code\" (one of them)")
    card = None
    if card_raw is not None:
        try:
            card = Card.from_code(card_raw)
        except CardCodeError as exc:
            raise MalformedError(str(exc)) from None
    elif not isinstance(code, str) or not code.strip():
        raise MalformedError("\"code\" is the text of a printed card's QR code")
    confidence = event.get("confidence", 1.0)
    if (not isinstance(confidence, (int, float)) or isinstance(confidence, bool)
            or not 0.0 <= confidence <= 1.0):
        raise MalformedError(f"\"confidence\" is a number from 0 to 1 (got {confidence!r})")
    return Observation(ts, str(kind), zone.strip().lower(), card,
                       code.strip() if isinstance(code, str) else None, float(confidence),
                       capture=capture)


@dataclass(frozen=True)
class Expect:
    """A card move the rules made, whose table event is no action: ``card`` None matches any
    card (of ``suit`` when set)."""

    event: str                      # placed / removed
    zone: str                       # "path" (any path) or "bank"
    card: Card | None = None
    suit: Suit | None = None
    until: int = 0                  # action counter after which it expires

    def matches(self, obs: Observation) -> bool:
        if obs.event != self.event or obs.card is None:
            return False
        zone_ok = obs.zone.startswith("path") if self.zone == "path" else obs.zone == self.zone
        if not zone_ok:
            return False
        if self.card is not None:
            return obs.card == self.card
        return self.suit is None or obs.card.suit is self.suit


@dataclass
class SinbadSeen:
    """What Sinbad has been seen doing in the phase being assembled."""

    budge: str | None = None
    plays: list[tuple[Card, str]] = field(default_factory=list)    # (card, zone)
    gives: list[Card] = field(default_factory=list)
    takes: list[Card] = field(default_factory=list)
    declared: tuple[str, int] | None = None

    def empty(self) -> bool:
        return not (self.budge or self.plays or self.gives or self.takes or self.declared)


class TableInterpreter:
    """Turns table events into game actions through a :class:`TableSession`.

    Called under the session's lock (``session.table_event``); its clock is the events' own
    ``t``, so a file fed at full speed is interpreted exactly as in real time.
    """

    def __init__(self, session: TableSession,
                 config: InterpreterConfig = DEFAULT_INTERPRETER_CONFIG) -> None:
        self.session = session
        self.config = config
        self.clock = 0.0
        self._queue: deque[Observation] = deque()
        self._expect: list[Expect] = []
        self._actions = 0
        self.sinbad = SinbadSeen()
        self.jaffar: list[Card] = []
        self._applying = False
        self._over_said = False
        self._unsure: set[tuple[str, str]] = set()    # (card, zone) asked about
        # The camera's picture of each card it placed last: code -> (zone, capture id).
        self._captures: dict[str, tuple[str, str]] = {}
        # Lines the interpreter applied, with the captures of their cards (newest last).
        self._camera_lines: deque[tuple[Any, dict[str, tuple[str, str]]]] = deque(maxlen=8)
        # The camera's line the tablet undid last, while its misread questions are open.
        self._undone: tuple[Any, dict[str, tuple[str, str]]] | None = None
        self._correcting = False
        self.log: deque[str] = deque(maxlen=50)    # what became of recent events (debugging)

    # -- input -----------------------------------------------------------------------------

    def feed(self, event: object) -> None:
        obs = parse_event(event)
        if obs.t is not None:
            self.advance(obs.t, drain=False)
        if obs.event == "unread":
            self._unread(obs)
            self._drain()
            return
        if obs.event == "placed" and obs.card is not None and obs.capture:
            self._captures[obs.card.code] = (obs.zone, obs.capture)
            while len(self._captures) > 64:
                del self._captures[next(iter(self._captures))]
        if obs.event == "placed" and obs.confidence < self.config.min_confidence:
            self._ask_low_confidence(obs)
            self._drain()
            return
        if obs.event == "removed" and (obs.thing, obs.zone) in self._unsure:
            # The doubtful card was taken away (or is being re-read): drop the question.
            self._unsure.discard((obs.thing, obs.zone))
            self.session.close_questions(f"{TAG}:card:{obs.thing}")
            return
        if obs.event == "removed" and self._cancel_pending(obs):
            self._note(f"noise: {obs.thing} placed and taken back from {obs.zone}")
            self._drain()
            return
        self._queue.append(obs)
        self._drain()

    def advance(self, t: float, *, drain: bool = True) -> None:
        """Move the clock to ``t`` (seconds of the event source) and settle what is due."""
        self.clock = max(self.clock, t)
        if drain:
            self._drain()

    def flush(self) -> None:
        """Settle every waiting event now (the source ended)."""
        self._drain(force=True)

    def reset(self) -> None:
        """Forget half-seen phases (after undo, redo or a game switch): the players are
        rearranging the table."""
        self.sinbad = SinbadSeen()
        self.jaffar = []
        self._expect.clear()
        self._over_said = False
        self._unsure.clear()
        self._undone = None
        self.session.close_questions(TAG)

    def pending_events(self) -> int:
        return len(self._queue)

    # -- hooks from the session ------------------------------------------------------------

    def complete_line(self, line: object) -> object:
        """A Sinbad line sent without its Budge card gets the one the camera saw (the tablet
        declares a draw; the Budge card lies on the table)."""
        if (self.sinbad.budge is not None and isinstance(line, Mapping)
                and isinstance(line.get("sinbad"), Mapping) and "budge" not in line["sinbad"]
                and self._game().budge_due(self.session.state)):
            return {**line, "sinbad": {"budge": self.sinbad.budge, **line["sinbad"]}}
        return line

    def after_action(self, before: SinbadState, outcome: Outcome, line: Any) -> None:
        """An action was applied (by us or by the tablet): expect the card moves it causes,
        and forget the phase it completed."""
        self._actions += 1
        horizon = self._actions + self.config.expect_for_actions
        self._expect = [e for e in self._expect if e.until >= self._actions]
        after = outcome.state
        left = [c for c in before.path_cards if c not in after.path_cards]
        for card in left:
            self._expect.append(Expect("removed", "path", card, until=horizon))
            self._expect.append(Expect("placed", "bank", card, until=horizon))
        for note in outcome.notes:
            if note.kind == "reshuffle":
                self._expect.extend(Expect("removed", "bank", until=horizon)
                                    for _ in range(note.count))
            elif note.kind == "take":
                self._expect.append(Expect("removed", "bank", note.card, note.suit, horizon))
            elif note.kind == "discard":
                self._expect.extend(Expect("placed", "bank", until=horizon)
                                    for _ in range(note.count))
        if "jaffar" in line:
            self.jaffar = []
        else:
            self.sinbad = SinbadSeen()
        if not self._applying:
            # The tablet acted: what the camera half-saw of that phase is void.
            self._undone = None
            self.session.close_questions(TAG)

    # -- the queue -------------------------------------------------------------------------

    def _cancel_pending(self, obs: Observation) -> bool:
        """A card taken back before it settled: drop its placement (noise or a misread)."""
        for queued in reversed(self._queue):
            if (queued.event == "placed" and not queued.settled and queued.zone == obs.zone
                    and queued.thing == obs.thing):
                self._queue.remove(queued)
                return True
        return False

    def _drain(self, force: bool = False) -> None:
        # FIFO, so events keep their order; a placement waits until it has settled.
        while self._queue:
            head = self._queue[0]
            if (head.event == "placed" and not head.settled and not force
                    and head.t is not None and head.t + self.config.settle_s > self.clock):
                return
            self._queue.popleft()
            try:
                self._handle(head)
            except TableError as exc:
                self._say(f"Table: {exc.reason}")

    # -- handling --------------------------------------------------------------------------

    def _handle(self, obs: Observation) -> None:
        state = self.session.state
        if obs.event in ("placed", "removed"):
            for i, expected in enumerate(self._expect):
                if expected.matches(obs):
                    del self._expect[i]
                    self._note(f"expected: {obs.event} {obs.thing} {obs.zone}")
                    return
        if state.phase is Phase.OVER:
            if not self._over_said:
                self._over_said = True
                self._say("The game is over: start a new game on the tablet.")
            return
        if obs.event == "done":
            self._end_phase()
            return
        if obs.event == "declare":
            self.sinbad.declared = (obs.action, obs.count)
            self._sinbad_acts()
            return
        zone = obs.zone
        if zone == "jaffar":
            if obs.event == "placed" and obs.card is not None:
                self._jaffar_card(obs.card)
            elif obs.card in self.jaffar:
                self.jaffar.remove(obs.card)        # taken back, or a misread corrected
            # Other cards leave his stack when it is reshuffled: no action.
            return
        if zone == "budge":
            if obs.event == "placed" and obs.code:
                self._budge(obs.code)
            elif obs.event == "removed" and obs.code and self.sinbad.budge is not None \
                    and obs.code == f"budge:{self.sinbad.budge}":
                self.sinbad.budge = None
            return
        if obs.card is None:
            self._note(f"ignored: code {obs.code} in {zone}")
            return
        if zone.startswith("path:"):
            if obs.event == "placed":
                self.sinbad.plays.append((obs.card, zone))
                self._sinbad_acts(obs)
            else:
                self._removed_from_path(obs)
            return
        if zone == "bank":
            if obs.event == "placed":
                if obs.card.suit is Suit.SPADES:
                    self.sinbad.plays.append((obs.card, zone))
                else:
                    self.sinbad.gives.append(obs.card)
                self._sinbad_acts(obs)
            else:
                if self._take_back(obs):
                    return
                self.sinbad.takes.append(obs.card)
                self._sinbad_acts(obs)
            return
        self._note(f"ignored: {obs.event} {obs.thing} in zone {zone}")

    def _take_back(self, obs: Observation) -> bool:
        """A card removed from where it was seen placed in this phase: taken back."""
        assert obs.card is not None
        for i, (card, zone) in enumerate(self.sinbad.plays):
            if card == obs.card and zone == obs.zone:
                del self.sinbad.plays[i]
                self._note(f"taken back: {card} from {zone}")
                return True
        if obs.zone == "bank" and obs.card in self.sinbad.gives:
            self.sinbad.gives.remove(obs.card)
            return True
        return False

    def _removed_from_path(self, obs: Observation) -> None:
        assert obs.card is not None
        if self._take_back(obs):
            self.session.close_questions(f"{TAG}:card:{obs.card.code}")
            return
        if self.session.close_questions(f"{TAG}:card:{obs.card.code}"):
            return                       # the disputed card was taken back, as asked
        state = self.session.state
        where = state.visible(obs.card)
        if where is not None and where.startswith("on the"):
            card = obs.card
            self._ask(f"The {card.name} left the table, but the game has it {where}. "
                      "Undo the last action?", ["undo", "keep it"],
                      f"{TAG}:card:{card.code}", lambda choice: self._undo_if(choice))

    def _undo_if(self, choice: str) -> None:
        if choice == "undo":
            self.session.undo(self.session.state_id, source="camera")

    # -- Jaffar ----------------------------------------------------------------------------

    def _jaffar_card(self, card: Card) -> None:
        state = self.session.state
        if state.phase is Phase.SINBAD:
            # Jaffar starting to act ends Sinbad's phase.
            self.jaffar.append(card)
            self._end_sinbad_phase()
            return
        self.jaffar.append(card)
        self._jaffar_check(final=False)

    def _jaffar_counts(self) -> tuple[int, ...]:
        from companion.table.session import jaffar_counts, virtual_jaffar_cards

        state = self.session.state
        # How many he may play does not depend on which cards: probe with cards that are
        # surely playable (not in his stack, not the ones seen).
        seen = self.jaffar[:6]
        filler = virtual_jaffar_cards(self.session.seed, state, 0, 6 - len(seen), avoid=seen)
        return jaffar_counts(self._game(), state, seen + filler)

    def _jaffar_check(self, final: bool) -> None:
        """Apply Jaffar's phase when it is complete (or ``final``: the phase is over)."""
        state = self.session.state
        if state.phase is not Phase.JAFFAR:
            return
        n = len(self.jaffar)
        game = self._game()
        if n:
            refusal = game.apply(state, JaffarPlays(tuple(self.jaffar))).refusal
            if refusal is not None and refusal.ruling != "S7":
                card = self.jaffar.pop()
                self._dispute(card, "jaffar", refusal.reason)
                return
        # Probed with the cards he played so far, then his virtual deck after them.
        counts = self._jaffar_counts()
        if not counts:
            return
        if n > max(counts):
            card = self.jaffar.pop()
            self._dispute(card, "jaffar", f"Jaffar plays at most {max(counts)} card(s) now")
            return
        if n == max(counts) or (final and n in counts):
            self._apply({"jaffar": [c.code for c in self.jaffar]})
            return
        if final:
            low = min(c for c in counts if c > 0) if any(counts) else 0
            self._ask(f"Jaffar has played {n} card(s) but plays {low} now. Should the table "
                      "play for him?", ["Jaffar plays for me", "wait"], f"{TAG}:jaffar",
                      self._auto_jaffar_if)

    def _auto_jaffar_if(self, choice: str) -> None:
        if choice == "Jaffar plays for me":
            self.jaffar = []
            self._applying = True
            try:
                self.session.auto_jaffar(self.session.state_id, source="camera")
            finally:
                self._applying = False
            self._sinbad_check(final=False)

    # -- Sinbad ----------------------------------------------------------------------------

    def _budge(self, code: str) -> None:
        if not code.startswith("budge:"):
            self._note(f"ignored: code {code} on the budge zone")
            return
        budge_id = code.split(":", 1)[1]
        state = self.session.state
        if budge_id not in state.budge_hand:
            have = ", ".join(state.budge_hand) or "none"
            self._ask(f"The Budge card {budge_id!r} is not one Sinbad can play now (he holds: "
                      f"{have}). Take it back?", ["taken back"], f"{TAG}:budge", None)
            return
        self.sinbad.budge = budge_id
        self._sinbad_acts()

    def _sinbad_acts(self, obs: Observation | None = None) -> None:
        """Sinbad did something: that ends Jaffar's phase, then check Sinbad's."""
        if self.session.state.phase is Phase.JAFFAR:
            self._end_jaffar_phase()
        if self.session.state.phase is Phase.SINBAD:
            self._sinbad_check(final=False, newest=obs)

    def _end_jaffar_phase(self) -> None:
        self._jaffar_check(final=True)

    def _end_sinbad_phase(self) -> None:
        self._sinbad_check(final=True)
        if self.session.state.phase is Phase.JAFFAR:
            self._jaffar_check(final=False)

    def _end_phase(self) -> None:
        phase = self.session.state.phase
        if phase is Phase.JAFFAR:
            self._jaffar_check(final=True)
        elif phase is Phase.SINBAD:
            self._end_sinbad_phase()

    def _path_id(self, zone: str) -> str | None:
        """``path:2`` or ``path:friends`` to a path id of the challenge in progress (or of the
        one about to begin, when the Budge card comes in the same line)."""
        name = zone.split(":", 1)[1]
        state = self.session.state
        ids = [p.id for p in state.paths]
        if not ids:
            upcoming = self._game().next_challenge(state)
            ids = [p.id for p in upcoming.paths] if upcoming else []
        if name.isdigit():
            index = int(name) - 1
            return ids[index] if 0 <= index < len(ids) else None
        return name

    def _compose(self, final: bool) -> dict[str, Any] | str | None:
        """Sinbad's line from what was seen: a line, None (wait for more), or a string saying
        what is missing (when ``final``)."""
        seen = self.sinbad
        state = self.session.state
        game = self._game()
        body: dict[str, Any] = {}
        if game.budge_due(state):
            if seen.budge is None:
                return "Sinbad's Budge card was not seen" if final else None
            body["budge"] = seen.budge
        winning = state.scoreboard == "winning"
        cards = []
        for card, zone in seen.plays:
            if zone == "bank":
                cards.append({"card": card.code})
                continue
            path = self._path_id(zone)
            if path is None:
                return f"there is no {zone} in this challenge"
            cards.append({"card": card.code, "path": path})
        if state.now.lose_turn or seen.declared == ("pass", 0):
            if seen.declared == ("pass", 0) or final:
                return {"sinbad": {**body, "action": "pass"}}
            return None
        if seen.takes or seen.gives:
            gives = list(seen.gives)
            if not gives and seen.takes:
                gives = [c for c, zone in seen.plays if zone == "bank"]
            if any("path" in c for c in cards):
                return "a trade and a play were both seen: Sinbad takes one action"
            if len(gives) == 1 and len(seen.takes) == 1:
                return {"sinbad": {**body, "action": "trade", "give": gives[0].code,
                                   "take": seen.takes[0].code}}
            if len(gives) > 1 or len(seen.takes) > 1:
                return "a trade gives 1 card to the bank and takes 1"
            return "half a trade was seen (a card given or taken, not both)" if final else None
        if seen.declared is not None:
            count = seen.declared[1]
            if count == 1 and not winning:
                if cards:
                    return {"sinbad": {**body, "action": "draw_play", "cards": cards[:1]}}
                return "Sinbad drew 1: which card did he play?" if final else None
            if cards:
                return "Sinbad declared a draw and also played a card"
            return {"sinbad": {**body, "action": "draw", "count": count}}
        if cards:
            if len(cards) >= (1 if winning else 2) or final:
                return {"sinbad": {**body, "action": "play", "cards": cards}}
            return None
        return "nothing Sinbad did was seen" if final else None

    def _sinbad_check(self, final: bool, newest: Observation | None = None) -> None:
        state = self.session.state
        if state.phase is not Phase.SINBAD:
            return
        composed = self._compose(final)
        if composed is None:
            if newest is not None:
                self._check_so_far(newest)
            return
        if isinstance(composed, str):
            if newest is not None and self._drop(newest):
                self._dispute_obs(newest, composed)
                return
            self._ask_what_sinbad_did(composed)
            return
        refusal = self._game().apply(state, action_from_line(composed)).refusal
        if refusal is not None:
            culprit = newest or self._last_seen()
            if culprit is not None and self._drop(culprit):
                self._dispute_obs(culprit, refusal.reason)
                return
            self._ask_what_sinbad_did(f"{refusal.reason} ({refusal.ruling})")
            return
        self._apply(composed)

    def _check_so_far(self, newest: Observation) -> None:
        """Before the action is complete, try what was seen as if the phase ended now, so a
        card the rules refuse is questioned at once, while the player's hand is still there."""
        composed = self._compose(final=True)
        if not isinstance(composed, dict):
            return
        refusal = self._game().apply(self.session.state, action_from_line(composed)).refusal
        if refusal is not None and refusal.ruling != "S8a" and self._drop(newest):
            self._dispute_obs(newest, refusal.reason)

    def _last_seen(self) -> Observation | None:
        if self.sinbad.plays:
            card, zone = self.sinbad.plays[-1]
            return Observation(None, "placed", zone, card)
        return None

    def _drop(self, obs: Observation) -> bool:
        """Remove an observation from the phase being assembled."""
        if obs.card is None:
            return False
        if (obs.card, obs.zone) in self.sinbad.plays:
            self.sinbad.plays.remove((obs.card, obs.zone))
            return True
        if obs.event == "placed" and obs.zone == "bank" and obs.card in self.sinbad.gives:
            self.sinbad.gives.remove(obs.card)
            return True
        if obs.event == "removed" and obs.zone == "bank" and obs.card in self.sinbad.takes:
            self.sinbad.takes.remove(obs.card)
            return True
        return False

    def _dispute_obs(self, obs: Observation, reason: str) -> None:
        assert obs.card is not None
        self._dispute(obs.card, obs.zone, reason)

    def _dispute(self, card: Card, zone: str, reason: str) -> None:
        where = {"jaffar": "Jaffar's pile", "bank": "the bank"}.get(zone, zone)
        reason = reason[0].upper() + reason[1:] if reason else "The rules refuse it"
        seen = self._captures.get(card.code)
        capture = seen[1] if seen is not None and seen[0] == zone else ""
        self._ask(f"{reason}. Take the {card.name} back from {where}?", ["taken back"],
                  f"{TAG}:card:{card.code}", None, capture=capture)

    def _ask_what_sinbad_did(self, why: str) -> None:
        state = self.session.state
        game = self._game()
        draw = 1 if state.scoreboard == "winning" else 2
        choices = ["pass"] if state.now.lose_turn else [f"draw {draw}", "wait"]
        budge = self.sinbad.budge
        if game.budge_due(state) and budge is None:
            choices = [f"budge {b.id}" for b in game.budge_cards(state)] + ["wait"]
        self._ask(f"{why[0].upper() + why[1:]}. What did Sinbad do?", choices,
                  f"{TAG}:sinbad", self._sinbad_answer)

    def _sinbad_answer(self, choice: str) -> None:
        if choice.startswith("budge "):
            self.sinbad.budge = choice.split(" ", 1)[1]
        elif choice.startswith("draw "):
            self.sinbad.declared = ("draw", int(choice.split()[1]))
        elif choice == "pass":
            self.sinbad.declared = ("pass", 0)
        else:
            return
        self._sinbad_check(final=False)

    # -- what the camera could not read, or read wrong ---------------------------------------

    def _unread(self, obs: Observation) -> None:
        tag = f"{TAG}:unread:{obs.capture}"
        if obs.gone:
            self.session.close_questions(tag)
            return
        if obs.zone not in GAME_ZONES and not obs.zone.startswith("path:"):
            self._note(f"ignored: an unread card in zone {obs.zone}")
            return
        if self.session.state.phase is Phase.OVER:
            return
        self._ask(f"The camera cannot read the card on {_where(obs.zone)}. Which card is it?",
                  ["not a card"], tag, None, capture=obs.capture, kind="card")

    def correct(self, card: Card, zone: str, read: str | None, capture: str) -> str:
        """A player says the card the camera pictured in ``capture`` (read as ``read``, None
        when not read, in ``zone``) is ``card``: the game goes on as if the camera had read
        it right. Returns what became of the game: ``"placed"`` (the card counts now, as if
        just seen), ``"replayed"`` (the camera's line with the wrong card was undone and is
        played again with the right one) or ``"kept"`` (the reading is too old to change
        anything: only the deck learns)."""
        if read is not None:
            self._unsure.discard((read, zone))
            self.session.close_questions(f"{TAG}:card:{read}")
        self.session.close_questions(f"{TAG}:unread:{capture}")
        self.session.close_questions(f"{TAG}:misread:{capture}")
        outcome = "placed"
        refeed: list[Observation] = []
        undone, self._undone = self._undone, None
        if undone is not None and any(cap == capture for _, cap in undone[1].values()):
            # The tablet undid the line this card was part of: its other cards count again.
            refeed = self._replay_without(undone, read)
            outcome = "replayed"
        elif read == card.code:
            outcome = "kept"        # the camera was right: only the deck learns
        elif read is not None and not self._forget_reading(read, zone):
            if self._last_camera_card(read, capture):
                # The wrong card is in the line the camera applied last: undo that line and
                # play it again with the right card.
                last = self._camera_lines.pop()
                self._correcting = True
                try:
                    self.session.undo(self.session.state_id, source="correction")
                finally:
                    self._correcting = False
                refeed = self._replay_without(last, read)
                outcome = "replayed"
            elif any(seen.get(read, ("", ""))[1] == capture for _, seen in self._camera_lines):
                outcome = "kept"    # played lines ago: undo by hand, if at all
        if outcome != "kept":
            self._captures.pop(card.code, None)
            self._captures[card.code] = (zone, capture)
            refeed.append(Observation(None, "placed", zone, card, settled=True,
                                      capture=capture))
            before = self.session.state_id
            self._queue.extend(refeed)
            self._drain()
            if outcome == "replayed" and self.session.state_id == before:
                # The line was complete when the camera applied it: so is the new one.
                self._end_phase()
        # The camera reads the card again (now with the taught deck): that is no new move,
        # and the wrong reading leaving is none either.
        horizon = self._actions + self.config.expect_for_actions
        self._expect.append(Expect("placed", _expect_zone(zone), card, until=horizon))
        if read is not None and read != card.code:
            self._expect.append(Expect("removed", _expect_zone(zone), Card.from_code(read),
                                       until=horizon))
        self._note(f"corrected: {read or 'unread'} -> {card.code} in {zone} ({outcome})")
        return outcome

    def _replay_without(self, applied: tuple[Any, dict[str, tuple[str, str]]],
                        read: str | None) -> list[Observation]:
        """The other cards of an undone camera line, to be seen again (and its Budge card)."""
        line, seen = applied
        body = line.get("sinbad") if isinstance(line, Mapping) else None
        if isinstance(body, Mapping) and isinstance(body.get("budge"), str):
            self.sinbad.budge = body["budge"]
        return [Observation(None, "placed", where, Card.from_code(code), settled=True,
                            capture=cap)
                for code, (where, cap) in seen.items() if code != read]

    def undone(self, line: Any) -> None:
        """The tablet undid ``line``: when the camera had applied it, ask whether it misread
        one of its cards (each answer is a :meth:`correct`)."""
        if self._correcting or not self._camera_lines or self._camera_lines[-1][0] != line:
            return
        applied = self._camera_lines.pop()
        if not _replayable(line):
            return
        self._undone = applied
        for code, (zone, capture) in applied[1].items():
            name = Card.from_code(code).name
            self._ask(f"Undone. Did the camera misread the {name} ({_where(zone)})? "
                      "If so, say which card it is.", ["it was right"],
                      f"{TAG}:misread:{capture}", None, capture=capture)

    def _forget_reading(self, read: str, zone: str) -> bool:
        """Drop a wrong reading from the phase being assembled (or the queue)."""
        card = Card.from_code(read)
        for queued in list(self._queue):
            if queued.event == "placed" and queued.card == card and queued.zone == zone:
                self._queue.remove(queued)
                return True
        if (card, zone) in self.sinbad.plays:
            self.sinbad.plays.remove((card, zone))
            return True
        if zone == "bank" and card in self.sinbad.gives:
            self.sinbad.gives.remove(card)
            return True
        if zone == "jaffar" and card in self.jaffar:
            self.jaffar.remove(card)
            return True
        return False

    def _last_camera_card(self, read: str, capture: str) -> bool:
        """Is the reading part of the line the camera applied last, and still the last?"""
        if not self._camera_lines:
            return False
        line, seen = self._camera_lines[-1]
        applied = self.session.applied_lines()
        return (bool(applied) and applied[-1] == line and _replayable(line)
                and read in seen and seen[read][1] == capture)

    # -- applying and asking ---------------------------------------------------------------

    def _apply(self, line: dict[str, Any]) -> None:
        self._applying = True
        try:
            self.session.apply_line(line, self.session.state_id, source="camera")
            self._note(f"applied: {line}")
            applied = self.session.applied_lines()[-1]
            self._camera_lines.append((applied, {
                code: self._captures[code] for code in _line_cards(applied)
                if code in self._captures}))
        except RuleRefusedError as exc:
            self._ask(f"{exc.reason} ({exc.ruling}). Fix the table and say when done.",
                      ["done"], f"{TAG}:refused", None)
        finally:
            self._applying = False
        self.session.close_questions(f"{TAG}:sinbad")
        self.session.close_questions(f"{TAG}:jaffar")
        # Cards already seen for the next phase (Jaffar's card ended Sinbad's) count now.
        if "sinbad" in line and self.jaffar:
            self._jaffar_check(final=False)

    def _ask(self, text: str, choices: list[str], tag: str, resolve: Any,
             capture: str = "", kind: str = "table") -> None:
        self.session.close_questions(tag)          # one open question per subject
        self.session.put_question(text, choices, kind=kind, tag=tag, resolve=resolve,
                                  capture=capture)

    def _ask_low_confidence(self, obs: Observation) -> None:
        where = {"jaffar": "Jaffar's pile", "bank": "the bank", "budge": "the Budge spot"}.get(
            obs.zone, obs.zone.replace("path:", "path "))
        confirmed = replace(obs, confidence=1.0, settled=True)

        self._unsure.add((obs.thing, obs.zone))

        def resolve(choice: str) -> None:
            self._unsure.discard((obs.thing, obs.zone))
            if choice == "yes":
                self._queue.append(confirmed)
                self._drain()

        self._ask(f"Is this {obs.describe()} ({where})?", ["yes", "no"],
                  f"{TAG}:card:{obs.thing}", resolve, capture=obs.capture)

    def _say(self, text: str) -> None:
        self._note(text)
        self.session.say(text)

    def _note(self, text: str) -> None:
        self.log.append(text)

    def _game(self) -> Any:
        game = self.session.game
        assert game is not None
        return game


GAME_ZONES = ("jaffar", "bank")


def _where(zone: str) -> str:
    return {"jaffar": "Jaffar's pile", "bank": "the bank", "budge": "the Budge spot",
            "table": "the table"}.get(zone, zone.replace("path:", "path "))


def _expect_zone(zone: str) -> str:
    return "path" if zone.startswith("path") else zone


def _line_cards(line: Any) -> list[str]:
    """The card codes a record line puts on the table."""
    if not isinstance(line, Mapping):
        return []
    if isinstance(line.get("jaffar"), list):
        return [c for c in line["jaffar"] if isinstance(c, str)]
    body = line.get("sinbad")
    if not isinstance(body, Mapping):
        return []
    cards = [c.get("card") for c in body.get("cards", []) if isinstance(c, Mapping)]
    if isinstance(body.get("give"), str):
        cards.append(body["give"])
    return [c for c in cards if isinstance(c, str)]


def _replayable(line: Any) -> bool:
    """A line made only of cards the camera sees (Jaffar's, or Sinbad playing cards), which
    can be undone and seen again with one card put right."""
    if not isinstance(line, Mapping):
        return False
    if "jaffar" in line:
        return True
    body = line.get("sinbad")
    return isinstance(body, Mapping) and body.get("action") == "play"
