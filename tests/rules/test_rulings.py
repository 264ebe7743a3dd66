"""Each ruling of RULINGS.md (Sinbad vs. Jaffar), tested alone. Test names cite the ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_helpers import GATE, Table, budge, challenge, event, gate_game, make_game, scenario_text

from companion.cards import Card
from companion.sinbad import BankSetupError, Phase


def one_challenge(tmp_path: Path, *, paths: dict[str, list[str]] | None = None,
                  budge_effects: str = "[]", before: str = "", after: str = "",
                  header: str = "", rules: dict[str, object] | None = None) -> Table:
    default = {"muscle": ["muscle", "muscle"], "friends": ["friends", "friends", "friends"]}
    steps = before + challenge("c1", paths or default) + after
    text = scenario_text(steps=steps, budge=budge("b1", budge_effects))
    return Table(make_game(tmp_path, [text], header=header, rules=rules))


# S1 -------------------------------------------------------------------------------------------

def test_s1_setup_counts(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path))
    p = t.public
    assert p["bank"] == {"clubs": 2, "diamonds": 2, "hearts": 2, "spades": 2}
    assert (p["hand"], p["draw_pile"], p["jaffar_deck"], p["turn"]) == (8, 36, 52, 0)
    assert t.state.sinbad_cards_total() == 52


def test_s1_known_bank_must_be_two_of_each_suit(tmp_path: Path) -> None:
    game = gate_game(tmp_path)
    good = tuple(Card.from_code(c) for c in "2C 3C 2D 3D 2H 3H 2S 3S".split())
    assert game.initial_state(good).bank.known == tuple(sorted(good, key=lambda c: c.sort_key))
    bad = tuple(Card.from_code(c) for c in "2C 3C 4C 3D 2H 3H 2S 3S".split())
    with pytest.raises(BankSetupError, match="2 of each suit"):
        game.initial_state(bad)


# S2 -------------------------------------------------------------------------------------------

def test_s2_sleep_never_rises_above_ten(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("3S")
    assert t.public["sleep"] == 10
    t.play("QC@muscle", budge="nudge")          # the Budge card's +1 is lost at the top
    assert t.public["sleep"] == 10


def test_s2_sleep_reaching_zero_ends_the_game_at_once(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, header="start_sleep = 1\n")
    t.jaffar("5H").sinbad("draw", "b1", count=2)
    assert t.public["sleep"] == 0 and t.state.phase is Phase.OVER
    assert t.public["result"] == "draw"


# S3 -------------------------------------------------------------------------------------------

def test_s3_scoreboard_starts_losing_unless_the_campaign_says(tmp_path: Path) -> None:
    assert Table(gate_game(tmp_path)).public["scoreboard"] == "losing"
    other = tmp_path / "other"
    other.mkdir()
    t = Table(gate_game(other, header='start_scoreboard = "winning"\n'))
    assert t.public["scoreboard"] == "winning"
    t.jaffar("4H", "5H")                           # Winning: Jaffar may play 2 (S7)


# S4 -------------------------------------------------------------------------------------------

def test_s4_jaffar_plays_first_then_sinbad_then_a_new_turn(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path))
    assert t.refused({"sinbad": {"action": "draw", "count": 2, "budge": "nudge"}}).ruling == "S4"
    t.jaffar("4H")
    assert t.public["turn"] == 1 and t.state.phase is Phase.SINBAD
    assert t.refused({"jaffar": ["5H"]}).ruling == "S4"
    t.play("QC@muscle", budge="nudge")
    assert t.state.phase is Phase.JAFFAR and t.public["turn"] == 1


def test_s4_events_resolve_before_jaffar_and_every_event_in_a_row(tmp_path: Path) -> None:
    before = event("e1", "[{ sleep = -1 }]") + event("e2", "[{ sleep = -2 }]")
    t = one_challenge(tmp_path, before=before)
    assert t.public["sleep"] == 10                 # nothing resolves before the turn starts
    t.jaffar("4H")
    assert t.public["sleep"] == 7
    assert "Event e1." in t.said() and "Event e2." in t.said()
    assert t.said().index("Intro s1.") < t.said().index("Event e1.")


# S5 / S6 -------------------------------------------------------------------------------------

def test_s5_challenge_turns_count_from_the_budge_turn(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    assert t.public["challenge"] is None and t.public["challenge_turn"] is None
    t.play("QC@muscle", budge="nudge")
    assert t.public["challenge_turn"] == 1
    t.jaffar("4D")
    assert t.public["challenge_turn"] == 2 and t.public["scoreboard"] == "losing"


def test_s6_winning_at_the_start_of_turn_three_before_jaffar(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge")
    t.jaffar("4D").sinbad("draw", count=2)
    assert t.public["scoreboard"] == "losing"
    t.jaffar("9D", "8D")                           # turn 3: already Winning, so 2 cards
    assert t.public["scoreboard"] == "winning" and t.public["challenge_turn"] == 3


# S7 -------------------------------------------------------------------------------------------

def test_s7_card_counts_by_scoreboard(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path))
    assert t.refused({"jaffar": ["4H", "5H"]}).ruling == "S7"
    assert t.refused({"jaffar": []}).ruling == "S15e"
    t.jaffar("4H")


def test_s7_matching_card_removes_sinbads_last_card_to_the_bank(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge").jaffar("5C")
    assert t.public["paths"]["muscle"]["have"] == 0
    assert t.public["bank"]["clubs"] == 3
    assert Card.from_code("QC") in t.state.bank.known


def test_s7_other_suits_do_not_remove(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge").jaffar("5H")
    assert t.public["paths"]["muscle"]["have"] == 1


def test_s7_only_the_last_card_is_a_target(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", "QH@friends", budge="nudge")
    t.jaffar("5C")                                 # last card is QH: Magic finds nothing
    assert t.public["paths"]["muscle"]["have"] == 1


def test_s7_antics_count_as_the_last_card(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", "2S", budge="nudge")
    t.jaffar("5C")
    assert t.public["paths"]["muscle"]["have"] == 1


def test_s7_histrionics_moves_sleep_up(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge")
    t.jaffar("5H").sinbad("draw", count=2)
    assert t.public["sleep"] == 9
    t.jaffar("KS", "QS")
    assert t.public["sleep"] == 10


def test_s7_no_chain_a_second_match_finds_nothing(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge")
    t.jaffar("4D").play("QH@friends")
    t.jaffar("5H", "6H")                           # turn 3, Winning: two Mind Controls
    assert t.public["paths"]["friends"]["have"] == 0
    assert t.public["paths"]["muscle"]["have"] == 1


def test_s7_chain_variant_falls_back_to_the_previous_card(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path, rules={"jaffar_chain": True}))
    t.jaffar("4H").play("QC@muscle", budge="nudge").jaffar("4D").play("QH@friends")
    t.jaffar("5H", "6C")
    assert t.public["paths"]["friends"]["have"] == 0
    assert t.public["paths"]["muscle"]["have"] == 0
    assert t.public["bank"]["clubs"] == 3 and t.public["bank"]["hearts"] == 3


def test_s7_chain_variant_from_the_campaign_and_record_header_override(tmp_path: Path) -> None:
    game = gate_game(tmp_path, header="[rules]\njaffar_chain = true\n")
    assert game.rules.jaffar_chain is True
    assert game.campaign.rules.with_overrides({"jaffar_chain": False}).jaffar_chain is False


def test_s7_jaffars_stack_becomes_his_deck_when_empty(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path))
    from dataclasses import replace
    t.state = replace(t.state, jaffar_deck=1)
    t.jaffar("4H").sinbad("draw", "nudge", count=2)
    assert t.public["jaffar_deck"] == 0
    t.jaffar("4D")
    assert t.public["jaffar_deck"] == 0 and t.public["jaffar_stack"] == ["4D"]
    assert any(n.kind == "jaffar_reshuffle" and n.count == 1 for n in t.notes)


# S8 -------------------------------------------------------------------------------------------

def test_s8a_a_challenge_begins_with_a_budge_card(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    assert t.refused({"sinbad": {"action": "draw", "count": 2}}).ruling == "S8a"
    assert t.refused({"sinbad": {"budge": "nope", "action": "draw", "count": 2}}).ruling == "S8a"
    t.sinbad("draw", "nudge", count=2).jaffar("4D")
    assert t.refused({"sinbad": {"budge": "nudge", "action": "draw", "count": 2}}).ruling \
        == "S8a"


def test_s8b_losing_actions(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    line = {"budge": "nudge", "action": "draw", "count": 1}
    assert t.refused({"sinbad": line}).ruling == "S8b"
    t.ok({"sinbad": {"budge": "nudge", "action": "draw_play",
                     "cards": [{"card": "QC", "path": "muscle"}]}})
    assert (t.public["hand"], t.public["draw_pile"]) == (8, 35)
    assert t.public["sleep"] == 10                  # a card was played: no notch lost (S8c)


def test_s8b_winning_actions(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path, header='start_scoreboard = "winning"\n')).jaffar("4H")
    assert t.refused({"sinbad": {"budge": "nudge", "action": "draw", "count": 2}}).ruling == "S8b"
    assert t.refused({"sinbad": {"budge": "nudge", "action": "play",
                                 "cards": ["QC", "QH"]}}).ruling == "S8b"
    assert t.refused({"sinbad": {"budge": "nudge", "action": "draw_play",
                                 "cards": ["QC"]}}).ruling == "S8b"
    t.sinbad("draw", "nudge", count=1)
    assert t.public["hand"] == 9


def test_s8b_the_action_follows_the_scoreboard_after_the_budge(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, budge_effects='[{ scoreboard = "winning" }]').jaffar("4H")
    assert t.refused({"sinbad": {"budge": "b1", "action": "draw", "count": 2}}).ruling == "S8b"
    t.sinbad("draw", "b1", count=1)


def test_s8b_antics_go_to_the_bank_and_wake_the_girl(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").sinbad("draw", "nudge", count=2)
    assert t.public["sleep"] == 9
    t.jaffar("4D")
    assert t.refused({"sinbad": {"action": "play",
                                 "cards": [{"card": "3S", "path": "muscle"}]}}).ruling == "S8b"
    t.play("2S")
    assert t.public["sleep"] == 10 and t.public["bank"]["spades"] == 3


def test_s8b_a_card_must_fit_a_path(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    r = t.refused({"sinbad": {"budge": "nudge", "action": "play",
                              "cards": [{"card": "QD", "path": "muscle"}]}})
    assert r.ruling == "S8b" and "muscle" in r.reason
    r = t.refused({"sinbad": {"budge": "nudge", "action": "play",
                              "cards": [{"card": "QC", "path": "nowhere"}]}})
    assert r.ruling == "S8b"
    # The mixed path needs luck first: a diamond fits only there, so no path need be named.
    t.play("QD", budge="nudge")
    assert t.public["paths"]["mixed"]["have"] == 1


def test_s8b_a_card_fitting_two_paths_needs_its_path_named(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, paths={"a": ["muscle"], "b": ["muscle", "friends"]}).jaffar("4H")
    r = t.refused({"sinbad": {"budge": "b1", "action": "play", "cards": ["QC"]}})
    assert "say which" in r.reason


def test_s8b_trade_gives_and_takes(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    t.sinbad("trade", "nudge", give="QC", take="5H")
    p = t.public
    assert p["bank"] == {"clubs": 3, "diamonds": 2, "hearts": 1, "spades": 2}
    assert p["hand"] == 8 and p["sleep"] == 9       # S8c: a trade plays no card


def test_s8c_draw_trade_and_lost_turns_cost_a_notch(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, budge_effects="[{ lose_turn = true }]")
    t.jaffar("4H").sinbad("draw", "b1", count=2).jaffar("5H")
    assert t.public["sleep"] == 9
    assert t.refused({"sinbad": {"action": "draw", "count": 2}}).ruling == "S13"
    t.sinbad("pass")
    assert t.public["sleep"] == 8


def test_s8_pass_is_only_for_a_lost_turn(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    assert t.refused({"sinbad": {"budge": "nudge", "action": "pass"}}).ruling == "S8b"


def test_s8_no_cards_in_hand_cannot_play(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    from dataclasses import replace
    t.state = replace(t.state, hand=0, draw_pile=44)
    assert "no card" in t.refused({"sinbad": {"budge": "nudge", "action": "play",
                                              "cards": ["QC"]}}).reason


# S9 -------------------------------------------------------------------------------------------

def test_s9_filling_a_path_overcomes_and_banks_every_path_card(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", "QH@friends", budge="nudge")
    t.jaffar("4D").play("KC@muscle", "3S")          # overcome, then Antics still allowed
    p = t.public
    assert p["challenge"] is None and p["paths"] == {}
    assert p["bank"] == {"clubs": 4, "diamonds": 2, "hearts": 3, "spades": 3}
    assert "The gate gives up." in t.said()


def test_s9_after_overcoming_only_antics(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge").jaffar("4D")
    r = t.refused({"sinbad": {"action": "play", "cards": ["KC", {"card": "QH",
                                                                 "path": "friends"}]}})
    assert r.ruling == "S9"


# S10 ------------------------------------------------------------------------------------------

def two_scenarios(tmp_path: Path, trailing: str = "") -> Table:
    s1 = scenario_text(sid="one", steps=challenge("c1", {"m": ["muscle"], "f": ["friends",
                                                                                 "friends"]})
                       + trailing, budge=budge("b1"))
    s2 = scenario_text(sid="two", steps=challenge("c2", {"m": ["muscle", "muscle"],
                                                         "f": ["friends"]}), budge=budge("b2"))
    return Table(make_game(tmp_path, [s1, s2]))


def test_s10_overcoming_sets_losing_at_the_end_of_the_turn(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path, header='start_scoreboard = "winning"\n'))
    t.jaffar("4H").play("QC@muscle", budge="nudge").jaffar("4D").play("KC@muscle")
    assert t.public["scoreboard"] == "losing" and t.public["result"] == "sinbad"


def test_s10_next_scenario_starts_next_turn_with_its_budge_cards(tmp_path: Path) -> None:
    t = two_scenarios(tmp_path).jaffar("4H").play("QC", budge="b1")
    p = t.public
    assert p["scenario"] == "one" and p["result"] is None and p["budge"] == []
    t.jaffar("4D")
    p = t.public
    assert p["scenario"] == "two" and p["budge"] == ["b2"] and p["budge_due"] is True
    assert "Intro two." in t.said()


def test_s10_unused_budge_cards_are_discarded(tmp_path: Path) -> None:
    s1 = scenario_text(sid="one", steps=challenge("c1", {"m": ["muscle"]})
                       + challenge("c1b", {"m": ["muscle"]}), budge=budge("b1") + budge("b1b"))
    s2 = scenario_text(sid="two", steps=challenge("c2", {"m": ["muscle"]}), budge=budge("b2"))
    t = Table(make_game(tmp_path, [s1, s2]))
    t.jaffar("4H").play("QC", budge="b1").jaffar("4D").play("KC", budge="b1b")
    t.jaffar("5D")
    assert t.public["budge"] == ["b2"]


def test_s10_completing_the_final_scenario_wins(tmp_path: Path) -> None:
    t = two_scenarios(tmp_path).jaffar("4H").play("QC", budge="b1").jaffar("4D")
    t.play("KC@m", budge="b2").jaffar("5D").play("JC")
    assert t.public["result"] == "sinbad" and t.state.phase is Phase.OVER


# S11 ------------------------------------------------------------------------------------------

def test_s11_empty_draw_pile_rebuilds_from_the_bank_excess(tmp_path: Path) -> None:
    from dataclasses import replace

    from companion.sinbad import Bank
    t = Table(gate_game(tmp_path)).jaffar("4H")
    # 6 clubs and 3 hearts in the bank, an empty draw pile, the rest in the hand.
    t.state = replace(t.state, bank=Bank((), (6, 2, 3, 2), 0), draw_pile=0, hand=39)
    t.sinbad("draw", "nudge", count=2)
    p = t.public
    assert p["bank"] == {"clubs": 2, "diamonds": 2, "hearts": 2, "spades": 2}
    assert (p["draw_pile"], p["hand"]) == (3, 41)
    assert t.state.sinbad_cards_total() == 52


def test_s11_nothing_to_rebuild_draws_what_there_is(tmp_path: Path) -> None:
    from dataclasses import replace
    t = Table(gate_game(tmp_path)).jaffar("4H")
    t.state = replace(t.state, draw_pile=1, hand=43)
    t.sinbad("draw", "nudge", count=2)
    assert (t.public["draw_pile"], t.public["hand"]) == (0, 44)


# S12 ------------------------------------------------------------------------------------------

def test_s12_sleep_zero_while_winning_is_jaffars(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, header='start_sleep = 1\nstart_scoreboard = "winning"\n')
    t.jaffar("4H").sinbad("draw", "b1", count=1)
    assert t.public["result"] == "jaffar"


def test_s12_meter_read_the_moment_it_hits_zero(tmp_path: Path) -> None:
    # The Budge card takes a notch, the draw takes the last one: Winning at that moment.
    t = one_challenge(tmp_path, header='start_sleep = 2\nstart_scoreboard = "winning"\n',
                      budge_effects="[{ sleep = -1 }]")
    t.jaffar("4H").sinbad("draw", "b1", count=1)
    assert t.public["sleep"] == 0 and t.public["result"] == "jaffar"


def test_s12_a_finished_game_refuses_more_lines(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge")
    t.jaffar("4D").play("KC@muscle")
    assert t.refused({"jaffar": ["5D"]}).ruling == "S12"


# S13 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("effects", "check"), [
    ("[{ sleep = -3 }]", lambda p: p["sleep"] == 7),
    ('[{ scoreboard = "winning" }]', lambda p: p["scoreboard"] == "winning"),
    ("[{ draw = 3 }]", lambda p: (p["hand"], p["draw_pile"]) == (11, 33)),
    ("[{ discard = 2 }]", lambda p: p["hand"] == 6 and p["bank"]["unknown"] == 2),
    ('[{ take = ["clubs", "hearts"] }]',
     lambda p: p["hand"] == 10 and p["bank"]["clubs"] == 1 and p["bank"]["hearts"] == 1),
    ('[{ say = "The narrator repeats: PRINCESS." }]', lambda p: p["sleep"] == 10),
])
def test_s13_event_effects(tmp_path: Path, effects: str, check: object) -> None:
    t = one_challenge(tmp_path, before=event("e1", effects)).jaffar("4H")
    assert check(t.public)  # type: ignore[operator]


def test_s13_event_narration_is_read(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", '[{ say = "PRINCESS... a PRINCESS." }]'))
    t.jaffar("4H")
    assert "PRINCESS... a PRINCESS." in t.said()


def test_s13_jaffar_skip_from_an_event_skips_this_phase(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ jaffar_skip = true }]"))
    assert t.refused({"jaffar": ["4H"]}).ruling == "S13"
    t.jaffar()
    assert t.public["jaffar_deck"] == 52


def test_s13_jaffar_extra_from_an_event(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ jaffar_extra = 1 }]"))
    assert t.refused({"jaffar": ["4H"]}).ruling == "S7"
    t.jaffar("4H", "5H")


def test_s13_lose_turn_from_an_event_applies_this_turn(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ lose_turn = true }]")).jaffar("4H")
    t.sinbad("pass", "b1")                          # S15a: the Budge card is still played
    assert t.public["challenge"] == "c1" and t.public["sleep"] == 9


def test_s13_path_delta_from_an_event_is_a_shortcut(tmp_path: Path) -> None:
    before = event("e1", '[{ path_delta = { path = "friends", steps = -2 } }]')
    t = one_challenge(tmp_path, before=before).jaffar("4H").play("QH@friends", budge="b1")
    assert t.public["result"] == "sinbad"


# S14 ------------------------------------------------------------------------------------------

def test_s14_public_state_has_counts_not_hidden_cards(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").sinbad("draw", "nudge", count=2)
    p = t.public
    for key in ("turn", "sleep", "scoreboard", "result", "scenario", "challenge",
                "challenge_turn", "paths", "bank", "hand", "draw_pile"):
        assert key in p
    assert isinstance(p["hand"], int) and isinstance(p["draw_pile"], int)
    assert p["jaffar_stack"] == ["4H"]


# S15 ------------------------------------------------------------------------------------------

def test_s15a_a_lost_turn_still_begins_the_due_challenge(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ lose_turn = true }]")).jaffar("4H")
    assert t.refused({"sinbad": {"action": "pass"}}).ruling == "S8a"


def test_s15b_turn_start_events_that_end_the_game(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ sleep = -10 }]"))
    assert t.refused({"jaffar": ["4H"]}).ruling == "S15b"
    t.jaffar()
    assert t.public["result"] == "draw" and t.public["turn"] == 1


def test_s15c_budge_effects_apply_next_turn(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, budge_effects="[{ jaffar_skip = true }, { jaffar_extra = 1 }]")
    t.jaffar("4H").sinbad("draw", "b1", count=2)
    t.jaffar()                                      # the skip cancels the extra card (S15e)
    t.sinbad("draw", count=2).jaffar("5H")


def test_s15c_budge_path_delta_applies_to_the_challenge_it_begins(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, budge_effects='[{ path_delta = { path = "muscle", steps = 1 } }]')
    t.jaffar("4H").play("QC@muscle", budge="b1")
    assert t.public["paths"]["muscle"] == {"need": 3, "have": 1}


def test_s15d_path_delta_keeps_at_least_one_step(tmp_path: Path) -> None:
    t = one_challenge(tmp_path,
                      budge_effects='[{ path_delta = { path = "friends", steps = -9 } }]')
    t.jaffar("4H").sinbad("draw", "b1", count=2)
    assert t.public["paths"]["friends"]["need"] == 1


def test_s15d_positive_steps_repeat_the_last_resource(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, paths={"mix": ["luck", "muscle"], "f": ["friends"] * 4},
                      budge_effects='[{ path_delta = { path = "mix", steps = 1 } }]')
    t.jaffar("4H").play("QD@mix", "QC@mix", budge="b1")
    assert t.public["paths"]["mix"] == {"need": 3, "have": 2}
    assert t.state.path("mix").next_suit.word == "clubs"  # type: ignore[union-attr]


def test_s15e_winning_with_extra_cards(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, header='start_scoreboard = "winning"\n',
                      before=event("e1", "[{ jaffar_extra = 1 }]"))
    assert t.refused({"jaffar": ["4H"]}).ruling == "S7"
    assert t.refused({"jaffar": ["4H", "5H", "6H", "7H"]}).ruling == "S7"
    t.jaffar("4H", "5H")                            # a human may stop after 1 + n


def test_s15f_events_after_the_last_challenge_resolve_next_turn(tmp_path: Path) -> None:
    t = two_scenarios(tmp_path, trailing=event("after", "[{ sleep = -1 }]"))
    t.jaffar("4H").play("QC", budge="b1")
    assert t.public["sleep"] == 10
    t.jaffar("4D")
    said = t.said()
    assert t.public["sleep"] == 9 and said.index("Event after.") < said.index("Intro two.")


def test_s15f_events_after_the_final_challenge_are_read_when_sinbad_wins(tmp_path: Path) -> None:
    steps = challenge("c1", {"m": ["muscle"], "f": ["friends", "friends"]}) + \
        event("epilogue", "[{ sleep = -5 }]")
    t = Table(make_game(tmp_path, [scenario_text(steps=steps, budge=budge("b1"))]))
    t.jaffar("4H").play("QC", budge="b1")
    assert t.public["result"] == "sinbad" and t.public["sleep"] == 10
    assert "Event epilogue." in t.said()


def test_s15g_trade_gives_first_then_takes(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H")
    from dataclasses import replace

    from companion.sinbad import Bank
    t.state = replace(t.state, bank=Bank((), (2, 2, 0, 2), 0), hand=10)
    # No hearts in the bank, but the heart given first can be taken straight back.
    t.sinbad("trade", "nudge", give="QH", take="QH")
    assert t.public["bank"]["hearts"] == 0


def test_s15h_effects_move_what_exists(tmp_path: Path) -> None:
    before = event("e1", '[{ take = ["hearts", "hearts", "hearts"] }]')
    t = one_challenge(tmp_path, before=before).jaffar("4H")
    assert t.public["bank"]["hearts"] == 0 and t.public["hand"] == 10


def test_s15h_discarded_cards_named_on_the_sinbad_line(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ discard = 2 }]")).jaffar("4H")
    assert t.public["bank"]["unknown"] == 2
    t.ok({"sinbad": {"budge": "b1", "action": "draw", "count": 2,
                     "effect_cards": {"discard": ["9C", "9H"]}}})
    assert "unknown" not in t.public["bank"]
    assert t.public["bank"]["clubs"] == 3 and t.public["bank"]["hearts"] == 3


def test_s15h_too_many_named_discards_are_refused(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ discard = 1 }]")).jaffar("4H")
    r = t.refused({"sinbad": {"budge": "b1", "action": "draw", "count": 2,
                              "effect_cards": {"discard": ["9C", "9H"]}}})
    assert r.ruling == "S15h"


def test_s15i_an_effect_that_ends_the_game_stops_the_line(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, header="start_sleep = 1\n", budge_effects="[{ sleep = -1 }]")
    t.jaffar("4H").play("QC@muscle", budge="b1")
    p = t.public
    assert p["result"] == "draw" and p["paths"]["muscle"]["have"] == 0 and p["hand"] == 8


def test_s15j_a_card_already_on_the_table_cannot_be_played(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge").jaffar("4D")
    assert t.refused({"sinbad": {"action": "play", "cards": ["QC"]}}).ruling == "S15j"
    assert t.refused({"jaffar": ["4H"]}).ruling == "S4"
    t.sinbad("draw", count=2)
    assert t.refused({"jaffar": ["4D", "5D"]}).ruling == "S15j"


def test_s15k_reshuffle_with_known_identities(tmp_path: Path) -> None:
    from dataclasses import replace
    game = gate_game(tmp_path)
    bank = tuple(Card.from_code(c) for c in "2C 3C 2D 3D 2H 3H 2S 3S".split())
    t = Table(game, game.initial_state(bank)).jaffar("4H").play("QC@muscle", budge="nudge")
    t.jaffar("5C")                                   # QC back to the bank: 3 clubs known
    t.state = replace(t.state, draw_pile=0, hand=43)
    t.sinbad("draw", count=2)
    known = {c.code for c in t.state.bank.known}
    assert known == {"2D", "3D", "2H", "3H", "2S", "3S"}    # clubs reduced: now unknown
    assert t.public["bank"]["clubs"] == 2 and t.public["draw_pile"] == 0


def test_s15l_header_rules_override_the_campaign(tmp_path: Path) -> None:
    from companion.record import RecordError, replay
    gate = tmp_path / "gate.toml"
    gate.write_text(GATE)
    (tmp_path / "c.toml").write_text('id = "c"\nscenarios = ["gate.toml"]\n'
                                     "[rules]\njaffar_chain = false\n")
    rec = tmp_path / "r.jsonl"
    rec.write_text('{"game": "sinbad", "campaign": "c.toml", "rules": {"jaffar_chain": true}}\n')
    game, _ = replay(rec)
    assert game.rules.jaffar_chain is True
    rec.write_text('{"game": "sinbad", "campaign": "c.toml", "rules": {"jaffar_chain": 3}}\n')
    with pytest.raises(RecordError, match="jaffar_chain"):
        replay(rec)


def test_s6_s7_jaffar_card_range_looks_ahead_to_the_turn_start(tmp_path: Path) -> None:
    t = Table(gate_game(tmp_path)).jaffar("4H").play("QC@muscle", budge="nudge")
    assert t.game.jaffar_card_range(t.state) == (1, 1)
    t.jaffar("4D").sinbad("draw", count=2)
    assert t.public["scoreboard"] == "losing"
    assert t.game.jaffar_card_range(t.state) == (1, 2)      # turn 3 will be Winning (S6)
    assert t.public["scoreboard"] == "losing"                # and asking changed nothing


def test_s13_jaffar_card_range_includes_turn_start_events(tmp_path: Path) -> None:
    t = one_challenge(tmp_path, before=event("e1", "[{ jaffar_skip = true }]"))
    assert t.game.jaffar_card_range(t.state) == (0, 0)


def test_s8a_upcoming_paths_show_the_challenge_about_to_begin(tmp_path: Path) -> None:
    before = event("e1", '[{ path_delta = { path = "friends", steps = -1 } }]')
    t = one_challenge(tmp_path, before=before)
    assert t.game.upcoming_paths(t.state) == ()            # the turn has not started
    t.jaffar("4H")
    upcoming = {p.id: len(p.need) for p in t.game.upcoming_paths(t.state)}
    assert upcoming == {"muscle": 2, "friends": 2} and t.public["paths"] == {}
    t.play("QC@muscle", budge="b1")
    assert t.game.upcoming_paths(t.state) == t.state.paths
