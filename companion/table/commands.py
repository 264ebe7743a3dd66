"""``companion play``, ``companion games`` and ``companion export``: the live table's commands.

Light at import time: the session, Flask and the web app are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8765
REPO_ROOT = Path(__file__).resolve().parents[2]


def default_data_dir() -> Path:
    """$COMPANION_DATA, else ~/.local/share/companion."""
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env).expanduser()
    return Path("~/.local/share/companion").expanduser()


def register(sub: Any) -> None:
    play = sub.add_parser(
        "play", help="run the table: the session, the tablet page and (by default) the demo",
        description="Run a live table: the journaled game session and the tablet's web page. "
        "With no source option it plays the bundled demo game so you can watch everything "
        "move. --manual: tablet and API only. --events FILE: replay table events as if a "
        "camera saw them.")
    play.add_argument("--campaign", type=Path, help="campaign file (default: the film "
                      "campaign scenarios/seven-seas.toml)")
    source = play.add_mutually_exclusive_group()
    source.add_argument("--manual", action="store_true",
                        help="no camera and no demo: the tablet and the HTTP API only")
    source.add_argument("--events", type=Path, metavar="FILE",
                        help="table events (JSON lines with times) fed to the interpreter")
    source.add_argument("--camera", type=int, metavar="N", help="camera device number")
    source.add_argument("--video", type=Path, metavar="FILE", help="a table video file")
    source.add_argument("--url", metavar="URL", help="an MJPEG stream (a phone as camera)")
    play.add_argument("--fast", action="store_true",
                      help="with --events: ignore the times, feed events at once")
    play.add_argument("--speed", type=float, default=1.0,
                      help="demo / events pace multiplier (2 = twice as fast; default 1)")
    play.add_argument("--port", type=int, default=DEFAULT_PORT,
                      help=f"HTTP port (default {DEFAULT_PORT}; 0 picks a free one)")
    play.add_argument("--host", default="0.0.0.0",
                      help="address to listen on (default 0.0.0.0: tablets on the LAN)")
    play.add_argument("--pin", help="the table PIN tablets need to change anything "
                      "(default: 4 random digits)")
    play.add_argument("--data", type=Path, help="folder of the journal (default "
                      "$COMPANION_DATA or ~/.local/share/companion)")
    play.add_argument("--game", type=int, metavar="N", help="resume saved game N")
    play.add_argument("--new", action="store_true", help="start a new game even if one can "
                      "be resumed")
    play.add_argument("--seed", type=int, help="seed of the new game (virtual Jaffar deck, "
                      "demo)")
    play.add_argument("--no-browser-qr", action="store_true",
                      help="do not print the QR code of the tablet's address")
    play.set_defaults(func=run_play)

    games = sub.add_parser("games", help="list the saved games of a table journal",
                           description="List the saved games in the journal of a data folder.")
    games.add_argument("--data", type=Path, help="data folder (default $COMPANION_DATA or "
                       "~/.local/share/companion)")
    games.add_argument("--json", action="store_true", help="one JSON object per game")
    games.set_defaults(func=run_games)

    export = sub.add_parser("export", help="export a saved game as a game record",
                            description="Write a saved game as a game record (JSON Lines) "
                            "that `companion replay` accepts.")
    export.add_argument("out", help="output file (.jsonl), or - for standard output")
    export.add_argument("--data", type=Path, help="data folder (default $COMPANION_DATA or "
                        "~/.local/share/companion)")
    export.add_argument("--game", type=int, metavar="N",
                        help="the game to export (default: the most recent)")
    export.set_defaults(func=run_export)


# ---------------------------------------------------------------------------------------------


def run_games(args: argparse.Namespace) -> int:
    import json

    from companion.table.errors import TableError
    from companion.table.journal import Journal

    data = args.data or default_data_dir()
    if not (data / Journal.FILE_NAME).exists():
        print(f"no saved games in {data} (no journal there yet)")
        return 0
    try:
        journal = Journal.open(data)
    except TableError as exc:
        print(f"companion games: {exc.reason}", file=sys.stderr)
        return 1
    try:
        rows = journal.games()
        latest = journal.latest_game()
    finally:
        journal.close()
    if args.json:
        for row in rows:
            print(json.dumps(row.as_dict()))
        return 0
    if not rows:
        print(f"no saved games in {data}")
        return 0
    print(f"{'game':>4}  {'turn':>4}  {'sleep':>5}  {'result':<7} {'scenario':<20} title")
    for row in rows:
        mark = "*" if row.id == latest else " "
        sleep = "" if row.sleep is None else str(row.sleep)
        print(f"{row.id:>3}{mark}  {row.turn:>4}  {sleep:>5}  {row.result or '-':<7} "
              f"{row.scenario or '-':<20} {row.title}  ({row.campaign})")
    print("* the game `companion play` resumes")
    return 0


def run_export(args: argparse.Namespace) -> int:
    import json

    from companion.record import Header
    from companion.table.errors import TableError
    from companion.table.journal import Journal, fold_lines

    data = args.data or default_data_dir()
    if not (data / Journal.FILE_NAME).exists():
        print(f"companion export: no journal in {data}", file=sys.stderr)
        return 1
    try:
        journal = Journal.open(data)
        try:
            game_id = args.game if args.game is not None else journal.latest_game()
            if game_id is None:
                print(f"companion export: no saved games in {data}", file=sys.stderr)
                return 1
            row = journal.game(game_id)
            fold = fold_lines(journal.entries(game_id))
        finally:
            journal.close()
    except TableError as exc:
        print(f"companion export: {exc.reason}", file=sys.stderr)
        return 1
    header = Header("sinbad", row.campaign, dict(row.rules)).as_line()
    text = "".join(json.dumps(x) + "\n" for x in [header, *fold.applied])
    if args.out == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"companion export: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    print(f"game {game_id} ({len(fold.applied)} lines) written to {args.out}",
          file=sys.stderr)
    return 0


def default_campaign() -> Path | None:
    """The film campaign, else any campaign in scenarios/, else the tiny example."""
    scenarios = REPO_ROOT / "scenarios"
    film = scenarios / "seven-seas.toml"
    if film.is_file():
        return film
    for candidate in sorted(scenarios.glob("*.toml")):
        try:
            if "scenarios" in candidate.read_text(encoding="utf-8"):
                return candidate
        except OSError:
            continue
    tiny = Path("/work/shared/examples/tiny-campaign.toml")
    return tiny if tiny.is_file() else None


def run_play(args: argparse.Namespace) -> int:
    from companion.table.runtime import PlayOptions, play

    if args.speed <= 0:
        print("companion play: --speed must be more than 0", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("companion play: --port must be 0..65535", file=sys.stderr)
        return 2
    if args.pin is not None and (not args.pin.strip() or len(args.pin) > 32):
        print("companion play: --pin must be 1 to 32 characters", file=sys.stderr)
        return 2
    if args.events is not None and not args.events.is_file():
        print(f"companion play: {args.events}: no such events file", file=sys.stderr)
        return 2
    campaign = args.campaign
    if campaign is not None and not campaign.is_file():
        print(f"companion play: {campaign}: no such campaign file", file=sys.stderr)
        return 2
    if args.camera is not None:
        mode = "camera"
    elif args.video is not None:
        mode = "video"
    elif args.url is not None:
        mode = "url"
    elif args.events is not None:
        mode = "events"
    elif args.manual:
        mode = "manual"
    else:
        mode = "demo"
    options = PlayOptions(
        mode=mode, campaign=campaign, data=args.data or default_data_dir(), host=args.host,
        port=args.port, pin=args.pin, game=args.game, new=args.new, seed=args.seed,
        speed=args.speed, fast=args.fast, events=args.events, camera=args.camera,
        video=args.video, url=args.url, qr=not args.no_browser_qr)
    return play(options)
