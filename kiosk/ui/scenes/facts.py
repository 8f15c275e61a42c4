"""Facts about the odds for the attract screen, computed from the rules engine, not typed in."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from kiosk.i18n import N_, Translator
from kiosk.rules.core import total_probabilities
from kiosk.rules.odds import exact_odds
from kiosk.rules.variants import find_variant


@cache
def _figures() -> dict[str, float]:
    sums = total_probabilities()
    azar = exact_odds(find_variant("azar"))
    reazar = sum((p for total, p in sums.items() if 8 <= total <= 13), Fraction(0))
    hazard = exact_odds(find_variant("hazard"), {"main": 7})
    return {
        "hazard": float(hazard.outcomes["caster_wins"]) * 100,
        "first": float(azar.outcomes.get("caster_wins", 0)) * 100,
        "throws": float(azar.expected_throws),
        "ten": float(sums[10] * 216),
        "reazar": float(reazar) * 100,
    }


FACTS = (
    N_("In Azar, the player who throws first wins {first} games in 100."),
    N_("Three sixes come up once in 216 throws."),
    N_("10 and 11 are the likeliest sums: {ten} ways each out of 216."),
    N_("A game of Azar lasts {throws} throws on average."),
    N_("In Medio azar, a reazar (8 to 13) comes up {reazar} times in 100."),
    N_("English Hazard, with two dice, is named after azar; craps grew out of it."),
    N_("In Hazard, a caster who calls 7 wins {hazard} games in 100."),
)


def fact(tr: Translator, index: int) -> str:
    """Fact number `index` (wrapping) in the translator's language."""
    figures = _figures()
    words = {name: tr.decimal(value) for name, value in figures.items()}
    words["ten"] = str(round(figures["ten"]))
    return tr(FACTS[index % len(FACTS)]).format(**words)
