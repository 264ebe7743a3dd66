"""Playing-card values: ranks, suits, cards and the resources they stand for.

Card codes follow FORMATS.md: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``C D H S``.
Parsers also accept ``10`` for ``T`` and lower case; output is always canonical.

>>> Card.from_code("qh")
Card.from_code('QH')
>>> Card.from_code("10c").code
'TC'
>>> Card.from_code("2S").suit.resource
'antics'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class CardCodeError(ValueError):
    """A card code that does not follow FORMATS.md (``QH``, ``TC``, ``10c``)."""

    def __init__(self, code: object, reason: str) -> None:
        self.code = code
        super().__init__(f"not a card code: {code!r} ({reason})")


class Suit(enum.Enum):
    """A suit, with the resource it stands for in Sinbad vs. Jaffar."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def word(self) -> str:
        """The suit's name as FORMATS.md writes it: ``clubs``, ``diamonds`` ..."""
        return self.name.lower()

    @property
    def resource(self) -> str:
        """Sinbad's resource for this suit."""
        return _SINBAD_RESOURCE[self]

    @property
    def jaffar_resource(self) -> str:
        """Jaffar's resource for this suit."""
        return _JAFFAR_RESOURCE[self]

    @property
    def symbol(self) -> str:
        return {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[self.value]

    @classmethod
    def from_letter(cls, letter: str) -> Suit:
        try:
            return cls(letter.upper())
        except ValueError:
            raise CardCodeError(letter, "the suit must be one of C D H S") from None

    @classmethod
    def from_word(cls, word: str) -> Suit:
        """A suit from a suit name or a resource name of either character.

        >>> Suit.from_word("friends")
        <Suit.HEARTS: 'H'>
        >>> Suit.from_word("Supplication")
        <Suit.DIAMONDS: 'D'>
        """
        key = word.strip().lower().replace(" ", "_").replace("-", "_")
        try:
            return _WORDS[key]
        except KeyError:
            raise ValueError(f"not a suit or resource name: {word!r}") from None


_SINBAD_RESOURCE = {
    Suit.CLUBS: "muscle",
    Suit.HEARTS: "friends",
    Suit.DIAMONDS: "luck",
    Suit.SPADES: "antics",
}
_JAFFAR_RESOURCE = {
    Suit.CLUBS: "magic",
    Suit.HEARTS: "mind_control",
    Suit.DIAMONDS: "supplication",
    Suit.SPADES: "histrionics",
}
_WORDS: dict[str, Suit] = {}
for _suit in Suit:
    _WORDS[_suit.word] = _suit
    _WORDS[_suit.word.rstrip("s")] = _suit
    _WORDS[_SINBAD_RESOURCE[_suit]] = _suit
    _WORDS[_JAFFAR_RESOURCE[_suit]] = _suit
_WORDS["dumb_luck"] = Suit.DIAMONDS

SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
"""Suits in the order FORMATS.md lists them (and the bank is printed in)."""

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}


@dataclass(frozen=True)
class Card:
    """One card of a standard 52-card deck."""

    rank: str
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardCodeError(self.rank, "the rank must be one of A 2-9 T J Q K")
        # Cards are compared and hashed in every rules step (the bank, the paths, Jaffar's
        # stack): one precomputed number (0..51, suit by suit) makes that cheap.
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + RANKS.index(self.rank))

    index: int = field(init=False, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse a card code (``QH``, ``TC``, ``10c``)."""
        if not isinstance(code, str):
            raise CardCodeError(code, "a card code is a string such as 'QH'")
        text = code.strip().upper()
        if len(text) < 2:
            raise CardCodeError(code, "too short; write rank then suit, as in 'QH'")
        rank, suit = text[:-1], text[-1]
        if rank == "10":
            rank = "T"
        if rank not in RANKS:
            raise CardCodeError(code, f"unknown rank {rank!r}")
        return cls(rank, Suit.from_letter(suit))

    @property
    def code(self) -> str:
        return self.rank + self.suit.letter

    @property
    def name(self) -> str:
        """A name a person reads: ``queen of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.word}"

    @property
    def sort_key(self) -> int:
        """Suit by suit (C D H S), then by rank (A low)."""
        return self.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"


def full_deck() -> tuple[Card, ...]:
    """The 52 cards of one standard deck, in a fixed order (suit by suit)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def parse_label(text: str) -> Card:
    """A card from the labels used by the photo folders (``10S``, ``AH``, ``QC``)."""
    return Card.from_code(text)
