"""Inactivity: "Still playing?" with a countdown, then back to the attract loop.

Not a screen of its own but an overlay the kiosk consults every update; the abandoned game
stays in the log, marked abandoned.
"""

from __future__ import annotations

import pygame

from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene

QUIET_SCENES = ("attract", "maintenance")  # nothing to time out from


class StillPlaying(Scene):
    name = "idle"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        self.asking = False

    def limits(self) -> tuple[float, float]:
        cfg = self.kiosk.config.kiosk
        ask = min(cfg.still_playing_seconds, cfg.idle_seconds)
        return ask, cfg.idle_seconds

    def remaining(self) -> float:
        return max(0.0, self.limits()[1] - self.kiosk.idle_for())

    def watch(self, dt: float) -> None:
        kiosk = self.kiosk
        if kiosk.scene.name in QUIET_SCENES:
            self.asking = False
            return
        ask, leave = self.limits()
        idle = kiosk.idle_for()
        if idle >= leave:
            self.asking = False
            if kiosk.match is not None:
                kiosk.match.abandon()
                kiosk.match = None
            kiosk.set_language(kiosk.default_language)
            kiosk.goto("attract")
        else:  # a throw read is activity too: the question goes once the players play on
            self.asking = idle >= ask

    def render_over(self, surface: pygame.Surface, layout: Layout) -> None:
        if not self.asking:
            return
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(theme.OVERLAY)
        surface.blit(shade, (0, 0))
        box = layout.rect(170, 120, 460, 230)
        draw.panel(surface, box, layout, edge=theme.GOLD, radius=16, width=2)
        tr = self.kiosk.tr
        draw.text(
            surface,
            layout,
            tr("Still playing?"),
            (400, 140),
            44,
            "serif-bold",
            theme.GOLD,
            "center",
            max_width=420,
        )
        draw.text(
            surface,
            layout,
            f"{self.remaining():.0f}",
            (400, 200),
            56,
            "sans-bold",
            theme.TEXT,
            "center",
        )
        draw.text(
            surface,
            layout,
            tr("Press any button to go on."),
            (400, 296),
            20,
            "sans",
            theme.MUTED,
            "center",
            max_width=420,
        )
