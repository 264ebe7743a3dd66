"""Seeded random play (OpenSpiel style): ~1,000 simulated games replayed through the engine
with the invariants checked after every action (A1 cards conserved, A3 hands of 5 between
turns, A8 one winner), plus junk actions that must be refused without changing anything."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest

from companion.aladdin import (
    DECK,
    Action,
    AladdinState,
    Ask,
    Decline,
    Discard,
    Draw,
    Face,
    Game,
    Give,
    Keep,
    Phase,
    PlayCarpet,
    PlayJafar,
    PlayLamp,
    Rub,
    Rules,
    Shuffle,
    Swap,
    TakeNothing,
    winning_colour,
)
from companion.aladdin.cards import CHARACTERS
from companion.aladdin.sim import (
    SimGame,
    SimulationError,
    check_invariants,
    simulate,
    toss_carpet,
)

GAMES = 1000
TURN_CAP = 300


def configs() -> list[tuple[int, int, int]]:
    # Players cycle 2..6 and genies 1..3 (coprime cycles: all 15 pairs appear).
    return [(seed, 2 + seed % 5, 1 + seed % 3) for seed in range(GAMES)]


def replay_checked(sim: SimGame) -> AladdinState:
    """Replay a simulated game through a fresh engine, checking every state on the way."""
    game = Game(sim.header.rules)
    state = game.setup(sim.header.players, sim.header.deal)
    for action in sim.actions:
        assert not state.over, "an action after the end of the game"
        outcome = game.apply(state, action)
        assert outcome.refusal is None, (action, outcome.refusal)
        before, state = state, outcome.state
        # A1: all 60 cards in exactly one place.
        places = [c for h in state.hands for c in h] + list(state.draw) + list(state.discard)
        assert len(places) + 4 == len(DECK) and len(set(places)) == len(places)
        # A3: a turn boundary leaves every hand at 5.
        if state.turn != before.turn:
            assert state.phase is Phase.DRAW and [len(h) for h in state.hands] == \
                [5] * state.player_count
    return state


def test_a1_a3_a8_invariants_over_a_thousand_seeded_games() -> None:
    started = time.perf_counter()
    outcomes: Counter[str] = Counter()
    tosses: Counter[bool] = Counter()
    kinds: Counter[str] = Counter()
    for seed, players, genies in configs():
        sim = simulate(players=players, seed=seed, genies=genies, turn_cap=TURN_CAP,
                       check=False)
        final = replay_checked(sim)
        assert final == sim.final
        if sim.cut_off:
            assert final.winner is None and final.turn == TURN_CAP + 1
            outcomes["cut off"] += 1
            continue
        # A8: exactly one winner, who really holds a colour; nobody else does.
        assert final.over and final.winner is not None
        holders = [s for s in range(1, players + 1) if winning_colour(final.hand(s))]
        assert holders == [final.winner]
        outcomes["won"] += 1
        for action in sim.actions:
            kinds[type(action).__name__] += 1
            if isinstance(action, PlayCarpet):
                tosses[action.up] += 1
    elapsed = time.perf_counter() - started
    assert outcomes["won"] + outcomes["cut off"] == GAMES
    assert outcomes["won"] > GAMES * 0.9
    # Every kind of line happens in the simulated games, so each is covered by the replays.
    assert set(kinds) >= {"Draw", "Discard", "PlayLamp", "PlayJafar", "Rub", "Ask", "Give",
                          "Keep", "Decline", "PlayCarpet", "Swap", "TakeNothing", "Shuffle"}
    # A6: the companion's toss is fair.
    up_share = tosses[True] / (tosses[True] + tosses[False])
    assert 0.45 < up_share < 0.55, up_share
    assert elapsed < 20, f"{GAMES} games took {elapsed:.1f} s"


def test_a3_games_cut_off_at_the_turn_cap_have_no_winner() -> None:
    cut = [simulate(players=4, seed=s, turn_cap=2) for s in range(20)]
    assert any(g.cut_off for g in cut)
    for g in cut:
        assert g.cut_off == (g.final.winner is None)
        if g.cut_off:
            assert g.final.turn == 3 and replay_checked(g) == g.final


def test_a6_the_companion_toss_is_up_half_the_time() -> None:
    rng = random.Random(2024)
    ups = sum(toss_carpet(rng) for _ in range(20000))
    assert 9700 < ups < 10300           # 1/2 within about 4 standard deviations


def test_the_invariant_checker_catches_broken_states() -> None:
    state = simulate(players=3, seed=1, turn_cap=1).final
    check_invariants(state)
    short = replace(state, phase=Phase.DRAW, hands=(state.hands[0][1:],) + state.hands[1:])
    with pytest.raises(SimulationError, match="conserved"):
        check_invariants(short)
    lost = replace(short, draw=state.draw + state.hands[0][:1])
    with pytest.raises(SimulationError, match="not 5 cards"):
        check_invariants(lost)
    twice = replace(state, draw=state.draw[1:] + state.hands[0][:1])
    with pytest.raises(SimulationError, match="conserved"):
        check_invariants(twice)


def junk(rng: random.Random, state: AladdinState) -> Action:
    """Any action at all, mostly illegal: random kinds, cards, seats and faces."""
    card = rng.choice(DECK)
    seat = rng.randint(0, state.player_count + 1)
    choices: list[Action] = [
        Draw("pile" if rng.random() < 0.5 else "discard", rng.choice([None, card])), Discard(card),
        PlayLamp(card), PlayJafar(seat, card), Rub(rng.randint(1, 4), rng.choice(list(Face))),
        Ask(seat, rng.choice(CHARACTERS)), Give(card), Keep(card), Decline(),
        PlayCarpet(card, rng.random() < 0.5), Swap(seat, card, rng.choice(DECK)),
        TakeNothing(rng.choice([None, seat])),
        Shuffle(tuple(rng.sample(DECK, rng.randint(0, 5)))),
        Shuffle(state.discard[:-1][::-1]),
    ]
    return rng.choice(choices)


@pytest.mark.parametrize("seed", range(5))
def test_junk_actions_never_raise_and_refusals_change_nothing(seed: int) -> None:
    rng = random.Random(seed)
    sim = simulate(players=2 + seed, seed=100 + seed, genies=1 + seed % 3)
    game = Game(Rules(1 + seed % 3))
    state = game.setup(sim.header.players, sim.header.deal)
    refused = 0
    for action in sim.actions:
        for _ in range(5):
            attempt = junk(rng, state)
            outcome = game.apply(state, attempt)
            if outcome.refusal is None:
                check_invariants(outcome.state)
            else:
                refused += 1
                assert outcome.state is state and outcome.notes == ()
                assert outcome.refusal.ruling in {f"A{i}" for i in range(1, 9)}
                assert outcome.refusal.reason
        state = game.apply(state, action).state
    assert refused > 0
