"""What every rules engine of the companion shares: the shape of a refusal.

A rules engine never raises for a move the rules forbid: it returns the unchanged state and a
:class:`Refusal` that names the ruling (``S8b``, ``A3``) and says why in words a player
understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: the ruling and a sentence for the players."""

    ruling: str
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.ruling})"


StateT = TypeVar("StateT")
NoteT = TypeVar("NoteT")


@dataclass(frozen=True)
class RuleOutcome(Generic[StateT, NoteT]):
    """What applying one action gives: the new state and what happened, or the unchanged state
    and the refusal."""

    state: StateT
    notes: tuple[NoteT, ...] = ()
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


class RuleBroken(Exception):
    """Raised inside an engine to abandon an action; ``apply`` turns it into a refusal."""

    def __init__(self, ruling: str, reason: str) -> None:
        super().__init__(reason)
        self.refusal = Refusal(ruling, reason)
