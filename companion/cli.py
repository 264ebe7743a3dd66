"""The ``companion`` command.

Each area of the project registers its own sub-commands through a ``register(subparsers)``
function in a light module. Only the module that owns the chosen sub-command is imported, so
``companion replay`` never pays for OpenCV or Flask, and a problem in one area never stops the
others from working. A sub-command's handler is stored as ``func`` and returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that contribute sub-commands, in the order their commands are listed.
COMMAND_MODULES = (
    "companion.commands",
    "companion.sim.commands",
    "companion.table.commands",
    "vision.commands",
)

# Which module owns which sub-command; a name not listed here makes every module load.
OWNERS = {
    "replay": "companion.commands",
    "check": "companion.commands",
    "simulate": "companion.sim.commands",
    "play": "companion.table.commands",
    "games": "companion.table.commands",
    "export": "companion.table.commands",
    "identify": "vision.commands",
    "deck": "vision.commands",
    "bench-vision": "vision.commands",
    "watch": "vision.commands",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion for Sinbad vs. Jaffar. "
        "With no command it plays the bundled demo.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - one broken area must not take the rest down
            if only is not None:
                raise
            print(f"companion: the commands of {name} are unavailable ({exc})", file=sys.stderr)
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = ["play"]
    owner = OWNERS.get(args_list[0])
    parser = build_parser(owner)
    args = parser.parse_args(args_list)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        status = func(args)
    except KeyboardInterrupt:
        print("stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
