"""The public state of a game of Sinbad vs. Jaffar, as a frozen value (RULINGS S14).

The state knows what the table shows: the bank's cards (by identity where known, by suit
otherwise), the cards on the challenge paths, Jaffar's played stack, and the *counts* of
Sinbad's hand, his draw pile and Jaffar's deck.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from companion.cards import SUITS, Card, Suit


class Phase(enum.Enum):
    """Whose line comes next in the game record."""

    JAFFAR = "jaffar"   # the next line starts a new turn (turn-start, then Jaffar's phase)
    SINBAD = "sinbad"
    OVER = "over"


@dataclass(frozen=True)
class Bank:
    """Sinbad's bank: cards known by identity, cards known only by suit, and cards unknown.

    Cards become known only by suit when a reshuffle (S11) leaves identities uncertain; cards
    are unknown when an effect discarded them unnamed (S15h).
    """

    known: tuple[Card, ...] = ()
    anonymous: tuple[int, int, int, int] = (0, 0, 0, 0)   # per suit, in SUITS order
    unknown: int = 0

    @classmethod
    def by_suit(cls, per_suit: int) -> Bank:
        return cls((), (per_suit, per_suit, per_suit, per_suit), 0)

    @classmethod
    def of_cards(cls, cards: tuple[Card, ...]) -> Bank:
        return cls(_sorted(cards))

    def count(self, suit: Suit) -> int:
        return sum(1 for c in self.known if c.suit is suit) + self.anonymous[SUITS.index(suit)]

    @property
    def total(self) -> int:
        return len(self.known) + sum(self.anonymous) + self.unknown

    def holds_known(self, card: Card) -> bool:
        return card in self.known

    def add(self, card: Card) -> Bank:
        return Bank(_sorted(self.known + (card,)), self.anonymous, self.unknown)

    def add_unknown(self, count: int) -> Bank:
        return replace(self, unknown=self.unknown + count)

    def name_unknown(self, card: Card) -> Bank:
        """An unknown card of the bank turns out to be ``card``."""
        return replace(self, known=_sorted(self.known + (card,)), unknown=self.unknown - 1)

    def take(self, card: Card) -> Bank | None:
        """The bank without ``card``, or None when the bank cannot hold it.

        A card known by identity is taken by identity; otherwise one known only by its suit,
        otherwise an unknown one (whose identity the take reveals).
        """
        if card in self.known:
            rest = list(self.known)
            rest.remove(card)
            return replace(self, known=tuple(rest))
        i = SUITS.index(card.suit)
        if self.anonymous[i] > 0:
            return replace(self, anonymous=_bump(self.anonymous, i, -1))
        if self.unknown > 0:
            return replace(self, unknown=self.unknown - 1)
        return None

    def take_suit(self, suit: Suit) -> tuple[Bank, Card | None] | None:
        """Take any card of ``suit``: one known only by suit first, else the lowest known.

        Returns the new bank and the card's identity where it was known, or None when the
        bank has no card of that suit.
        """
        i = SUITS.index(suit)
        if self.anonymous[i] > 0:
            return replace(self, anonymous=_bump(self.anonymous, i, -1)), None
        candidates = [c for c in self.known if c.suit is suit]
        if not candidates:
            return None
        card = min(candidates, key=lambda c: c.sort_key)
        rest = list(self.known)
        rest.remove(card)
        return replace(self, known=tuple(rest)), card

    def reduce_to_start(self) -> tuple[Bank, int]:
        """S11: keep at most 2 cards of each suit; return the bank and how many cards left it.

        In a reduced suit the identities of the cards that stay become unknown (S15k); cards
        of unknown suit all leave the bank.
        """
        known: list[Card] = []
        anonymous = list(self.anonymous)
        excess = self.unknown
        for i, suit in enumerate(SUITS):
            of_suit = [c for c in self.known if c.suit is suit]
            total = len(of_suit) + anonymous[i]
            if total > 2:
                excess += total - 2
                anonymous[i] = 2
            else:
                known.extend(of_suit)
        return Bank(_sorted(tuple(known)), (anonymous[0], anonymous[1], anonymous[2],
                                            anonymous[3]), 0), excess

    def public(self) -> dict[str, int]:
        shown = {suit.word: self.count(suit) for suit in SUITS}
        if self.unknown:
            shown["unknown"] = self.unknown
        return shown


def _sorted(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index


def _bump(values: tuple[int, int, int, int], i: int, delta: int) -> tuple[int, int, int, int]:
    out = list(values)
    out[i] += delta
    return (out[0], out[1], out[2], out[3])


@dataclass(frozen=True)
class PathState:
    """One path of the current challenge: what it needs and the cards laid on it."""

    id: str
    need: tuple[Suit, ...]
    cards: tuple[Card, ...] = ()

    @property
    def filled(self) -> bool:
        return len(self.cards) >= len(self.need)

    @property
    def next_suit(self) -> Suit | None:
        return None if self.filled else self.need[len(self.cards)]


@dataclass(frozen=True)
class Effects:
    """Effects waiting for a turn (S15c): a lost turn, a skipped or extra-card Jaffar phase."""

    lose_turn: bool = False
    jaffar_skip: bool = False
    jaffar_extra: int = 0

    def merged(self, other: Effects) -> Effects:
        return Effects(self.lose_turn or other.lose_turn, self.jaffar_skip or other.jaffar_skip,
                       self.jaffar_extra + other.jaffar_extra)


@dataclass(frozen=True)
class SinbadState:
    """Everything the rules need to know about a game in progress, and nothing hidden."""

    turn: int = 0
    phase: Phase = Phase.JAFFAR
    sleep: int = 10
    scoreboard: str = "losing"
    result: str | None = None
    # Where the story is: the scenario, the next step of it, and the challenge in progress.
    scenario_index: int = 0
    step_index: int = 0
    scenario_started: bool = False          # its intro and first events have been read
    scenario_complete: bool = False         # its last challenge is overcome (S15f)
    challenge_index: int | None = None      # step index of the challenge in progress
    challenge_turn: int = 0
    paths: tuple[PathState, ...] = ()
    budge_hand: tuple[str, ...] = ()        # this scenario's unplayed Budge cards
    path_deltas: tuple[tuple[str, int], ...] = ()   # from events, for the next challenge
    # Sinbad's cards.
    bank: Bank = field(default_factory=Bank)
    hand: int = 8
    draw_pile: int = 36
    pointer: Card | None = None             # S7: Sinbad's last card, as Jaffar sees it
    played: tuple[Card, ...] = ()           # cards played in this challenge, oldest first
    # Jaffar's cards.
    jaffar_deck: int = 52
    jaffar_stack: tuple[Card, ...] = ()
    jaffar_last: tuple[Card, ...] = ()
    # Effects for this turn and for the next (S15c).
    now: Effects = field(default_factory=Effects)
    pending: Effects = field(default_factory=Effects)
    overcome_this_turn: bool = False
    unnamed_discards: int = 0               # this turn's unnamed effect discards (S15h)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def path_cards(self) -> tuple[Card, ...]:
        return tuple(c for p in self.paths for c in p.cards)

    def path(self, path_id: str) -> PathState | None:
        return next((p for p in self.paths if p.id == path_id), None)

    def visible(self, card: Card) -> str | None:
        """Where a card of Sinbad's deck is already seen on the table (S15j), if anywhere."""
        for p in self.paths:
            if card in p.cards:
                return f"on the {p.id} path"
        if self.bank.holds_known(card):
            return "in the bank"
        return None

    def sinbad_cards_total(self) -> int:
        """Hand + draw pile + bank + paths: always 52 (a checked invariant)."""
        return self.hand + self.draw_pile + self.bank.total + len(self.path_cards)

    def public_core(self) -> dict[str, Any]:
        """The keys FORMATS.md names for ``companion replay`` (scenario ids filled by Game)."""
        return {
            "turn": self.turn,
            "sleep": self.sleep,
            "scoreboard": self.scoreboard,
            "result": self.result,
            "challenge_turn": self.challenge_turn if self.challenge_index is not None else None,
            "paths": {p.id: {"need": len(p.need), "have": len(p.cards)} for p in self.paths},
            "bank": self.bank.public(),
            "hand": self.hand,
            "draw_pile": self.draw_pile,
        }
