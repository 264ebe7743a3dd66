"""Property tests of the public engine: whatever lines arrive, in whatever order, the invariants
hold, a refusal changes nothing, and replaying the accepted lines rebuilds the same state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import full_deck
from companion.record import replay
from companion.scenario import load_campaign
from companion.sinbad import Game, Phase, SinbadState, action_from_line

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "tests" / "data" / "records" / "golden-campaign.toml"
CODES = [c.code for c in full_deck()]
GAME = Game(load_campaign(CAMPAIGN))
CHAINED = Game(GAME.campaign, GAME.campaign.rules.with_overrides({"jaffar_chain": True}))


def random_line(rng: random.Random, game: Game, state: SinbadState) -> dict[str, Any]:
    """A line that is often legal and often not: the engine must sort them out."""
    if state.phase is Phase.JAFFAR and rng.random() < 0.9:
        return {"jaffar": rng.sample(CODES, rng.choice([0, 1, 1, 1, 2, 2, 3]))}
    body: dict[str, Any] = {}
    if game.budge_due(state) and rng.random() < 0.95:
        body["budge"] = rng.choice(state.budge_hand) if state.budge_hand else "nope"
    kind = rng.choice(["draw", "draw", "play", "play", "play", "draw_play", "trade", "pass"])
    body["action"] = kind
    if kind == "draw":
        body["count"] = rng.choice([1, 2])
    elif kind in ("play", "draw_play"):
        cards = []
        for _ in range(1 if kind == "draw_play" else rng.choice([1, 2])):
            card: dict[str, Any] = {"card": rng.choice(CODES)}
            if state.paths and rng.random() < 0.5:
                card["path"] = rng.choice(state.paths).id
            cards.append(card)
        body["cards"] = cards
    elif kind == "trade":
        body["give"], body["take"] = rng.choice(CODES), rng.choice(CODES)
    return {"sinbad": body}


def check_invariants(state: SinbadState) -> None:
    assert 0 <= state.sleep <= 10
    assert state.sinbad_cards_total() == 52
    assert state.jaffar_deck + len(state.jaffar_stack) == 52
    assert min(state.hand, state.draw_pile, state.bank.unknown, *state.bank.anonymous) >= 0
    assert len(set(state.path_cards)) == len(state.path_cards)
    assert not set(state.path_cards) & set(state.bank.known)
    assert len(set(state.jaffar_stack)) == len(state.jaffar_stack)
    assert (state.result is None) == (state.phase is not Phase.OVER)
    if state.result == "jaffar":
        assert state.sleep == 0 and state.scoreboard == "winning"
    if state.result == "draw":
        assert state.sleep == 0 and state.scoreboard == "losing"
    for path in state.paths:
        assert len(path.cards) < len(path.need)
        assert all(c.suit is s for c, s in zip(path.cards, path.need, strict=False))


def play_random(game: Game, seed: int, steps: int) -> tuple[SinbadState, list[dict[str, Any]]]:
    rng = random.Random(seed)
    state = game.initial_state()
    accepted: list[dict[str, Any]] = []
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        line = random_line(rng, game, state)
        outcome = game.apply(state, action_from_line(line))
        if outcome.refusal is not None:
            assert outcome.state is state                  # a refusal changes nothing
            assert outcome.refusal.ruling.startswith("S") and outcome.refusal.reason
            continue
        state = outcome.state
        accepted.append(line)
        check_invariants(state)
    return state, accepted


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chained=st.booleans())
def test_random_lines_keep_the_invariants(seed: int, chained: bool) -> None:
    play_random(CHAINED if chained else GAME, seed, 400)


def test_replaying_accepted_lines_rebuilds_the_state(tmp_path: Path) -> None:
    finished = 0
    for seed in range(120):
        state, lines = play_random(GAME, seed, 600)
        finished += state.phase is Phase.OVER
        record = tmp_path / f"{seed}.jsonl"
        header = {"game": "sinbad", "campaign": str(CAMPAIGN)}
        record.write_text("\n".join(json.dumps(x) for x in [header, *lines]) + "\n")
        game, again = replay(record)
        assert game.public(again) == GAME.public(state)
        assert again == state
    assert finished > 30          # the random lines do reach the ends of games


def test_a_finished_game_refuses_every_line() -> None:
    for seed in range(60):
        state, _ = play_random(GAME, seed, 2000)
        if state.phase is not Phase.OVER:
            continue
        rng = random.Random(seed)
        for _ in range(20):
            outcome = GAME.apply(state, action_from_line(random_line(rng, GAME, state)))
            assert outcome.refusal is not None and outcome.refusal.ruling == "S12"
