"""A1: the 60 cards, their ids and QR texts, the deal; and what the table may show."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter

import pytest
from aladdin_helpers import make_table

from companion.aladdin import (
    DECK,
    AladdinCard,
    AladdinCardError,
    Character,
    Colour,
    Deal,
    Game,
    Kind,
    Phase,
    SetupError,
    view_for,
    winning_colour,
)
from companion.aladdin.cards import SHUFFLED_CARDS, SPECIAL_LAMPS


def test_a1_the_deck_has_sixty_cards_with_unique_ids() -> None:
    assert len(DECK) == 60 and len({c.id for c in DECK}) == 60
    kinds = Counter(c.kind for c in DECK)
    assert kinds == {Kind.CHARACTER: 40, Kind.JAFAR: 2, Kind.LAMP: 8, Kind.CARPET: 6,
                     Kind.SPECIAL_LAMP: 4}
    pairs = Counter((c.character, c.colour) for c in DECK if c.is_character)
    assert len(pairs) == 20 and set(pairs.values()) == {2}       # 5 characters x 4 colours x 2
    assert {c.colour for c in DECK if c.is_character} == {
        Colour.GREEN, Colour.RED, Colour.BLUE, Colour.YELLOW}
    assert [c.id for c in SPECIAL_LAMPS] == [f"special-{i}" for i in range(1, 5)]
    assert len(SHUFFLED_CARDS) == 56 and not set(SHUFFLED_CARDS) & set(SPECIAL_LAMPS)


@pytest.mark.parametrize("text, card_id", [
    ("aladdin:jasmine-green-1", "jasmine-green-1"), ("jasmine-green-1", "jasmine-green-1"),
    ("ALADDIN:Rajah-Blue-2", "rajah-blue-2"), (" jafar-2 ", "jafar-2"),
    ("aladdin:aladdin-red-1", "aladdin-red-1"), ("lamp-8", "lamp-8"), ("carpet-6", "carpet-6"),
    ("special-4", "special-4"),
])
def test_a1_cards_parse_from_qr_text_and_bare_ids(text: str, card_id: str) -> None:
    card = AladdinCard.parse(text)
    assert card.id == card_id and card is AladdinCard.parse(card.qr)
    assert card.qr == "aladdin:" + card_id
    assert eval(repr(card), {"AladdinCard": AladdinCard}) is card


@pytest.mark.parametrize("text", ["jasmine-purple-1", "jasmine-green-3", "lamp-9", "jafar",
                                  "QH", "", "budge:jasmine-green-1", 7, None])
def test_a1_unknown_card_text_is_refused(text: object) -> None:
    with pytest.raises(AladdinCardError, match="not an Aladdin card"):
        AladdinCard.parse(text)


def test_a1_copies_of_a_card_are_the_one_card() -> None:
    card = AladdinCard.parse("sultan-red-2")
    assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card
    state = Game().setup(["Ann", "Ben"], Deal.from_seed(2, 1))
    assert copy.deepcopy(state) == state and pickle.loads(pickle.dumps(state)) == state


def test_a1_card_values() -> None:
    card = AladdinCard.parse("abu-yellow-2")
    assert (card.character, card.colour, card.kind) == (Character.ABU, Colour.YELLOW,
                                                        Kind.CHARACTER)
    assert card.name == "yellow Abu" and AladdinCard.parse("jafar-1").character is None
    assert sorted(DECK[::-1]) == list(DECK)


def test_a1_a_seeded_deal_gives_five_each_and_the_rest_to_the_pile() -> None:
    for players in range(2, 7):
        deal = Deal.from_seed(players, 11)
        assert [len(h) for h in deal.hands] == [5] * players
        assert len(deal.draw) == 56 - 5 * players
        dealt = [c for h in deal.hands for c in h] + list(deal.draw)
        assert sorted(dealt) == sorted(SHUFFLED_CARDS)
    assert Deal.from_seed(4, 11) == Deal.from_seed(4, 11)
    assert Deal.from_seed(4, 11) != Deal.from_seed(4, 12)
    assert Deal.from_json(Deal.from_seed(3, 5).to_json()) == Deal.from_seed(3, 5)


def test_a1_the_seeded_deal_is_one_card_at_a_time_from_the_top() -> None:
    cards = list(SHUFFLED_CARDS)
    random.Random(3).shuffle(cards)
    deal = Deal.from_seed(2, 3)
    assert deal.hands[0][:2] == (cards[0], cards[2]) and deal.hands[1][0] == cards[1]
    assert deal.draw[0] == cards[10]


@pytest.mark.parametrize("players", [1, 7])
def test_a1_two_to_six_players(players: int) -> None:
    with pytest.raises(SetupError) as info:
        Deal.from_seed(players, 1)
    assert info.value.ruling == "A1"
    with pytest.raises(SetupError, match="2 to 6"):
        Game().setup(["P"] * players, Deal.from_seed(2, 1))


def test_a1_bad_deals_are_refused() -> None:
    good = Deal.from_seed(2, 1).to_json()
    broken = []
    twice = json.loads(json.dumps(good))
    twice["draw"][0] = twice["hands"][0][0]
    broken.append((twice, "dealt twice"))
    short = json.loads(json.dumps(good))
    short["hands"][1] = short["hands"][1][:4]
    broken.append((short, "4 cards"))
    missing = json.loads(json.dumps(good))
    missing["draw"] = missing["draw"][1:]
    broken.append((missing, "leaves out"))
    special = json.loads(json.dumps(good))
    special["draw"][0] = "special-1"
    broken.append((special, "special lamp"))
    broken.append(({"hands": [["nope-1"]], "draw": []}, "not an Aladdin card"))
    broken.append(({"hands": "x"}, "a deal is"))
    for data, words in broken:
        with pytest.raises(SetupError, match=words) as info:
            Deal.from_json(data)
        assert info.value.ruling == "A1"


def test_a1_setup_seat_one_draws_first_and_all_sixty_cards_are_placed() -> None:
    state = Game().setup(["Ann", "Ben", "Cy"], Deal.from_seed(3, 2))
    assert (state.turn, state.current, state.phase) == (1, 1, Phase.DRAW)
    assert state.card_count() == 60 and state.discard == ()
    with pytest.raises(SetupError, match="same name"):
        Game().setup(["Ann", "Ann"], Deal.from_seed(2, 2))
    with pytest.raises(SetupError, match="3 hands for 2 players"):
        Game().setup(["Ann", "Ben"], Deal.from_seed(3, 2))


def test_a8_winning_colour_needs_all_five_characters_of_one_colour() -> None:
    blue = tuple(AladdinCard.parse(f"{c.value}-blue-2") for c in Character)
    assert winning_colour(blue) is Colour.BLUE
    assert winning_colour(blue[:4]) is None
    assert winning_colour(blue[:4] + (AladdinCard.parse("sultan-green-2"),)) is None
    assert winning_colour(blue + (AladdinCard.parse("jafar-1"),)) is Colour.BLUE


def test_public_view_hides_hands_and_view_for_shows_only_your_own() -> None:
    t = make_table([["aladdin-green-1", "jasmine-green-1", "abu-green-1", "lamp-1", "jafar-1"],
                    ["sultan-red-1", "rajah-blue-1", "rajah-yellow-1", "jafar-2", "carpet-1"]])
    t.do({"draw": "pile"}, {"discard": "abu-green-1"})
    public = t.public
    text = json.dumps(public)
    for seat in (1, 2):
        assert not any(c.id in text for c in t.state.hand(seat))
    assert public["hands"] == [5, 5] and public["discard_top"] == "abu-green-1"
    assert public["draw_pile"] == len(t.state.draw) and public["current"] == 2
    mine = view_for(t.state, 2)
    assert mine["hand"] == [c.id for c in t.state.hand(2)] and mine["you"] == 2
    assert "jafar-1" not in json.dumps(mine)
    assert "hand" not in view_for(t.state, None)
    with pytest.raises(ValueError, match="no player 3"):
        view_for(t.state, 3)
