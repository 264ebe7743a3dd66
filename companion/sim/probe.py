"""Looks inside one record line before it is applied, through the engine's own steps.

A player decides in the middle of a line: Jaffar chooses his cards after the start of the turn
(events, S6) is resolved, and Sinbad chooses his action after his Budge card (S8b: the
scoreboard as it stands *after* the Budge card), and after the card he draws in a draw-and-play.
The engine applies a whole line at once; its public partial steps (``Game.turn_start``,
``Game.sinbad_prefix``, ``Game.draw_prefix``) run the first part of a line and hand back the
state and notes at that point. Nothing here re-implements a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.cards import Card
from companion.sinbad import Game, Note, Phase, SinbadState


@dataclass(frozen=True)
class Prefix:
    """The state part-way through a line, the notes so far, and whether the game ended."""

    state: SinbadState
    notes: tuple[Note, ...]
    ended: bool
    used_names: tuple[Card, ...] = ()


def turn_start(game: Game, state: SinbadState) -> Prefix:
    """The start of the next turn (S4, S15b), before Jaffar's phase."""
    part = game.turn_start(state)
    return Prefix(part.state, part.notes, part.ended)


def jaffar_range(game: Game, after_start: SinbadState) -> tuple[int, int]:
    """How many cards Jaffar plays in this phase, once the turn has started (S7, S15e)."""
    return game.jaffar_card_range(replace(after_start, phase=Phase.SINBAD))


def sinbad_prefix(game: Game, state: SinbadState, turn_names: Sequence[Card],
                  budge: str | None, discard_order: Sequence[Card]) -> Prefix:
    """Sinbad's line up to his action: naming the turn-start discards (S15h), then the Budge
    card and its effects (S8a). ``discard_order`` lists hand cards, most expendable first; the
    names the line goes on to use take from its front, and ``used_names`` says which."""
    if budge is None and not turn_names:
        return Prefix(state, (), False)
    named = game.sinbad_prefix(state, None, tuple(turn_names))
    if named.refusal is not None:
        raise ValueError(f"the turn's discards cannot be named: {named.refusal}")
    if budge is None:
        return Prefix(named.state, (), False)
    part = game.sinbad_prefix(named.state, budge, tuple(discard_order))
    if part.refusal is not None:
        raise ValueError(f"the Budge card {budge!r} cannot be played: {part.refusal}")
    used = tuple(discard_order[:part.names_used])
    return Prefix(part.state, part.notes, part.ended, used)


def draw_one(game: Game, state: SinbadState) -> Prefix:
    """The draw of a draw-and-play (S8b, S11) from a state part-way through Sinbad's line."""
    part = game.draw_prefix(state, 1)
    return Prefix(part.state, part.notes, False)
