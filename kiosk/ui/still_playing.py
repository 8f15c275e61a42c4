"""Inactivity: "Still playing?" with a countdown over the game, then back to the attract loop.

Not a screen of its own: an overlay the kiosk consults every update and draws over whatever
scene is showing, so the players see their game, dimmed, under the question. While it asks, a
press or a tap anywhere only answers it. The abandoned game stays in the log, marked abandoned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kiosk.i18n import N_
from kiosk.ui import draw, theme
from kiosk.ui.layout import DESIGN_H, DESIGN_W, Layout
from kiosk.ui.touch import Target

if TYPE_CHECKING:
    from kiosk.table import Kiosk

QUIET_SCENES = ("attract", "maintenance")  # nothing to time out from
QUESTION = N_("Still playing?")
ANSWER = N_("Press a button or touch the screen.")
BOX = (110, 100, 580, 270)  # design units


class StillPlaying:
    """The question, its countdown, and what happens when nobody answers."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.asking = False

    def limits(self) -> tuple[float, float]:
        cfg = self.kiosk.config.kiosk
        ask = min(cfg.still_playing_seconds, cfg.idle_seconds)
        return ask, cfg.idle_seconds

    def remaining(self) -> float:
        return max(0.0, self.limits()[1] - self.kiosk.idle_for())

    def watch(self) -> None:
        """Ask once the table has been quiet for a while; give the game up when nobody answers."""
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

    def targets(self) -> list[Target]:
        """While asking, the whole screen is one target: a tap anywhere answers."""
        return [Target("still-playing", (0, 0, DESIGN_W, DESIGN_H))] if self.asking else []

    def render_over(self, surface: pygame.Surface, layout: Layout) -> None:
        """The question over the scene just drawn, which stays visible, dimmed, around it."""
        if not self.asking:
            return
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(theme.OVERLAY)
        surface.blit(shade, (0, 0))
        x, y, w, _ = BOX
        draw.panel(surface, layout.rect(*BOX), layout, edge=theme.GOLD, radius=16, width=2)
        tr = self.kiosk.tr
        draw.styled(surface, layout, tr(QUESTION), (400, y + 18), theme.HEADING, w - 40)
        draw.styled(surface, layout, f"{self.remaining():.0f}", (400, y + 80), theme.COUNTDOWN)
        draw.paragraph(
            surface,
            layout,
            tr(ANSWER),
            (x + 20, y + 172, w - 40, 92),
            theme.BODY.size,
            color=theme.MUTED,
            align="center",
            spacing=1.1,
        )
