"""`azar-kiosk odds GAME [--variant V] [--main M] [--json]`: the exact odds of a game, as
fractions. `--main` is the main the caster calls in Hazard."""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.rules import GAMES, InvalidChoice, RulesError, exact_odds, find_variant

LABELS = {
    "caster_wins": "caster wins",
    "caster_loses": "caster loses",
    "draw": "draw",
}
REASON_PREFIX = "ends: "


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of a game (solved, not simulated)",
        description="Exact odds of a game, from the caster's point of view.",
    )
    add_game_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """GAME and --variant, shared with `simulate`."""
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(GAMES)}")
    parser.add_argument("--variant", metavar="V", help="a named reading (default: the card's)")
    parser.add_argument(
        "--main", type=int, metavar="M", help="Hazard: the main the caster calls (5 to 9)"
    )


def choices_of(args: argparse.Namespace) -> dict[str, int]:
    """The decisions given on the command line, by the name the engine asks them by."""
    return {} if args.main is None else {"main": args.main}


def explain(error: RulesError, args: argparse.Namespace) -> str:
    """The engine's message, with the option to give when a game needs its main."""
    if isinstance(error, InvalidChoice) and args.main is None:
        return f"{error} (give it with --main M)"
    return str(error)


def run(args: argparse.Namespace) -> int:
    try:
        variant = find_variant(args.game, args.variant)
        odds = exact_odds(variant, choices_of(args))
    except RulesError as error:
        print(f"azar-kiosk odds: {explain(error, args)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(odds.to_json(), indent=2))
        return 0
    rows = [(LABELS.get(name, name), p) for name, p in odds.outcomes.items()]
    rows.append(("expected throws", odds.expected_throws))
    if odds.expected_stakes is not None:
        for side, value in odds.expected_stakes.items():
            rows.append((f"{side} net stakes", value))
    rows += [(f"{REASON_PREFIX}{reason}", p) for reason, p in odds.reasons.items()]
    chosen = "".join(f", {name} {option}" for name, option in odds.choices.items())
    print(f"{variant.game} / {variant.name}{chosen}: exact figures (caster's point of view)")
    print(
        format_table(
            ["figure", "value", "exact fraction"],
            [
                [label, f"{float(value):.6f}", f"{value.numerator}/{value.denominator}"]
                for label, value in rows
            ],
        )
    )
    return 0


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain text table with columns padded to their widest cell."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
