"""`azar-kiosk history [--json|--csv]`: the game log, for people or for a spreadsheet.

Read-only: it never creates, renames or repairs the log (the kiosk may be running on it), and
exits 1 with the reason when the log cannot be read, never an empty list.
"""

from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import sys
import time
from pathlib import Path

from kiosk.gamelog import GameLog, LogUnreadable
from kiosk.logfile import DB_NAME, data_dir
from kiosk.records import CSV_FIELDS, event_rows, game_record


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "history",
        help="export the game log",
        description="Print every game in the kiosk's log ($KIOSK_DATA_DIR, the config's "
        "data_dir, or the user data folder).",
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON list of games")
    form.add_argument("--csv", action="store_true", help="one CSV row per event")
    add_log_arguments(parser)
    parser.set_defaults(func=run)


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    """--data-dir and --config: where the log is, for every command that reads it."""
    parser.add_argument("--data-dir", type=Path, help="folder holding the log")
    parser.add_argument("--config", type=Path, help="TOML configuration file (for data_dir)")


def read_log(args: argparse.Namespace, command: str) -> tuple[list, list] | int:
    """The log's games and rerolls, read-only; or the exit code after saying why not
    (2: the config is wrong, 1: the log cannot be read)."""
    configured = args.data_dir
    if configured is None and args.config is not None:
        from kiosk.config import ConfigError, load_config

        try:
            configured = load_config(args.config).kiosk.data_dir
        except ConfigError as error:
            print(f"azar-kiosk {command}: {error}", file=sys.stderr)
            return 2
    folder = Path(configured) if args.data_dir else data_dir(configured)
    path = folder / DB_NAME
    try:
        gamelog = GameLog.reader(path)
        try:
            return list(gamelog.games()), gamelog.rerolls()
        finally:
            gamelog.close()
    except (LogUnreadable, sqlite3.Error) as error:
        print(f"azar-kiosk {command}: {error}", file=sys.stderr)
        return 1


def run(args: argparse.Namespace) -> int:
    found = read_log(args, "history")
    if isinstance(found, int):
        return found
    games, _ = found
    try:
        write(games, args, sys.stdout)
    except BrokenPipeError:  # `| head`: the reader has seen enough
        sys.stderr.close()
    return 0


def write(games, args: argparse.Namespace, out) -> None:
    if args.json:
        json.dump([game_record(g) for g in games], out, indent=1)
        out.write("\n")
    elif args.csv:
        writer = csv.DictWriter(out, CSV_FIELDS)
        writer.writeheader()
        writer.writerows(event_rows(games))
    else:
        for g in games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started))
            winner = "-" if g.winner is None else f"player {g.winner + 1}"
            throws = " ".join(str(sum(t)) for t in g.throws)
            print(
                f"#{g.id} {when} {g.game}/{g.variant} {g.status} winner {winner} "
                f"stakes {g.stakes if g.stakes is not None else '-'}: {throws}"
            )
    return 0
