"""Values shared by every game: seats, throws, choices, what a state awaits, rulings, outcomes.

Everything here is immutable, so a game state can be hashed, compared and replayed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from fractions import Fraction
from functools import cache
from itertools import product
from numbers import Integral
from typing import Generic, TypeVar

DIE_FACES = range(1, 7)
MAX_DICE = 6  # no game of ours throws more; a longer tuple is a reader's mistake

T = TypeVar("T")


class RulesError(ValueError):
    """Anything the rules refuse: a bad throw or choice, a move after the end, a bad name."""


class InvalidThrow(RulesError):
    """The dice given are not the game's number of values from 1 to 6."""


class InvalidChoice(RulesError):
    """A choice the state does not offer, or a choice where a throw is awaited (or back)."""


class GameOver(RulesError):
    """A move was applied to a game that has already ended."""


class UnknownVariant(RulesError):
    """No game or variant by that name."""


class Seat(IntEnum):
    """The two physical places at the table."""

    ONE = 0
    TWO = 1

    @property
    def other(self) -> Seat:
        return Seat(1 - self)


class Reason(StrEnum):
    """Why a game ended; each game subclasses it, and each value is a message key."""

    @property
    def key(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice as read, in the order read: faces, not only their sum."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        dice = self.dice
        if isinstance(dice, str | bytes) or not hasattr(dice, "__len__"):
            raise InvalidThrow(f"a throw is a list of dice, got {dice!r}")
        if not 1 <= len(dice) <= MAX_DICE:
            raise InvalidThrow(f"a throw is 1 to {MAX_DICE} dice, got {len(dice)}: {dice!r}")
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
    def with_total(cls, total: int, dice: int = 3) -> Throw:
        """One throw of `dice` dice (the lowest faces first) summing to `total`, for tests."""
        for faces in product(DIE_FACES, repeat=dice):
            if sum(faces) == total:
                return cls(faces)
        raise InvalidThrow(f"{dice} dice cannot sum to {total}; totals run {dice} to {6 * dice}")


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's decision, such as the main called in Hazard: one of the offered options."""

    option: int


Move = Throw | Choice


@dataclass(frozen=True, slots=True)
class AwaitThrow:
    """A chance node: the state waits for `dice` dice, each of the 6**dice ordered throws
    equally likely.

    by_total: the game's rules here look at the sum alone, so every throw of one total leads
    to the same state and ruling; the odds solver may then apply one throw per total, with
    that total's probability. A game declares it; a test checks it over all 6**dice throws
    of every state the game can reach. A rule that looks at faces leaves it False.
    """

    dice: int
    by_total: bool = False


@dataclass(frozen=True, slots=True)
class AwaitChoice:
    """A decision node: `seat` must pick one of `options` (`name` says what is chosen)."""

    name: str
    seat: Seat
    options: tuple[int, ...]


Awaiting = AwaitThrow | AwaitChoice


def take_throw(awaiting: AwaitThrow, move: Move) -> Throw:
    """The move as the awaited throw; refuses a choice or the wrong number of dice."""
    if not isinstance(move, Throw):
        raise InvalidChoice(f"the dice are awaited here, not a choice ({move!r})")
    if len(move.dice) != awaiting.dice:
        raise InvalidThrow(
            f"this game throws {awaiting.dice} dice, got {len(move.dice)}: {move.dice!r}"
        )
    return move


def take_choice(awaiting: AwaitChoice, move: Move) -> int:
    """The move as one of the offered options; refuses dice or an option not offered."""
    if not isinstance(move, Choice):
        raise InvalidChoice(f"a choice of {awaiting.name} is awaited here, not dice")
    if move.option not in awaiting.options:
        options = ", ".join(str(o) for o in awaiting.options)
        raise InvalidChoice(f"the {awaiting.name} is one of {options}; got {move.option!r}")
    return move.option


@cache
def all_throws(dice: int) -> tuple[Throw, ...]:
    """The 6**dice ordered throws of `dice` dice, each with probability 1 / 6**dice."""
    return tuple(Throw(faces) for faces in product(DIE_FACES, repeat=dice))


@cache
def total_probabilities(dice: int = 3) -> dict[int, Fraction]:
    """The exact chance of each sum over the 6**dice equally likely ordered throws."""
    counts: dict[int, int] = {}
    for throw in all_throws(dice):
        counts[throw.total] = counts.get(throw.total, 0) + 1
    throws = len(DIE_FACES) ** dice
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
    """What the referee says about one move: a message key and its parameters."""

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
    """How a game ended: the winner (None for a draw), why (a `Reason`), stakes paid."""

    winner: Seat | None
    reason: Reason
    stakes: int
