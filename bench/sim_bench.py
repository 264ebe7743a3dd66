"""Benchmark of the simulator: complete games per second on one core (not a test).

    .venv/bin/python bench/sim_bench.py [--campaign scenarios/seven-seas.toml] [--games 300]
                                        [--profile]

Plays heuristic-vs-deck and random-vs-deck games (seeds 0..N-1) and prints games/s and turns/s
(by the process's CPU time, so that other work on a shared machine does not count; wall-clock
games/s beside it) and the mean game length for each; ``--profile`` adds the top of a
cProfile of the first pairing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.scenario import load_campaign  # noqa: E402
from companion.sim import SimConfig, play_game  # noqa: E402
from companion.sim.policies import JAFFAR_POLICIES, SINBAD_POLICIES  # noqa: E402
from companion.sinbad import Game  # noqa: E402


def bench(game: Game, sinbad: str, jaffar: str, games: int) -> dict[str, float]:
    config = SimConfig()
    turns = 0
    wins = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for seed in range(games):
        log = play_game(game, seed, SINBAD_POLICIES[sinbad](), JAFFAR_POLICIES[jaffar](),
                        config)
        turns += log.turns
        wins += log.result == "sinbad"
    elapsed = time.perf_counter() - start
    # CPU time of this process: on a shared machine, wall time also counts other people's work.
    cpu = time.process_time() - cpu_start
    return {"games_per_s": games / cpu, "turns_per_s": turns / cpu,
            "wall_games_per_s": games / elapsed, "mean_turns": turns / games,
            "sinbad_rate": wins / games, "seconds": cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaign", default=str(ROOT / "scenarios" / "seven-seas.toml"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    game = Game(load_campaign(args.campaign))
    print(f"campaign {args.campaign}, {args.games} games per pairing, one core")
    for sinbad, jaffar in (("heuristic", "deck"), ("random", "deck")):
        r = bench(game, sinbad, jaffar, args.games)
        print(f"  {sinbad:>9} vs {jaffar:<5} {r['games_per_s']:8.1f} games/s CPU "
              f"({r['wall_games_per_s']:.1f} wall)  {r['turns_per_s']:7.0f} turns/s  "
              f"mean {r['mean_turns']:6.1f} turns  Sinbad wins {100 * r['sinbad_rate']:5.1f}%")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        bench(game, "heuristic", "deck", max(1, args.games // 3))
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
