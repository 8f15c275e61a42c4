"""`azar-kiosk stats [--csv FILE]`: the curator's figures from the game log.

Games per day and hour, languages, average game length, games abandoned, rerolls by reason,
hand entries and staff corrections. Read-only, like `history`: a log that cannot be read is an
exit 1 with the reason, never a table of zeros.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from kiosk.commands.history import add_log_arguments, read_log
from kiosk.curator import CSV_HEADER, csv_rows, visits


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="the curator's figures (games per day, languages, rerolls...)",
        description="Figures for the curator from the game log, as a table or as CSV.",
    )
    parser.add_argument(
        "--csv", type=Path, metavar="FILE", help="write them as CSV to FILE ('-': the output)"
    )
    add_log_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    found = read_log(args, "stats")
    if isinstance(found, int):
        return found
    rows = csv_rows(visits(*found))
    if args.csv is None:
        for figure, key, value in rows:
            print(f"{figure:<22} {key:<12} {value}")
        return 0
    if str(args.csv) == "-":
        _write(rows, sys.stdout)
        return 0
    try:
        with args.csv.open("w", newline="", encoding="utf-8") as out:
            _write(rows, out)
    except OSError as error:
        print(
            f"azar-kiosk stats: cannot write {args.csv}: {error.strerror or error}", file=sys.stderr
        )
        return 1
    print(f"{len(rows)} figures written to {args.csv}")
    return 0


def _write(rows, out) -> None:
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    writer.writerows(rows)
