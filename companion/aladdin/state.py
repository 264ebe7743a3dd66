"""The state of a game of Aladdin: The Magic Carpet Game, as a frozen value.

**Full state, public view.** Unlike Sinbad (RULINGS S14), the Aladdin companion plays with
print-and-play cards whose QR codes the camera reads, so the tablet is told every card: the
state holds every hand, the draw pile *in order* (known from the recorded deal and every
recorded reshuffle, A7) and the whole discard pile. What the table may *show* is a separate
function (:func:`companion.aladdin.engine.view_for`): hand sizes for everyone, a player's own
hand only to that player, the top of the discard pile, counts of the piles.

Seats are numbered from 1 in play order: seat 1 sits to the dealer's left and goes first
(the rulebook), so the dealer is the last seat. Records use the same numbers.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.aladdin.cards import (
    SHUFFLED_CARDS,
    AladdinCard,
    AladdinCardError,
    Character,
    Kind,
    sort_cards,
    winning_colour,
)

HAND_SIZE = 5
MIN_PLAYERS = 2
MAX_PLAYERS = 6
SPECIAL_LAMP_COUNT = 4


class SetupError(ValueError):
    """A table that cannot start: bad players, bad house rules or a bad deal.

    ``ruling`` names the ruling broken (``A1`` for the deck and deal, ``A2`` for the lamps).
    """

    def __init__(self, message: str, ruling: str) -> None:
        super().__init__(message)
        self.ruling = ruling


@dataclass(frozen=True)
class Rules:
    """House-rule switches (RULINGS A2): ``genies`` of the 4 special lamps show a Genie."""

    genies: int = 2

    def __post_init__(self) -> None:
        if isinstance(self.genies, bool) or not isinstance(self.genies, int) \
                or not 1 <= self.genies <= 3:
            raise SetupError(f"the house rule \"genies\" is 1, 2 or 3 (got {self.genies!r})",
                             "A2")

    @property
    def poofs(self) -> int:
        return SPECIAL_LAMP_COUNT - self.genies

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        unknown = sorted(set(data) - {"genies"})
        if unknown:
            raise SetupError(f"unknown house rule {unknown[0]!r} (Aladdin knows: genies)", "A2")
        return cls(**dict(data))

    def as_mapping(self) -> dict[str, Any]:
        return {"genies": self.genies}


class Phase(enum.Enum):
    """What the game waits for next (the turn: draw -> one action -> lamp or carpet)."""

    DRAW = "draw"           # the current player draws (A3)
    ACT = "act"             # ... then discards, plays a Lamp or plays a Carpet (A3)
    RUB = "rub"             # the lamp magic turns a special lamp (A4); Jafar may interrupt (A5)
    ASK = "ask"             # a Genie appeared: the lamp magic asks for a character (A4)
    GIVE = "give"           # the asked player picks which card of that character to give (A4)
    KEEP = "keep"           # the asker keeps it (giving a card back) or returns it (A4)
    CARPET = "carpet"       # the carpet landed carpet-side up: swap or take nothing (A6)
    OVER = "over"           # someone won (A8)


class Face(enum.Enum):
    """The back of a special lamp (A2)."""

    GENIE = "genie"
    POOF = "poof"


@dataclass(frozen=True)
class Deal:
    """The table after A1's shuffle: five cards a player and the draw pile, top card first."""

    hands: tuple[tuple[AladdinCard, ...], ...]
    draw: tuple[AladdinCard, ...]

    def __post_init__(self) -> None:
        n = len(self.hands)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(f"Aladdin is for 2 to 6 players; the deal has {n} hands", "A1")
        for seat, hand in enumerate(self.hands, start=1):
            if len(hand) != HAND_SIZE:
                raise SetupError(f"player {seat} is dealt {len(hand)} cards, not 5", "A1")
        dealt = [c for h in self.hands for c in h] + list(self.draw)
        seen: set[AladdinCard] = set()
        for card in dealt:
            if card in seen:
                raise SetupError(f"the {card.id} is dealt twice", "A1")
            if card.kind is Kind.SPECIAL_LAMP:
                raise SetupError(f"the {card.id} is a special lamp: it stays on the table, "
                                 "out of the deal", "A1")
            seen.add(card)
        missing = [c.id for c in SHUFFLED_CARDS if c not in seen]
        if missing:
            raise SetupError(f"the deal leaves out {len(missing)} card(s), e.g. {missing[0]}: "
                             "the 56 shuffled cards are all dealt or in the draw pile", "A1")

    @classmethod
    def shuffled(cls, players: int, rng: random.Random) -> Deal:
        """Shuffle the 56 cards (in deck order) with ``rng``, deal five to each player one
        card at a time from the top, starting with seat 1; the rest is the draw pile."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SetupError(f"Aladdin is for 2 to 6 players, not {players}", "A1")
        cards = list(SHUFFLED_CARDS)
        rng.shuffle(cards)
        dealt = players * HAND_SIZE
        hands = tuple(tuple(cards[seat:dealt:players]) for seat in range(players))
        return cls(hands, tuple(cards[dealt:]))

    @classmethod
    def from_seed(cls, players: int, seed: int) -> Deal:
        """The deal a record's ``"seed"`` stands for: :meth:`shuffled` with
        ``random.Random(seed)``."""
        return cls.shuffled(players, random.Random(seed))

    @classmethod
    def from_json(cls, data: object) -> Deal:
        """``{"hands": [[5 ids], ...], "draw": [ids, top first]}``; raises SetupError."""
        if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list) \
                or not isinstance(data.get("draw"), list):
            raise SetupError("a deal is {\"hands\": [[5 card ids] per player], "
                             "\"draw\": [card ids, top first]}", "A1")
        try:
            hands = tuple(_cards(h) for h in data["hands"])
            draw = _cards(data["draw"])
        except AladdinCardError as exc:
            raise SetupError(f"the deal: {exc}", "A1") from None
        return cls(hands, draw)

    def to_json(self) -> dict[str, Any]:
        return {"hands": [[c.id for c in h] for h in self.hands],
                "draw": [c.id for c in self.draw]}


def _cards(raw: object) -> tuple[AladdinCard, ...]:
    if not isinstance(raw, list):
        raise AladdinCardError(raw, "expected a list of card ids")
    return tuple(AladdinCard.parse(c) for c in raw)


NO_LAMPS: tuple[Face | None, ...] = (None,) * SPECIAL_LAMP_COUNT


@dataclass(frozen=True)
class AladdinState:
    """Everything about a game in progress (the full state; see the module docstring).

    ``hands[seat - 1]`` is kept sorted in deck order. ``discard`` is bottom first (its last
    card is the visible top); ``draw`` is top first. ``lamps`` shows, per special lamp on the
    table (positions 1..4), the face turned up in the current lamp sequence, or None while it
    is lamp side up; after every sequence they are turned back and mixed (A2), so the
    positions carry no memory from one sequence to the next.
    """

    players: tuple[str, ...]
    hands: tuple[tuple[AladdinCard, ...], ...]
    draw: tuple[AladdinCard, ...]
    discard: tuple[AladdinCard, ...] = ()
    turn: int = 1
    current: int = 1                        # whose turn it is (seat)
    phase: Phase = Phase.DRAW
    drawn: AladdinCard | None = None        # the card drawn this turn (A3)
    lamp_card: AladdinCard | None = None    # the Lamp card played this turn (A4)
    magic: int | None = None                # who works the lamp magic (the lamp or Jafar player)
    jafar: int | None = None                # who played Jafar this turn (A5)
    lamps: tuple[Face | None, ...] = NO_LAMPS
    asked: int | None = None                # the player a Genie wish was put to (A4)
    wish: Character | None = None           # the character wished for, by name (A4)
    received: AladdinCard | None = None     # the card given to the asker, before keep/return
    carpet_card: AladdinCard | None = None  # the Carpet tossed this turn (A6)
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def player_count(self) -> int:
        return len(self.players)

    def hand(self, seat: int) -> tuple[AladdinCard, ...]:
        return self.hands[seat - 1]

    def name(self, seat: int) -> str:
        return self.players[seat - 1]

    def left_of(self, seat: int) -> int:
        """The next seat in play order (play passes to the left)."""
        return seat % len(self.players) + 1

    @property
    def discard_top(self) -> AladdinCard | None:
        return self.discard[-1] if self.discard else None

    @property
    def lamps_left(self) -> tuple[int, ...]:
        """Positions (1..4) of the special lamps still lamp side up in this sequence."""
        return tuple(i for i, face in enumerate(self.lamps, start=1) if face is None)

    @property
    def jafar_window(self) -> bool:
        """A5: a Lamp was played and no lamp is turned yet, nor Jafar claimed."""
        return (self.phase is Phase.RUB and self.jafar is None
                and all(face is None for face in self.lamps))

    def card_count(self) -> int:
        """Hands + draw pile + discard pile + the 4 special lamps: always 60 (A1)."""
        return (sum(len(h) for h in self.hands) + len(self.draw) + len(self.discard)
                + SPECIAL_LAMP_COUNT)

    def holder(self, card: AladdinCard) -> int | None:
        """The seat whose hand holds ``card``, if any."""
        for seat, hand in enumerate(self.hands, start=1):
            if card in hand:
                return seat
        return None

    def winning_seat(self) -> int | None:
        """The first seat, in seat order, whose hand holds a full colour (A8)."""
        for seat, hand in enumerate(self.hands, start=1):
            if winning_colour(hand) is not None:
                return seat
        return None


def with_card(hand: tuple[AladdinCard, ...], card: AladdinCard) -> tuple[AladdinCard, ...]:
    return sort_cards(hand + (card,))


def without_card(hand: tuple[AladdinCard, ...], card: AladdinCard) -> tuple[AladdinCard, ...]:
    return tuple(c for c in hand if c is not card)


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """Player names: 2..6 distinct, non-empty strings (A1)."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError(f"Aladdin is for 2 to 6 players, not {len(names)}", "A1")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"a player's name is a non-empty string, not {name!r}", "A1")
    if len(set(names)) != len(names):
        raise SetupError("two players have the same name", "A1")
    return names
