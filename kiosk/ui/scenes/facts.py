"""Figures from the rules engine for the attract facts and the odds page, computed off the loop.

Solving every variant exactly takes about a second here and several on a Pi: done on the main
loop, the first visit to the odds page froze the screen. `warm()` (called once at start) computes
them on a thread of their own; until they are ready the screens say so, or show a fact that
needs none. The thread is not a daemon: a kiosk stopped in its first seconds waits for it (a
second here) instead of tearing down the interpreter under it and the camera thread.
"""

from __future__ import annotations

import logging
import threading
from fractions import Fraction
from functools import cache

from kiosk.i18n import N_, Translator
from kiosk.rules.core import AwaitChoice, total_probabilities
from kiosk.rules.odds import exact_odds
from kiosk.rules.variants import find_variant, visitor_variants

log = logging.getLogger(__name__)
_ready = threading.Event()
_started = threading.Lock()
_thread: list[threading.Thread] = []
_computed: list[bool] = []  # [True] once the figures are in the caches
ODDS_MAIN = 7  # the main shown for a game whose caster calls one (Hazard): the caster's best


@cache
def _figures() -> dict[str, float]:
    sums = total_probabilities()
    azar = exact_odds(find_variant("azar"))
    reazar = sum((p for total, p in sums.items() if 8 <= total <= 13), Fraction(0))
    hazard = exact_odds(find_variant("hazard"), {"main": ODDS_MAIN})
    return {
        "hazard": float(hazard.outcomes["caster_wins"]) * 100,
        "first": float(azar.outcomes.get("caster_wins", 0)) * 100,
        "throws": float(azar.expected_throws),
        "ten": float(sums[10] * 216),
        "reazar": float(reazar) * 100,
    }


@cache
def odds_table() -> list[tuple[str, int | None, float, float, float]]:
    """(title key, main called or None, caster wins, caster loses, mean throws) for every
    variant with a printed source, exact; a game whose caster calls a main (Hazard) with the
    main of 7."""
    rows = []
    for variant in visitor_variants():
        asks = isinstance(variant.new_game().awaiting, AwaitChoice)
        main = ODDS_MAIN if asks else None
        odds = exact_odds(variant, {"main": ODDS_MAIN} if asks else None)
        rows.append(
            (
                variant.title_key,
                main,
                float(odds.outcomes.get("caster_wins", 0)),
                float(odds.outcomes.get("caster_loses", 0)),
                float(odds.expected_throws),
            )
        )
    return rows


def _compute() -> None:
    try:
        _figures()
        odds_table()
        _computed.append(True)
    except Exception:  # a broken variant must not take the kiosk down: the page says so
        log.exception("cannot compute the odds")
    finally:
        _ready.set()


def warm() -> None:
    """Start computing the figures on their own thread (once)."""
    with _started:
        if not _thread:
            _thread.append(threading.Thread(target=_compute, name="odds", daemon=False))
            _thread[0].start()


def ready() -> bool:
    """The figures are computed and cached (False while computing, or if that failed)."""
    return _ready.is_set() and bool(_computed)


def wait(timeout: float | None = None) -> bool:
    """For tests and screenshots: block until the figures are ready."""
    warm()
    return _ready.wait(timeout)


FACTS = (
    N_("In Azar, the player who throws first wins {first} games in 100."),
    N_("Three sixes come up once in 216 throws."),
    N_("10 and 11 are the likeliest sums: {ten} ways each out of 216."),
    N_("A game of Azar lasts {throws} throws on average."),
    N_("In Medio azar, a reazar (8 to 13) comes up {reazar} times in 100."),
    N_("English Hazard, with two dice, is named after azar; craps grew out of it."),
    N_("In Hazard, a caster who calls 7 wins {hazard} games in 100."),
)
NEEDS_NO_ODDS = 1  # the fact shown while the figures are computed


def fact(tr: Translator, index: int) -> str:
    """Fact number `index` (wrapping) in the translator's language."""
    if not ready():
        warm()
        return tr(FACTS[NEEDS_NO_ODDS])
    figures = _figures()
    words = {name: tr.decimal(value) for name, value in figures.items()}
    words["ten"] = str(round(figures["ten"]))
    return tr(FACTS[index % len(FACTS)]).format(**words)
