"""Simulated games as game records (FORMATS.md "Game record"): they replay through
companion.record.replay, and through the real ``companion replay`` command, to the very state
the simulator reached; a seed is a game (STYLE lesson 4); a finished game refuses more lines
(S12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sim_helpers import QUICK, SEVEN_SEAS, game_of, write_stress

from companion.record import replay
from companion.sim import SimConfig, play_game
from companion.sim.play import GameLog, record_header, write_record
from companion.sim.policies import (
    DeckJaffar,
    HeuristicSinbad,
    JaffarPolicy,
    RandomSinbad,
    SchemerJaffar,
    SinbadPolicy,
)
from companion.sinbad import Draw, Game, JaffarPlays, Phase, SinbadTurn, action_from_line

LINES = SimConfig(keep_lines=True)
ROOT = Path(__file__).resolve().parents[2]
COMPANION = [sys.executable, "-m", "companion"]


def record_of(game: Game, campaign: Path, log: GameLog, folder: Path) -> Path:
    path = folder / f"game-{log.seed}.jsonl"
    write_record(path, record_header(str(campaign), game, log), log)
    return path


@pytest.mark.parametrize("which", ["quick", "seven-seas", "stress"])
def test_records_replay_to_the_final_state(which: str, tmp_path: Path) -> None:
    campaign = {"quick": QUICK, "seven-seas": SEVEN_SEAS}.get(which) or write_stress(tmp_path)
    game = game_of(campaign)
    sinbads: list[SinbadPolicy] = [RandomSinbad(), HeuristicSinbad()]
    jaffars: list[JaffarPolicy] = [DeckJaffar(), SchemerJaffar()]
    for seed in range(120 if which != "seven-seas" else 60):
        sinbad, jaffar = sinbads[seed % 2], jaffars[seed // 2 % 2]
        log = play_game(game, seed, sinbad, jaffar, LINES)
        path = record_of(game, campaign, log, tmp_path)
        _, state = replay(path)
        assert state == log.final, f"seed {seed}: the record replays to another state"
        assert state.phase is Phase.OVER and state.result == log.result
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert header["seed"] == seed and len(header["bank"]) == 8


def test_companion_replay_command_reads_simulated_records(tmp_path: Path) -> None:
    game = game_of(QUICK)
    for seed in (1, 2, 3):
        log = play_game(game, seed, HeuristicSinbad(), SchemerJaffar(), LINES)
        path = record_of(game, QUICK, log, tmp_path)
        run = subprocess.run([*COMPANION, "replay", str(path)], capture_output=True, text=True,
                             cwd=ROOT, check=False)
        assert run.returncode == 0, run.stderr
        assert log.final is not None
        assert json.loads(run.stdout) == json.loads(json.dumps(game.public(log.final)))


def test_a_seed_is_a_game() -> None:
    game = game_of(SEVEN_SEAS)
    for seed in (0, 7, 99):
        for sinbad in (RandomSinbad, HeuristicSinbad):
            first = play_game(game, seed, sinbad(), DeckJaffar(), LINES)
            again = play_game(game, seed, sinbad(), DeckJaffar(), LINES)
            assert first.lines == again.lines and first == again
    logs = [play_game(game, seed, RandomSinbad(), DeckJaffar(), LINES) for seed in range(5)]
    assert len({json.dumps(log.lines) for log in logs}) == 5


def test_a_seed_is_the_same_game_in_any_process(tmp_path: Path) -> None:
    """Card hashes change with PYTHONHASHSEED; the games must not (STYLE lesson 4)."""
    outs = []
    for hash_seed in ("1", "2"):
        folder = tmp_path / hash_seed
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        subprocess.run([*COMPANION, "simulate", str(write_stress(tmp_path)), "-n", "6",
                        "--sinbad", "random", "--records", str(folder), "--json"],
                       capture_output=True, text=True, cwd=ROOT, check=True, env=env)
        outs.append([f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.jsonl"))])
    assert len(outs[0]) == 6 and outs[0] == outs[1]


def test_a_finished_game_refuses_more_lines() -> None:
    """S12: after the result, neither player has a move."""
    game = game_of(QUICK)
    for seed in range(40):
        log = play_game(game, seed, RandomSinbad(), DeckJaffar(), LINES)
        assert log.final is not None and log.final.phase is Phase.OVER
        for line in (JaffarPlays(()), SinbadTurn(Draw(2)),
                     action_from_line(log.lines[-1])):
            outcome = game.apply(log.final, line)
            assert outcome.refusal is not None and outcome.refusal.ruling == "S12"
            assert outcome.state is log.final


def test_simulate_command_json_and_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    run = subprocess.run([*COMPANION, "simulate", str(QUICK), "-n", "12", "--seed", "40",
                          "--sinbad", "random", "--jaffar", "schemer", "--json",
                          "--records", str(records)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["games"] == 12
    assert sum(r["count"] for r in out["results"].values()) == 12
    for r in out["results"].values():
        low, high = r["ci95"]
        assert 0 <= low <= r["rate"] <= high <= 1
    assert {"mean_turns", "mean_turns_per_challenge", "hardest", "sleep_curve",
            "challenges"} <= set(out)
    files = sorted(records.glob("*.jsonl"))
    assert [f.name for f in files] == [f"game-{s:06d}.jsonl" for s in range(40, 52)]
    results = {"sinbad": 0, "draw": 0, "jaffar": 0}
    for f in files:
        _, state = replay(f)
        assert state.result is not None
        results[state.result] += 1
    assert results == {k: v["count"] for k, v in out["results"].items()}
    text = subprocess.run([*COMPANION, "simulate", str(QUICK), "-n", "5"],
                          capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "Sinbad wins" in text and "95% CI" in text and "sleep meter" in text
