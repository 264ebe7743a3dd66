"""The policies decide as their docstrings promise, on hand-made table positions."""

from __future__ import annotations

import random
from dataclasses import replace

from sim_helpers import QUICK, game_of

from companion.cards import Card, Suit
from companion.sim import SimConfig
from companion.sim.policies import (
    DeckJaffar,
    HeuristicSinbad,
    JaffarView,
    SchemerJaffar,
    SinbadView,
    jaffar_odds,
)
from companion.sinbad import (
    Draw,
    DrawPlay,
    Pass,
    PathState,
    Phase,
    Placement,
    Play,
    SinbadState,
    Trade,
)

GAME = game_of(QUICK)
C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(c) for c in codes.split())


def position(paths: tuple[PathState, ...], **changes: object) -> SinbadState:
    fields: dict[str, object] = {"phase": Phase.SINBAD, "turn": 3, "challenge_index": 0,
                                 "challenge_turn": 1, "paths": paths, "budge_hand": ()}
    fields.update(changes)
    return replace(GAME.initial_state(), **fields)  # type: ignore[arg-type]


def sinbad_view(state: SinbadState, hand: str, bank: str = "", drawn: str = "") -> SinbadView:
    return SinbadView(GAME, state, cards(hand), lambda: cards(bank), random.Random(0),
                      SimConfig(), lambda: Card.from_code(drawn) if drawn else None)


def jaffar_view(state: SinbadState, low: int, high: int, chosen: str = "") -> JaffarView:
    return JaffarView(GAME, state, low, high, cards(chosen), random.Random(0), SimConfig())


DOOR = (PathState("muscle", (C, C)), PathState("friends", (H, H, H)))


def test_heuristic_finishes_a_path_with_two_cards_when_losing() -> None:
    state = position(DOOR)
    action = HeuristicSinbad().action(sinbad_view(state, "2C 9C 4H 5D"))
    assert action == Play((Placement(Card.from_code("2C"), "muscle"),
                           Placement(Card.from_code("9C"), "muscle")))


def test_heuristic_shields_a_lone_path_card_with_antics_when_sleep_is_low() -> None:
    """S7: Jaffar removes only Sinbad's last card; an Antics card played after it is last."""
    state = position(DOOR, sleep=5)
    action = HeuristicSinbad().action(sinbad_view(state, "2C 4D 7S"))
    assert action == Play((Placement(Card.from_code("2C"), "muscle"),
                           Placement(Card.from_code("7S"))))


def test_heuristic_draws_and_plays_when_a_second_card_would_empty_his_hand() -> None:
    state = position((PathState("friends", (H, H, H, H)), PathState("luck", (D, D))),
                     sleep=10)
    action = HeuristicSinbad().action(sinbad_view(state, "2H 3H", drawn="KD"))
    assert isinstance(action, DrawPlay)
    assert action.placement.path == "luck"          # the drawn card serves the shorter path


def test_heuristic_plays_antics_when_winning_and_the_girl_nods_off() -> None:
    state = position(DOOR, sleep=3, scoreboard="winning", challenge_turn=4)
    assert HeuristicSinbad().action(sinbad_view(state, "4D 8S")) == Play(
        (Placement(Card.from_code("8S")),))


def test_heuristic_trades_for_what_the_best_path_lacks() -> None:
    state = position(DOOR, sleep=9, scoreboard="winning", challenge_turn=4)
    action = HeuristicSinbad().action(sinbad_view(state, "4D 5D", bank="AC 2H 3S"))
    assert action == Trade(Card.from_code("4D"), Card.from_code("AC"))
    assert HeuristicSinbad().action(sinbad_view(state, "4D 5D", bank="3S")) == Draw(1)


def test_heuristic_passes_a_lost_turn() -> None:
    state = position(DOOR, now=replace(GAME.initial_state().now, lose_turn=True))
    assert HeuristicSinbad().action(sinbad_view(state, "2C")) == Pass()


def test_heuristic_budge_choice_wakes_the_girl_when_she_is_sleepy() -> None:
    state = replace(GAME.initial_state(), phase=Phase.SINBAD, turn=1, sleep=3)
    choice = HeuristicSinbad().budge(sinbad_view(state, "2C 3C", bank="AC"))
    assert choice == "warm-milk"                     # sleep +1 and a club, not an extra card
    order = HeuristicSinbad().discard_order(sinbad_view(state, "2C 3C 4C 5D 6S"))
    assert order[0].suit is not S and order[-1].suit in (C, S)


def test_schemer_removes_sinbads_last_path_card() -> None:
    """S7: a card of the suit of Sinbad's last card, while it lies on a path, removes it."""
    qc = Card.from_code("QC")
    state = position((PathState("muscle", (C, C), (qc,)), DOOR[1]), pointer=qc,
                     played=(qc,))
    deck = list(cards("2S 3H 5C 4D"))
    assert SchemerJaffar().pick(jaffar_view(state, 1, 1), deck) == Card.from_code("5C")
    # Once it is removed, a second card is worth nothing: with 1 played, he stops.
    assert SchemerJaffar().pick(jaffar_view(state, 1, 2, chosen="5C"), deck) is None


def test_schemer_keeps_histrionics_for_when_he_is_losing_with_the_girl_sleepy() -> None:
    state = position(DOOR, scoreboard="winning", sleep=2)
    deck = list(cards("2S 3S 4D"))
    assert SchemerJaffar().pick(jaffar_view(state, 1, 2), deck) == Card.from_code("4D")
    losing = replace(state, scoreboard="losing")
    assert SchemerJaffar().pick(jaffar_view(losing, 1, 1), deck) == Card.from_code("3S")
    only_spades = list(cards("2S 3S"))
    assert SchemerJaffar().pick(jaffar_view(state, 1, 2), only_spades) == Card.from_code("3S")


def test_schemer_spends_suits_the_paths_do_not_ask_for() -> None:
    state = position(DOOR, sleep=9)
    deck = list(cards("2C 3H 4D 5C"))
    assert SchemerJaffar().pick(jaffar_view(state, 1, 1), deck) == Card.from_code("4D")


def test_deck_jaffar_plays_the_top_card() -> None:
    deck = list(cards("2C 3H 4D"))
    assert DeckJaffar().pick(jaffar_view(position(DOOR), 1, 2), deck) == Card.from_code("4D")


def test_sinbad_counts_jaffars_deck() -> None:
    state = position(DOOR, jaffar_deck=40, jaffar_stack=cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC "
                                                              "JC QC"))
    odds = jaffar_odds(state)
    assert odds[0] == 1 / 40 and odds[3] == 13 / 40
