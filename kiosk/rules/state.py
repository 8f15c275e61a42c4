"""What every game state offers the kiosk, whatever the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from kiosk.rules.core import Outcome, Ruling, Seat, Throw


class State(Protocol):
    """An immutable moment of a game. `apply` returns the next state and the ruling."""

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

    def apply(self, throw: Throw) -> tuple[State, Ruling]: ...

    def chain_key(self) -> State:
        """The state without running totals (ledger, raised prize): for exact odds."""
        ...
