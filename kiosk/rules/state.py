"""What every game state offers the kiosk, whatever the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from kiosk.rules.core import Awaiting, Move, Outcome, Ruling, Seat


class State(Protocol):
    """An immutable moment of a game. `apply` returns the next state and the ruling.

    `awaiting` says what the state waits for: a throw of so many dice (a chance node) or a
    player's choice among options (a decision node); `apply` refuses anything else.
    """

    @property
    def to_throw(self) -> Seat: ...
    @property
    def phase(self) -> str: ...
    @property
    def caster(self) -> Seat | None: ...
    @property
    def chances(self) -> Mapping[Seat, int | None]: ...
    @property
    def ledger(self) -> Mapping[Seat, int]: ...
    @property
    def prize(self) -> int: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def awaiting(self) -> Awaiting: ...

    def apply(self, move: Move) -> tuple[State, Ruling]: ...

    def chain_key(self) -> State:
        """The state without running totals (ledger, raised prize): for exact odds."""
        ...
