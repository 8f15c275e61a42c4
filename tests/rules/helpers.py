"""Small helpers for the rules tests: play totals, not dice, when only the sum matters."""

from __future__ import annotations

from kiosk.rules import Game, Ruling, Seat, Throw, Variant


def play_totals(
    variant: Variant, totals: list[int], first: Seat = Seat.ONE
) -> tuple[Game, list[Ruling]]:
    game = Game(variant, first)
    rulings = [game.play(Throw.with_total(total)) for total in totals]
    return game, rulings
