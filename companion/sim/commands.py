"""``companion simulate``: play many whole games with the simulator and summarise them.

A light module (companion/cli.py imports it for every command): the simulator itself is only
imported when the command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

SINBAD_NAMES = ("heuristic", "random")
JAFFAR_NAMES = ("deck", "schemer")


def register(sub: Any) -> None:
    sim = sub.add_parser(
        "simulate", help="play many simulated games and report win rates",
        description="Play N whole games of a campaign with real shuffled decks and player "
        "policies, through the same rules engine as the table, and report win/draw/loss "
        "rates (95% Wilson intervals), game lengths, the hardest challenge and the sleep "
        "meter's curve. Game i uses seed S+i, so any game can be played again alone.")
    sim.add_argument("campaign", help="campaign (or single scenario) TOML file")
    sim.add_argument("-n", "--games", type=int, default=1000, help="games to play (1000)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    sim.add_argument("--sinbad", choices=SINBAD_NAMES, default="heuristic",
                     help="Sinbad's policy (heuristic)")
    sim.add_argument("--jaffar", choices=JAFFAR_NAMES, default="deck",
                     help="Jaffar's policy: deck (top card, the rule with no human) or "
                     "schemer (a human choosing his cards) (deck)")
    sim.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                     help="a house-rule switch over the campaign's [rules] (RULINGS.md "
                     "variants), e.g. --rule jaffar_chain=true; may be repeated")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--records", metavar="DIR",
                     help="write every game as a game record (JSON Lines) into DIR")
    sim.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    from companion.scenario import Campaign, ScenarioError, load_any, single_scenario_campaign
    from companion.sim.config import SimConfig
    from companion.sim.play import SimulationError, play_game, record_header, write_record
    from companion.sim.policies import JAFFAR_POLICIES, SINBAD_POLICIES
    from companion.sim.stats import Summary, render
    from companion.sinbad import Game

    if args.games < 1:
        print("simulate: -n must be at least 1", file=sys.stderr)
        return 2
    campaign_path = Path(args.campaign)
    try:
        loaded = load_any(campaign_path)
    except ScenarioError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 1
    if not isinstance(loaded, Campaign) and args.records:
        print(f"simulate: {args.campaign} is a scenario file; game records name a campaign "
              "(FORMATS.md), so --records needs a campaign file", file=sys.stderr)
        return 2
    campaign = loaded if isinstance(loaded, Campaign) else single_scenario_campaign(loaded)
    try:
        rules = campaign.rules.with_overrides(_rule_switches(args.rule), "--rule")
    except (ScenarioError, ValueError) as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    game = Game(campaign, rules)
    records = Path(args.records) if args.records else None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        # FORMATS.md: a record's campaign path is resolved against the record's folder.
        target, folder = campaign_path.resolve(), records.resolve()
        shared = os.path.commonpath([target, folder])
        campaign_ref = (os.path.relpath(target, folder) if shared != os.path.sep
                        else str(target))
    config = SimConfig(keep_lines=records is not None)
    sinbad = SINBAD_POLICIES[args.sinbad]()
    jaffar = JAFFAR_POLICIES[args.jaffar]()
    summary = Summary()
    progress = _Progress(args.games) if sys.stderr.isatty() else None
    try:
        for i in range(args.games):
            seed = args.seed + i
            log = play_game(game, seed, sinbad, jaffar, config)
            summary.add(log)
            if records is not None:
                header = record_header(campaign_ref, game, log,
                                       {"sinbad_policy": sinbad.name,
                                        "jaffar_policy": jaffar.name})
                write_record(records / f"game-{seed:06d}.jsonl", header, log)
            if progress is not None:
                progress.update(i + 1)
    except SimulationError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 1
    finally:
        if progress is not None:
            progress.close()
    result = summary.as_dict()
    result.update(campaign=str(args.campaign), seed=args.seed, sinbad=sinbad.name,
                  jaffar=jaffar.name)
    if args.json:
        print(json.dumps(result))
    else:
        print(render(result, f"{campaign.title}: {sinbad.name} Sinbad vs {jaffar.name} "
                             f"Jaffar, seeds {args.seed}..{args.seed + args.games - 1}"))
    return 0


def _rule_switches(items: list[str]) -> dict[str, object]:
    """``["jaffar_chain=true", "genies=3"]`` as typed values (JSON literals, else text)."""
    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--rule {item!r}: write NAME=VALUE, e.g. jaffar_chain=true")
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value
    return out


class _Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total = total
        self.width = width
        self.shown = -1

    def update(self, done: int) -> None:
        percent = done * 100 // self.total
        if percent == self.shown:
            return
        self.shown = percent
        filled = done * self.width // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                         f"{done}/{self.total} games")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
