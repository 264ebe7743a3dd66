"""Seeded random play on thousands of whole games (STYLE lesson 5, OpenSpiel): after every
line the sleep meter is in 0..10 (S2), Sinbad's 52 cards and Jaffar's 52 are all accounted for,
the hidden cards agree with the engine's public state card by card (S14), the policies' lines
are all accepted, and the rare rules really happen in the batch (so the checks are not idle)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sim_helpers import QUICK, SEVEN_SEAS, game_of, write_stress

from companion.cards import SUITS, Suit
from companion.sim import SimConfig, play_game
from companion.sim.hidden import HiddenCards
from companion.sim.policies import (
    DeckJaffar,
    HeuristicSinbad,
    JaffarPolicy,
    RandomSinbad,
    SchemerJaffar,
    SinbadPolicy,
)
from companion.sinbad import (
    Action,
    Draw,
    DrawPlay,
    Game,
    JaffarPlays,
    Outcome,
    Pass,
    Phase,
    Play,
    SinbadState,
    SinbadTurn,
    Trade,
)

DEEP = SimConfig(deep_checks=True)


class Invariants:
    """An observer that checks every line and counts what happened."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()
        self.lines = 0
        self.prev: SinbadState | None = None

    def __call__(self, action: Action, outcome: Outcome, hidden: HiddenCards) -> None:
        s = outcome.state
        self.lines += 1
        if isinstance(action, JaffarPlays) and s.turn == 1:
            self.prev = None                                   # a new game
        self.rulings(action, outcome, self.prev)
        self.prev = s
        assert outcome.refusal is None
        assert 0 <= s.sleep <= 10, "S2: the meter stays in 0..10"
        assert s.sinbad_cards_total() == 52, "Sinbad's cards: hand + pile + bank + paths"
        assert s.hand >= 0 and s.draw_pile >= 0 and s.bank.unknown >= 0
        assert all(s.bank.count(suit) >= 0 for suit in SUITS)
        assert s.jaffar_deck + len(s.jaffar_stack) == 52, "Jaffar's cards: deck + stack"
        assert len(set(s.jaffar_stack)) == len(s.jaffar_stack)
        every = hidden.hand + hidden.draw + list(s.path_cards) + hidden.bank(s.path_cards)
        assert sorted(c.sort_key for c in every) == sorted(
            c.sort_key for c in set(every)) and len(every) == 52
        assert set(hidden.jaffar).isdisjoint(s.jaffar_stack)
        if s.sleep == 0:
            assert s.phase is Phase.OVER, "S12: the game ends the moment sleep reaches 0"
            assert s.result == ("jaffar" if s.scoreboard == "winning" else "draw")
        if s.phase is Phase.OVER:
            assert s.result in ("sinbad", "jaffar", "draw")
        for note in outcome.notes:
            if note.kind == "take" and note.card is None:
                self.seen["take_anonymous"] += 1
            else:
                self.seen[note.kind] += 1
        if isinstance(action, JaffarPlays):
            self.seen["jaffar_cards_" + str(len(action.cards))] += 1
        elif isinstance(action, SinbadTurn):
            a = action.action
            self.seen["sinbad_" + type(a).__name__] += 1
            if action.effect_discards:
                self.seen["named_discards"] += 1
            if isinstance(a, Pass):
                assert s.result is not None or s.sleep >= 0
            if isinstance(a, Trade):
                assert a.take in hidden.hand or s.phase is Phase.OVER
            if isinstance(a, DrawPlay):
                self.seen["draw_play"] += 1


    def rulings(self, action: Action, outcome: Outcome, prev: SinbadState | None) -> None:
        s = outcome.state
        over = s.phase is Phase.OVER
        if isinstance(action, JaffarPlays) and not over:
            if s.challenge_index is not None and s.challenge_turn >= 3:
                assert s.scoreboard == "winning", "S6: turn 3 of a challenge is Winning"
                self.seen["S6"] += 1
            assert len(action.cards) <= (3 if s.scoreboard == "winning" else 2)   # S7, S15e
        if isinstance(action, SinbadTurn) and not over:
            if any(n.kind == "overcome" for n in outcome.notes):
                assert s.scoreboard == "losing", "S10: an overcome turn ends Losing"
                self.seen["S10"] += 1
            if prev is not None and action.budge is None:
                a = action.action
                if isinstance(a, Draw | Trade | Pass):
                    assert s.sleep == prev.sleep - 1, "S8c: a turn without a play costs 1"
                    self.seen["S8c"] += 1
                elif isinstance(a, Play | DrawPlay):
                    cards = a.placements if isinstance(a, Play) else (a.placement,)
                    antics = sum(1 for p in cards if p.card.suit is Suit.SPADES)
                    assert s.sleep == min(10, prev.sleep + antics), "S2/S8b: Antics +1"


def run_batch(game: Game, sinbad: type[SinbadPolicy], jaffar: type[JaffarPolicy],
              seeds: range) -> tuple[Invariants, Counter[str]]:
    check = Invariants()
    results: Counter[str] = Counter()
    for seed in seeds:
        log = play_game(game, seed, sinbad(), jaffar(), DEEP, check)
        results[log.result] += 1
        assert log.refusals == 0, f"seed {seed}: a policy proposed a line the rules refuse"
        assert log.turns == (log.final.turn if log.final else -1)
        assert len(log.sleep) in (log.turns, log.turns - 1) or log.turns == 0
    return check, results


@pytest.fixture(scope="module")
def stress(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return game_of(write_stress(tmp_path_factory.mktemp("stress")))


def test_random_sinbad_on_the_stress_campaign_runs_every_rare_rule(stress: Game) -> None:
    check, results = run_batch(stress, RandomSinbad, DeckJaffar, range(500))
    # S11 reshuffles, S15k anonymous bank cards taken back, S13 effects of every kind.
    for kind in ("reshuffle", "take_anonymous", "discard", "removed", "sinbad_Pass", "S6",
                 "S8c",
                 "jaffar_cards_0", "sinbad_Trade", "sinbad_Draw", "sinbad_Play",
                 "draw_play", "named_discards"):
        assert check.seen[kind] > 0, f"no game of the batch ran {kind!r}"
    assert sum(results.values()) == 500


def test_heuristic_sinbad_on_the_stress_campaign(stress: Game) -> None:
    check, results = run_batch(stress, HeuristicSinbad, DeckJaffar, range(150))
    # S15e: Winning with an extra card, Jaffar plays 3.
    for kind in ("overcome", "reshuffle", "jaffar_cards_2", "jaffar_cards_3", "S10"):
        assert check.seen[kind] > 0, f"no game of the batch ran {kind!r}"
    assert results["sinbad"] > 0
    check, results = run_batch(stress, HeuristicSinbad, SchemerJaffar, range(150))
    assert check.seen["removed"] > 0 and sum(results.values()) == 150


@pytest.mark.parametrize("jaffar", [DeckJaffar, SchemerJaffar])
def test_random_sinbad_on_the_bundled_campaigns(jaffar: type[JaffarPolicy]) -> None:
    for path, seeds in ((QUICK, range(400)), (SEVEN_SEAS, range(400))):
        check, results = run_batch(game_of(path), RandomSinbad, jaffar, seeds)
        assert check.seen["sinbad_Play"] > 0 and check.seen["sleep"] > 0
        assert sum(results.values()) == len(seeds)


def test_heuristic_on_the_bundled_campaigns() -> None:
    for path, seeds in ((QUICK, range(300)), (SEVEN_SEAS, range(60))):
        check, results = run_batch(game_of(path), HeuristicSinbad, DeckJaffar, seeds)
        assert check.seen["overcome"] > 0
        assert results["sinbad"] > 0, "a sensible Sinbad wins some games"
        _, vs_schemer = run_batch(game_of(path), HeuristicSinbad, SchemerJaffar,
                                  range(seeds.stop // 2))
        assert sum(vs_schemer.values()) == seeds.stop // 2


def test_jaffar_chain_variant(tmp_path: Path) -> None:
    """S7 (variant jaffar_chain = true): the schemer's removals are still legal lines."""
    text = QUICK.read_text(encoding="utf-8").replace("jaffar_chain = false",
                                                      "jaffar_chain = true")
    (tmp_path / "quick").mkdir()
    for f in (QUICK.parent / "quick").glob("*.toml"):
        (tmp_path / "quick" / f.name).write_text(f.read_text(encoding="utf-8"),
                                                 encoding="utf-8")
    path = tmp_path / "chain.toml"
    path.write_text(text, encoding="utf-8")
    game = game_of(path)
    assert game.rules.jaffar_chain
    check, _ = run_batch(game, RandomSinbad, SchemerJaffar, range(300))
    assert check.seen["removed"] > 0


@pytest.mark.parametrize("path", sorted((SEVEN_SEAS.parent).glob("*.toml")),
                         ids=lambda p: p.name)
def test_every_bundled_campaign_plays_through(path: Path) -> None:
    """Any campaign added to scenarios/ is played by both Sinbads without a broken line."""
    game = game_of(path)
    for sinbad, jaffar, seeds in ((RandomSinbad, SchemerJaffar, range(1000, 1100)),
                                  (HeuristicSinbad, DeckJaffar, range(1000, 1010))):
        check, results = run_batch(game, sinbad, jaffar, seeds)
        assert sum(results.values()) == len(seeds) and check.lines > 0
