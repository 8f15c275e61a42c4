"""Values shared by every game: seats, throws, rulings, outcomes and the rules' errors.

Everything here is immutable, so a game state can be hashed, compared and replayed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from functools import cache
from itertools import product
from numbers import Integral
from typing import Generic, TypeVar

DIE_FACES = range(1, 7)
DICE_PER_THROW = 3

T = TypeVar("T")


class RulesError(ValueError):
    """Anything the rules refuse: a bad throw, a throw after the end, an unknown variant."""


class InvalidThrow(RulesError):
    """The dice given are not three values from 1 to 6."""


class GameOver(RulesError):
    """A throw was applied to a game that has already ended."""


class UnknownVariant(RulesError):
    """No game or variant by that name."""


class Seat(IntEnum):
    """The two physical places at the table."""

    ONE = 0
    TWO = 1

    @property
    def other(self) -> Seat:
        return Seat(1 - self)


@dataclass(frozen=True, slots=True)
class Throw:
    """The three dice as read; the games only use their sum."""

    dice: tuple[int, int, int]

    def __post_init__(self) -> None:
        dice = self.dice
        if isinstance(dice, str | bytes) or not hasattr(dice, "__len__"):
            raise InvalidThrow(f"a throw is three dice, got {dice!r}")
        if len(dice) != DICE_PER_THROW:
            raise InvalidThrow(f"a throw is three dice, got {len(dice)}: {tuple(dice)!r}")
        values = []
        for value in dice:
            # Any whole number (numpy's too, from the reader), but not True/False.
            if isinstance(value, bool) or not isinstance(value, Integral):
                raise InvalidThrow(f"a die shows a whole number from 1 to 6, got {value!r}")
            if int(value) not in DIE_FACES:
                raise InvalidThrow(f"a die shows 1 to 6, got {value} in {tuple(dice)!r}")
            values.append(int(value))
        object.__setattr__(self, "dice", tuple(values))

    @property
    def total(self) -> int:
        return sum(self.dice)

    @classmethod
    def with_total(cls, total: int) -> Throw:
        """One throw (the lowest dice first) whose sum is `total`, for odds and tests."""
        for dice in product(DIE_FACES, repeat=DICE_PER_THROW):
            if sum(dice) == total:
                return cls(dice)
        raise InvalidThrow(f"three dice cannot sum to {total}; totals run from 3 to 18")


@cache
def total_probabilities() -> dict[int, Fraction]:
    """The exact chance of each sum 3..18 over the 216 equally likely throws."""
    counts: dict[int, int] = {}
    for dice in product(DIE_FACES, repeat=DICE_PER_THROW):
        counts[sum(dice)] = counts.get(sum(dice), 0) + 1
    throws = len(DIE_FACES) ** DICE_PER_THROW
    return {total: Fraction(n, throws) for total, n in sorted(counts.items())}


@dataclass(frozen=True, slots=True)
class PerSeat(Mapping[Seat, T], Generic[T]):
    """A value for each seat; hashable, so states holding it can be compared and cached."""

    one: T
    two: T

    def __getitem__(self, seat: Seat) -> T:
        return (self.one, self.two)[Seat(seat)]

    def __iter__(self) -> Iterator[Seat]:
        return iter(Seat)

    def __len__(self) -> int:
        return len(Seat)

    def with_value(self, seat: Seat, value: T) -> PerSeat[T]:
        return PerSeat(value, self.two) if seat is Seat.ONE else PerSeat(self.one, value)

    def __repr__(self) -> str:
        return f"PerSeat({self.one!r}, {self.two!r})"


NO_CHANCES: PerSeat[int | None] = PerSeat(None, None)
EVEN_LEDGER: PerSeat[int] = PerSeat(0, 0)


def pay(ledger: PerSeat[int], winner: Seat, stakes: int) -> PerSeat[int]:
    """Move `stakes` from the loser to `winner`: the ledger always sums to zero."""
    delta = stakes if winner is Seat.ONE else -stakes
    return PerSeat(ledger.one + delta, ledger.two - delta)


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the referee says about one throw: a message key and its parameters."""

    key: str
    params: Mapping[str, int | str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", dict(self.params))

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items()))))

    def __str__(self) -> str:
        inner = ", ".join(f"{name}={value}" for name, value in self.params.items())
        return f"{self.key}{{{inner}}}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (None for a draw), why (a message key), stakes paid."""

    winner: Seat | None
    reason: str
    stakes: int
