"""The staff code: a hold of ok, then the code's presses in order, within code_seconds.

Visitors pressing at random must not find maintenance, undo or corrections. A wrong press ends
the attempt silently (and does nothing else), and no new attempt starts before code_seconds
have passed: random presses get one try per code_seconds, not ten a second.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from kiosk.config import StaffConfig


class Typed(Enum):
    """What a press did to the code being typed."""

    UNUSED = "unused"  # no code is being typed: the press is the scene's
    TAKEN = "taken"  # the press was part of an attempt (right or wrong)
    ENTERED = "entered"  # the press completed the code: staff mode


class StaffCode:
    """The attempt in progress, if any, and the lock after a wrong one."""

    def __init__(self, config: StaffConfig, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self.typed: list[str] | None = None  # presses of the code so far, after a hold
        self.until = 0.0
        self.locked_until = float("-inf")  # after a wrong code: no new try before this

    def begin(self) -> None:
        """A hold of ok outside staff mode: the code may follow, unless a wrong one was just
        tried."""
        if self.clock() >= self.locked_until:
            self.typed = []
            self.until = self.clock() + self.config.code_seconds

    def cancel(self) -> None:
        self.typed = None

    def take(self, button: str) -> Typed:
        """A press (its button, or "" for a hold) while the code may be being typed."""
        if self.typed is None:
            return Typed.UNUSED
        if self.clock() > self.until:
            self.typed = None
            return Typed.UNUSED
        code = self.config.presses
        self.typed.append(button)
        if tuple(self.typed) != code[: len(self.typed)]:
            self.typed = None
            self.locked_until = self.clock() + self.config.code_seconds
        elif len(self.typed) == len(code):
            return Typed.ENTERED
        return Typed.TAKEN
