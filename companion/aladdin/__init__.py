"""Aladdin: The Magic Carpet Game: card values, the full state, actions and the pure rules
engine (RULINGS A1..A8), game records and a seeded random-play simulator.

>>> from companion.aladdin import Game, Deal, action_from_line
>>> game = Game()
>>> state = game.setup(["Ann", "Ben"], Deal.from_seed(2, 7))
>>> game.apply(state, action_from_line({"draw": "pile"})).state.phase
<Phase.ACT: 'act'>
"""

from companion.aladdin.actions import (
    Action,
    AladdinLineError,
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
    action_from_line,
    action_to_line,
)
from companion.aladdin.cards import (
    DECK,
    AladdinCard,
    AladdinCardError,
    Character,
    Colour,
    Kind,
    winning_colour,
)
from companion.aladdin.engine import Game, Note, Outcome, public, view_for
from companion.aladdin.state import AladdinState, Deal, Face, Phase, Rules, SetupError
from companion.rules import Refusal

__all__ = [
    "DECK", "Action", "AladdinCard", "AladdinCardError", "AladdinLineError", "AladdinState",
    "Ask", "Character", "Colour", "Deal", "Decline", "Discard", "Draw", "Face", "Game", "Give",
    "Keep", "Kind", "Note", "Outcome", "Phase", "PlayCarpet", "PlayJafar", "PlayLamp", "Refusal",
    "Rub", "Rules", "SetupError", "Shuffle", "Swap", "TakeNothing", "action_from_line",
    "action_to_line", "public", "view_for", "winning_colour",
]
