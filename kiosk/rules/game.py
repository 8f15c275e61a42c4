"""A game is its list of moves (throws and choices): states are rebuilt from them, so replay and
undo are exact."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kiosk.rules.core import Choice, Move, Ruling, Seat, Throw
from kiosk.rules.state import State
from kiosk.rules.variants import Variant


def replay(
    variant: Variant, moves: Iterable[Move | Sequence[int]], first: Seat = Seat.ONE
) -> State:
    """The state reached by playing `moves` from a new game; raises like `State.apply`."""
    state = variant.new_game(first)
    for move in moves:
        state, _ = state.apply(as_move(move))
    return state


def as_move(move: Move | Sequence[int]) -> Move:
    """A throw or choice as given, or a sequence of faces read as a throw."""
    return move if isinstance(move, Throw | Choice) else Throw(tuple(move))


class Game:
    """One game at the table: the moves so far, the rulings they drew, the current state."""

    def __init__(self, variant: Variant, first: Seat = Seat.ONE) -> None:
        self.variant = variant
        self.first = Seat(first)
        self._states: list[State] = [variant.new_game(self.first)]
        self._moves: list[Move] = []
        self._rulings: list[Ruling] = []

    @classmethod
    def from_moves(
        cls, variant: Variant, moves: Iterable[Move | Sequence[int]], first: Seat = Seat.ONE
    ) -> Game:
        """Rebuild a game (after a power cut, from the log) by playing its moves again."""
        game = cls(variant, first)
        for move in moves:
            game.play(move)
        return game

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def throws(self) -> tuple[Throw, ...]:
        """The throws alone, without the choices."""
        return tuple(m for m in self._moves if isinstance(m, Throw))

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        return tuple(self._rulings)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def play(self, move: Move | Sequence[int]) -> Ruling:
        """Apply one throw or choice; the game is unchanged if the move is refused."""
        move = as_move(move)
        state, ruling = self.state.apply(move)
        self._states.append(state)
        self._moves.append(move)
        self._rulings.append(ruling)
        return ruling

    def choose(self, option: int) -> Ruling:
        """The player's answer to the decision the state awaits (`state.awaiting`)."""
        return self.play(Choice(option))

    def undo(self) -> Game:
        """Take back the last move (a referee's correction of a misread); no-op at the start."""
        if self._moves:
            self._states.pop()
            self._moves.pop()
            self._rulings.pop()
        return self

    def __repr__(self) -> str:
        variant = f"find_variant({self.variant.game!r}, {self.variant.name!r})"
        moves = [m.dice if isinstance(m, Throw) else m for m in self._moves]
        return f"Game.from_moves({variant}, {moves!r}, first=Seat.{self.first.name})"
