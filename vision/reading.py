"""What the reader reports: per-die values, positions and confidence; the sum is derived.

These are the only vision types the rest of the kiosk sees, so they stay small and frozen.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RerollReason(StrEnum):
    """Why a roll cannot be announced. The value is also the message key suffix."""

    WRONG_COUNT = "wrong_count"  # not the expected number of dice
    UNREADABLE = "unreadable"  # pips do not fit any face pattern
    COCKED = "cocked"  # a die leans on the rim or another die
    OVERLAP = "overlap"  # dice on top of each other
    CUT = "cut"  # a die cut by the image or tray edge
    BLUR = "blur"  # motion blur
    GLARE = "glare"  # specular highlight hides pips
    NOT_MOVED = "not_moved"  # the dice are where the last read left them
    BAD_FRAME = "bad_frame"  # black, saturated, wrong shape or type


@dataclass(frozen=True, slots=True)
class Die:
    """One die as read. `center` and `size` are in pixels of the input frame."""

    value: int  # 1..6
    center: tuple[float, float]  # (x, y)
    size: float  # side length of the top face
    confidence: float  # 0..1


@dataclass(frozen=True, slots=True)
class Roll:
    """The reader's answer for one frame: either `ok` with its dice, or `reroll` with a reason."""

    dice: tuple[Die, ...]
    reason: RerollReason | None = None
    detail: str = ""  # a short human-readable explanation for logs and the debug view

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def status(self) -> str:
        return "ok" if self.ok else "reroll"

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(die.value for die in self.dice)

    @property
    def total(self) -> int | None:
        return sum(self.values) if self.ok else None
