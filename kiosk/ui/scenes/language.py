"""Language choice: three big cards, each language named in itself."""

from __future__ import annotations

import pygame

from kiosk.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.touch import Target

CHOOSE_LANGUAGE = N_("Choose your language")
TRANSLATORS = {lang: Translator(lang) for lang in LANGUAGES}


class Language(Scene):
    name = "language"

    def enter(self, **options) -> None:
        super().enter(**options)
        current = self.kiosk.tr.language
        self.selected = LANGUAGES.index(current) if current in LANGUAGES else 0

    def on_button(self, button: str, kind: str) -> None:
        if button == "left":
            self.selected = (self.selected - 1) % len(LANGUAGES)
        elif button == "right":
            self.selected = (self.selected + 1) % len(LANGUAGES)
        else:
            self.kiosk.set_language(LANGUAGES[self.selected])
            self.kiosk.goto("choose")

    def on_touch(self, key: str) -> None:
        if key in LANGUAGES:  # a tap on a card chooses that language at once
            self.selected = LANGUAGES.index(key)
            self.kiosk.set_language(key)
            self.kiosk.goto("choose")
        elif key == "home":
            self.kiosk.goto("attract")

    def touch_targets(self) -> list[Target]:
        cards = [Target(lang, (40 + i * 250, 140, 220, 240)) for i, lang in enumerate(LANGUAGES)]
        return [*cards, Target("home", (8, 4, 60, 44))]

    def hints(self):
        tr = TRANSLATORS[LANGUAGES[self.selected]]
        return (tr("Previous"), tr("Choose"), tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.selected)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        titles = [TRANSLATORS[lang](CHOOSE_LANGUAGE) for lang in LANGUAGES]
        home = layout.rect(8, 4, 60, 44)
        draw.panel(
            surface,
            home,
            layout,
            color=theme.PRESSED if self.pressed == "home" else theme.BACKGROUND,
            radius=12,
        )
        draw.styled(surface, layout, "⌂", (38, 8), theme.HOME_ICON)
        draw.styled(surface, layout, titles[self.selected], (400, 24), theme.HEADING, max_width=760)
        for i, lang in enumerate(LANGUAGES):
            x = 40 + i * 250
            chosen = i == self.selected or self.pressed == lang
            box = layout.rect(x, 150 - (10 if chosen else 0), 220, 220 + (20 if chosen else 0))
            draw.option(
                surface,
                layout,
                box,
                chosen,
                radius=18,
                width=4,
                rest_width=1.5,
                rest_color=theme.PANEL,
            )
            draw.styled(
                surface,
                layout,
                lang.upper(),
                (x + 110, 180),
                theme.LANGUAGE_CODE,
                color=theme.GOLD if chosen else theme.MUTED,
            )
            draw.styled(
                surface,
                layout,
                LANGUAGE_NAMES[lang],
                (x + 110, 290),
                theme.LANGUAGE_NAME,
                max_width=200,
                color=theme.TEXT if chosen else theme.MUTED,
            )
            # Under each card, the question in that card's language: a visitor finds theirs.
            draw.styled(
                surface,
                layout,
                titles[i],
                (x + 110, 390),
                theme.LANGUAGE_TITLE,
                max_width=236,
                color=theme.GOLD if chosen else theme.MUTED,
            )
