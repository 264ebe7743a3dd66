"""The cards the table companion cannot see (RULINGS S14), kept by the simulator.

Sinbad's hand and draw pile and Jaffar's deck are lists (the top of a pile is its end). The
bank is never stored: it is every card of Sinbad's deck that is in no hand, no pile and on no
path, so it cannot drift away from the other three. What is stored about the bank is what the
*engine* knows of it: which of its cards the engine holds only by suit after a reshuffle
(``anon``, S15k) and which it does not know at all (``unknown``, discarded unnamed, S15h).

The class is mutable on purpose: a game changes it thousands of times, and copying frozen
values at every card would cost the benchmark most of its speed. Decisions that must not touch
it yet work on a :meth:`clone`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import chain

from companion.cards import SUITS, Card, full_deck
from companion.sinbad import Note, SinbadState

ALL_CARDS: tuple[Card, ...] = full_deck()
# Card hashes follow Python's per-process string hashing, so sets are never iterated: every
# choice walks ALL_CARDS (or a list) to stay reproducible from the seed alone.
_POSITION: dict[Card, int] = {c: i for i, c in enumerate(ALL_CARDS)}
# Hashing a Card (a dataclass holding an Enum) is the simulator's costliest operation, and the
# cards it deals are always these 52 objects; so positions are looked up by object identity
# first, by value only for a card made elsewhere (a parsed record, say).
_POSITION_BY_ID: dict[int, int] = {id(c): i for i, c in enumerate(ALL_CARDS)}
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = SUITS


def position(card: Card) -> int:
    """The card's index in ALL_CARDS."""
    pos = _POSITION_BY_ID.get(id(card))
    return pos if pos is not None else _POSITION[card]


def _suit_index(card: Card) -> int:
    suit = card.suit
    return 0 if suit is _CLUBS else 1 if suit is _DIAMONDS else 2 if suit is _HEARTS else 3


def suit_tally(cards: Iterable[Card]) -> list[int]:
    """How many of ``cards`` are of each suit, in SUITS order (no hashing)."""
    tally = [0, 0, 0, 0]
    for c in cards:
        suit = c.suit
        if suit is _CLUBS:
            tally[0] += 1
        elif suit is _DIAMONDS:
            tally[1] += 1
        elif suit is _HEARTS:
            tally[2] += 1
        else:
            tally[3] += 1
    return tally


class HiddenStateError(AssertionError):
    """The hidden cards disagree with the engine's public state: a simulator or engine bug."""


class HiddenCards:
    __slots__ = ("hand", "draw", "jaffar", "anon", "unknown", "held")

    def __init__(self, hand: list[Card], draw: list[Card], jaffar: list[Card],
                 anon: set[Card] | None = None, unknown: list[Card] | None = None) -> None:
        self.hand = hand
        self.draw = draw
        self.jaffar = jaffar
        self.anon: set[Card] = anon if anon is not None else set()
        self.unknown: list[Card] = unknown if unknown is not None else []
        # Cards of each suit in hand + pile, kept up to date by every move in or out of them,
        # so that the per-line bank check does not count the whole pile again.
        self.held = suit_tally(chain(hand, draw))

    def clone(self) -> HiddenCards:
        return HiddenCards(list(self.hand), list(self.draw), list(self.jaffar),
                           set(self.anon), list(self.unknown))

    def adopt(self, other: HiddenCards) -> None:
        """Become ``other`` (a clone that looked ahead), except for Jaffar's deck."""
        self.hand, self.draw, self.anon, self.unknown = (other.hand, other.draw, other.anon,
                                                         other.unknown)
        self.held = other.held

    # -- the bank, derived ---------------------------------------------------------------

    def bank(self, path_cards: Iterable[Card]) -> list[Card]:
        """The bank's cards, in deck order: neither in hand, nor in the pile, nor on a path."""
        away = bytearray(52)
        by_id = _POSITION_BY_ID.get
        for group in (self.hand, self.draw, path_cards):
            for c in group:
                pos = by_id(id(c))                 # position(), inlined: the hot loop
                away[pos if pos is not None else _POSITION[c]] = 1
        return [c for c, gone in zip(ALL_CARDS, away, strict=True) if not gone]

    # -- following the engine's notes ----------------------------------------------------

    def follow(self, notes: Sequence[Note], path_cards: Iterable[Card], rng: random.Random,
               choose_discards: Callable[[int], list[Card]]) -> None:
        """Move hidden cards as the notes of one line (or part of one) say.

        ``path_cards`` are the cards on paths when these notes begin; within a line no path
        card moves before a draw, so it is what a reshuffle must leave alone. Cards an effect
        discards without naming them (S15h) are chosen by ``choose_discards`` (Sinbad's choice)
        and become the engine's ``unknown`` cards until named.
        """
        on_paths = tuple(path_cards)
        for note in notes:
            kind = note.kind
            if kind == "draw":
                for _ in range(note.count):
                    self.hand.append(self.draw.pop())
            elif kind == "reshuffle":
                self._reshuffle(note.count, on_paths, rng)
            elif kind == "discard":
                for card in note.cards:
                    self._from_hand(card)
                rest = note.count - len(note.cards)
                if rest:
                    chosen = choose_discards(rest)
                    for card in chosen:
                        self._from_hand(card)
                    self.unknown.extend(chosen)
            elif kind == "take":
                self._take(note, on_paths, rng)

    def _from_hand(self, card: Card) -> None:
        try:
            self.hand.remove(card)
        except ValueError:
            raise HiddenStateError(f"{card.code} is not in Sinbad's hidden hand "
                                   f"({' '.join(c.code for c in self.hand)})") from None
        self.held[_suit_index(card)] -= 1

    def _to_hand(self, card: Card) -> None:
        self.hand.append(card)
        self.held[_suit_index(card)] += 1

    def _take(self, note: Note, on_paths: tuple[Card, ...], rng: random.Random) -> None:
        card = note.card
        if card is None:
            # The engine took a card it knew only by suit: one of those, any of them.
            suit = note.suit
            pool = [c for c in ALL_CARDS if c in self.anon and c.suit is suit]
            if not pool:
                raise HiddenStateError(f"the engine took an anonymous {suit} card, but the "
                                       "hidden bank has none")
            card = pool[rng.randrange(len(pool))]
        elif card not in self.bank(on_paths):
            raise HiddenStateError(f"the engine took {card.code}, not in the hidden bank")
        self.anon.discard(card)
        self._to_hand(card)

    def _reshuffle(self, count: int, on_paths: tuple[Card, ...], rng: random.Random) -> None:
        """S11: the bank keeps at most 2 cards a suit, Sinbad choosing which (S15k); every
        card the engine does not know leaves; the rest goes *under* what is left of the pile
        (a draw of 2 from a pile of 1 takes the old card first)."""
        unknown = set(self.unknown)
        bank = [c for c in self.bank(on_paths) if c not in unknown]
        excess = list(self.unknown)
        for suit in SUITS:
            of_suit = [c for c in bank if c.suit is suit]
            if len(of_suit) > 2:
                keep = rng.sample(of_suit, 2)
                for c in of_suit:
                    self.anon.discard(c)
                    if c not in keep:
                        excess.append(c)
                self.anon.update(keep)        # S15k: identities in a reduced suit are lost
        if len(excess) != count:
            raise HiddenStateError(f"the engine reshuffled {count} bank cards, the hidden bank "
                                   f"has {len(excess)} to spare")
        self.unknown.clear()
        rng.shuffle(excess)
        self.draw[0:0] = excess
        for i, n in enumerate(suit_tally(excess)):
            self.held[i] += n

    def trade(self, give: Card, take: Card) -> None:
        self._from_hand(give)
        self.anon.discard(take)
        self._to_hand(take)

    def play(self, card: Card) -> None:
        self._from_hand(card)

    def name_unknown(self, count: int) -> tuple[Card, ...]:
        """The first ``count`` unknown cards, now named on a Sinbad line (S15h)."""
        named = tuple(self.unknown[:count])
        del self.unknown[:count]
        return named

    # -- checks --------------------------------------------------------------------------

    def check(self, state: SinbadState, deep: bool = False) -> None:
        """The hidden cards agree with the public state: counts always, identities if deep."""
        if len(self.hand) != state.hand:
            raise HiddenStateError(f"hand: hidden {len(self.hand)}, engine {state.hand}")
        if len(self.draw) != state.draw_pile:
            raise HiddenStateError(f"draw pile: hidden {len(self.draw)}, engine "
                                   f"{state.draw_pile}")
        if len(self.jaffar) != state.jaffar_deck:
            raise HiddenStateError(f"Jaffar's deck: hidden {len(self.jaffar)}, engine "
                                   f"{state.jaffar_deck}")
        if len(self.unknown) != state.bank.unknown:
            raise HiddenStateError(f"unknown bank cards: hidden {len(self.unknown)}, engine "
                                   f"{state.bank.unknown}")
        # The bank's cards of a suit are the 13 that are nowhere else (and not unknown).
        away = suit_tally(chain(state.path_cards, self.unknown))
        for i, n in enumerate(self.held):
            away[i] += n
        shown = suit_tally(state.bank.known)
        for i, suit in enumerate(SUITS):
            engine = shown[i] + state.bank.anonymous[i]             # = state.bank.count(suit)
            if 13 - away[i] != engine:
                raise HiddenStateError(f"bank {suit.word}: hidden {13 - away[i]}, engine "
                                       f"{engine}")
        if deep:
            self._deep_check(state, self.bank(state.path_cards))

    def _deep_check(self, state: SinbadState, bank: list[Card]) -> None:
        if self.held != suit_tally(chain(self.hand, self.draw)):
            raise HiddenStateError("the running suit tally of hand and pile has drifted")
        cards = self.hand + self.draw + list(state.path_cards) + bank
        if len(cards) != 52 or len(set(cards)) != 52:
            raise HiddenStateError("Sinbad's 52 cards are not 52 different cards")
        in_bank = set(bank)
        for card in state.bank.known:
            if card not in in_bank or card in self.anon:
                raise HiddenStateError(f"the engine's bank shows {card.code}; hidden says no")
        for i, suit in enumerate(SUITS):
            anon = sum(1 for c in self.anon if c.suit is suit)
            if anon != state.bank.anonymous[i] or not self.anon <= in_bank:
                raise HiddenStateError(f"bank {suit.word} known only by suit: hidden {anon}, "
                                       f"engine {state.bank.anonymous[i]}")
        jaffar = self.jaffar + list(state.jaffar_stack)
        if len(jaffar) != 52 or len(set(jaffar)) != 52:
            raise HiddenStateError("Jaffar's 52 cards are not 52 different cards")


