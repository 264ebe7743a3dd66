"""The 60 cards of Aladdin: The Magic Carpet Game (RULINGS A1) as values with stable ids.

The rulebook says the character cards come "2 each in 4 colors" without naming the colours.
We name them **green, red, blue, yellow** (the order used everywhere: ids, sorting, output),
because FORMATS.md's example QR text ``aladdin:jasmine-green-1`` already fixes green and the
other three are the colours of the printed boxes.

Ids (FORMATS.md: print-and-play cards carry the QR text ``aladdin:<id>``):

- ``<character>-<colour>-<1|2>`` for the 40 character cards, e.g. ``jasmine-red-2``;
- ``jafar-1`` and ``jafar-2``; ``lamp-1`` .. ``lamp-8`` (regular Magic Lamp cards, shuffled
  into the deck); ``carpet-1`` .. ``carpet-6``;
- ``special-1`` .. ``special-4``: the special Magic Lamp cards, kept apart on the table.

>>> AladdinCard.parse("aladdin:jasmine-green-1")
AladdinCard.parse('jasmine-green-1')
>>> AladdinCard.parse("Rajah-Blue-2").character
<Character.RAJAH: 'rajah'>
>>> len(DECK), len(SHUFFLED_CARDS)
(60, 56)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

QR_PREFIX = "aladdin:"


class AladdinCardError(ValueError):
    """Text that names no Aladdin card (neither ``aladdin:<id>`` nor a bare id)."""

    def __init__(self, text: object, reason: str) -> None:
        self.text = text
        super().__init__(f"not an Aladdin card: {text!r} ({reason})")


class Character(enum.Enum):
    """The five characters; a win needs one of each in one colour (A8)."""

    ALADDIN = "aladdin"
    JASMINE = "jasmine"
    ABU = "abu"
    RAJAH = "rajah"
    SULTAN = "sultan"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @classmethod
    def parse(cls, text: object) -> Character:
        """A character from its name (any case): ``"Rajah"`` -> ``Character.RAJAH``."""
        if isinstance(text, str):
            try:
                return cls(text.strip().lower())
            except ValueError:
                pass
        names = ", ".join(c.value for c in cls)
        raise ValueError(f"not a character name: {text!r} (one of {names})")


class Colour(enum.Enum):
    GREEN = "green"
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"


class Kind(enum.Enum):
    CHARACTER = "character"
    JAFAR = "jafar"
    LAMP = "lamp"               # a regular Magic Lamp card, played from the hand (A4)
    CARPET = "carpet"
    SPECIAL_LAMP = "special"    # one of the four Genie/POOF lamps on the table (A2)


CHARACTERS: tuple[Character, ...] = tuple(Character)
COLOURS: tuple[Colour, ...] = tuple(Colour)


@dataclass(frozen=True, eq=False)
class AladdinCard:
    """One physical card. There is exactly one instance per id (see :data:`DECK`), so cards
    compare and hash by identity, which keeps the engine's many hand operations cheap."""

    index: int                  # position in DECK: the canonical sort order
    id: str
    kind: Kind
    character: Character | None = None
    colour: Colour | None = None
    # A8: bit (colour * 5 + character) of a hand's collection mask; 0 for other cards.
    bit: int = field(default=0, repr=False)

    @classmethod
    def parse(cls, text: object) -> AladdinCard:
        """A card from its QR text (``aladdin:abu-red-1``) or its bare id (``abu-red-1``)."""
        if not isinstance(text, str):
            raise AladdinCardError(text, "a card is named by a string such as 'abu-red-1'")
        key = text.strip().lower()
        if key.startswith(QR_PREFIX):
            key = key[len(QR_PREFIX):]
        card = _BY_ID.get(key)
        if card is None:
            raise AladdinCardError(text, _why_unknown(key))
        return card

    @property
    def qr(self) -> str:
        """The text of this card's QR code on the print-and-play sheet."""
        return QR_PREFIX + self.id

    @property
    def name(self) -> str:
        """A name a person reads: ``green Jasmine``, ``Jafar``, ``Magic Carpet``."""
        if self.character is not None and self.colour is not None:
            return f"{self.colour.value} {self.character.title}"
        return {Kind.JAFAR: "Jafar", Kind.LAMP: "Lamp", Kind.CARPET: "Magic Carpet",
                Kind.SPECIAL_LAMP: "special Magic Lamp"}[self.kind]

    @property
    def is_character(self) -> bool:
        return self.kind is Kind.CHARACTER

    def __lt__(self, other: AladdinCard) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"AladdinCard.parse({self.id!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Copies (pickle, deepcopy) must come back as the one canonical instance.
        return (AladdinCard.parse, (self.id,))


def _why_unknown(key: str) -> str:
    parts = key.split("-")
    if parts and parts[0] in {c.value for c in Character}:
        return ("a character card is <character>-<colour>-<1|2> with colour one of "
                + ", ".join(c.value for c in Colour))
    return ("ids are <character>-<colour>-<1|2>, jafar-1..2, lamp-1..8, carpet-1..6 "
            "or special-1..4")


def _build_deck() -> tuple[AladdinCard, ...]:
    cards: list[AladdinCard] = []
    for ci, character in enumerate(CHARACTERS):
        for oi, colour in enumerate(COLOURS):
            for n in (1, 2):
                cards.append(AladdinCard(len(cards), f"{character.value}-{colour.value}-{n}",
                                         Kind.CHARACTER, character, colour, 1 << (oi * 5 + ci)))
    for kind, prefix, count in ((Kind.JAFAR, "jafar", 2), (Kind.LAMP, "lamp", 8),
                                (Kind.CARPET, "carpet", 6), (Kind.SPECIAL_LAMP, "special", 4)):
        for n in range(1, count + 1):
            cards.append(AladdinCard(len(cards), f"{prefix}-{n}", kind))
    return tuple(cards)


DECK: tuple[AladdinCard, ...] = _build_deck()
"""All 60 cards in canonical order: characters (by character, colour, number), then Jafar,
Lamp, Carpet and the special lamps."""

_BY_ID: dict[str, AladdinCard] = {c.id: c for c in DECK}

SHUFFLED_CARDS: tuple[AladdinCard, ...] = tuple(c for c in DECK if c.kind is not Kind.SPECIAL_LAMP)
"""The 56 cards that are shuffled and dealt (A1); the special lamps stay apart."""

SPECIAL_LAMPS: tuple[AladdinCard, ...] = tuple(c for c in DECK if c.kind is Kind.SPECIAL_LAMP)

_COLOUR_MASK = 0b11111


def collection_mask(cards: tuple[AladdinCard, ...]) -> int:
    """Which (colour, character) pairs a set of cards covers, as bits (see ``bit``)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def winning_colour(cards: tuple[AladdinCard, ...]) -> Colour | None:
    """A8: the colour in which these cards hold all five characters, if any.

    >>> hand = tuple(AladdinCard.parse(f"{c}-blue-1") for c in
    ...              ("aladdin", "jasmine", "abu", "rajah", "sultan"))
    >>> winning_colour(hand)
    <Colour.BLUE: 'blue'>
    >>> winning_colour(hand[:4] + (AladdinCard.parse("sultan-red-1"),)) is None
    True
    """
    mask = collection_mask(cards)
    for oi, colour in enumerate(COLOURS):
        if (mask >> (oi * 5)) & _COLOUR_MASK == _COLOUR_MASK:
            return colour
    return None


def sort_cards(cards: tuple[AladdinCard, ...] | list[AladdinCard]) -> tuple[AladdinCard, ...]:
    """Cards in canonical deck order (hands are kept sorted so equal hands compare equal)."""
    return tuple(sorted(cards, key=_index))


def _index(card: AladdinCard) -> int:
    return card.index
