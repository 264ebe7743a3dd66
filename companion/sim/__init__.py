"""The simulator: real shuffled decks and player policies on top of the public rules engine.

The engine (companion.sinbad) knows only what the table shows (RULINGS S14). This package adds
the hidden cards (Sinbad's hand and draw pile, the identities of the bank's cards, Jaffar's
face-down deck), seeded chance, and policies for both players, so that whole games can be
played, recorded, replayed and counted. Rules are never re-implemented here: every line is
applied by the same engine the live table uses.
"""

from companion.sim.config import SimConfig
from companion.sim.play import GameLog, play_game
from companion.sim.policies import JAFFAR_POLICIES, SINBAD_POLICIES

__all__ = ["JAFFAR_POLICIES", "SINBAD_POLICIES", "GameLog", "SimConfig", "play_game"]
