"""Game time for the kiosk: monotonic, and faster for the autoplay demo and tests."""

from __future__ import annotations

import time
from collections.abc import Callable


class ScaledClock:
    """Monotonic time running `speed` times faster (the autoplay demo and tests use it)."""

    def __init__(self, speed: float = 1.0, base: Callable[[], float] = time.monotonic) -> None:
        self.speed = speed
        self.base = base
        self._start = base()

    def __call__(self) -> float:
        return self._start + (self.base() - self._start) * self.speed
