"""The rules of Sinbad vs. Jaffar (RULINGS S1..S15) as a pure function of state and action.

``Game(campaign).apply(state, action)`` returns an :class:`Outcome`: the new state and the notes
of what happened (narration, draws, reshuffles: what a tablet reads aloud and what a simulator
needs to move its hidden cards), or the unchanged state and a :class:`Refusal` that names the
ruling and says why in words a player understands. The engine does no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.cards import SUITS, Card, Suit
from companion.rules import Refusal, RuleBroken, RuleOutcome
from companion.scenario import (
    BudgeCard,
    Campaign,
    Challenge,
    Effect,
    Event,
    Rules,
    Scenario,
)
from companion.sinbad.actions import (
    Action,
    Draw,
    DrawPlay,
    JaffarPlays,
    Pass,
    Placement,
    Play,
    SinbadTurn,
    Trade,
)
from companion.sinbad.state import Bank, Effects, PathState, Phase, SinbadState

MAX_SLEEP = 10


@dataclass(frozen=True)
class Note:
    """Something that happened while an action resolved.

    ``kind`` is one of: ``say`` (narration: ``text``), ``draw`` (``count`` cards to the hand),
    ``reshuffle`` (S11: ``count`` bank cards became the draw pile), ``discard`` (``count`` hand
    cards to the bank, ``cards`` the named ones), ``take`` (a bank card of ``suit`` to the
    hand; ``card`` when its identity was known), ``removed`` (Jaffar removed ``card`` from a
    path), ``jaffar_reshuffle`` (his stack became his deck), ``sleep`` (``count`` is the new
    value), ``scoreboard`` (``text``), ``overcome``, ``result`` (``text``).
    """

    kind: str
    text: str = ""
    count: int = 0
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None


class Outcome(RuleOutcome[SinbadState, Note]):
    @property
    def narration(self) -> tuple[str, ...]:
        return tuple(n.text for n in self.notes if n.kind == "say" and n.text)


@dataclass(frozen=True)
class Partial:
    """The state part-way through a line, its notes so far, and whether the game ended there
    (``refusal`` when the part itself is refused)."""

    state: SinbadState
    notes: tuple[Note, ...]
    ended: bool
    names_used: int = 0
    refusal: Refusal | None = None


_Refused = RuleBroken


class _Ended(Exception):
    """The game ended in the middle of an action; the rest of it is not applied (S15i)."""


class _Work:
    """The state being built by one action, and its notes.

    The draft is a private copy of the input state that only this action can see, updated in
    place: rebuilding a thirty-field frozen value for every small change made the simulator
    several times slower. The draft is handed out only when the action is complete, and nothing
    changes it after that.
    """

    def __init__(self, state: SinbadState) -> None:
        draft = object.__new__(SinbadState)
        draft.__dict__.update(state.__dict__)
        self.s = draft
        self.notes: list[Note] = []

    def set(self, **changes: Any) -> None:
        self.s.__dict__.update(changes)

    def say(self, text: str) -> None:
        if text and text.strip():
            self.notes.append(Note("say", text.strip()))

    def note(self, kind: str, **data: Any) -> None:
        self.notes.append(Note(kind, **data))


class BankSetupError(ValueError):
    """A starting bank that is not two cards of each suit (S1)."""


class Game:
    """Sinbad vs. Jaffar played through one campaign, under one set of house rules."""

    def __init__(self, campaign: Campaign, rules: Rules | None = None) -> None:
        self.campaign = campaign
        self.rules = rules if rules is not None else campaign.rules

    # -- setup -----------------------------------------------------------------------------

    def initial_state(self, bank: tuple[Card, ...] | None = None) -> SinbadState:
        """The table after setup (S1): bank of 8, hand of 8, draw pile 36, Jaffar's deck 52."""
        if bank is None:
            start_bank = Bank.by_suit(2)
        else:
            if len(bank) != 8 or len(set(bank)) != 8 or any(
                    sum(1 for c in bank if c.suit is suit) != 2 for suit in SUITS):
                raise BankSetupError("the starting bank is 8 different cards, 2 of each suit "
                                     f"(S1); got {' '.join(c.code for c in bank)}")
            start_bank = Bank.of_cards(bank)
        first = self.campaign.scenarios[0]
        return SinbadState(
            sleep=self.campaign.start_sleep,
            scoreboard=self.campaign.start_scoreboard,
            budge_hand=tuple(b.id for b in first.budge),
            bank=start_bank,
        )

    # -- queries ---------------------------------------------------------------------------

    def scenario(self, state: SinbadState) -> Scenario:
        return self.campaign.scenarios[state.scenario_index]

    def challenge(self, state: SinbadState) -> Challenge | None:
        if state.challenge_index is None:
            return None
        step = self.scenario(state).steps[state.challenge_index]
        assert isinstance(step, Challenge)
        return step

    def next_challenge(self, state: SinbadState) -> Challenge | None:
        """The challenge the story is heading for (the current one while it lasts)."""
        steps = self.scenario(state).steps
        start = state.challenge_index if state.challenge_index is not None else state.step_index
        return next((s for s in steps[start:] if isinstance(s, Challenge)), None)

    def budge_due(self, state: SinbadState) -> bool:
        """S8a: in this Sinbad phase a challenge begins, so a Budge card must be played."""
        if state.phase is not Phase.SINBAD or state.challenge_index is not None:
            return False
        steps = self.scenario(state).steps
        return state.step_index < len(steps) and isinstance(steps[state.step_index], Challenge)

    def upcoming_paths(self, state: SinbadState) -> tuple[PathState, ...]:
        """The paths a player can aim at now: the current challenge's, or, when a challenge is
        about to begin (S8a), its paths as events have shaped them (before the Budge card)."""
        if state.challenge_index is not None or not self.budge_due(state):
            return state.paths
        challenge = self.next_challenge(state)
        if challenge is None:
            return ()
        paths = [PathState(p.id, p.need) for p in challenge.paths]
        for path_id, steps in state.path_deltas:
            paths = _delta(paths, path_id, steps)
        return tuple(paths)

    def budge_cards(self, state: SinbadState) -> tuple[BudgeCard, ...]:
        scenario = self.scenario(state)
        return tuple(b for b in scenario.budge if b.id in state.budge_hand)

    def jaffar_card_range(self, state: SinbadState) -> tuple[int, int]:
        """How many cards Jaffar's next phase plays: (fewest, most) (S7, S15e)."""
        if state.phase is Phase.OVER:
            return (0, 0)
        if state.phase is Phase.SINBAD:
            return _jaffar_range(state.now, state.scoreboard)
        # Before his phase the turn has not started: resolve its start on a private draft, as
        # turn-start events and S6 may change both the effects due and the scoreboard.
        work = _Work(state)
        try:
            self._start_turn(work)
        except _Ended:
            return (0, 0)
        return _jaffar_range(work.s.now, work.s.scoreboard)

    def sinbad_actions(self, state: SinbadState) -> tuple[str, ...]:
        """The actions Sinbad may choose now, by the scoreboard (S8b); ``pass`` for a lost turn."""
        if state.phase is not Phase.SINBAD:
            return ()
        if state.now.lose_turn:
            return ("pass",)
        if state.scoreboard == "winning":
            return ("draw", "play", "trade")
        return ("draw", "play", "trade", "draw_play")

    def paths_for(self, state: SinbadState, card: Card) -> tuple[str, ...]:
        """Ids of the current challenge's paths whose next step takes this card."""
        return tuple(p.id for p in state.paths if p.next_suit is card.suit)

    def public(self, state: SinbadState) -> dict[str, Any]:
        """The state as ``companion replay`` prints it (FORMATS.md), with a few extra keys."""
        out = state.public_core()
        scenario = self.scenario(state)
        challenge = self.challenge(state)
        ordered: dict[str, Any] = {
            "turn": out["turn"], "sleep": out["sleep"], "scoreboard": out["scoreboard"],
            "result": out["result"], "scenario": scenario.id,
            "challenge": challenge.id if challenge else None,
            "challenge_turn": out["challenge_turn"], "paths": out["paths"],
            "bank": out["bank"], "hand": out["hand"], "draw_pile": out["draw_pile"],
            "phase": state.phase.value,
            "jaffar_deck": state.jaffar_deck,
            "jaffar_stack": [c.code for c in state.jaffar_stack],
            "jaffar_last": [c.code for c in state.jaffar_last],
            "budge": list(state.budge_hand),
            "budge_due": self.budge_due(state),
        }
        return ordered

    # -- the rules -------------------------------------------------------------------------

    def apply(self, state: SinbadState, action: Action) -> Outcome:
        """Apply one action (one record line). Never raises for a rule break: refuses."""
        work = _Work(state)
        try:
            if state.phase is Phase.OVER:
                raise _Refused("S12", f"the game is over ({self._result_words(state)}); "
                               "no more moves")
            if isinstance(action, JaffarPlays):
                self._jaffar_line(work, action)
            else:
                self._sinbad_line(work, action)
        except _Refused as refused:
            return Outcome(state, (), refused.refusal)
        except _Ended:
            pass
        return Outcome(work.s, tuple(work.notes))

    # -- part of a line, for players who decide in the middle of one -----------------------
    #
    # A player chooses after part of a line has resolved: Jaffar after the start of the turn
    # (events, S6), Sinbad after his Budge card (S8b reads the scoreboard after it) and after
    # the card drawn in a draw-and-play. These run that part with the engine's own steps.

    def turn_start(self, state: SinbadState) -> Partial:
        """The start of the next turn (S4, S15b), as Jaffar's line would resolve it."""
        work = _Work(state)
        try:
            self._start_turn(work)
        except _Ended:
            return Partial(work.s, tuple(work.notes), True)
        return Partial(work.s, tuple(work.notes), False)

    def sinbad_prefix(self, state: SinbadState, budge: str | None,
                      names: tuple[Card, ...] = ()) -> Partial:
        """Sinbad's line up to his action: naming this turn's unnamed discards, then the
        Budge card and its effects (S8a, S15h). ``names`` are consumed in order, as the line's
        ``effect_cards.discard`` would be; ``names_used`` says how many were."""
        work = _Work(state)
        left = list(names)
        try:
            self._name_discards(work, left)
            if budge is not None:
                self._begin_challenge(work, budge, left)
        except _Refused as refused:
            return Partial(state, (), False, 0, refused.refusal)
        except _Ended:
            return Partial(work.s, tuple(work.notes), True, len(names) - len(left))
        return Partial(work.s, tuple(work.notes), False, len(names) - len(left))

    def draw_prefix(self, state: SinbadState, count: int) -> Partial:
        """Sinbad draws ``count`` cards part-way through his line (S11 included)."""
        work = _Work(state)
        self._draw(work, count)
        return Partial(work.s, tuple(work.notes), False)

    @staticmethod
    def _result_words(state: SinbadState) -> str:
        return {"sinbad": "Sinbad won", "jaffar": "Jaffar won", "draw": "a draw"}.get(
            state.result or "", "finished")

    # Jaffar's line: the start of the turn (S4, S15b), then his phase (S7).

    def _jaffar_line(self, w: _Work, action: JaffarPlays) -> None:
        if w.s.phase is not Phase.JAFFAR:
            raise _Refused("S4", "it is Sinbad's phase: Jaffar plays at the start of the next turn")
        try:
            self._start_turn(w)
        except _Ended:
            if action.cards:
                raise _Refused("S15b", "the game ended at the start of this turn; its line is "
                               "{\"jaffar\": []}") from None
            raise
        s = w.s
        cards = action.cards
        if s.now.jaffar_skip:
            if cards:
                raise _Refused("S13", "Jaffar skips this phase: he plays no card")
            w.say("Jaffar skips his turn.")
            w.set(phase=Phase.SINBAD, jaffar_last=())
            return
        low, high = _jaffar_range(s.now, s.scoreboard)
        if not cards:
            raise _Refused("S15e", "{\"jaffar\": []} is only for a skipped phase: Jaffar plays "
                           f"{_count_words(low, high)} now")
        if not low <= len(cards) <= high:
            why = "Jaffar is Winning" if s.scoreboard == "winning" else "Jaffar is Losing"
            raise _Refused("S7", f"{why}: he plays {_count_words(low, high)}, not {len(cards)}")
        for card in cards:
            self._jaffar_card(w, card)
        w.set(phase=Phase.SINBAD, jaffar_last=cards)

    def _start_turn(self, w: _Work) -> None:
        s = w.s
        w.set(turn=s.turn + 1, now=s.pending, pending=Effects(), overcome_this_turn=False,
              unnamed_discards=0, jaffar_last=())
        if s.scenario_complete:
            self._resolve_events(w)          # the old scenario's closing narration (S15f)
            nxt = self.campaign.scenarios[s.scenario_index + 1]
            w.set(scenario_index=s.scenario_index + 1, step_index=0, scenario_started=False,
                  scenario_complete=False, budge_hand=tuple(b.id for b in nxt.budge),
                  path_deltas=())
        if not w.s.scenario_started:
            scenario = self.scenario(w.s)
            w.set(scenario_started=True)
            w.note("scenario", text=scenario.title)
            w.say(scenario.intro)
        self._resolve_events(w)
        if w.s.challenge_index is not None:
            turn = w.s.challenge_turn + 1
            w.set(challenge_turn=turn)
            if turn >= 3 and w.s.scoreboard != "winning":
                w.set(scoreboard="winning")                       # S6
                w.note("scoreboard", text="winning")
                w.say("I'M WINNING!!!! Jaffar gloats: the challenge drags on.")

    def _resolve_events(self, w: _Work) -> None:
        steps = self.scenario(w.s).steps
        while w.s.step_index < len(steps) and isinstance(steps[w.s.step_index], Event):
            event = steps[w.s.step_index]
            assert isinstance(event, Event)
            w.set(step_index=w.s.step_index + 1)
            w.note("event", text=event.id)
            w.say(event.text)
            for effect in event.effects:
                self._effect(w, effect, from_budge=False, names=[])

    def _jaffar_card(self, w: _Work, card: Card) -> None:
        s = w.s
        if s.jaffar_deck == 0:
            reshuffled = len(s.jaffar_stack)
            w.set(jaffar_deck=reshuffled, jaffar_stack=())
            w.note("jaffar_reshuffle", count=reshuffled)
        if card in s.jaffar_stack:
            raise _Refused("S15j", f"the {card.name} is already in Jaffar's stack: "
                           "a card cannot be played twice (check the camera's reading)")
        w.set(jaffar_deck=s.jaffar_deck - 1, jaffar_stack=s.jaffar_stack + (card,))
        if card.suit is Suit.SPADES:
            w.say("Histrionics! Jaffar rants and raves. The girl sits up.")
            self._move_sleep(w, +1)
            return
        target = w.s.pointer
        if target is None or target.suit is not card.suit:
            return
        path = next((p for p in w.s.paths if target in p.cards), None)
        if path is None:
            return
        rest = tuple(c for c in path.cards if c != target)
        paths = tuple(replace(p, cards=rest) if p.id == path.id else p for p in w.s.paths)
        w.set(paths=paths, bank=w.s.bank.add(target))
        w.note("removed", card=target, text=path.id)
        w.say(f"Jaffar's {card.suit.jaffar_resource.replace('_', ' ')} undoes Sinbad's "
              f"{target.suit.resource}: the {target.name} goes back to the bank.")
        if self.rules.jaffar_chain:
            fallback = next((c for c in reversed(w.s.played) if c != target
                             and any(c in p.cards for p in w.s.paths)), None)
            w.set(pointer=fallback)

    # Sinbad's line (S8).

    def _sinbad_line(self, w: _Work, turn: SinbadTurn) -> None:
        if w.s.phase is not Phase.SINBAD:
            raise _Refused("S4", "it is Jaffar's phase: each turn Jaffar plays first")
        names = list(turn.effect_discards)
        self._name_discards(w, names)
        due = self.budge_due(w.s)
        if due and turn.budge is None:
            challenge = self.next_challenge(w.s)
            title = challenge.title if challenge else "the next challenge"
            raise _Refused("S8a", f"{title} begins: Sinbad must first play a Budge card")
        if not due and turn.budge is not None:
            raise _Refused("S8a", "a Budge card is played only when a challenge begins")
        if turn.budge is not None:
            self._begin_challenge(w, turn.budge, names)
        if names:
            raise _Refused("S15h", "more cards are named as discarded than effects discarded")
        self._action(w, turn.action)
        self._end_turn(w)

    def _name_discards(self, w: _Work, names: list[Card]) -> None:
        """S15h: name this turn's unnamed effect discards, consuming ``names`` in order."""
        # Only discards still unknown in the bank can be named: a reshuffle (S11) may have sent
        # them to the draw pile since.
        while names and min(w.s.unnamed_discards, w.s.bank.unknown) > 0:
            card = names.pop(0)
            self._check_unseen(w.s, card)
            w.set(bank=w.s.bank.name_unknown(card), unnamed_discards=w.s.unnamed_discards - 1)

    def _begin_challenge(self, w: _Work, budge_id: str, names: list[Card]) -> None:
        scenario = self.scenario(w.s)
        card = scenario.budge_card(budge_id)
        if card is None or budge_id not in w.s.budge_hand:
            have = ", ".join(w.s.budge_hand) or "none"
            raise _Refused("S8a", f"{budge_id!r} is not one of this scenario's unplayed Budge "
                           f"cards (Sinbad holds: {have})")
        challenge = scenario.steps[w.s.step_index]
        assert isinstance(challenge, Challenge)
        paths = [PathState(p.id, p.need) for p in challenge.paths]
        for path_id, steps in w.s.path_deltas:
            paths = _delta(paths, path_id, steps)
        w.set(challenge_index=w.s.step_index, challenge_turn=1, paths=tuple(paths),
              path_deltas=(), played=(),
              budge_hand=tuple(b for b in w.s.budge_hand if b != budge_id))
        w.note("challenge", text=challenge.title)
        w.say(challenge.text)
        w.note("budge", text=card.id)
        w.say(card.text)
        for effect in card.effects:
            self._effect(w, effect, from_budge=True, names=names)

    def _action(self, w: _Work, action: object) -> None:
        winning = w.s.scoreboard == "winning"
        board = "Jaffar is Winning" if winning else "Jaffar is Losing"
        if w.s.now.lose_turn:
            if not isinstance(action, Pass):
                raise _Refused("S13", "Sinbad loses this turn: his action is a pass")
            w.say("Sinbad loses his turn.")
            self._move_sleep(w, -1)
            return
        if isinstance(action, Pass):
            raise _Refused("S8b", "Sinbad passes only when an effect makes him lose his turn")
        if isinstance(action, Draw):
            wanted = 1 if winning else 2
            if action.count != wanted:
                raise _Refused("S8b", f"{board}: Sinbad draws {wanted}, not {action.count}")
            self._draw(w, action.count)
            self._move_sleep(w, -1)
        elif isinstance(action, Play):
            if winning and len(action.placements) > 1:
                raise _Refused("S8b", f"{board}: Sinbad plays only 1 card")
            for placement in action.placements:
                self._play(w, placement)
        elif isinstance(action, DrawPlay):
            if winning:
                raise _Refused("S8b", f"{board}: Sinbad may not draw and play in one turn")
            self._draw(w, 1)
            self._play(w, action.placement)
        elif isinstance(action, Trade):
            self._trade(w, action)
            self._move_sleep(w, -1)

    def _end_turn(self, w: _Work) -> None:
        if w.s.overcome_this_turn and w.s.scoreboard != "losing":
            w.set(scoreboard="losing")                                    # S10
            w.note("scoreboard", text="losing")
            w.say("You're losing your power, Jaffar... and you know that!")
        if w.s.scenario_complete:
            if w.s.scenario_index + 1 >= len(self.campaign.scenarios):
                steps = self.scenario(w.s).steps
                for step in steps[w.s.step_index:]:
                    if isinstance(step, Event):
                        w.say(step.text)
                w.set(result="sinbad", phase=Phase.OVER)
                w.note("result", text="sinbad")
                w.say("Sinbad has done it! The story is over... and the girl is fast asleep.")
                return
        w.set(phase=Phase.JAFFAR)

    def _play(self, w: _Work, placement: Placement) -> None:
        s = w.s
        card = placement.card
        if s.hand < 1:
            raise _Refused("S8b", "Sinbad has no card in his hand to play")
        self._check_unseen(s, card)
        if card.suit is Suit.SPADES:
            if placement.path is not None:
                raise _Refused("S8b", "Antics always go to the bank, never onto a path")
            w.set(hand=s.hand - 1, bank=s.bank.add(card), pointer=card,
                  played=s.played + (card,))
            w.say("Antics! Sinbad clowns around and the girl giggles.")
            self._move_sleep(w, +1)
            return
        if s.overcome_this_turn:
            raise _Refused("S9", "the challenge is overcome: the rest of this action may only "
                           "play Antics")
        challenge = self.challenge(s)
        if challenge is None:
            raise _Refused("S8b", "no challenge is in progress: only Antics can be played")
        fitting = [p for p in s.paths if p.next_suit is card.suit]
        resource = card.suit.resource
        if placement.path is not None:
            path = s.path(placement.path)
            if path is None:
                raise _Refused("S8b", f"{challenge.title} has no path {placement.path!r} "
                               f"(its paths: {', '.join(p.id for p in s.paths)})")
            if path not in fitting:
                wants = path.next_suit.resource if path.next_suit else "nothing more"
                raise _Refused("S8b", f"the {card.name} ({resource}) cannot go on the "
                               f"{path.id} path: its next step needs {wants}")
        else:
            if not fitting:
                raise _Refused("S8b", f"the {card.name} ({resource}) fits no path of "
                               f"{challenge.title}")
            if len(fitting) > 1:
                raise _Refused("S8b", f"the {card.name} fits the paths "
                               f"{' and '.join(p.id for p in fitting)}: say which")
            path = fitting[0]
        step = len(path.cards)
        filled = PathState(path.id, path.need, path.cards + (card,))
        w.set(hand=s.hand - 1, pointer=card, played=s.played + (card,),
              paths=tuple(filled if p.id == path.id else p for p in s.paths))
        spec = challenge.path(path.id)
        w.note("placed", card=card, text=path.id)
        if spec is not None:
            w.say(spec.flavor_line(step))
        if filled.filled:
            self._overcome(w, challenge, path.id)

    def _overcome(self, w: _Work, challenge: Challenge, path_id: str) -> None:
        s = w.s
        bank = s.bank
        for c in s.path_cards:
            bank = bank.add(c)
        assert s.challenge_index is not None
        steps = self.scenario(s).steps
        next_step = s.challenge_index + 1
        complete = not any(isinstance(x, Challenge) for x in steps[next_step:])
        w.set(bank=bank, paths=(), challenge_index=None, challenge_turn=0, played=(),
              step_index=next_step, overcome_this_turn=True, scenario_complete=complete)
        spec = challenge.path(path_id)
        w.note("overcome", text=challenge.id)
        w.say(spec.done if spec and spec.done else f"{challenge.title}: overcome!")

    def _trade(self, w: _Work, trade: Trade) -> None:
        s = w.s
        if s.hand < 1:
            raise _Refused("S8b", "Sinbad has no card in his hand to trade")
        self._check_unseen(s, trade.give)
        bank = s.bank.add(trade.give)                                    # S15g: give first
        where = s.visible(trade.take) if trade.take != trade.give else None
        if where is not None and where != "in the bank":
            raise _Refused("S15j", f"the {trade.take.name} is {where}, not in the bank")
        taken = bank.take(trade.take)
        if taken is None:
            raise _Refused("S8b", f"the bank has no {trade.take.suit.word} to take")
        w.set(bank=taken)
        w.say(f"Sinbad trades the {trade.give.name} for the {trade.take.name}.")

    def _check_unseen(self, s: SinbadState, card: Card) -> None:
        where = s.visible(card)
        if where is not None:
            raise _Refused("S15j", f"the {card.name} is already {where}: one deck has only one "
                           "of each card (check the camera's reading)")

    # Effects (S13), shared by events and Budge cards.

    def _effect(self, w: _Work, effect: Effect, *, from_budge: bool, names: list[Card]) -> None:
        s = w.s
        match effect.kind:
            case "sleep":
                self._move_sleep(w, effect.amount)
            case "scoreboard":
                if s.scoreboard != effect.scoreboard:
                    w.set(scoreboard=effect.scoreboard)
                    w.note("scoreboard", text=effect.scoreboard)
            case "draw":
                self._draw(w, effect.amount)
            case "discard":
                moved = min(effect.amount, s.hand)
                named: list[Card] = []
                while names and len(named) < moved:
                    card = names.pop(0)
                    self._check_unseen(w.s, card)
                    named.append(card)
                bank = s.bank
                for card in named:
                    bank = bank.add(card)
                unnamed = moved - len(named)
                w.set(hand=s.hand - moved, bank=bank.add_unknown(unnamed),
                      unnamed_discards=s.unnamed_discards + (0 if from_budge else unnamed))
                w.note("discard", count=moved, cards=tuple(named))
            case "take":
                for suit in effect.suits:
                    got = w.s.bank.take_suit(suit)
                    if got is None:
                        continue                                          # S15h
                    w.set(bank=got[0], hand=w.s.hand + 1)
                    w.note("take", suit=suit, card=got[1])
            case "lose_turn" | "jaffar_skip" | "jaffar_extra":
                extra = Effects(lose_turn=effect.kind == "lose_turn",
                                jaffar_skip=effect.kind == "jaffar_skip",
                                jaffar_extra=effect.amount if effect.kind == "jaffar_extra" else 0)
                if from_budge:
                    w.set(pending=s.pending.merged(extra))
                else:
                    w.set(now=s.now.merged(extra))
            case "path_delta":
                assert effect.path is not None
                if from_budge:
                    w.set(paths=tuple(_delta(list(s.paths), effect.path, effect.amount)))
                else:
                    w.set(path_deltas=s.path_deltas + ((effect.path, effect.amount),))
            case "say":
                w.say(effect.text)

    def _move_sleep(self, w: _Work, delta: int) -> None:
        value = max(0, min(MAX_SLEEP, w.s.sleep + delta))                # S2
        if value == w.s.sleep:
            return
        w.set(sleep=value)
        w.note("sleep", count=value)
        if value == 0:                                                    # S12
            result = "jaffar" if w.s.scoreboard == "winning" else "draw"
            w.set(result=result, phase=Phase.OVER)
            w.note("result", text=result)
            w.say("The girl is fast asleep. Jaffar wins the night!" if result == "jaffar"
                  else "The girl is fast asleep, and nobody won. It's a draw.")
            raise _Ended()

    def _draw(self, w: _Work, count: int) -> None:
        drawn = 0
        for _ in range(count):
            if w.s.draw_pile == 0:                                       # S11
                bank, excess = w.s.bank.reduce_to_start()
                if excess:
                    w.set(bank=bank, draw_pile=excess, unnamed_discards=0)
                    w.note("reshuffle", count=excess)
                    w.say("The bank is shuffled into a new draw pile.")
            if w.s.draw_pile == 0:
                break
            w.set(hand=w.s.hand + 1, draw_pile=w.s.draw_pile - 1)
            drawn += 1
        if drawn:
            w.note("draw", count=drawn)


def _delta(paths: list[PathState], path_id: str, steps: int) -> list[PathState]:
    """S15d: remove steps from the end (keeping at least 1) or repeat the last resource."""
    out = []
    for p in paths:
        if p.id == path_id:
            if steps < 0:
                keep = max(1, len(p.need) + steps, len(p.cards))
                need = p.need[:keep]
            else:
                need = p.need + (p.need[-1],) * steps
            p = replace(p, need=need)
        out.append(p)
    return out


def _jaffar_range(now: Effects, scoreboard: str) -> tuple[int, int]:
    if now.jaffar_skip:
        return (0, 0)
    extra = now.jaffar_extra
    if scoreboard == "winning":
        return (1 + extra, 2 + extra)
    return (1 + extra, 1 + extra)


def _count_words(low: int, high: int) -> str:
    if low == high:
        return f"{low} card{'s' if low != 1 else ''}"
    return f"{low} or {high} cards"
