"""The hidden-card layer on its own: S11 reshuffles mirrored card by card, S15k anonymous bank
cards, S15h unnamed discards, and the checks that catch a disagreement with the engine."""

from __future__ import annotations

import random

import pytest
from sim_helpers import QUICK, game_of

from companion.cards import Card
from companion.sim.hidden import ALL_CARDS, HiddenCards, HiddenStateError, suit_tally
from companion.sim.play import deal
from companion.sinbad import Note


def cards(codes: str) -> list[Card]:
    return [Card.from_code(c) for c in codes.split()]


def no_discard(n: int) -> list[Card]:
    raise AssertionError("no unnamed discard expected")


def test_deal_is_s1() -> None:
    """S1: bank of 2 per suit, 8 in hand, 36 in the pile, Jaffar's 52; all different."""
    bank, hidden = deal(random.Random(3))
    assert suit_tally(bank) == [2, 2, 2, 2]
    assert len(hidden.hand) == 8 and len(hidden.draw) == 36 and len(hidden.jaffar) == 52
    assert len(set(bank) | set(hidden.hand) | set(hidden.draw)) == 52
    assert set(hidden.jaffar) == set(ALL_CARDS)
    assert hidden.bank(()) == sorted(bank, key=ALL_CARDS.index)


def test_reshuffle_keeps_two_a_suit_and_puts_the_rest_under_the_pile() -> None:
    """S11: a draw of 2 from a pile of 1 takes the old card, then one of the bank's excess;
    the bank keeps 2 of each suit, and in a reduced suit they are known only by suit (S15k)."""
    old = Card.from_code("KD")
    hand = [c for c in ALL_CARDS if c.suit.letter in "DH" and c != old]  # 25 cards
    path = cards("AC")
    hidden = HiddenCards(hand, [old], [])
    bank = hidden.bank(path)
    assert suit_tally(bank) == [12, 0, 0, 13]
    hidden.follow([Note("reshuffle", count=21), Note("draw", count=2)], path,
                  random.Random(1), no_discard)
    assert hidden.hand[-2] == old, "the card left in the pile is drawn first"
    assert len(hidden.draw) == 20
    left = hidden.bank(path)
    assert suit_tally(left) == [2, 0, 0, 2]
    assert hidden.anon == set(left)
    assert hidden.hand[-1].suit.letter in "CS"


def test_reshuffle_count_must_match_the_engine() -> None:
    hidden = HiddenCards(cards("2C 3C"), [], [])
    with pytest.raises(HiddenStateError, match="reshuffled 5"):
        hidden.follow([Note("reshuffle", count=5)], (), random.Random(0), no_discard)


def test_unnamed_discards_become_unknown_and_leave_at_a_reshuffle() -> None:
    """S15h: a card discarded unnamed is unknown to the engine until named; S11: unknown cards
    all leave the bank at a reshuffle."""
    hand = cards("2C 3C 4C")
    hidden = HiddenCards(list(hand), [], [])
    hidden.follow([Note("discard", count=1)], (), random.Random(0), lambda n: hand[:n])
    assert hidden.unknown == [hand[0]] and hand[0] not in hidden.hand
    # 50 bank cards: 2C (unknown, leaves) and 49 others, of which 2 a suit stay.
    hidden.follow([Note("reshuffle", count=50 - 8)], (), random.Random(0), no_discard)
    assert hidden.unknown == [] and hand[0] in hidden.draw


def test_anonymous_take_picks_a_card_known_only_by_suit() -> None:
    hidden = HiddenCards([], [], [], anon=set(cards("5H 9H")))
    hidden.follow([Note("take", suit=Card.from_code("5H").suit)], (), random.Random(2),
                  no_discard)
    assert len(hidden.hand) == 1 and hidden.hand[0] in cards("5H 9H")
    assert hidden.anon == set(cards("5H 9H")) - set(hidden.hand)
    with pytest.raises(HiddenStateError):
        hidden.follow([Note("take", card=Card.from_code("5H"))], cards("5H"),
                      random.Random(2), no_discard)


def test_check_catches_each_disagreement() -> None:
    game = game_of(QUICK)
    bank, hidden = deal(random.Random(5))
    state = game.initial_state(bank)
    hidden.check(state, deep=True)
    for broken in (
        HiddenCards(hidden.hand[:-1], hidden.draw + hidden.hand[-1:], hidden.jaffar),
        HiddenCards(hidden.hand, hidden.draw, hidden.jaffar[1:]),
        HiddenCards(hidden.hand, hidden.draw, hidden.jaffar, unknown=[hidden.hand[0]]),
    ):
        with pytest.raises(HiddenStateError):
            broken.check(state)
    swapped = hidden.clone()
    swapped.draw[0], swapped.hand[0] = swapped.hand[0], swapped.draw[0]
    swapped.check(state)                         # counts still agree ...
    stolen = hidden.clone()
    stolen.hand[0] = bank[0]
    with pytest.raises(HiddenStateError):
        stolen.check(state, deep=True)           # ... but a bank card in hand does not


def test_played_card_must_be_in_the_hidden_hand() -> None:
    hidden = HiddenCards(cards("2C"), [], [])
    with pytest.raises(HiddenStateError, match="not in Sinbad's hidden hand"):
        hidden.play(Card.from_code("3C"))
