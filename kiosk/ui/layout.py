"""One layout for every screen: designed on an 800x480 grid and scaled to the display.

Scenes place things in design units (the 800x480 grid); `Layout` turns them into pixels of a
centred area with the same proportions, so the official Pi display and a 1920x1080 monitor show
the same picture, only sharper.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

DESIGN_W, DESIGN_H = 800, 480


@dataclass(frozen=True)
class Layout:
    width: int
    height: int

    @property
    def scale(self) -> float:
        return min(self.width / DESIGN_W, self.height / DESIGN_H)

    @property
    def origin(self) -> tuple[int, int]:
        s = self.scale
        return (round((self.width - DESIGN_W * s) / 2), round((self.height - DESIGN_H * s) / 2))

    def px(self, value: float) -> int:
        """A length in design units, in pixels (at least one)."""
        return max(1, round(value * self.scale))

    def point(self, x: float, y: float) -> tuple[int, int]:
        ox, oy = self.origin
        return (ox + round(x * self.scale), oy + round(y * self.scale))

    def design(self, x: float, y: float) -> tuple[float, float]:
        """A pixel position back in design units (where a touch landed on the 800x480 grid)."""
        ox, oy = self.origin
        return ((x - ox) / self.scale, (y - oy) / self.scale)

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        left, top = self.point(x, y)
        right, bottom = self.point(x + w, y + h)
        return pygame.Rect(left, top, right - left, bottom - top)
