"""``companion replay`` and ``companion check``: the rules side's own commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    replay = sub.add_parser("replay", help="replay a game record and print the public state",
                            description="Replay a game record (JSON Lines) and print the state "
                            "after its last line as one JSON object (FORMATS.md).")
    replay.add_argument("record", help="the game record file (.jsonl)")
    replay.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay.set_defaults(func=run_replay)

    check = sub.add_parser("check", help="validate scenario and campaign files",
                           description="Validate every scenario and campaign file under the "
                           "given files or folders and say which pass.")
    check.add_argument("paths", nargs="+", help="TOML files or folders (searched recursively)")
    check.set_defaults(func=run_check)


def run_replay(args: argparse.Namespace) -> int:
    from companion.record import RecordError, read_lines, replay

    try:
        lines = read_lines(Path(args.record))
        header = lines[0][1]
        if isinstance(header, dict) and header.get("game") == "aladdin":
            from companion.aladdin.record import replay as replay_aladdin

            aladdin, a_state = replay_aladdin(args.record)
            public = aladdin.public(a_state)
        else:
            game, state = replay(args.record)
            public = game.public(state)
    except RecordError as exc:
        print(f"{args.record}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(public, indent=2 if args.pretty else None))
    return 0


def run_check(args: argparse.Namespace) -> int:
    from companion.scenario import Campaign, ScenarioError, load_any

    files: list[Path] = []
    for name in args.paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        elif path.exists():
            files.append(path)
        else:
            print(f"FAIL {name}: no such file or folder")
            files.append(path)
    failed = 0
    checked = 0
    for path in files:
        if not path.exists():
            failed += 1
            continue
        checked += 1
        try:
            loaded = load_any(path)
        except ScenarioError as exc:
            failed += 1
            print(f"FAIL {exc}")
            continue
        if isinstance(loaded, Campaign):
            what = (f"campaign {loaded.id!r}: {len(loaded.scenarios)} scenarios, "
                    f"{loaded.challenge_count} challenges")
        else:
            what = (f"scenario {loaded.id!r}: {len(loaded.challenges)} challenges, "
                    f"{len(loaded.steps) - len(loaded.challenges)} events")
        print(f"ok   {path}: {what}")
    print(f"{checked - failed + (len(files) - checked) * 0} of {len(files)} file(s) pass"
          if files else "no .toml files found")
    return 1 if failed or not files else 0
