"""Throws, seats, rulings: the values every game is built from."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kiosk.rules import (
    MESSAGES,
    InvalidThrow,
    PerSeat,
    RulesError,
    Ruling,
    Seat,
    Throw,
    all_throws,
    total_probabilities,
)


@pytest.mark.parametrize(
    "dice",
    [(0, 3, 4), (1, 7, 2), (1,) * 7, (), (1.0, 2, 3), (True, 2, 3), "123", None, 12],
)
def test_anything_but_one_to_six_dice_from_1_to_6_is_refused(dice: object) -> None:
    with pytest.raises(InvalidThrow):
        Throw(dice)  # type: ignore[arg-type]


def test_invalid_throw_is_a_rules_error_and_a_value_error() -> None:
    with pytest.raises(RulesError, match="1 to 6, got 7"):
        Throw((1, 7, 2))
    with pytest.raises(ValueError, match="1 to 6 dice, got 0"):
        Throw(())
    with pytest.raises(InvalidThrow, match="a throw is a list of dice, got '123'"):
        Throw("123")  # type: ignore[arg-type]
    with pytest.raises(InvalidThrow, match="a whole number from 1 to 6, got 2.0"):
        Throw((1, 2.0, 3))  # type: ignore[arg-type]


def test_a_throw_keeps_its_faces_in_the_order_read() -> None:
    assert Throw((6, 6)).dice == (6, 6) and Throw((6, 6)).total == 12
    assert Throw((1, 2, 3)) != Throw((3, 2, 1))


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_all_throws_are_the_6_to_the_n_ordered_outcomes(dice: int) -> None:
    throws = all_throws(dice)
    assert len(throws) == 6**dice == len(set(throws))
    assert all(len(t.dice) == dice for t in throws)
    assert {tuple(sorted(t.dice)) for t in throws} == {
        tuple(sorted(f)) for f in itertools.product(range(1, 7), repeat=dice)
    }


def test_a_throw_sums_its_dice_and_keeps_them() -> None:
    throw = Throw([6, 5, 1])  # type: ignore[arg-type]
    assert throw.dice == (6, 5, 1)
    assert throw.total == 12
    assert throw == Throw((6, 5, 1))


def test_whole_numbers_from_the_reader_become_plain_ints() -> None:
    import numpy as np

    throw = Throw(tuple(np.array([1, 6, 3], dtype=np.int64)))  # type: ignore[arg-type]
    assert throw.dice == (1, 6, 3) and all(type(v) is int for v in throw.dice)
    with pytest.raises(InvalidThrow):
        Throw(tuple(np.array([0, 6, 3])))  # type: ignore[arg-type]


@pytest.mark.parametrize("total", range(3, 19))
def test_with_total_gives_a_valid_throw_of_that_total(total: int) -> None:
    assert Throw.with_total(total).total == total


@pytest.mark.parametrize("total", [2, 19])
def test_with_total_refuses_impossible_totals(total: int) -> None:
    with pytest.raises(InvalidThrow):
        Throw.with_total(total)


def test_two_dice_totals_count_the_36_throws() -> None:
    p = total_probabilities(2)
    assert sum(p.values()) == 1
    assert [p[t] * 36 for t in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert Throw.with_total(12, 2) == Throw((6, 6))
    with pytest.raises(InvalidThrow, match="2 dice cannot sum to 13; totals run 2 to 12"):
        Throw.with_total(13, 2)


def test_total_probabilities_count_the_216_throws() -> None:
    p = total_probabilities()
    assert sum(p.values()) == 1
    assert p[3] == p[18] == Fraction(1, 216)
    assert p[10] == p[11] == Fraction(27, 216)
    assert all(p[t] == p[21 - t] for t in range(3, 19))


def test_seats_know_each_other() -> None:
    assert Seat.ONE.other is Seat.TWO
    assert Seat.TWO.other is Seat.ONE
    assert int(Seat.ONE) == 0 and int(Seat.TWO) == 1


def test_per_seat_is_a_hashable_mapping() -> None:
    ledger = PerSeat(2, -2)
    assert dict(ledger) == {Seat.ONE: 2, Seat.TWO: -2}
    assert ledger.with_value(Seat.TWO, 5) == PerSeat(2, 5)
    assert hash(ledger) == hash(PerSeat(2, -2))


def test_ruling_prints_as_key_and_parameters() -> None:
    ruling = Ruling("azar.reazar_loses", {"total": 16, "seat": 1})
    assert str(ruling) == "azar.reazar_loses{total=16, seat=1}"
    assert ruling == Ruling("azar.reazar_loses", {"total": 16, "seat": 1})
    assert hash(ruling) == hash(Ruling("azar.reazar_loses", {"seat": 1, "total": 16}))
    # Different rulings hash apart (a set or dict of them stays fast).
    assert len({hash(Ruling(key, {"total": 7})) for key in MESSAGES}) == len(MESSAGES)
