"""The `azar-kiosk` command line: a thin dispatcher over `kiosk.commands`.

Sub-commands are imported only when their module exists, so each part of the product can
land on its own; heavy imports (cv2, pygame) stay inside the command functions.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Module names under kiosk.commands, in the order `--help` lists them.
COMMANDS = ("run", "odds", "simulate", "read", "watch", "calibrate", "history", "stats")


def version() -> str:
    """The installed version (what a technician reads out on the phone)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("azar-kiosk")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azar-kiosk",
        description="Referee for the three-dice games of Alfonso X's Libro de los juegos.",
    )
    parser.add_argument("--version", action="version", version=f"azar-kiosk {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"kiosk.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"kiosk.commands.{name}":
                continue
            raise
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
