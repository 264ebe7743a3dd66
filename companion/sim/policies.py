"""Players for the simulator: Sinbad ("random", "heuristic") and Jaffar ("deck", "schemer").

A policy sees what its player sees at the table: Sinbad his hand and the face-up bank, Jaffar
his own face-down deck (a human Jaffar chooses among his cards, the rulebook's deck-top rule is
for a table without one). Policies only *propose*; every line is applied by the engine, which
refuses what the rules forbid.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from companion.cards import SUITS, Card, Suit
from companion.scenario import BudgeCard, Effect
from companion.sim.config import SimConfig
from companion.sim.hidden import suit_tally
from companion.sinbad import (
    Draw,
    DrawPlay,
    Game,
    Pass,
    PathState,
    Placement,
    Play,
    SinbadState,
    Trade,
)
from companion.sinbad.actions import SinbadAction

SPADES = Suit.SPADES


@dataclass(frozen=True)
class SinbadView:
    """What Sinbad knows when he decides: the public state, his hand and the face-up bank.

    ``peek`` draws, hypothetically, the card a draw-and-play would bring (None when nothing is
    left to draw); a policy calls it once it has settled on drawing and playing.
    """

    game: Game
    state: SinbadState
    hand: tuple[Card, ...]
    bank_cards: Callable[[], tuple[Card, ...]]
    rng: random.Random
    config: SimConfig
    peek: Callable[[], Card | None]

    @cached_property
    def bank(self) -> tuple[Card, ...]:
        """The bank's cards, face up on the table (worked out only when a policy looks)."""
        return self.bank_cards()


@dataclass(frozen=True)
class JaffarView:
    """What Jaffar knows in his phase: the public state after the turn started (S15b), how
    many cards he must and may play (S7, S15e), and the cards he has played so far."""

    game: Game
    state: SinbadState
    low: int
    high: int
    chosen: tuple[Card, ...]
    rng: random.Random
    config: SimConfig


class SinbadPolicy(Protocol):
    name: str

    def budge(self, view: SinbadView) -> str: ...

    def discard_order(self, view: SinbadView) -> list[Card]: ...

    def action(self, view: SinbadView) -> SinbadAction: ...


class JaffarPolicy(Protocol):
    name: str

    def pick(self, view: JaffarView, deck: Sequence[Card]) -> Card | None:
        """The next card of the phase (from ``deck``, top last), or None to stop (allowed
        once ``low`` cards are played)."""
        ...


# -- legal lines -------------------------------------------------------------------------


def placements(paths: Sequence[PathState], card: Card) -> list[Placement]:
    """Where ``card`` may go: Antics to the bank, others onto a path whose next step fits."""
    if card.suit is SPADES:
        return [Placement(card)]
    return [Placement(card, p.id) for p in paths if p.next_suit is card.suit]


def _advance(paths: Sequence[PathState], placement: Placement) -> tuple[list[PathState], bool]:
    """The paths after a placement, and whether that overcame the challenge (S9)."""
    if placement.path is None:
        return list(paths), False
    out = []
    done = False
    for p in paths:
        if p.id == placement.path:
            p = PathState(p.id, p.need, p.cards + (placement.card,))
            done = p.filled
        out.append(p)
    return out, done


def legal_actions(view: SinbadView) -> list[SinbadAction]:
    """Every action line Sinbad may take now (S8b), with its card and path choices spelled
    out; a draw-and-play lists the card it would draw too."""
    lines = _lines_but_trades(view)
    for give in view.hand:
        lines.extend(Trade(give, take) for take in view.bank)
        lines.append(Trade(give, give))                     # S15g: give first, so legal
    return lines


def _trade_count(view: SinbadView) -> int:
    if view.state.now.lose_turn:
        return 0
    return len(view.hand) * (len(view.bank) + 1)


def _trade_at(view: SinbadView, index: int) -> Trade:
    """The ``index``-th trade in the order :func:`legal_actions` lists them."""
    give = view.hand[index // (len(view.bank) + 1)]
    k = index % (len(view.bank) + 1)
    return Trade(give, view.bank[k] if k < len(view.bank) else give)


def _lines_but_trades(view: SinbadView) -> list[SinbadAction]:
    st = view.state
    if st.now.lose_turn:
        return [Pass()]
    winning = st.scoreboard == "winning"
    hand = view.hand
    lines: list[SinbadAction] = [Draw(1 if winning else 2)]
    paths = st.paths
    for card in hand:
        for first in placements(paths, card):
            lines.append(Play((first,)))
            if winning:
                continue
            after, done = _advance(paths, first)
            for other in hand:
                if other == card:
                    continue
                if done and other.suit is not SPADES:
                    continue                               # S9: only Antics after overcoming
                lines.extend(Play((first, second)) for second in placements(after, other))
    if not winning:
        drawn = view.peek()
        for card in hand + ((drawn,) if drawn is not None else ()):
            lines.extend(DrawPlay(p) for p in placements(paths, card))
    return lines


# -- Sinbad: random ------------------------------------------------------------------------


class RandomSinbad:
    """Uniformly random: any Budge card, any discards, any legal line."""

    name = "random"

    def budge(self, view: SinbadView) -> str:
        cards = view.game.budge_cards(view.state)
        return cards[view.rng.randrange(len(cards))].id

    def discard_order(self, view: SinbadView) -> list[Card]:
        order = list(view.hand)
        view.rng.shuffle(order)
        return order

    def action(self, view: SinbadView) -> SinbadAction:
        # The same draw as picking from legal_actions(view), without building every trade.
        lines = _lines_but_trades(view)
        pick = view.rng.randrange(len(lines) + _trade_count(view))
        return lines[pick] if pick < len(lines) else _trade_at(view, pick - len(lines))


# -- Sinbad: heuristic ---------------------------------------------------------------------


def _si(suit: Suit) -> int:
    """A suit's index in SUITS. (Suit-keyed dicts hash an Enum in Python code, which costs
    the simulator more than all its card logic; so tallies are lists.)"""
    return 0 if suit is _C else 1 if suit is _D else 2 if suit is _H else 3


_C, _D, _H, _S = SUITS


def _counts(cards: Sequence[Card]) -> list[int]:
    return suit_tally(cards)


def _suit_counts(suits: Sequence[Suit]) -> list[int]:
    out = [0, 0, 0, 0]
    for s in suits:
        out[_si(s)] += 1
    return out


def path_cost(path: PathState, counts: list[int], config: SimConfig) -> float:
    """Roughly how many turns a path still needs: its open steps, plus a penalty for each
    card of them that is not in hand."""
    rest = path.need[len(path.cards):]
    need = _suit_counts(rest)
    missing = sum(max(0, need[i] - counts[i]) for i in range(4))
    return len(rest) + config.missing_card_cost * missing


def jaffar_odds(state: SinbadState) -> list[float]:
    """The share of each suit in Jaffar's face-down deck, which Sinbad can count from the
    face-up stack: the chance that his next card is of that suit."""
    stack = suit_tally(state.jaffar_stack)
    if state.jaffar_deck == 0:                 # his stack is about to become his deck (S7)
        total = sum(stack)
        return [n / total if total else 0.0 for n in stack]
    return [(13 - n) / state.jaffar_deck for n in stack]


def best_placement(paths: Sequence[PathState], hand: Sequence[Card], config: SimConfig,
                   odds: Sequence[float] | None = None) -> Placement | None:
    """The path card that brings the cheapest path closest to done (Antics excluded); with
    ``odds``, a card Jaffar is likely to remove counts as a little further from done."""
    counts = _counts(hand)
    best: tuple[float, int, int] | None = None
    choice: Placement | None = None
    for i, path in enumerate(paths):
        suit = path.next_suit
        if suit is None or suit is SPADES or counts[_si(suit)] == 0:
            continue
        left = len(path.need) - len(path.cards)
        cost = path_cost(path, counts, config)
        if odds is not None and left > 1:
            cost += config.removal_risk_cost * odds[_si(suit)]
        key = (cost, left, i)
        if best is None or key < best:
            best = key
            card = next(c for c in hand if c.suit is suit)
            choice = Placement(card, path.id)
    return choice


def _demand(view: SinbadView) -> list[int]:
    """How many cards of each suit the current (or next) challenge may still ask for."""
    demand = [0, 0, 0, 0]
    needs = [p.need[len(p.cards):] for p in view.game.upcoming_paths(view.state)]
    for need in needs:
        for i, n in enumerate(_suit_counts(need)):
            demand[i] = max(demand[i], n)
    demand[3] = 2          # a couple of Antics keep the girl awake and shield path cards
    return demand


class HeuristicSinbad:
    """A sensible player: closest path first, two cards when he may, Antics when the girl is
    nodding off, trades for the card the best path lacks, Budge cards by their worth now."""

    name = "heuristic"

    def budge(self, view: SinbadView) -> str:
        cards = view.game.budge_cards(view.state)
        return max(cards, key=lambda b: (self._worth(view, b), b.id)).id

    def _worth(self, view: SinbadView, card: BudgeCard) -> float:
        return sum(self._effect_worth(view, e) for e in card.effects)

    @staticmethod
    def _effect_worth(view: SinbadView, e: Effect) -> float:
        st = view.state
        match e.kind:
            case "sleep":
                if e.amount > 0:
                    return float(min(e.amount, 10 - st.sleep))   # S2: +1 at the top is lost
                return e.amount * (2.0 if st.sleep <= 3 else 1.0)
            case "scoreboard":
                return -3.0 if e.scoreboard == "winning" else 3.0
            case "draw":
                return 0.5 * e.amount
            case "discard":
                return -0.7 * e.amount
            case "take":
                bank = _counts(view.bank)
                return 0.6 * sum(1 for s in e.suits if bank[_si(s)] > 0)
            case "lose_turn":
                return -2.0
            case "jaffar_skip":
                return 1.0
            case "jaffar_extra":
                return -0.8 * e.amount
            case "path_delta":
                return -1.0 * e.amount
            case _:
                return 0.0

    def discard_order(self, view: SinbadView) -> list[Card]:
        demand = _demand(view)
        counts = _counts(view.hand)
        surplus = [counts[i] - demand[i] for i in range(4)]
        return sorted(view.hand, key=lambda c: (-surplus[_si(c.suit)], c.rank, _si(c.suit)))

    def action(self, view: SinbadView) -> SinbadAction:
        st = view.state
        cfg = view.config
        if st.now.lose_turn:
            return Pass()
        winning = st.scoreboard == "winning"
        hand = list(view.hand)
        antics = [c for c in hand if c.suit is SPADES]
        odds = jaffar_odds(st) if cfg.removal_risk_cost else None
        first = best_placement(st.paths, hand, cfg, odds)
        if winning:
            if first is not None:
                _, done = _advance(st.paths, first)
                if done or len(hand) > cfg.winning_hand:
                    return Play((first,))
                return Draw(1)
            if antics and st.sleep <= cfg.antics_sleep_winning:
                return Play((Placement(antics[0]),))
            return self._trade(view) or Draw(1)
        if first is not None:
            after, done = _advance(st.paths, first)
            rest = [c for c in hand if c != first.card]
            if done:
                if antics and st.sleep < 10:
                    return Play((first, Placement(antics[0])))
                return Play((first,))
            second = best_placement(after, rest, cfg, odds)
            if second is not None:
                _, finishes = _advance(after, second)
                # On the challenge's last Losing turn (S6) there is nothing to save cards for.
                if finishes or st.challenge_turn >= 2 or len(hand) - 2 >= cfg.keep_hand:
                    return Play((first, second))
            if antics and st.sleep <= cfg.shield_sleep:
                return Play((first, Placement(antics[0])))
            drawn = view.peek()
            if drawn is not None:
                best = best_placement(st.paths, hand + [drawn], cfg, odds)
                if best is not None:
                    return DrawPlay(best)
            return Play((first,))
        if antics and st.sleep <= cfg.antics_sleep_losing:
            return Play(tuple(Placement(a) for a in antics[:2]))
        return self._trade(view) or Draw(2)

    def _trade(self, view: SinbadView) -> Trade | None:
        """A bank card of the suit the cheapest path needs next, for the most expendable
        card of another suit; None when the bank cannot help."""
        st = view.state
        counts = _counts(view.hand)
        ranked = sorted(st.paths, key=lambda p: path_cost(p, counts, view.config))
        order = self.discard_order(view)
        for path in ranked:
            suit = path.next_suit
            if suit is None or counts[_si(suit)] > 0:
                continue
            take = next((c for c in view.bank if c.suit is suit), None)
            if take is None:
                continue
            give = next((c for c in order if c.suit is not suit), None)
            if give is None:
                return None
            return Trade(give, take)
        return None


# -- Jaffar ----------------------------------------------------------------------------------


class DeckJaffar:
    """The rulebook's Jaffar with no human player: the top of his deck, as many as he may."""

    name = "deck"

    def pick(self, view: JaffarView, deck: Sequence[Card]) -> Card | None:
        return deck[-1]


class SchemerJaffar:
    """A human Jaffar choosing from his remaining deck: remove Sinbad's last path card when he
    holds its suit, Histrionics only when Losing with the girl nodding off (a sleep of 0 while
    Losing is a draw, S12; while Winning it is his win), stop as soon as more cards are no
    better, and spend the suits Sinbad's paths do not ask for, keeping the ones they do."""

    name = "schemer"

    def pick(self, view: JaffarView, deck: Sequence[Card]) -> Card | None:
        st = view.state
        target = self._target(view)
        if target is not None:
            hit = next((c for c in reversed(deck) if c.suit is target.suit), None)
            if hit is not None:
                return hit
        winning = st.scoreboard == "winning"
        spades_played = sum(1 for c in view.chosen if c.suit is SPADES)
        sleep = min(10, st.sleep + spades_played)
        if not winning and sleep <= view.config.histrionics_sleep:
            hist = next((c for c in reversed(deck) if c.suit is SPADES), None)
            if hist is not None:
                return hist
        if len(view.chosen) >= view.low:
            return None
        wanted = _suit_counts([s for p in st.paths for s in p.need[len(p.cards):]])
        in_deck = _counts(deck)
        plain = [s for s in SUITS if s is not SPADES and in_deck[_si(s)] > 0]
        if not plain:
            return deck[-1]                        # only Histrionics left: he must play one
        suit = min(plain, key=lambda s: (wanted[_si(s)], -in_deck[_si(s)], _si(s)))
        return next(c for c in reversed(deck) if c.suit is suit)

    @staticmethod
    def _target(view: JaffarView) -> Card | None:
        """Sinbad's last card if Jaffar's next card could still remove it (S7)."""
        st = view.state
        on_paths = [c for c in st.path_cards]
        pointer = st.pointer
        removed: list[Card] = []
        for card in view.chosen:
            if pointer is not None and card.suit is pointer.suit and pointer in on_paths:
                on_paths.remove(pointer)
                removed.append(pointer)
                if view.game.rules.jaffar_chain:
                    pointer = next((c for c in reversed(st.played) if c in on_paths), None)
        if pointer is None or pointer.suit is SPADES or pointer not in on_paths:
            return None
        return pointer


SINBAD_POLICIES: dict[str, Callable[[], SinbadPolicy]] = {
    "random": RandomSinbad,
    "heuristic": HeuristicSinbad,
}
JAFFAR_POLICIES: dict[str, Callable[[], JaffarPolicy]] = {
    "deck": DeckJaffar,
    "schemer": SchemerJaffar,
}
