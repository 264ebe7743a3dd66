"""Builders for Aladdin rules tests: a table with chosen hands and piles, and a driver that
applies record lines and checks that each is accepted (or refused, with the state unchanged)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.aladdin import (
    AladdinCard,
    AladdinState,
    Deal,
    Game,
    Outcome,
    Refusal,
    Rules,
    action_from_line,
)
from companion.aladdin.cards import SHUFFLED_CARDS as SHUFFLED

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")


def cards(ids: Sequence[str]) -> tuple[AladdinCard, ...]:
    return tuple(AladdinCard.parse(i) for i in ids)


def colour_set(colour: str, without: str | None = None, copy: int = 2) -> list[str]:
    """The five characters of one colour (copy 2 unless told), optionally leaving one out."""
    return [f"{c}-{colour}-{copy}" for c in ("aladdin", "jasmine", "abu", "rajah", "sultan")
            if c != without]


def make_table(hands: Sequence[Sequence[str]], *, draw: Sequence[str] = (),
               discard: Sequence[str] = (), rest: str = "draw", genies: int = 2,
               current: int = 1) -> Table:
    """A table whose hands are ``hands`` (5 ids each, seat 1 first). ``draw`` are the top
    cards of the draw pile, ``discard`` the discard pile bottom to top; every other card goes
    to the bottom of the draw pile (``rest="draw"``) or under the discard pile
    (``rest="discard"``, leaving the draw pile as ``draw``)."""
    hand_cards = [cards(h) for h in hands]
    named = [c for h in hand_cards for c in h] + list(cards(draw)) + list(cards(discard))
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice in the test table")
    others = tuple(c for c in SHUFFLED if c not in set(named))
    game = Game(Rules(genies))
    # Deal every card, then move the piles where the test wants them.
    state = game.setup(NAMES[:len(hands)],
                       Deal(tuple(hand_cards), cards(draw) + others + cards(discard)))
    if rest == "draw":
        state = replace(state, draw=cards(draw) + others, discard=cards(discard))
    else:
        state = replace(state, draw=cards(draw), discard=others + cards(discard))
    if current != 1:
        state = replace(state, current=current)
    return Table(game, state)


class Table:
    """A game driven by record lines; ``lines`` keeps every accepted line."""

    def __init__(self, game: Game, state: AladdinState) -> None:
        self.game = game
        self.start = state
        self.state = state
        self.lines: list[dict[str, Any]] = []
        self.last: Outcome | None = None

    def do(self, *lines: dict[str, Any]) -> Table:
        for line in lines:
            outcome = self.game.apply(self.state, action_from_line(line))
            assert outcome.refusal is None, f"{line} refused: {outcome.refusal}"
            self.state = outcome.state
            self.lines.append(line)
            self.last = outcome
        return self

    def refused(self, line: dict[str, Any], ruling: str) -> Refusal:
        before = self.state
        outcome = self.game.apply(before, action_from_line(line))
        assert outcome.refusal is not None, f"{line} was accepted"
        assert outcome.refusal.ruling == ruling, outcome.refusal
        assert outcome.state is before and outcome.notes == ()
        return outcome.refusal

    def hand(self, seat: int) -> set[str]:
        return {c.id for c in self.state.hand(seat)}

    @property
    def public(self) -> dict[str, Any]:
        return self.game.public(self.state)
