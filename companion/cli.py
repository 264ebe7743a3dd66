"""The ``companion`` command.

Each area of the project registers its own sub-commands through a ``register(subparsers)``
function in a light module (one that imports nothing heavy at import time), so that
``companion replay`` never pays for OpenCV and ``companion identify`` never for Flask.
A sub-command's handler is stored as ``func`` and returns the exit status.
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion for Sinbad vs. Jaffar (and Aladdin). "
        "With no command it plays the bundled demo.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name + ".").startswith(exc.name + "."):
                raise  # a real import error inside an existing module: show it
            continue               # that area is not installed in this build
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        args_list = ["play"]
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
