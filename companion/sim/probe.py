"""Looks inside one record line before it is applied, through the engine's own code.

A player decides in the middle of a line: Jaffar chooses his cards after the start of the turn
(events, S6) is resolved, and Sinbad chooses his action after his Budge card (S8b: the
scoreboard as it stands *after* the Budge card), and after the card he draws in a draw-and-play.
The engine applies a whole line at once, so these probes run the first part of a line with the
engine's internal steps (``Game._start_turn``, ``Game._begin_challenge``, ``Game._draw``) and
hand back the state and notes at that point. Nothing here re-implements a rule; the only
private names of the engine that the simulator touches are in this module. (Suggested to the
lead: public ``Game.turn_start(state)`` and ``Game.sinbad_prefix(state, budge, names)``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.cards import Card
from companion.sinbad import Game, Note, Phase, SinbadState
from companion.sinbad.engine import _Ended, _Work


@dataclass(frozen=True)
class Prefix:
    """The state part-way through a line, the notes so far, and whether the game ended."""

    state: SinbadState
    notes: tuple[Note, ...]
    ended: bool
    used_names: tuple[Card, ...] = ()


def turn_start(game: Game, state: SinbadState) -> Prefix:
    """The start of the next turn (S4, S15b), before Jaffar's phase."""
    work = _Work(state)
    try:
        game._start_turn(work)
    except _Ended:
        return Prefix(work.s, tuple(work.notes), True)
    return Prefix(work.s, tuple(work.notes), False)


def jaffar_range(game: Game, after_start: SinbadState) -> tuple[int, int]:
    """How many cards Jaffar plays in this phase, once the turn has started (S7, S15e)."""
    return game.jaffar_card_range(replace(after_start, phase=Phase.SINBAD))


def sinbad_prefix(game: Game, state: SinbadState, turn_names: Sequence[Card],
                  budge: str | None, discard_order: Sequence[Card]) -> Prefix:
    """Sinbad's line up to his action: naming the turn-start discards (S15h), then the Budge
    card and its effects (S8a). ``discard_order`` lists hand cards, most expendable first; the
    Budge card's discards take from its front, and ``used_names`` says which it took."""
    if budge is None and not turn_names:
        return Prefix(state, (), False)
    work = _Work(state)
    names = list(turn_names)
    # The same order and condition as the engine's own Sinbad line: turn-start discards are
    # named first, and only while they are still unknown in the bank (a reshuffle, S11, may
    # have sent them to the draw pile).
    while names and min(work.s.unnamed_discards, work.s.bank.unknown) > 0:
        card = names.pop(0)
        work.set(bank=work.s.bank.name_unknown(card),
                 unnamed_discards=work.s.unnamed_discards - 1)
    if budge is None:
        return Prefix(work.s, (), False)
    order = list(discard_order)
    try:
        game._begin_challenge(work, budge, order)
    except _Ended:
        used = tuple(discard_order[:len(discard_order) - len(order)])
        return Prefix(work.s, tuple(work.notes), True, used)
    used = tuple(discard_order[:len(discard_order) - len(order)])
    return Prefix(work.s, tuple(work.notes), False, used)


def draw_one(game: Game, state: SinbadState) -> Prefix:
    """The draw of a draw-and-play (S8b, S11) from a state part-way through Sinbad's line."""
    work = _Work(state)
    game._draw(work, 1)
    return Prefix(work.s, tuple(work.notes), False)
