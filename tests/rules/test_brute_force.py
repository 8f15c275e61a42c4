"""Exact odds against sums over all 6**n ordered throws, written here without the engine, and
against the printed figures: Chambers's 7,295 : 6,961 for Hazard, the closed forms of Medio azar.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

import pytest

from kiosk.rules import (
    AwaitThrow,
    MedioAzarReason,
    Outcome,
    Reason,
    Ruling,
    Seat,
    Throw,
    Variant,
    exact_odds,
    find_variant,
)
from kiosk.rules.game import Game
from kiosk.rules.odds import reachable_states, stakes_distribution
from kiosk.rules.simulation import play_out

from .helpers import ODDS_CASES, ODDS_IDS

FACES = range(1, 7)


def sums(dice: int) -> dict[int, Fraction]:
    """P(total) counted over the 6**dice ordered throws, independently of the engine."""
    outcomes = list(product(FACES, repeat=dice))
    counts: dict[int, int] = {}
    for faces in outcomes:
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return {t: Fraction(n, len(outcomes)) for t, n in counts.items()}


TWO = sums(2)
THREE = sums(3)

# Hazard: (nicks, outs) for each main, from Seymour's text.
NICKS_OUTS = {
    5: ({5}, {2, 3, 11, 12}),
    6: ({6, 12}, {2, 3, 11}),
    7: ({7, 11}, {2, 3, 12}),
    8: ({8, 12}, {2, 3, 11}),
    9: ({9}, {2, 3, 11, 12}),
}


def hazard_caster_wins(main: int) -> Fraction:
    """Nicks win; outs lose; a chance c then wins with odds p(c) / (p(c) + p(main))."""
    nicks, outs = NICKS_OUTS[main]
    win = Fraction(0)
    for total, p in TWO.items():
        if total in nicks:
            win += p
        elif total not in outs:
            win += p * TWO[total] / (TWO[total] + TWO[main])
    return win


@pytest.mark.parametrize("main", [5, 6, 7, 8, 9])
def test_hazard_odds_match_the_sum_over_the_36_throws(main: int) -> None:
    odds = exact_odds(find_variant("hazard"), {"main": main})
    assert odds.outcomes == {
        "caster_wins": hazard_caster_wins(main),
        "caster_loses": 1 - hazard_caster_wins(main),
    }
    assert odds.choices == {"main": main}


@pytest.mark.parametrize("main", [6, 8])
def test_hazard_setter_to_caster_is_7295_to_6961_for_a_main_of_6_or_8(main: int) -> None:
    # Chambers's Encyclopaedia, "Hazard": "7,295 to 6,961, or 22 to 21 nearly".
    odds = exact_odds(find_variant("hazard"), {"main": main}).outcomes
    assert odds["caster_loses"] / odds["caster_wins"] == Fraction(7295, 6961)
    assert odds["caster_loses"] + odds["caster_wins"] == 1
    assert odds["caster_wins"] == Fraction(6961, 7295 + 6961)


def test_hazard_main_of_7_is_251_to_244_and_5_or_9_is_1439_to_1396() -> None:
    hazard = find_variant("hazard")
    seven = exact_odds(hazard, {"main": 7}).outcomes
    assert (seven["caster_loses"], seven["caster_wins"]) == (Fraction(251, 495), Fraction(244, 495))
    for main in (5, 9):
        odds = exact_odds(hazard, {"main": main}).outcomes
        assert odds["caster_loses"] / odds["caster_wins"] == Fraction(1439, 1396)


def test_a_thrown_main_weighs_each_main_by_its_chance_of_coming_up_first() -> None:
    weights = {m: TWO[m] / sum(TWO[k] for k in NICKS_OUTS) for m in NICKS_OUTS}
    expected = sum(weights[m] * hazard_caster_wins(m) for m in NICKS_OUTS)
    assert exact_odds(find_variant("hazard", "thrown-main")).outcomes["caster_wins"] == expected


def test_hazard_expected_throws_by_hand() -> None:
    nicks, outs = NICKS_OUTS[7]
    throws = Fraction(1)
    for total, p in TWO.items():
        if total not in nicks | outs:
            throws += p / (TWO[total] + TWO[7])  # a race of mean 1 / (p(c) + p(main))
    assert exact_odds(find_variant("hazard"), {"main": 7}).expected_throws == throws


def test_azar_odds_match_the_sum_over_the_216_throws() -> None:
    azari = {3, 4, 5, 6, 15, 16, 17, 18}
    chances = [t for t in THREE if t not in azari]
    direct = sum((THREE[t] for t in azari), Fraction(0))
    loops = Fraction(0)
    for c in chances:  # the opponent's chance c, then the caster's d != c, then the race
        direct += THREE[c] * sum(
            (THREE[d] * THREE[d] / (THREE[c] + THREE[d]) for d in chances if d != c), Fraction(0)
        )
        loops += THREE[c] ** 2  # the encuentro starts over
    assert exact_odds(find_variant("azar")).outcomes["caster_wins"] == direct / (1 - loops)


# -- Medio azar against its closed form ----------------------------------------------------
REAZARES = range(8, 14)
A = sum((p for t, p in THREE.items() if t not in REAZARES), Fraction(0))  # an azar: 35/108
Q = sum((THREE[t] ** 2 for t in REAZARES), Fraction(0))  # the same reazar twice: 1795/23328
P_RECOVERY = A * Q / ((1 - A) * (1 - A - Q))
# Azars before any chance: a / (1 - a) while open, and as much in each search for the
# caster's own chance; there are (1 - a) / (1 - a - q) such searches on average.
EARLY_AZARS = A / (1 - A) * (1 + (1 - A) / (1 - A - Q))


def test_medio_azar_closed_form_constants() -> None:
    assert (Fraction(35, 108), Fraction(1795, 23328)) == (A, Q)


def test_medio_azar_recovery_wins_as_often_as_the_closed_form_says() -> None:
    odds = exact_odds(find_variant("medio-azar"))
    assert odds.reasons[MedioAzarReason.WON_BY_RECOVERY] == P_RECOVERY
    assert odds.reasons[MedioAzarReason.WON_BY_CHANCE] == 1 - P_RECOVERY


def test_medio_azar_caster_wins_half_the_chases_and_every_recovery() -> None:
    odds = exact_odds(find_variant("medio-azar"))
    assert odds.outcomes["caster_wins"] == (1 + P_RECOVERY) / 2


def test_medio_azar_net_stakes_are_the_early_azars_plus_three_per_recovery() -> None:
    # The chase pays the prize (raises included) to each side alike, so it nets nothing.
    odds = exact_odds(find_variant("medio-azar"))
    assert odds.expected_stakes == {
        "caster": EARLY_AZARS + 3 * P_RECOVERY,
        "opponent": -(EARLY_AZARS + 3 * P_RECOVERY),
    }


# -- a rule that looks at faces, not sums ----------------------------------------------------
class TripleReason(Reason):
    TRIPLE = "test.triple"
    NO_TRIPLE = "test.no_triple"


@dataclass(frozen=True)
class TripleState:
    """A toy game: one throw of three dice; three of a kind wins for the caster."""

    caster: Seat = Seat.ONE
    outcome: Outcome | None = None
    phase: str = "test.phase"
    prize: int = 1
    chances: tuple = ()
    ledger: tuple = ()

    @property
    def to_throw(self) -> Seat:
        return self.caster

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def awaiting(self) -> AwaitThrow:
        return AwaitThrow(3)

    def chain_key(self) -> TripleState:
        return self

    def apply(self, move: Throw) -> tuple[TripleState, Ruling]:
        triple = len(set(move.dice)) == 1
        winner = self.caster if triple else self.caster.other
        reason = TripleReason.TRIPLE if triple else TripleReason.NO_TRIPLE
        return replace(self, outcome=Outcome(winner, reason, 1)), Ruling(reason.key)


@dataclass(frozen=True)
class TripleRules:
    def new_game(self, first: Seat = Seat.ONE) -> TripleState:
        return TripleState(caster=first)


def test_a_rule_on_faces_is_solved_over_the_faces_not_one_throw_per_total() -> None:
    # One representative throw per total (a 3 is 1-1-1, an 18 is 6-6-6...) gave 1/108.
    odds = exact_odds(Variant("test", "triple", TripleRules()))  # type: ignore[arg-type]
    assert odds.outcomes["caster_wins"] == Fraction(6, 216) == Fraction(1, 36)
    assert odds.expected_throws == 1


def chase_pair(o: int, d: int) -> Fraction:
    """P(the chase is between the opponent's o and the caster's d): each search for the
    caster's own chance with o set is made p(o) / (1 - a - q) times on average."""
    return THREE[o] / (1 - A - Q) * THREE[d] / (1 - A)


def final_payment(caster_wins: bool, stakes: int) -> Fraction:
    """P(the game ends paying `stakes` at the end, to the caster or to the opponent)."""
    raises = stakes - 3
    p = Fraction(0)
    for o in REAZARES:
        for d in REAZARES:
            if o == d:
                continue
            ends = A + THREE[o] + THREE[d]
            p += chase_pair(o, d) * (A / ends) ** raises * (THREE[d if caster_wins else o] / ends)
    if caster_wins and stakes == 3:
        p += P_RECOVERY
    return p


def test_medio_azar_distribution_of_the_final_payment_matches_its_closed_form() -> None:
    found = stakes_distribution(find_variant("medio-azar"), up_to=6)
    expected = {
        (side, stakes): final_payment(side == "caster_wins", stakes)
        for side in ("caster_wins", "caster_loses")
        for stakes in range(3, 7)
    }
    assert found == expected
    assert sum(found.values()) < 1  # the rest is paid at prizes above 6


def test_medio_azar_simulated_payments_fall_where_the_exact_distribution_says() -> None:
    exact = stakes_distribution(find_variant("medio-azar"), up_to=5)
    games = 3000
    rng = random.Random(5)
    counts: dict[tuple[str, int], int] = {}
    for _ in range(games):
        state = play_out(Game(find_variant("medio-azar")), rng).state
        assert state.outcome is not None
        side = "caster_wins" if state.outcome.winner == state.caster else "caster_loses"
        counts[(side, state.outcome.stakes)] = counts.get((side, state.outcome.stakes), 0) + 1
    for cell, p in exact.items():
        share = counts.get(cell, 0) / games
        stderr = math.sqrt(float(p) * (1 - float(p)) / games)
        assert abs(share - float(p)) <= 4.5 * stderr, (cell, share, float(p))


@pytest.mark.parametrize(("game", "choices"), [("azar", {}), ("hazard", {"main": 8})])
def test_one_stake_games_pay_one_stake_to_the_winner(game: str, choices: dict) -> None:
    variant = find_variant(game)
    odds = exact_odds(variant, choices).outcomes
    assert stakes_distribution(variant, choices) == {
        ("caster_loses", 1): odds["caster_loses"],
        ("caster_wins", 1): odds["caster_wins"],
    }


@pytest.mark.parametrize(("variant", "choices"), ODDS_CASES, ids=ODDS_IDS)
def test_a_game_that_declares_it_reads_sums_gives_every_throw_of_a_total_one_ruling(
    variant: Variant, choices: dict[str, int]
) -> None:
    # The solver applies one throw per total where a state says `by_total`; here every one of
    # the 6**n ordered throws of every reachable state is applied and compared with it.
    checked = 0
    for state in reachable_states(variant, choices):
        awaiting = state.awaiting
        if not isinstance(awaiting, AwaitThrow) or not awaiting.by_total:
            continue
        for faces in product(FACES, repeat=awaiting.dice):
            throw = Throw(faces)
            assert state.apply(throw) == state.apply(Throw.with_total(throw.total, len(faces)))
            checked += 1
    assert checked >= 6**variant.dice
