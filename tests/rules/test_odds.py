"""Exact odds: checked against independent closed forms, the literature, and simulation."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from kiosk.rules import Variant, exact_odds, find_variant, simulate, total_probabilities
from kiosk.rules.azar import CARD_AZARI, LANA_AZARI
from kiosk.rules.odds import solve_linear
from kiosk.rules.simulation import Estimate

from .helpers import ODDS_CASES, ODDS_IDS

P = total_probabilities()


def azar_caster_wins(azari: frozenset[int], encuentro_restarts: bool) -> Fraction:
    """Closed form, written independently of the engine (the caster makes the second throw).

    With the opponent's chance c and the caster's d, the race is won by d with odds
    p(d) / (p(c) + p(d)). A restart returns to the start (W appears on both sides).
    """
    chances = [t for t in P if t not in azari]
    direct = sum((P[t] for t in azari), Fraction(0))
    loops = Fraction(0)
    for c in chances:
        race = sum((P[d] * P[d] / (P[c] + P[d]) for d in chances if d != c), Fraction(0))
        if encuentro_restarts:
            direct += P[c] * race
            loops += P[c] * P[c]
        else:
            direct += P[c] * race / (1 - P[c])
    return direct / (1 - loops)


@pytest.mark.parametrize(
    ("name", "azari", "restarts"),
    [("card", CARD_AZARI, True), ("lana", LANA_AZARI, True), ("rethrow", CARD_AZARI, False)],
)
def test_azar_odds_match_the_closed_form(name: str, azari: frozenset[int], restarts: bool) -> None:
    odds = exact_odds(find_variant("azar", name))
    assert odds.outcomes["caster_wins"] == azar_caster_wins(azari, restarts)
    assert odds.outcomes["caster_wins"] + odds.outcomes["caster_loses"] == 1


def test_the_card_matches_basulto_santos_first_caster_figure() -> None:
    # The card quotes 0.5187 (Basulto Santos et al. 2006); the exact value truncates to it.
    p = exact_odds(find_variant("azar")).outcomes["caster_wins"]
    assert Fraction("0.5187") <= p < Fraction("0.5188")


def test_azar_expected_throws_of_the_card_by_hand() -> None:
    # Start: 1 throw, then (if a chance c) 1 more, then a race of mean 1 / (p(c) + p(d)).
    chances = [t for t in P if t not in CARD_AZARI]
    once = Fraction(1)
    loops = Fraction(0)
    for c in chances:
        once += P[c] * 1
        once += sum((P[c] * P[d] / (P[c] + P[d]) for d in chances if d != c), Fraction(0))
        loops += P[c] * P[c]
    assert exact_odds(find_variant("azar")).expected_throws == once / (1 - loops)


def test_who_makes_the_second_throw_does_not_change_the_odds() -> None:
    # Results follow roles, not hands, so only the turn order differs.
    assert (
        exact_odds(find_variant("azar", "opponent-second")).outcomes
        == exact_odds(find_variant("azar")).outcomes
    )


def medio_by_numpy() -> tuple[float, float]:
    """P(caster wins) and expected throws of Medio azar from its equations, solved with numpy."""
    reazares = list(range(8, 14))
    a = float(sum(P[t] for t in P if t not in reazares))
    r = {x: float(P[x]) for x in reazares}
    n = len(reazares)
    # Unknowns: S(o) for each opponent chance o (seek own chance), then R (recovery).
    m = np.zeros((n + 1, n + 1))
    win_b = np.zeros(n + 1)
    throws_b = np.zeros(n + 1)
    for i, o in enumerate(reazares):
        m[i, i] = 1 - a
        m[i, n] = -r[o]
        others = [x for x in reazares if x != o]
        win_b[i] = sum(r[x] * r[x] / (r[x] + r[o]) for x in others)
        throws_b[i] = 1 + sum(r[x] / (r[x] + r[o]) for x in others)
    m[n, n] = 1
    for i, x in enumerate(reazares):
        m[n, i] = -r[x]
    win_b[n] = a
    throws_b[n] = 1
    seek_win = np.linalg.solve(m, win_b)
    seek_throws = np.linalg.solve(m, throws_b)
    open_win = sum(r[x] * seek_win[i] for i, x in enumerate(reazares)) / (1 - a)
    open_throws = (1 + sum(r[x] * seek_throws[i] for i, x in enumerate(reazares))) / (1 - a)
    tie = sum(float(p) ** 2 for p in P.values())
    return open_win, 2 / (1 - tie) + open_throws


def test_medio_azar_odds_match_an_independent_float_solution() -> None:
    odds = exact_odds(find_variant("medio-azar"))
    win, throws = medio_by_numpy()
    assert float(odds.outcomes["caster_wins"]) == pytest.approx(win, rel=1e-12)
    assert float(odds.expected_throws) == pytest.approx(throws, rel=1e-12)
    assert odds.expected_stakes is not None
    assert odds.expected_stakes["caster"] == -odds.expected_stakes["opponent"]


def test_solve_linear_handles_loops_exactly() -> None:
    # x = 1/2 + 1/2 y, y = 1/3 x  ->  x = 3/5, y = 1/5
    half, third = Fraction(1, 2), Fraction(1, 3)
    values = solve_linear({"x": (half, {"y": half}), "y": (Fraction(0), {"x": third})})
    assert values == {"x": Fraction(3, 5), "y": Fraction(1, 5)}


def test_the_simulations_error_bars_are_the_sample_standard_error() -> None:
    """What `azar-kiosk simulate` prints: the mean, s / sqrt(n) with s the sample standard
    deviation (n - 1), and mean +- 1.96 standard errors; worked by hand for five games."""
    estimate = Estimate.of([0.0, 1.0, 1.0, 0.0, 1.0])  # deviations 0.6 twice, 0.4 three times
    assert estimate.mean == pytest.approx(0.6)
    assert estimate.stderr == pytest.approx(math.sqrt((2 * 0.36 + 3 * 0.16) / 4 / 5))
    low, high = estimate.ci95
    assert (low, high) == pytest.approx(
        (0.6 - 1.96 * estimate.stderr, 0.6 + 1.96 * estimate.stderr), abs=1e-4
    )
    assert Estimate.of([3.0, 3.0]).stderr == 0.0
    assert Estimate.of([0.0, 1.0]).stderr == pytest.approx(0.5)  # s^2 = 1/2 over n = 2
    assert Estimate.of([5.0]) == Estimate(5.0, 0.0)  # one game: a mean, no spread


def test_a_simulation_needs_two_games_to_estimate_an_error() -> None:
    with pytest.raises(ValueError, match="^simulate at least 2 games to estimate an error$"):
        simulate(find_variant("azar"), games=1, seed=1)
    assert simulate(find_variant("azar"), games=2, seed=1).games == 2


@pytest.mark.parametrize(("variant", "choices"), ODDS_CASES, ids=ODDS_IDS)
def test_simulation_through_the_engine_agrees_with_the_exact_odds(
    variant: Variant, choices: dict[str, int]
) -> None:
    exact = exact_odds(variant, choices)
    sim = simulate(variant, games=4000, seed=2026, choices=choices)
    pairs = [(sim.outcomes[k], exact.outcomes[k]) for k in exact.outcomes]
    pairs.append((sim.expected_throws, exact.expected_throws))
    if exact.expected_stakes is not None and sim.expected_stakes is not None:
        pairs += [(sim.expected_stakes[k], exact.expected_stakes[k]) for k in exact.expected_stakes]
    for estimate, value in pairs:
        # Within 4.5 standard errors: a false alarm has odds of about 1 in 150,000 per figure.
        assert math.isfinite(estimate.stderr) and estimate.stderr > 0
        assert abs(estimate.mean - float(value)) <= 4.5 * estimate.stderr, (estimate, float(value))


@pytest.mark.parametrize(("variant", "choices"), ODDS_CASES, ids=ODDS_IDS)
def test_every_variant_ends_surely_and_its_figures_are_consistent(
    variant: Variant, choices: dict[str, int]
) -> None:
    odds = exact_odds(variant, choices)
    assert sum(odds.reasons.values()) == 1
    assert sum(odds.outcomes.values()) == 1  # no probability is lost in an endless loop
    assert all(0 < p < 1 for p in odds.outcomes.values())
    assert odds.expected_throws > 1
    assert (odds.expected_stakes is not None) == variant.reports_stakes
