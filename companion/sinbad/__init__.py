"""Sinbad vs. Jaffar: the public state, the actions and the pure rules engine."""

from companion.rules import Refusal
from companion.sinbad.actions import (
    Action,
    Draw,
    DrawPlay,
    JaffarPlays,
    Pass,
    Placement,
    Play,
    RecordLineError,
    SinbadTurn,
    Trade,
    action_from_line,
    action_to_line,
)
from companion.sinbad.engine import BankSetupError, Game, Note, Outcome, Partial
from companion.sinbad.state import Bank, Effects, PathState, Phase, SinbadState

__all__ = [
    "Action", "Bank", "BankSetupError", "Draw", "DrawPlay", "Effects", "Game", "JaffarPlays",
    "Note", "Outcome", "Partial", "Pass", "PathState", "Phase", "Placement", "Play",
    "RecordLineError", "Refusal", "SinbadState", "SinbadTurn", "Trade", "action_from_line",
    "action_to_line",
]
