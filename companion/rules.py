"""What every rules engine of the companion shares: the shape of a refusal.

A rules engine never raises for a move the rules forbid: it returns the unchanged state and a
:class:`Refusal` that names the ruling (``S8b``, ``A3``) and says why in words a player
understands.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse an action: the ruling and a sentence for the players."""

    ruling: str
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.ruling})"
