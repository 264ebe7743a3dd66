"""Summaries of many simulated games: rates with Wilson intervals, lengths, the hardest
challenge, and the sleep meter's mean curve as a small text chart."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.sim.play import GameLog

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Summary:
    """Running totals over games; :meth:`add` one log at a time, then :meth:`as_dict`."""

    games: int = 0
    results: dict[str, int] = field(default_factory=lambda: {"sinbad": 0, "draw": 0,
                                                              "jaffar": 0})
    turns: int = 0
    refusals: int = 0
    challenge_turns: dict[str, list[int]] = field(default_factory=dict)
    challenge_order: list[str] = field(default_factory=list)
    ended_in: dict[str, int] = field(default_factory=dict)
    sleep_sum: list[int] = field(default_factory=list)
    sleep_n: list[int] = field(default_factory=list)

    def add(self, log: GameLog) -> None:
        self.games += 1
        self.results[log.result] = self.results.get(log.result, 0) + 1
        self.turns += log.turns
        self.refusals += log.refusals
        for key, turns in log.challenges:
            if key not in self.challenge_turns:
                self.challenge_turns[key] = [0, 0]
                self.challenge_order.append(key)
            self.challenge_turns[key][0] += turns
            self.challenge_turns[key][1] += 1
        if log.ended_in is not None:
            self.ended_in[log.ended_in] = self.ended_in.get(log.ended_in, 0) + 1
            if log.ended_in not in self.challenge_turns:
                self.challenge_turns[log.ended_in] = [0, 0]
                self.challenge_order.append(log.ended_in)
        for i, sleep in enumerate(log.sleep):
            if i == len(self.sleep_sum):
                self.sleep_sum.append(0)
                self.sleep_n.append(0)
            self.sleep_sum[i] += sleep
            self.sleep_n[i] += 1

    def extend(self, logs: Iterable[GameLog]) -> Summary:
        for log in logs:
            self.add(log)
        return self

    def as_dict(self) -> dict[str, Any]:
        n = self.games
        rates = {}
        for result in ("sinbad", "draw", "jaffar"):
            count = self.results.get(result, 0)
            low, high = wilson(count, n)
            rates[result] = {"count": count, "rate": count / n if n else 0.0,
                             "ci95": [round(low, 4), round(high, 4)]}
        challenges: list[dict[str, Any]] = []
        for key in self.challenge_order:
            total, done = self.challenge_turns[key]
            challenges.append({"challenge": key, "overcome": done,
                               "mean_turns": round(total / done, 3) if done else None,
                               "games_ended_here": self.ended_in.get(key, 0)})
        overcome = [c for c in challenges if c["overcome"]]
        all_turns = sum(self.challenge_turns[k][0] for k in self.challenge_order)
        all_done = sum(self.challenge_turns[k][1] for k in self.challenge_order)
        slowest = max(overcome, key=lambda c: c["mean_turns"], default=None)
        deadliest = max(challenges, key=lambda c: c["games_ended_here"], default=None)
        if deadliest is not None and deadliest["games_ended_here"] == 0:
            deadliest = None
        return {
            "games": n,
            "results": rates,
            "mean_turns": round(self.turns / n, 3) if n else None,
            "mean_turns_per_challenge": round(all_turns / all_done, 3) if all_done else None,
            "hardest": {"most_turns": slowest["challenge"] if slowest else None,
                        "most_games_ended": deadliest["challenge"] if deadliest else None},
            "challenges": challenges,
            "sleep_curve": [{"turn": i + 1, "mean_sleep": round(s / c, 3), "games": c}
                            for i, (s, c) in enumerate(zip(self.sleep_sum, self.sleep_n,
                                                           strict=True))],
            "refusals": self.refusals,
        }


def sleep_chart(curve: list[dict[str, Any]], rows: int = 20, width: int = 40) -> list[str]:
    """The mean sleep by turn as bars, one row per turn or per bucket of turns."""
    if not curve:
        return []
    step = max(1, math.ceil(len(curve) / rows))
    out = []
    for start in range(0, len(curve), step):
        chunk = curve[start:start + step]
        games = sum(p["games"] for p in chunk)
        mean = sum(p["mean_sleep"] * p["games"] for p in chunk) / games
        first, last = chunk[0]["turn"], chunk[-1]["turn"]
        label = f"{first}" if first == last else f"{first}-{last}"
        bar = "#" * round(mean / 10 * width)
        out.append(f"  turn {label:>9} | {bar:<{width}} {mean:4.1f}  ({games} game-turns)"
                   if step > 1 else f"  turn {label:>9} | {bar:<{width}} {mean:4.1f}  "
                   f"({games} games)")
    return out


def render(summary: dict[str, Any], title: str) -> str:
    """The text report of ``companion simulate``."""
    lines = [title, f"games: {summary['games']}"]
    names = {"sinbad": "Sinbad wins", "draw": "draws", "jaffar": "Jaffar wins"}
    for key, words in names.items():
        r = summary["results"][key]
        low, high = r["ci95"]
        lines.append(f"  {words:<12} {r['count']:>7}  {100 * r['rate']:5.1f}%  "
                     f"(95% CI {100 * low:5.1f}% .. {100 * high:5.1f}%)")
    lines.append(f"mean game length: {summary['mean_turns']} turns")
    lines.append(f"mean turns per challenge: {summary['mean_turns_per_challenge']}")
    hardest = summary["hardest"]
    lines.append(f"hardest challenge: most turns {hardest['most_turns']}; "
                 f"most games lost at {hardest['most_games_ended']}")
    lines.append("challenges (mean turns to overcome, games that ended there):")
    for c in summary["challenges"]:
        turns = f"{c['mean_turns']:.2f}" if c["mean_turns"] is not None else "  -  "
        lines.append(f"  {c['challenge']:<40} {turns:>7}  {c['games_ended_here']:>6}")
    lines.append("sleep meter (mean by turn, games still running):")
    lines.extend(sleep_chart(summary["sleep_curve"]))
    if summary["refusals"]:
        lines.append(f"policy lines refused by the rules: {summary['refusals']}")
    return "\n".join(lines)
