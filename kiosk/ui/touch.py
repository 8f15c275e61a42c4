"""Touch and mouse on what is drawn: a tap counts on the target it lands on, nowhere else.

Each scene lists its targets (the button hints along the bottom, menu rows, cards) in design
units; a finger down on one shows it pressed, and letting go on the same target taps it.
Letting go elsewhere, or touching between targets, does nothing, so a stray touch on the tray
picture never undoes a throw. A target standing for a physical button ("left", "ok", "right")
can also be held, as the button can.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from kiosk.events import Touched
from kiosk.ui.layout import Layout

BUTTON_KEYS = ("left", "ok", "right")


@dataclass(frozen=True)
class Target:
    """Something a finger can tap: `key` says what (a button name, or the scene's own word)."""

    key: str
    box: tuple[float, float, float, float]  # x, y, width, height in design units

    def contains(self, x: float, y: float) -> bool:
        left, top, width, height = self.box
        return left <= x < left + width and top <= y < top + height


def hit(targets: Sequence[Target], point: tuple[float, float]) -> Target | None:
    """The target under `point` (design units); the last listed is on top."""
    for target in reversed(targets):
        if target.contains(*point):
            return target
    return None


class TouchPad:
    """Pointer events (mouse, finger) to `Touched` events on the scene's targets."""

    def __init__(self, hold_seconds: float = 3.0) -> None:
        self.hold_seconds = hold_seconds
        self.pressed: str | None = None  # the target under a finger now, drawn pressed
        self._down_at = 0.0
        self._held = False

    def handle(
        self, event: Any, targets: Sequence[Target], layout: Layout, now: float
    ) -> list[Touched]:
        """What one pygame event taps (often nothing). Non-pointer events are ignored."""
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if getattr(event, "touch", False) or getattr(event, "button", 1) != 1:
                return []  # SDL's mouse copy of a finger (the finger event comes too), or a wheel
            point = layout.design(*event.pos)
            return (
                self._down(targets, point, now)
                if kind == pygame.MOUSEBUTTONDOWN
                else (self._up(targets, point, now))
            )
        if kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            point = layout.design(event.x * layout.width, event.y * layout.height)
            return (
                self._down(targets, point, now)
                if kind == pygame.FINGERDOWN
                else (self._up(targets, point, now))
            )
        return []

    def _down(self, targets, point, now: float) -> list[Touched]:
        target = hit(targets, point)
        self.pressed = target.key if target else None
        self._down_at, self._held = now, False
        return []

    def _up(self, targets, point, now: float) -> list[Touched]:
        pressed, self.pressed = self.pressed, None
        if pressed is None or self._held:
            return []
        target = hit(targets, point)
        if target is None or target.key != pressed:
            return []  # slid off before letting go: no tap
        return [Touched(pressed, now)]

    def poll(self, now: float) -> list[Touched]:
        """A button target held down long enough is a hold, once. Call once per frame."""
        held_long = now - self._down_at >= self.hold_seconds
        if self.pressed in BUTTON_KEYS and not self._held and held_long:
            self._held = True
            return [Touched(self.pressed, now, "hold")]
        return []

    def forget(self) -> None:
        """The scene changed under the finger: nothing stays pressed."""
        self.pressed, self._held = None, False
