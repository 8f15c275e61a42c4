"""Facts about the odds for the attract screen, computed from the rules engine, not typed in."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from kiosk.i18n import N_, Translator
from kiosk.rules.core import total_probabilities
from kiosk.rules.odds import exact_odds
from kiosk.rules.variants import find_variant


def percent(p: Fraction | float) -> str:
    return f"{float(p) * 100:.1f}"


@cache
def _figures() -> dict[str, str]:
    sums = total_probabilities()
    azar = exact_odds(find_variant("azar"))
    reazar = sum((p for total, p in sums.items() if 8 <= total <= 13), Fraction(0))
    return {
        "first": percent(azar.outcomes.get("caster_wins", 0)),
        "throws": f"{float(azar.expected_throws):.1f}",
        "ten": str(round(sums[10] * 216)),
        "reazar": percent(reazar),
    }


FACTS = (
    N_("In Azar, the player who throws first wins {first} games in 100."),
    N_("Three sixes come up once in 216 throws."),
    N_("10 and 11 are the likeliest sums: {ten} ways each out of 216."),
    N_("A game of Azar lasts {throws} throws on average."),
    N_("In Medio azar, a reazar (8 to 13) comes up {reazar} times in 100."),
)


def fact(tr: Translator, index: int) -> str:
    """Fact number `index` (wrapping) in the translator's language."""
    return tr(FACTS[index % len(FACTS)]).format(**_figures())
