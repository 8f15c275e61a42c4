"""Small helpers for the rules tests: play totals, not dice, when only the sum matters."""

from __future__ import annotations

from kiosk.rules import VARIANTS, AwaitChoice, Game, Ruling, Seat, Throw, Variant
from kiosk.rules.hazard import MAINS


def play_totals(
    variant: Variant, totals: list[int], first: Seat = Seat.ONE
) -> tuple[Game, list[Ruling]]:
    game = Game(variant, first)
    rulings = [game.play(Throw.with_total(total, variant.dice)) for total in totals]
    return game, rulings


def asks_a_choice(variant: Variant) -> bool:
    return isinstance(variant.new_game().awaiting, AwaitChoice)


# Every variant with the choices its odds need: one case per main for Hazard's called main.
ODDS_CASES: list[tuple[Variant, dict[str, int]]] = [
    (v, {"main": main}) if asks_a_choice(v) else (v, {})
    for v in VARIANTS
    for main in (MAINS if asks_a_choice(v) else (None,))
]
ODDS_IDS = [f"{v.label}{''.join(f'-{k}{x}' for k, x in c.items())}" for v, c in ODDS_CASES]
