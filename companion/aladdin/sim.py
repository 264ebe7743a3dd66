"""Seeded random play of Aladdin for tests: players with a simple greedy-random policy and
chance (shuffles, lamp faces, carpet tosses) drawn from one ``random.Random``.

The randomness lives here, never in the engine: every chance result becomes a recorded
action, so the list of actions a game produced replays to the same state (OpenSpiel's
"chance is a player"). Every action must be accepted by the engine; a refusal is a bug in
the simulator or the engine and raises :class:`SimulationError`.

>>> game = simulate(players=3, seed=1)
>>> game.final.over or game.cut_off
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.aladdin.actions import (
    Action,
    Ask,
    Decline,
    Discard,
    Draw,
    Give,
    Keep,
    PlayCarpet,
    PlayJafar,
    PlayLamp,
    Rub,
    Shuffle,
    Swap,
    TakeNothing,
)
from companion.aladdin.cards import CHARACTERS, DECK, AladdinCard, Character, Colour, Kind
from companion.aladdin.engine import Game
from companion.aladdin.record import AladdinHeader
from companion.aladdin.state import HAND_SIZE, AladdinState, Deal, Face, Phase, Rules

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")


class SimulationError(AssertionError):
    """The engine refused a move the simulator thought legal, or an invariant broke."""


@dataclass(frozen=True)
class SimGame:
    """One simulated game: its record (header and actions) and how it ended."""

    header: AladdinHeader
    actions: tuple[Action, ...]
    final: AladdinState
    cut_off: bool           # stopped at the turn cap, with no winner


@dataclass(frozen=True)
class Policy:
    """How eager the simulated players are (probabilities)."""

    play_lamp: float = 0.7
    play_carpet: float = 0.6
    claim_jafar: float = 0.5
    take_discard: float = 0.8   # take a useful discard top rather than the unknown pile


def toss_carpet(rng: random.Random) -> bool:
    """A6: the companion's toss of a Magic Carpet; True (carpet side up) with probability 1/2."""
    return rng.random() < 0.5


def check_invariants(state: AladdinState) -> None:
    """A1: the 60 cards are all somewhere, once; A3: every hand is 5 between turns."""
    places = [c for h in state.hands for c in h] + list(state.draw) + list(state.discard)
    if state.card_count() != len(DECK) or len(set(places)) != len(places) \
            or any(c.kind is Kind.SPECIAL_LAMP for c in places):
        raise SimulationError(f"cards are not conserved at turn {state.turn}")
    if state.phase is Phase.DRAW and any(len(h) != HAND_SIZE for h in state.hands):
        raise SimulationError(f"a hand is not 5 cards at the start of turn {state.turn}: "
                              f"{[len(h) for h in state.hands]}")
    if state.over and state.winner is None:
        raise SimulationError("the game is over without a winner")


def simulate(players: int, seed: int, genies: int = 2, turn_cap: int = 300,
             policy: Policy | None = None, check: bool = True) -> SimGame:
    """Play one seeded game to a win or to ``turn_cap`` turns."""
    rng = random.Random(seed)
    rules = Rules(genies)
    game = Game(rules)
    deal = Deal.shuffled(players, rng)
    header = AladdinHeader(NAMES[:players], deal, rules, extra={"sim_seed": seed})
    state = game.setup(header.players, deal)
    actions: list[Action] = []
    chooser = _Players(game, rng, policy or Policy())
    while not state.over and state.turn <= turn_cap:
        action = chooser.next_action(state)
        outcome = game.apply(state, action)
        if outcome.refusal is not None:
            raise SimulationError(f"seed {seed}: the engine refused {action!r}: "
                                  f"{outcome.refusal}")
        actions.append(action)
        state = outcome.state
        if check:
            check_invariants(state)
    return SimGame(header, tuple(actions), state, not state.over)


class _Players:
    """The decisions of every player and of chance, from one random source."""

    def __init__(self, game: Game, rng: random.Random, policy: Policy) -> None:
        self.game = game
        self.rng = rng
        self.policy = policy

    def next_action(self, s: AladdinState) -> Action:
        rng = self.rng
        if not s.draw:
            pile = list(s.discard[:-1])
            rng.shuffle(pile)
            return Shuffle(tuple(pile))
        match s.phase:
            case Phase.DRAW:
                top = s.discard_top
                hand = s.hand(s.current)
                if top is not None and top.is_character and _value(top, hand) >= 3 \
                        and rng.random() < self.policy.take_discard:
                    return Draw("discard")
                return Draw("pile")
            case Phase.ACT:
                return self._act(s)
            case Phase.RUB:
                claim = self._jafar_claim(s)
                if claim is not None:
                    return claim
                genies, poofs = self.game.faces_left(s)
                lamp = rng.choice(s.lamps_left)
                face = Face.GENIE if rng.random() * (genies + poofs) < genies else Face.POOF
                return Rub(lamp, face)
            case Phase.ASK:
                assert s.magic is not None
                hand = s.hand(s.magic)
                others = [p for p in range(1, s.player_count + 1) if p != s.magic]
                wanted = _missing(hand)
                character = rng.choice(wanted) if wanted and rng.random() < 0.8 \
                    else rng.choice(CHARACTERS)
                return Ask(rng.choice(others), character)
            case Phase.GIVE:
                assert s.asked is not None
                hand = s.hand(s.asked)
                options = [c for c in hand if c.character is s.wish]
                return Give(min(options, key=lambda c: (_value(c, hand), c.index)))
            case Phase.KEEP:
                assert s.magic is not None and s.received is not None
                hand = s.hand(s.magic)
                if _value(s.received, hand) < 3 and rng.random() < 0.7:
                    return Decline()
                rest = [c for c in hand if c is not s.received]
                return Keep(self._worst(rest, hand))
            case Phase.CARPET:
                return self._carpet_choice(s)
            case _:
                raise SimulationError("no move in a finished game")

    def _act(self, s: AladdinState) -> Action:
        rng = self.rng
        hand = s.hand(s.current)
        lamps = [c for c in hand if c.kind is Kind.LAMP]
        carpets = [c for c in hand if c.kind is Kind.CARPET]
        if lamps and rng.random() < self.policy.play_lamp:
            return PlayLamp(rng.choice(lamps))
        if carpets and rng.random() < self.policy.play_carpet:
            return PlayCarpet(rng.choice(carpets), toss_carpet(rng))
        return Discard(self._worst(list(hand), hand))

    def _worst(self, options: list[AladdinCard], hand: tuple[AladdinCard, ...]) -> AladdinCard:
        if self.rng.random() < 0.15:
            return self.rng.choice(options)
        return min(options, key=lambda c: (_value(c, hand), self.rng.random()))

    def _jafar_claim(self, s: AladdinState) -> PlayJafar | None:
        if not s.jafar_window:
            return None
        seat = s.current
        for _ in range(s.player_count - 1):
            seat = s.left_of(seat)
            jafars = [c for c in s.hand(seat) if c.kind is Kind.JAFAR]
            if jafars and self.rng.random() < self.policy.claim_jafar:
                return PlayJafar(seat, jafars[0])
        return None

    def _carpet_choice(self, s: AladdinState) -> Action:
        rng = self.rng
        me = s.current
        hand = s.hand(me)
        target = rng.choice([p for p in range(1, s.player_count + 1) if p != me])
        theirs = s.hand(target)
        best = max(theirs, key=lambda c: (_value(c, hand), c.index))
        if _value(best, hand) < 3:
            return TakeNothing(target)
        return Swap(target, best, self._worst(list(hand), hand))


def _target(hand: tuple[AladdinCard, ...]) -> Colour | None:
    """The colour in which this hand holds the most different characters."""
    best: Colour | None = None
    best_count = 0
    for colour in Colour:
        count = len({c.character for c in hand if c.colour is colour})
        if count > best_count:
            best, best_count = colour, count
    return best


def _missing(hand: tuple[AladdinCard, ...]) -> list[Character]:
    colour = _target(hand)
    have = {c.character for c in hand if c.colour is colour}
    return [ch for ch in CHARACTERS if ch not in have]


def _value(card: AladdinCard, hand: tuple[AladdinCard, ...]) -> int:
    """How much a card helps its holder: 4 completes a new character of the target colour,
    2 a lamp or carpet, 1 anything else (Jafar, duplicates, other colours)."""
    if card.kind in (Kind.LAMP, Kind.CARPET):
        return 2
    if not card.is_character:
        return 1
    colour = _target(hand)
    if card.colour is not colour:
        return 1
    twins = sum(1 for c in hand if c.colour is colour and c.character is card.character)
    held = card in hand
    return 4 if twins - (1 if held else 0) == 0 else 1
