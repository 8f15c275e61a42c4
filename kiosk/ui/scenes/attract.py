"""The attract loop: a title that reads from across the room, how to play in three steps, a fact
about the odds. The text turns through French, Spanish and English; any button starts."""

from __future__ import annotations

import random

import pygame

from kiosk.i18n import LANGUAGES, N_, Translator
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.scenes.facts import fact

LANGUAGE_SECONDS = 7.0  # each language stays this long
DICE_SECONDS = 1.6  # the title's dice change this often

STEPS = (
    N_("Press a button"),
    N_("Throw the three dice in the track"),
    N_("The table reads them and explains"),
)


class Attract(Scene):
    name = "attract"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        self.translators = {lang: Translator(lang) for lang in LANGUAGES}
        self.dice = (6, 5, 3)
        self._dice_age = 0.0
        self._random = random.Random(1283)

    def enter(self, **options) -> None:
        super().enter(**options)
        start = self.kiosk.default_language
        self._first = LANGUAGES.index(start) if start in LANGUAGES else 0

    @property
    def turn(self) -> int:
        return int(self.age // LANGUAGE_SECONDS)

    @property
    def language(self) -> str:
        return LANGUAGES[(self._first + self.turn) % len(LANGUAGES)]

    def on_button(self, button: str, kind: str) -> None:
        self.kiosk.set_language(self.language)
        self.kiosk.goto("language")

    def update(self, dt: float) -> None:
        super().update(dt)
        self._dice_age += dt
        if self._dice_age >= DICE_SECONDS:
            self._dice_age = 0.0
            self.dice = tuple(self._random.randint(1, 6) for _ in range(3))

    def hints(self):
        tr = self.translators[self.language]
        return (None, tr("Play"), None)

    def view(self) -> tuple:
        return (self.name, self.language)

    def render(self, surface: pygame.Surface, layout: Layout) -> None:
        surface.fill(theme.BACKGROUND)
        self.draw(surface, layout)
        tr = self.translators[self.language]
        pulse = round(8 * abs(((self.age * 0.8) % 2) - 1)) / 8  # 9 shades: the text cache holds
        colour = tuple(round(c * (0.55 + 0.45 * pulse)) for c in theme.GOLD)
        draw.hints(surface, layout, (None, tr("Play"), None))
        if self.kiosk.demo:  # a newcomer at a computer: say which keys are the buttons
            draw.paragraph(
                surface,
                layout,
                tr("Demo keys: ← Enter →, F12 maintenance, Esc quits"),
                (34, 440, 236, 36),
                13,
                "sans",
                theme.MUTED,
            )
        draw.text(
            surface,
            layout,
            tr("Press any button"),
            (400, 410),
            18,
            "sans-bold",
            colour,
            "center",
            max_width=600,
        )

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.translators[self.language]
        for i, value in enumerate(self.dice):
            draw.die(surface, layout.rect(40 + i * 58, 34, 48, 48), value)
            draw.die(surface, layout.rect(646 + i * 58, 34, 48, 48), 7 - value)
        draw.text(surface, layout, "Azar", (400, 4), 86, "serif-bold", theme.GOLD, "center")
        draw.text(
            surface,
            layout,
            tr("Dice games from Alfonso X's Book of Games, 1283"),
            (400, 106),
            19,
            "serif",
            theme.TEXT,
            "center",
            max_width=760,
        )
        for i, step in enumerate(STEPS):
            x = 24 + i * 256
            box = layout.rect(x, 146, 240, 150)
            draw.panel(surface, box, layout, radius=14)
            pygame.draw.circle(surface, theme.GOLD, layout.point(x + 120, 184), layout.px(24))
            draw.text(
                surface,
                layout,
                str(i + 1),
                (x + 120, 167),
                28,
                "sans-bold",
                theme.BACKGROUND,
                "center",
            )
            draw.paragraph(
                surface,
                layout,
                tr(step),
                (x + 14, 216, 212, 76),
                19,
                "sans-bold",
                theme.TEXT,
                "center",
            )
        box = layout.rect(24, 312, 752, 88)
        draw.panel(surface, box, layout, color=theme.BACKGROUND, edge=theme.PANEL_EDGE, radius=14)
        draw.text(surface, layout, tr("Did you know?"), (44, 320), 15, "sans-bold", theme.GOLD)
        draw.paragraph(
            surface, layout, fact(tr, self.turn), (44, 344, 712, 52), 19, "serif", theme.TEXT
        )
