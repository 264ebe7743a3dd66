"""Each ruling of RULINGS.md "Aladdin: The Magic Carpet Game" (A2..A8), tested alone.
Test names cite the ruling; A1 (the deck and the deal) is in test_aladdin_cards.py."""

from __future__ import annotations

import pytest
from aladdin_helpers import Table, colour_set, make_table

from companion.aladdin import Face, Phase, Rules, SetupError

ANN = ["aladdin-green-1", "jasmine-green-1", "abu-green-1", "rajah-green-1", "lamp-1"]
BEN = ["sultan-red-1", "rajah-blue-1", "rajah-yellow-1", "jafar-1", "carpet-1"]
CY = ["aladdin-red-1", "jasmine-red-1", "abu-red-1", "jafar-2", "carpet-2"]
DEE = ["aladdin-blue-1", "jasmine-blue-1", "abu-yellow-1", "lamp-2", "carpet-3"]


def three(**kw: object) -> Table:
    return make_table([ANN, BEN, CY], **kw)  # type: ignore[arg-type]


def lamp_played(**kw: object) -> Table:
    """Ann drew the abu-blue-2 and played her Lamp: the special lamps wait (A4)."""
    t = three(draw=["abu-blue-2", "sultan-yellow-2"], **kw)
    return t.do({"draw": "pile"}, {"lamp": "lamp-1"})


# A2 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("genies", [1, 2, 3])
def test_a2_genies_switch_sets_how_many_lamps_show_a_genie(genies: int) -> None:
    t = lamp_played(genies=genies)
    assert t.public["rules"] == {"genies": genies}
    for lamp in range(1, genies + 1):
        t.do({"rub": lamp, "face": "genie"},
             {"ask": {"player": 3, "character": "sultan"}})    # Cy has no Sultan: next lamp
    assert t.state.phase is Phase.RUB
    refusal = t.refused({"rub": genies + 1, "face": "genie"}, "A2")
    assert f"{genies} Genie" in refusal.reason
    t.do({"rub": genies + 1, "face": "poof"})
    assert (t.state.current, t.state.phase) == (2, Phase.DRAW)


def test_a2_default_is_two_genies() -> None:
    assert Rules().genies == 2 and Rules().poofs == 2
    t = lamp_played()
    t.do({"rub": 4, "face": "genie"}, {"ask": {"player": 2, "character": "sultan"}},
         {"give": "sultan-red-1"}, {"keep": False},
         {"rub": 1, "face": "genie"}, {"ask": {"player": 3, "character": "sultan"}})
    t.refused({"rub": 2, "face": "genie"}, "A2")


@pytest.mark.parametrize("value", [0, 4, -1, True, "2", 2.0])
def test_a2_genies_is_one_to_three(value: object) -> None:
    with pytest.raises(SetupError) as info:
        Rules(value)  # type: ignore[arg-type]
    assert info.value.ruling == "A2"


def test_a2_unknown_house_rule_is_refused() -> None:
    with pytest.raises(SetupError, match="unknown house rule 'genie'"):
        Rules.from_mapping({"genie": 2})
    assert Rules.from_mapping({"genies": 3}) == Rules(3)


def test_a2_lamps_are_turned_back_and_mixed_after_use() -> None:
    """Positions carry no memory: the lamp that showed the only Genie may show it again."""
    ben = ["sultan-red-1", "rajah-blue-1", "rajah-yellow-1", "lamp-2", "carpet-1"]
    t = make_table([ANN, ben, CY], genies=1, draw=["abu-blue-2", "abu-yellow-2"])
    t.do({"draw": "pile"}, {"lamp": "lamp-1"}, {"rub": 1, "face": "genie"},
         {"ask": {"player": 3, "character": "sultan"}}, {"rub": 2, "face": "poof"})
    assert t.state.lamps == (None, None, None, None)
    assert t.public["lamps_used"] == 0
    assert any(n.kind == "lamps_mixed" for n in t.last.notes)  # type: ignore[union-attr]
    t.do({"draw": "pile"}, {"lamp": "lamp-2"}, {"rub": 1, "face": "genie"})
    assert t.state.lamps[0] is Face.GENIE and t.state.phase is Phase.ASK


# A3 ------------------------------------------------------------------------------------------

def test_a3_draw_from_the_pile_takes_its_top_card() -> None:
    t = three(draw=["abu-blue-2"])
    pile = len(t.state.draw)
    t.do({"draw": "pile"})
    assert "abu-blue-2" in t.hand(1) and len(t.hand(1)) == 6
    assert len(t.state.draw) == pile - 1 and t.state.phase is Phase.ACT


def test_a3_draw_names_the_card_the_camera_saw() -> None:
    t = three(draw=["abu-blue-2"])
    refusal = t.refused({"draw": "pile", "card": "abu-red-2"}, "A3")
    assert "not the abu-red-2" in refusal.reason and "abu-blue-2" not in refusal.reason
    t.do({"draw": "pile", "card": "aladdin:abu-blue-2"})
    assert "abu-blue-2" in t.hand(1)


@pytest.mark.parametrize("top", ["lamp-3", "carpet-4"])
def test_a3_the_discard_top_may_be_drawn_only_if_a_character(top: str) -> None:
    t = three(discard=["abu-blue-2", top])
    refusal = t.refused({"draw": "discard"}, "A3")
    assert "only a character card" in refusal.reason
    t = three(discard=[top, "abu-blue-2"])
    t.refused({"draw": "discard", "card": "abu-red-2"}, "A3")      # the camera disagrees
    t.do({"draw": "discard", "card": "abu-blue-2"})
    assert "abu-blue-2" in t.hand(1)
    assert t.state.discard_top is not None and t.state.discard_top.id == top


def test_a3_the_empty_discard_pile_cannot_be_drawn() -> None:
    t = three()
    t.refused({"draw": "discard"}, "A3")


def test_a3_discard_the_drawn_card() -> None:
    t = three(draw=["abu-blue-2"])
    t.do({"draw": "pile"}, {"discard": "abu-blue-2"})
    assert t.hand(1) == set(ANN)
    assert (t.state.turn, t.state.current, t.state.phase) == (2, 2, Phase.DRAW)
    assert t.public["discard_top"] == "abu-blue-2"


def test_a3_keep_the_drawn_card_and_discard_another() -> None:
    t = three(draw=["abu-blue-2"])
    t.do({"draw": "pile"}, {"discard": "lamp-1"})
    assert t.hand(1) == set(ANN) - {"lamp-1"} | {"abu-blue-2"}
    assert t.public["hands"] == [5, 5, 5]


def test_a3_first_draw_then_exactly_one_action() -> None:
    t = three()
    t.refused({"discard": "lamp-1"}, "A3")            # no action before the draw
    t.refused({"lamp": "lamp-1"}, "A3")
    t.do({"draw": "pile"})
    assert "already drawn" in t.refused({"draw": "pile"}, "A3").reason
    t.do({"discard": "abu-green-1"})
    t.refused({"lamp": "lamp-1"}, "A3")                # the turn is over: Ben draws now
    assert t.state.current == 2


def test_a3_only_a_held_card_is_discarded() -> None:
    t = three().do({"draw": "pile"})
    assert "does not hold" in t.refused({"discard": "sultan-red-1"}, "A3").reason


def test_a3_play_passes_to_the_left_and_hands_are_five_after_every_turn() -> None:
    t = three()
    seats = []
    for _ in range(4):
        seats.append(t.state.current)
        t.do({"draw": "pile"})
        t.do({"discard": t.state.drawn.id})  # type: ignore[union-attr]
        assert t.public["hands"] == [5, 5, 5]
    assert seats == [1, 2, 3, 1] and t.state.turn == 5


# A4 ------------------------------------------------------------------------------------------

def test_a4_the_lamp_card_goes_to_the_discard_pile_and_the_magic_begins() -> None:
    t = lamp_played()
    assert t.public["discard_top"] == "lamp-1"
    assert len(t.hand(1)) == 5 and t.state.magic == 1
    assert t.state.phase is Phase.RUB and t.state.lamps_left == (1, 2, 3, 4)


@pytest.mark.parametrize("card", ["special-1", "rajah-green-1", "lamp-2"])
def test_a4_only_a_regular_lamp_from_the_hand_is_played(card: str) -> None:
    t = three().do({"draw": "pile"})
    t.refused({"lamp": card}, "A4")


@pytest.mark.parametrize("which", ["rajah-blue-1", "rajah-yellow-1"])
def test_a4_genie_wish_by_name_the_giver_picks_which(which: str) -> None:
    t = lamp_played().do({"rub": 2, "face": "genie"})
    assert t.public["phase"] == "ask"
    t.do({"ask": {"player": 2, "character": "rajah"}})
    assert t.public["phase"] == "give"
    t.refused({"give": "sultan-red-1"}, "A4")          # not a Rajah
    t.refused({"give": "rajah-red-1"}, "A4")           # a Rajah Ben does not hold
    t.do({"give": which})
    assert which in t.hand(1) and which not in t.hand(2)
    assert t.state.phase is Phase.KEEP


def test_a4_the_asker_keeps_it_and_gives_any_card_back() -> None:
    t = lamp_played().do({"rub": 2, "face": "genie"},
                         {"ask": {"player": 2, "character": "rajah"}}, {"give": "rajah-blue-1"})
    t.refused({"keep": True, "return": "rajah-blue-1"}, "A4")   # that is returning it
    t.refused({"keep": True, "return": "sultan-red-1"}, "A4")   # not Ann's
    t.do({"keep": True, "return": "abu-blue-2"})
    assert "rajah-blue-1" in t.hand(1) and "abu-blue-2" in t.hand(2)
    assert t.public["hands"] == [5, 5, 5] and t.state.phase is Phase.RUB
    assert t.state.lamps_left == (1, 3, 4)


def test_a4_the_asker_may_return_the_card() -> None:
    t = lamp_played()
    before = (t.hand(1), t.hand(2))
    t.do({"rub": 2, "face": "genie"}, {"ask": {"player": 2, "character": "rajah"}},
         {"give": "rajah-blue-1"}, {"keep": False})
    assert (t.hand(1), t.hand(2)) == before and t.state.phase is Phase.RUB


def test_a4_a_player_without_the_character_gives_nothing() -> None:
    t = lamp_played().do({"rub": 1, "face": "genie"},
                         {"ask": {"player": 3, "character": "sultan"}})
    assert t.state.phase is Phase.RUB
    assert any("has no Sultan" in n.text for n in t.last.notes)  # type: ignore[union-attr]
    t.refused({"give": "aladdin-red-1"}, "A4")


def test_a4_ask_another_player_who_exists() -> None:
    t = lamp_played().do({"rub": 1, "face": "genie"})
    t.refused({"ask": {"player": 1, "character": "sultan"}}, "A4")
    t.refused({"ask": {"player": 4, "character": "sultan"}}, "A4")


def test_a4_a_wish_only_after_a_genie() -> None:
    t = lamp_played()
    t.refused({"ask": {"player": 2, "character": "rajah"}}, "A4")


def test_a4_turn_another_of_the_remaining_lamps() -> None:
    t = lamp_played().do({"rub": 2, "face": "genie"},
                         {"ask": {"player": 3, "character": "sultan"}})
    assert "remaining lamps (1, 3, 4)" in t.refused({"rub": 2, "face": "poof"}, "A4").reason
    t.do({"rub": 3, "face": "genie"})
    assert t.state.lamps == (None, Face.GENIE, Face.GENIE, None)


def test_a4_poof_ends_the_turn() -> None:
    t = lamp_played().do({"rub": 3, "face": "poof"})
    assert (t.state.turn, t.state.current, t.state.phase) == (2, 2, Phase.DRAW)
    assert t.public["hands"] == [5, 5, 5]
    t.refused({"rub": 1, "face": "genie"}, "A4")


# A5 ------------------------------------------------------------------------------------------

def four() -> Table:
    """Ann plays a Lamp with Ben (jafar-1) and Cy (jafar-2) waiting; Dee sits last."""
    t = make_table([ANN, BEN, CY, DEE], draw=["abu-blue-2", "sultan-yellow-2", "abu-blue-1"])
    return t.do({"draw": "pile"}, {"lamp": "lamp-1"})


def test_a5_jafar_steals_the_magic_and_play_passes_to_his_left() -> None:
    t = four()
    assert t.state.jafar_window
    t.do({"jafar": {"player": 3, "card": "jafar-2"}})
    assert t.public["discard_top"] == "jafar-2"
    assert "sultan-yellow-2" in t.hand(3) and len(t.hand(3)) == 5     # back to five
    assert (t.state.magic, t.state.jafar) == (3, 3) and t.state.phase is Phase.RUB
    t.do({"rub": 1, "face": "poof"})
    # Ben (seat 2), between the lamp player and Jafar, loses his turn.
    assert (t.state.current, t.state.turn, t.state.phase) == (4, 2, Phase.DRAW)
    assert t.public["hands"] == [5, 5, 5, 5]


def test_a5_jafar_on_the_lamp_players_right_gives_the_lamp_player_the_next_turn() -> None:
    t = lamp_played().do({"jafar": {"player": 3, "card": "jafar-2"}},
                         {"rub": 4, "face": "poof"})
    assert t.state.current == 1 and t.state.turn == 2          # Ben is skipped


def test_a5_the_jafar_player_works_the_lamp_magic() -> None:
    t = four().do({"jafar": {"player": 2, "card": "jafar-1"}}, {"rub": 2, "face": "genie"},
                  {"ask": {"player": 1, "character": "aladdin"}}, {"give": "aladdin-green-1"},
                  {"keep": True, "return": "carpet-1"})
    assert "aladdin-green-1" in t.hand(2) and "carpet-1" in t.hand(1)
    t.do({"rub": 1, "face": "poof"})
    assert t.state.current == 3                                 # Ben's left


def test_a5_first_to_claim_wins() -> None:
    t = four().do({"jafar": {"player": 2, "card": "jafar-1"}})
    assert "first to claim" in t.refused({"jafar": {"player": 3, "card": "jafar-2"}},
                                         "A5").reason


def test_a5_the_window_closes_when_the_first_lamp_is_turned() -> None:
    t = four().do({"rub": 1, "face": "genie"})
    t.refused({"jafar": {"player": 3, "card": "jafar-2"}}, "A5")
    t.do({"ask": {"player": 4, "character": "sultan"}})        # Dee has none: back to rubbing
    assert t.state.phase is Phase.RUB and not t.state.jafar_window
    assert "too late" in t.refused({"jafar": {"player": 3, "card": "jafar-2"}}, "A5").reason


def test_a5_only_another_players_lamp_and_only_a_held_jafar() -> None:
    ann = ["aladdin-green-1", "jasmine-green-1", "abu-green-1", "lamp-1", "jafar-1"]
    ben = ["sultan-red-1", "rajah-blue-1", "rajah-yellow-1", "jafar-2", "carpet-1"]
    cy = ["aladdin-red-1", "jasmine-red-1", "abu-red-1", "carpet-4", "carpet-2"]
    t = make_table([ann, ben, cy], draw=["abu-blue-2"])
    t.refused({"jafar": {"player": 2, "card": "jafar-2"}}, "A5")      # no Lamp yet
    t.do({"draw": "pile"})
    t.refused({"jafar": {"player": 2, "card": "jafar-2"}}, "A5")
    t.do({"lamp": "lamp-1"})
    t.refused({"jafar": {"player": 1, "card": "jafar-1"}}, "A5")      # not her own Lamp
    t.refused({"jafar": {"player": 3, "card": "jafar-2"}}, "A5")      # Cy does not hold it
    t.refused({"jafar": {"player": 2, "card": "carpet-1"}}, "A5")     # not a Jafar card
    t.refused({"jafar": {"player": 5, "card": "jafar-2"}}, "A5")      # no such player
    t.do({"jafar": {"player": 2, "card": "jafar-2"}})


def test_a5_no_jafar_on_a_carpet() -> None:
    ann = ["aladdin-green-1", "jasmine-green-1", "abu-green-1", "rajah-green-1", "carpet-3"]
    t = make_table([ann, BEN, CY]).do({"draw": "pile"}, {"carpet": "carpet-3", "toss": "up"})
    t.refused({"jafar": {"player": 2, "card": "jafar-1"}}, "A5")


# A6 ------------------------------------------------------------------------------------------

ANN_C = ["aladdin-green-1", "jasmine-green-1", "abu-green-1", "rajah-green-1", "carpet-3"]


def carpet_table() -> Table:
    return make_table([ANN_C, BEN, CY], draw=["abu-blue-2"]).do({"draw": "pile"})


def test_a6_carpet_side_down_ends_the_turn() -> None:
    t = carpet_table().do({"carpet": "carpet-3", "toss": "down"})
    assert t.public["discard_top"] == "carpet-3"
    assert (t.state.current, t.state.phase) == (2, Phase.DRAW)
    assert t.public["hands"] == [5, 5, 5]


def test_a6_carpet_side_up_swaps_one_card_with_an_opponent() -> None:
    t = carpet_table().do({"carpet": "carpet-3", "toss": "up"})
    assert t.state.phase is Phase.CARPET
    t.do({"swap": {"player": 2, "take": "rajah-blue-1", "give": "abu-blue-2"}})
    assert "rajah-blue-1" in t.hand(1) and "abu-blue-2" in t.hand(2)
    assert t.public["hands"] == [5, 5, 5] and t.public["discard_top"] == "carpet-3"
    assert (t.state.current, t.state.phase) == (2, Phase.DRAW)


def test_a6_or_take_nothing() -> None:
    t = carpet_table().do({"carpet": "carpet-3", "toss": "up"})
    before = t.state.hands
    t.refused({"take_nothing": True, "player": 1}, "A6")       # not her own hand
    t.do({"take_nothing": True, "player": 3})
    assert t.state.hands == before and t.state.current == 2


def test_a6_the_swap_is_with_an_opponent_card_for_card() -> None:
    t = carpet_table()
    t.refused({"swap": {"player": 2, "take": "rajah-blue-1", "give": "abu-blue-2"}}, "A6")
    t.refused({"carpet": "lamp-1", "toss": "up"}, "A6")        # not a carpet (and not hers)
    t.refused({"carpet": "carpet-1", "toss": "up"}, "A6")      # Ben's carpet
    t.do({"carpet": "carpet-3", "toss": "up"})
    t.refused({"swap": {"player": 1, "take": "abu-blue-2", "give": "abu-green-1"}}, "A6")
    t.refused({"swap": {"player": 2, "take": "aladdin-red-1", "give": "abu-blue-2"}}, "A6")
    t.refused({"swap": {"player": 2, "take": "rajah-blue-1", "give": "jafar-2"}}, "A6")
    t.refused({"swap": {"player": 9, "take": "rajah-blue-1", "give": "abu-blue-2"}}, "A6")


def test_a6_after_a_down_toss_there_is_no_swap() -> None:
    t = carpet_table().do({"carpet": "carpet-3", "toss": "down"})
    t.refused({"swap": {"player": 2, "take": "rajah-blue-1", "give": "abu-blue-2"}}, "A6")
    t.refused({"take_nothing": True}, "A6")


# A7 ------------------------------------------------------------------------------------------

def empty_pile(draw: list[str] | None = None) -> Table:
    """Every card not in a hand lies in the discard pile, the abu-blue-2 on top."""
    return make_table([ANN, BEN, CY], draw=draw or [], discard=["abu-blue-2"], rest="discard")


def test_a7_the_discard_pile_but_its_top_becomes_the_draw_pile() -> None:
    t = empty_pile()
    under = [c.id for c in t.state.discard[:-1]]
    order = list(reversed(under))
    t.do({"shuffle": order})
    assert [c.id for c in t.state.draw] == order
    assert [c.id for c in t.state.discard] == ["abu-blue-2"]
    assert t.state.card_count() == 60
    t.do({"draw": "pile"})
    assert order[0] in t.hand(1)


def test_a7_no_draw_from_an_empty_pile_before_the_reshuffle() -> None:
    t = empty_pile()
    assert "shuffle" in t.refused({"draw": "pile"}, "A7").reason
    t.do({"draw": "discard"})                  # the character on top needs no reshuffle
    assert "abu-blue-2" in t.hand(1)


def test_a7_reshuffle_only_an_empty_pile() -> None:
    t = three()
    t.refused({"shuffle": []}, "A7")


def test_a7_the_new_pile_is_exactly_the_discard_pile_without_its_top() -> None:
    t = empty_pile()
    under = [c.id for c in t.state.discard[:-1]]
    assert "abu-blue-2" in t.refused({"shuffle": under + ["abu-blue-2"]}, "A7").reason
    assert "left out" in t.refused({"shuffle": under[1:]}, "A7").reason
    t.refused({"shuffle": under[1:] + under[:1] + under[:1]}, "A7")
    t.refused({"shuffle": under[1:] + ["lamp-1"]}, "A7")         # Ann's card


def test_a7_reshuffle_when_the_last_card_is_drawn_mid_turn() -> None:
    t = empty_pile(draw=["sultan-blue-2"]).do({"draw": "pile"})
    assert t.state.draw == () and t.state.phase is Phase.ACT
    under = [c.id for c in t.state.discard[:-1]]
    t.do({"shuffle": under}, {"discard": "sultan-blue-2"})
    assert len(t.state.draw) == len(under) and t.public["discard_top"] == "sultan-blue-2"


def test_a7_jafar_waits_for_the_reshuffle_to_draw_back_to_five() -> None:
    t = empty_pile(draw=["sultan-blue-2"]).do({"draw": "pile"}, {"lamp": "lamp-1"})
    t.refused({"jafar": {"player": 2, "card": "jafar-1"}}, "A7")
    under = [c.id for c in t.state.discard[:-1]]             # the Lamp stays on top
    t.do({"shuffle": under}, {"jafar": {"player": 2, "card": "jafar-1"}})
    assert under[0] in t.hand(2) and len(t.hand(2)) == 5


# A8 ------------------------------------------------------------------------------------------

def test_a8_win_the_moment_the_hand_holds_a_colour_on_your_own_draw() -> None:
    t = three(draw=["sultan-green-2"]).do({"draw": "pile"})
    assert (t.state.winner, t.state.phase) == (1, Phase.OVER)
    assert t.public["winner_name"] == "Ann"
    assert set(ANN) - {"lamp-1"} | {"sultan-green-2"} < set(t.public["winning_hand"])
    assert "Ann won" in t.refused({"discard": "lamp-1"}, "A8").reason


def test_a8_win_on_someone_elses_turn_from_a_card_given_back() -> None:
    ann = ["sultan-red-2", "aladdin-green-1", "jasmine-green-1", "abu-green-1", "lamp-1"]
    ben = colour_set("red", "sultan") + ["rajah-blue-1"]
    t = make_table([ann, ben, CY]).do({"draw": "pile"}, {"lamp": "lamp-1"},
                                      {"rub": 1, "face": "genie"},
                                      {"ask": {"player": 2, "character": "rajah"}})
    t.do({"give": "rajah-blue-1"})
    assert t.public["winner"] is None
    t.do({"keep": True, "return": "sultan-red-2"})
    assert (t.state.winner, t.state.current, t.state.phase) == (2, 1, Phase.OVER)


def test_a8_the_asker_wins_on_receiving_before_giving_back() -> None:
    ben = ["sultan-green-1", "rajah-blue-1", "rajah-yellow-1", "jafar-1", "carpet-1"]
    t = make_table([ANN, ben, CY], draw=["abu-blue-2"])
    t.do({"draw": "pile"}, {"lamp": "lamp-1"}, {"rub": 1, "face": "genie"},
         {"ask": {"player": 2, "character": "sultan"}}, {"give": "sultan-green-1"})
    assert t.state.winner == 1 and len(t.hand(1)) == 6
    t.refused({"keep": False}, "A8")


def test_a8_win_on_someone_elses_turn_from_a_carpet_swap() -> None:
    ann = ["sultan-red-2", "aladdin-green-1", "jasmine-green-1", "abu-green-1", "carpet-3"]
    ben = colour_set("red", "sultan") + ["rajah-blue-1"]
    t = make_table([ann, ben, CY]).do({"draw": "pile"}, {"carpet": "carpet-3", "toss": "up"},
                                      {"swap": {"player": 2, "take": "rajah-blue-1",
                                                "give": "sultan-red-2"}})
    assert (t.state.winner, t.state.current) == (2, 1)


def test_a8_the_carpet_player_wins_on_taking() -> None:
    ben = ["sultan-green-1", "rajah-blue-1", "rajah-yellow-1", "jafar-1", "carpet-1"]
    ann = ANN_C
    t = make_table([ann, ben, CY], draw=["abu-blue-2"])
    t.do({"draw": "pile"}, {"carpet": "carpet-3", "toss": "up"},
         {"swap": {"player": 2, "take": "sultan-green-1", "give": "abu-blue-2"}})
    assert t.state.winner == 1
    assert "abu-blue-2" in t.hand(1) and len(t.hand(2)) == 4    # the exchange stopped there


def test_a8_the_jafar_player_wins_drawing_back_to_five() -> None:
    cy = colour_set("yellow", "sultan")[:4] + ["jafar-2"]
    t = make_table([ANN, BEN, cy], draw=["abu-blue-2", "sultan-yellow-1"])
    t.do({"draw": "pile"}, {"lamp": "lamp-1"}, {"jafar": {"player": 3, "card": "jafar-2"}})
    assert (t.state.winner, t.state.current) == (3, 1)


def test_a8_a_complete_hand_dealt_wins_at_once() -> None:
    t = make_table([ANN, colour_set("blue"), CY])
    assert (t.state.winner, t.state.phase) == (2, Phase.OVER)
    t.refused({"draw": "pile"}, "A8")


def test_a8_five_characters_in_mixed_colours_do_not_win() -> None:
    mixed = ["aladdin-green-1", "jasmine-red-2", "abu-blue-1", "rajah-yellow-2", "lamp-1"]
    t = make_table([mixed, BEN, CY], draw=["sultan-green-1"]).do({"draw": "pile"})
    assert t.state.winner is None and t.state.phase is Phase.ACT
