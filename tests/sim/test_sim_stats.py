"""Summaries: Wilson intervals, per-challenge turns, where games end, the sleep curve."""

from __future__ import annotations

import io
import json
import math
import sys
from typing import Any

import pytest
from sim_helpers import QUICK

from companion.cli import main
from companion.record import replay
from companion.sim.play import GameLog
from companion.sim.stats import Summary, render, sleep_chart, wilson


def log(result: str, turns: int, challenges: tuple[tuple[str, int], ...],
        ended_in: str | None, sleep: tuple[int, ...]) -> GameLog:
    return GameLog(0, result, turns, challenges, ended_in, sleep, 0, ())


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 3, 0.0615, 0.7923),
])
def test_wilson_matches_the_textbook(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert math.isclose(got[0], low, abs_tol=1e-4) and math.isclose(got[1], high, abs_tol=1e-4)


def test_wilson_narrows_with_more_games() -> None:
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)


def test_summary_counts_rates_challenges_and_sleep() -> None:
    s = Summary().extend([
        log("sinbad", 4, (("a/x", 1), ("a/y", 3)), None, (10, 9, 9, 8)),
        log("jaffar", 6, (("a/x", 3),), "a/y", (9, 8, 7, 5, 2, 0)),
        log("draw", 2, (), "a/x", (5, 0)),
    ])
    d = s.as_dict()
    assert d["games"] == 3 and d["mean_turns"] == 4.0
    assert d["results"]["sinbad"]["count"] == 1
    assert d["results"]["jaffar"]["ci95"] == [round(x, 4) for x in wilson(1, 3)]
    by = {c["challenge"]: c for c in d["challenges"]}
    assert by["a/x"]["mean_turns"] == 2.0 and by["a/x"]["games_ended_here"] == 1
    assert by["a/y"]["mean_turns"] == 3.0 and by["a/y"]["overcome"] == 1
    assert d["mean_turns_per_challenge"] == round(7 / 3, 3)
    assert d["hardest"]["most_turns"] == "a/y"
    assert d["sleep_curve"][0] == {"turn": 1, "mean_sleep": 8.0, "games": 3}
    assert d["sleep_curve"][5] == {"turn": 6, "mean_sleep": 0.0, "games": 1}
    text = render(d, "title")
    assert "Sinbad wins" in text and "Jaffar wins" in text and "a/y" in text


def test_sleep_chart_buckets_long_games() -> None:
    curve = [{"turn": i + 1, "mean_sleep": 10.0 - i / 10, "games": 5} for i in range(95)]
    rows = sleep_chart(curve, rows=20, width=40)
    assert len(rows) == 19                       # 95 turns in buckets of 5
    assert "turn       1-5 |" in rows[0] and rows[0].count("#") == round(9.8 / 10 * 40)
    assert rows[-1].count("#") == round((10 - 9.2) / 10 * 40)
    assert sleep_chart([]) == []


def test_simulate_shows_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:


    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["simulate", str(QUICK), "-n", "4", "--json"]) == 0
    assert "4/4 games" in fake.getvalue()
    assert '"games": 4' in capsys.readouterr().out


def test_simulate_refuses_what_it_cannot_do(tmp_path: Any,
                                           capsys: pytest.CaptureFixture[str]) -> None:

    scenario = next((QUICK.parent / "quick").glob("*.toml"))
    assert main(["simulate", str(scenario), "-n", "2"]) == 0       # a lone scenario plays
    assert main(["simulate", str(scenario), "-n", "2", "--records", str(tmp_path)]) == 2
    assert main(["simulate", str(QUICK), "-n", "0"]) == 2
    assert main(["simulate", str(QUICK), "-n", "2", "--rule", "jaffar_chain=maybe"]) == 2
    assert main(["simulate", str(QUICK), "-n", "2", "--rule", "jaffar_chain"]) == 2
    broken = tmp_path / "broken.toml"
    broken.write_text('id = "x"\nscenarios = []\n', encoding="utf-8")
    assert main(["simulate", str(broken)]) == 1
    assert "simulate:" in capsys.readouterr().err


def test_simulate_rule_switches_reach_the_records(tmp_path: Any) -> None:
    """S15l: the record header's rules are the ones the games were played under."""

    assert main(["simulate", str(QUICK), "-n", "3", "--jaffar", "schemer", "--rule",
                 "jaffar_chain=true", "--records", str(tmp_path), "--json"]) == 0
    for path in sorted(tmp_path.glob("*.jsonl")):
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert header["rules"]["jaffar_chain"] is True
        game, state = replay(path)
        assert game.rules.jaffar_chain and state.result is not None
