"""One whole simulated game: shuffle, deal, and let two policies play it through the engine.

Chance is explicit and seeded (STYLE, OpenSpiel): one ``random.Random(seed)`` shuffles both
decks and makes every random choice, and nothing else does, so a seed is a game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cards import SUITS, Card
from companion.sim import probe
from companion.sim.config import SimConfig
from companion.sim.hidden import ALL_CARDS, HiddenCards, HiddenStateError
from companion.sim.policies import (
    JaffarPolicy,
    JaffarView,
    SinbadPolicy,
    SinbadView,
    legal_actions,
)
from companion.sinbad import (
    Action,
    Draw,
    DrawPlay,
    Game,
    JaffarPlays,
    Outcome,
    Pass,
    Phase,
    Play,
    SinbadState,
    SinbadTurn,
    Trade,
    action_to_line,
)
from companion.sinbad.actions import SinbadAction

Observer = Callable[[Action, Outcome, HiddenCards], None]


class SimulationError(RuntimeError):
    """A game the simulator could not play on: a line the engine refused that no legal
    alternative could replace, or a game that would not end."""


@dataclass(frozen=True)
class GameLog:
    """What one game leaves behind for the statistics and for its record."""

    seed: int
    result: str                                   # "sinbad", "jaffar" or "draw"
    turns: int
    challenges: tuple[tuple[str, int], ...]       # ("scenario/challenge", turns), as overcome
    ended_in: str | None                          # where a game Sinbad did not win stopped
    sleep: tuple[int, ...]                        # the meter at the end of every turn
    refusals: int                                 # policy lines the engine refused
    bank: tuple[Card, ...]
    lines: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    final: SinbadState | None = field(default=None, compare=False)


def deal(rng: random.Random) -> tuple[tuple[Card, ...], HiddenCards]:
    """S1: Sinbad's bank of 2 per suit, his hand of 8 and pile of 36; Jaffar's 52."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    bank: list[Card] = []
    rest: list[Card] = []
    taken = dict.fromkeys(SUITS, 0)
    for card in deck:
        if taken[card.suit] < 2:
            taken[card.suit] += 1
            bank.append(card)
        else:
            rest.append(card)
    jaffar = list(ALL_CARDS)
    rng.shuffle(jaffar)
    return tuple(bank), HiddenCards(rest[:8], rest[8:], jaffar)


class _Table:
    """One game in progress: the engine's state, the hidden cards, the two players."""

    def __init__(self, game: Game, seed: int, sinbad: SinbadPolicy, jaffar: JaffarPolicy,
                 config: SimConfig, observer: Observer | None = None) -> None:
        self.game = game
        self.observer = observer
        self.seed = seed
        self.rng = random.Random(seed)
        self.sinbad = sinbad
        self.jaffar = jaffar
        self.config = config
        self.bank, self.hidden = deal(self.rng)
        self.state = game.initial_state(self.bank)
        self.lines: list[dict[str, Any]] = []
        self.sleep: list[int] = []
        self.challenges: list[tuple[str, int]] = []
        self.begun: tuple[str, int] | None = None
        self.refusals = 0
        self.last: tuple[Action, Outcome] | None = None

    # -- views -----------------------------------------------------------------------------

    def _sinbad_view(self, state: SinbadState, hidden: HiddenCards,
                     peek: Any = None) -> SinbadView:
        def bank() -> tuple[Card, ...]:
            return tuple(hidden.bank(state.path_cards))

        return SinbadView(self.game, state, tuple(hidden.hand), bank, self.rng, self.config,
                          peek if peek is not None else _nothing)

    def _chooser(self, state: SinbadState, hidden: HiddenCards) -> Any:
        def choose(count: int) -> list[Card]:
            return self.sinbad.discard_order(self._sinbad_view(state, hidden))[:count]
        return choose

    # -- the game --------------------------------------------------------------------------

    def run(self) -> GameLog:
        while self.state.phase is not Phase.OVER:
            if self.state.turn > self.config.max_turns:
                raise SimulationError(f"seed {self.seed}: no result after "
                                      f"{self.config.max_turns} turns")
            if self.state.phase is Phase.JAFFAR:
                self._jaffar_phase()
            else:
                self._sinbad_phase()
            self.hidden.check(self.state, self.config.deep_checks)
            if self.observer is not None and self.last is not None:
                self.observer(self.last[0], self.last[1], self.hidden)
        return self._log()

    def _commit(self, action: Action, outcome: Outcome) -> None:
        self.state = outcome.state
        self.last = (action, outcome)
        if self.config.keep_lines:
            self.lines.append(action_to_line(action))
        if self.state.phase is not Phase.SINBAD:       # the turn is over (or the game)
            self.sleep.append(self.state.sleep)

    def _jaffar_phase(self) -> None:
        game, state, hidden = self.game, self.state, self.hidden
        start = probe.turn_start(game, state)
        hidden.follow(start.notes, state.path_cards, self.rng,
                      self._chooser(start.state, hidden))
        cards: tuple[Card, ...] = ()
        deck = hidden.jaffar
        if not start.ended and not start.state.now.jaffar_skip:
            cards, deck = self._jaffar_cards(start.state)
        action = JaffarPlays(cards)
        outcome = game.apply(state, action)
        if outcome.refusal is not None:
            raise SimulationError(f"seed {self.seed}, turn {state.turn + 1}: the engine "
                                  f"refused Jaffar's {[c.code for c in cards]}: "
                                  f"{outcome.refusal}")
        hidden.jaffar = deck
        self._commit(action, outcome)

    def _jaffar_cards(self, started: SinbadState) -> tuple[tuple[Card, ...], list[Card]]:
        """Jaffar's cards for this phase, one at a time; an empty deck is his stack shuffled
        (S7) at the moment he needs a card, as the engine does it."""
        low, high = probe.jaffar_range(self.game, started)
        deck = list(self.hidden.jaffar)
        stack = list(started.jaffar_stack)
        chosen: list[Card] = []
        while len(chosen) < high:
            renewed = not deck
            if renewed:
                # Only a card actually played turns the stack over (as in the engine), so a
                # Jaffar who stops here leaves the empty deck as it is.
                deck = list(stack)
                self.rng.shuffle(deck)
            view = JaffarView(self.game, started, low, high, tuple(chosen), self.rng,
                              self.config)
            card = self.jaffar.pick(view, deck)
            if card is None:
                if len(chosen) < low:
                    raise SimulationError(f"Jaffar policy {self.jaffar.name} stopped after "
                                          f"{len(chosen)} of at least {low} cards")
                if renewed:
                    deck = []
                break
            if renewed:
                stack = []
            if card is deck[-1]:
                deck.pop()
            else:
                deck.remove(card)
            stack.append(card)
            chosen.append(card)
        return tuple(chosen), deck

    def _sinbad_phase(self) -> None:
        game, state, hidden = self.game, self.state, self.hidden
        named = min(len(hidden.unknown), state.unnamed_discards, state.bank.unknown)
        turn_names = tuple(hidden.unknown[:named])
        budge: str | None = None
        order: list[Card] = []
        if game.budge_due(state):
            view = self._sinbad_view(state, hidden)
            budge = self.sinbad.budge(view)
            order = self.sinbad.discard_order(view)
        pre = probe.sinbad_prefix(game, state, turn_names, budge, order)
        hidden.name_unknown(named)
        hidden.follow(pre.notes, state.path_cards, self.rng, self._chooser(pre.state, hidden))
        names = turn_names + pre.used_names
        if budge is not None:
            challenge = game.next_challenge(state)
            key = f"{game.scenario(state).id}/{challenge.id if challenge else '?'}"
            self.begun = (key, state.turn)
        if pre.ended:
            # The Budge card ended the game (S15i): the action is never looked at.
            filler: SinbadAction = Pass() if state.now.lose_turn else Draw(
                1 if pre.state.scoreboard == "winning" else 2)
            self._sinbad_line(state, SinbadTurn(filler, budge, names), pre, None)
            return
        mid = pre.state
        peeked: list[tuple[HiddenCards, Card | None, int]] = []

        def peek() -> Card | None:
            if not peeked:
                drawn = probe.draw_one(game, mid)
                ahead = hidden.clone()
                ahead.follow(drawn.notes, mid.path_cards, self.rng, _no_discard)
                card = ahead.hand[-1] if any(n.kind == "draw" for n in drawn.notes) else None
                peeked.append((ahead, card, len(drawn.notes)))
            return peeked[0][1]

        view = self._sinbad_view(mid, hidden, peek)
        choice = self.sinbad.action(view)
        tried: list[SinbadAction] = []
        while True:
            line = SinbadTurn(choice, budge, names)
            outcome = game.apply(state, line)
            if outcome.refusal is None:
                break
            # A policy's mistake: count it, and fall back on a random line the rules allow.
            self.refusals += 1
            tried.append(choice)
            options = [a for a in legal_actions(view) if a not in tried]
            if not options:
                raise SimulationError(f"seed {self.seed}, turn {state.turn}: no legal line "
                                      f"for Sinbad (last refusal: {outcome.refusal})")
            choice = options[self.rng.randrange(len(options))]
        self._sinbad_line(state, line, pre, (outcome, peeked[0] if peeked else None))

    def _sinbad_line(self, state: SinbadState, line: SinbadTurn, pre: probe.Prefix,
                     done: tuple[Outcome, tuple[HiddenCards, Card | None, int] | None] | None,
                     ) -> None:
        if done is None:
            outcome = self.game.apply(state, line)
            if outcome.refusal is not None:
                raise SimulationError(f"seed {self.seed}: the engine refused {line}: "
                                      f"{outcome.refusal}")
            self._commit(line, outcome)
            return
        outcome, peeked = done
        hidden = self.hidden
        rest = outcome.notes[len(pre.notes):]
        action = line.action
        if isinstance(action, DrawPlay) and peeked is not None:
            ahead, _, used = peeked
            hidden.adopt(ahead)
            rest = rest[used:]
        hidden.follow(rest, pre.state.path_cards, self.rng, _no_discard)
        if isinstance(action, Play):
            for p in action.placements:
                hidden.play(p.card)
        elif isinstance(action, DrawPlay):
            hidden.play(action.placement.card)
        elif isinstance(action, Trade):
            hidden.trade(action.give, action.take)
        if any(n.kind == "overcome" for n in rest) and self.begun is not None:
            key, turn = self.begun
            self.challenges.append((key, outcome.state.turn - turn + 1))
            self.begun = None
        self._commit(line, outcome)

    def _log(self) -> GameLog:
        state = self.state
        result = state.result or "draw"
        ended_in: str | None = None
        if result != "sinbad":
            challenge = self.game.challenge(state) or self.game.next_challenge(state)
            name = challenge.id if challenge is not None else "(between challenges)"
            ended_in = f"{self.game.scenario(state).id}/{name}"
        return GameLog(self.seed, result, state.turn, tuple(self.challenges), ended_in,
                       tuple(self.sleep), self.refusals, self.bank, tuple(self.lines), state)


def _nothing() -> Card | None:
    return None


def _no_discard(count: int) -> list[Card]:
    raise HiddenStateError(f"{count} card(s) discarded unnamed during Sinbad's action")


def play_game(game: Game, seed: int, sinbad: SinbadPolicy, jaffar: JaffarPolicy,
              config: SimConfig | None = None, observer: Observer | None = None) -> GameLog:
    """Play one whole game from ``seed`` and return its log (and its lines when
    ``config.keep_lines``). ``observer`` sees every applied line with the engine's outcome
    and the hidden cards after it (tests check invariants with it)."""
    return _Table(game, seed, sinbad, jaffar, config or SimConfig(), observer).run()


def record_header(campaign: str, game: Game, log: GameLog,
                  extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The first line of a game record (FORMATS.md) for a simulated game."""
    header: dict[str, Any] = {"game": "sinbad", "campaign": campaign,
                              "rules": game.rules.as_dict(),
                              "bank": [c.code for c in log.bank], "seed": log.seed}
    if extra:
        header.update(extra)
    return header


def write_record(path: Path, header: dict[str, Any], log: GameLog) -> None:
    """Write a game as a record file (JSON Lines: the header, then one line a phase)."""
    with path.open("w", encoding="utf-8") as fh:
        for line in (header, *log.lines):
            fh.write(json.dumps(line) + "\n")


__all__ = ["GameLog", "Observer", "SimulationError", "deal", "play_game", "record_header",
           "write_record"]
