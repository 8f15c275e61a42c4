"""`azar-kiosk simulate GAME [--variant V] [--main M] --games N --seed S [--json]`: Monte Carlo
play.

Plays through `Game.play`, the engine the kiosk uses, and prints the same figures as `odds`
with 95 % confidence intervals, next to the exact values.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.commands.odds import LABELS, add_game_arguments, choices_of, explain, format_table
from kiosk.rules import RulesError, exact_odds, find_variant, simulate


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many random games through the engine",
        description="Monte Carlo estimates of a game's odds, with 95%% confidence intervals.",
    )
    add_game_arguments(parser)
    parser.add_argument("--games", type=int, default=10000, metavar="N", help="games to play")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 2:
        print("azar-kiosk simulate: --games must be at least 2", file=sys.stderr)
        return 2
    try:
        variant = find_variant(args.game, args.variant)
        exact = exact_odds(variant, choices_of(args))
    except RulesError as error:
        print(f"azar-kiosk simulate: {explain(error, args)}", file=sys.stderr)
        return 2
    result = simulate(variant, args.games, args.seed, choices_of(args))
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return 0
    rows = [
        (LABELS.get(name, name), e, exact.outcomes[name]) for name, e in result.outcomes.items()
    ]
    rows.append(("expected throws", result.expected_throws, exact.expected_throws))
    if result.expected_stakes is not None and exact.expected_stakes is not None:
        for side, e in result.expected_stakes.items():
            rows.append((f"{side} net stakes", e, exact.expected_stakes[side]))
    print(f"{variant.game} / {variant.name}: {result.games} simulated games, seed {result.seed}")
    table = [
        [label, f"{e.mean:.4f}", f"[{e.ci95[0]:.4f}, {e.ci95[1]:.4f}]", f"{float(x):.4f}"]
        for label, e, x in rows
    ]
    print(format_table(["figure", "simulated", "95% interval", "exact"], table))
    return 0
