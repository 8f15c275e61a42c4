"""A game is its list of throws: states are rebuilt from them, so replay and undo are exact."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kiosk.rules.core import Ruling, Seat, Throw
from kiosk.rules.state import State
from kiosk.rules.variants import Variant


def replay(
    variant: Variant, throws: Iterable[Throw | Sequence[int]], first: Seat = Seat.ONE
) -> State:
    """The state reached by playing `throws` from a new game; raises like `State.apply`."""
    state = variant.new_game(first)
    for throw in throws:
        state, _ = state.apply(as_throw(throw))
    return state


def as_throw(throw: Throw | Sequence[int]) -> Throw:
    return throw if isinstance(throw, Throw) else Throw(tuple(throw))


class Game:
    """One game at the table: the throws so far, the rulings they drew, the current state."""

    def __init__(self, variant: Variant, first: Seat = Seat.ONE) -> None:
        self.variant = variant
        self.first = Seat(first)
        self._states: list[State] = [variant.new_game(self.first)]
        self._throws: list[Throw] = []
        self._rulings: list[Ruling] = []

    @classmethod
    def from_throws(
        cls, variant: Variant, throws: Iterable[Throw | Sequence[int]], first: Seat = Seat.ONE
    ) -> Game:
        """Rebuild a game (after a power cut, from the log) by playing its throws again."""
        game = cls(variant, first)
        for throw in throws:
            game.play(throw)
        return game

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def throws(self) -> tuple[Throw, ...]:
        return tuple(self._throws)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return tuple(self._rulings)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def play(self, throw: Throw | Sequence[int]) -> Ruling:
        """Apply one throw; the game is unchanged if the throw is refused."""
        throw = as_throw(throw)
        state, ruling = self.state.apply(throw)
        self._states.append(state)
        self._throws.append(throw)
        self._rulings.append(ruling)
        return ruling

    def undo(self) -> Game:
        """Take back the last throw (a referee's correction of a misread); no-op at the start."""
        if self._throws:
            self._states.pop()
            self._throws.pop()
            self._rulings.pop()
        return self

    def __repr__(self) -> str:
        variant = f"find_variant({self.variant.game!r}, {self.variant.name!r})"
        dice = [t.dice for t in self._throws]
        return f"Game.from_throws({variant}, {dice!r}, first=Seat.{self.first.name})"
