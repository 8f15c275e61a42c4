"""Game choice: Azar, Medio azar, Hazard and the readings with a printed source, plus the rules
and odds."""

from __future__ import annotations

import pygame

from kiosk.rules.variants import visitor_variants
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene, heading

ROW = 56  # height of one choice, design units
VARIANTS = visitor_variants()  # readings without a printed source stay off the menu


class Choose(Scene):
    name = "choose"

    def enter(self, **options) -> None:
        super().enter(**options)
        self.selected = getattr(self, "selected", 0)

    @property
    def choices(self) -> int:
        return len(VARIANTS) + 1  # the last one is "Rules and odds"

    def on_button(self, button: str, kind: str) -> None:
        if button == "left":
            self.selected = (self.selected - 1) % self.choices
        elif button == "right":
            self.selected = (self.selected + 1) % self.choices
        elif self.selected == len(VARIANTS):
            self.kiosk.goto("rules")
        else:
            self.kiosk.new_match(VARIANTS[self.selected])

    def hints(self):
        return (self.tr("Previous"), self.tr("Choose"), self.tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.selected)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.tr
        heading(surface, layout, tr("Choose a game"))
        for i in range(self.choices):
            y = 76 + i * ROW
            chosen = i == self.selected
            box = layout.rect(60, y, 680, ROW - 8)
            colour = draw.option(surface, layout, box, chosen, radius=12, width=3)
            if i < len(VARIANTS):
                variant = VARIANTS[i]
                title = tr.ruling(variant.title_key)
                summary = tr.ruling(variant.summary_key)
            else:
                title, summary = (
                    tr("Rules and odds"),
                    tr("How to play, the sources, the exact odds."),
                )
            draw.text(surface, layout, title, (80, y + 5), 20, "serif-bold", colour, max_width=640)
            draw.text(
                surface, layout, summary, (80, y + 28), 13, "sans", theme.MUTED, max_width=640
            )
