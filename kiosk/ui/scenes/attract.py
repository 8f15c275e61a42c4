"""The attract loop: a title that reads from across the room, a short animated how-to (a throw,
the read, the ruling), an invitation to two players, a fact about the odds, and the table's last
twelve totals. The text turns through the languages; the invitation and the fact take turns
in the right-hand panel, so both can be set at body size (5 mm cap height on the 7-inch
panel). Any button starts."""

from __future__ import annotations

import math
import random
from collections import deque

import pygame

from kiosk.i18n import LANGUAGES, N_, Translator
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.scenes.facts import fact

LANGUAGE_SECONDS = 7.0  # each language stays this long
DICE_SECONDS = 1.6  # the title's dice change this often
HOW_TO_SECONDS = 7.0  # one throw of the how-to: tumble, read, ruling
TUMBLE, READ = 2.2, 3.6  # when the dice come to rest, when the ruling shows
RECENT = 12  # totals in the strip

STEPS = (
    N_("Throw the three dice in the track"),
    N_("The table reads them"),
    N_("and explains the ruling"),
)
INVITE = N_("Two players?")
INVITE_MORE = N_("Sit face to face, press a button, throw in turn.")
SUBTITLE = N_("Alfonso X's Book of Games, 1283")
RECENT_LABEL = N_("Last throws here:")
# The how-to's throws and the rulings they get (the rules engine's own keys and words).
EXAMPLES = (
    ((3, 2, 4), "azar.chance_for_opponent", {"total": 9, "seat": 1}),
    ((6, 5, 6), "azar.azar_wins", {"total": 17, "seat": 0}),
    ((5, 1, 4), "azar.chance_for_opponent", {"total": 10, "seat": 1}),
)
TRAY = (38, 144, 342, 88)  # the how-to's little tray, design units
HOW_TO = (24, 136, 370, 254)  # its panel
INVITATION = (406, 136, 370, 254)  # the invitation's panel (or the fact's)
CAPTION = (34, 236, 350, 150)  # under the tray: four lines at body size


class Attract(Scene):
    name = "attract"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        self.translators = {lang: Translator(lang) for lang in LANGUAGES}
        self.dice = (6, 5, 3)
        self._dice_age = 0.0
        self._random = random.Random(1283)
        self.recent: deque[tuple[int, int]] = deque(maxlen=RECENT)  # (seat, total)

    def remember(self, seat: int, total: int) -> None:
        """A throw at the table, for the strip of last totals."""
        self.recent.append((int(seat), int(total)))

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
        draw.hints(surface, layout, (None, tr("Play"), None), self.pressed)
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

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.translators[self.language]
        for i, value in enumerate(self.dice):
            draw.die(surface, layout.rect(24 + i * 56, 22, 46, 46), value)
            draw.die(surface, layout.rect(618 + i * 56, 22, 46, 46), 7 - value)
        draw.styled(surface, layout, "Azar", (400, -1), theme.WORDMARK)
        draw.styled(surface, layout, tr(SUBTITLE), (400, 80), theme.LEGEND, max_width=760)
        self.draw_how_to(surface, layout, tr)
        self.draw_invitation(surface, layout, tr)
        self.draw_recent(surface, layout, tr)

    def draw_how_to(self, surface: pygame.Surface, layout: Layout, tr: Translator) -> None:
        draw.panel(surface, layout.rect(*HOW_TO), layout, radius=14)
        x, y, w, h = TRAY
        pygame.draw.rect(surface, (31, 90, 58), layout.rect(x, y, w, h), border_radius=layout.px(8))
        cycle = int(self.age // HOW_TO_SECONDS)
        t = self.age % HOW_TO_SECONDS
        dice, key, params = EXAMPLES[cycle % len(EXAMPLES)]
        rng = random.Random(cycle * 31 + int(t / 0.12))
        surface.set_clip(layout.rect(*TRAY))  # dice rolling in come into the tray from its edge
        for i, value in enumerate(dice):
            rest_x, rest_y = x + 62 + i * 90, y + 34
            if t < TUMBLE:  # rolling in from the left, bouncing, faces changing
                k = 1 - t / TUMBLE
                px = rest_x - 180 * k * k
                py = rest_y - abs(math.sin(t * 7 + i)) * 40 * k
                face = rng.randint(1, 6)
            else:
                px, py, face = rest_x, rest_y, value
            box = layout.rect(px, py, 46, 46)
            draw.die(surface, box, face)
            if t >= TUMBLE:  # the read: each die framed and named, as on the play screen
                pygame.draw.rect(
                    surface,
                    theme.GOLD,
                    box.inflate(layout.px(10), layout.px(10)),
                    layout.px(2),
                    border_radius=layout.px(6),
                )
                draw.styled(surface, layout, str(value), (px + 23, py - 28), theme.HOW_TO_VALUE)
        surface.set_clip(None)
        step = 0 if t < TUMBLE else 1 if t < READ else 2
        if step == 2:
            caption = tr.ruling(key, params)
            colour = theme.TEXT
        else:
            caption, colour = tr(STEPS[step]), theme.GOLD
        draw.paragraph(
            surface,
            layout,
            caption,
            CAPTION,
            theme.BODY_BOLD.size,
            "sans-bold",
            colour,
            "center",
            spacing=1.0,
        )

    def draw_invitation(self, surface: pygame.Surface, layout: Layout, tr: Translator) -> None:
        """Two players wanted, or (every other turn) a fact about the odds."""
        x, y, w, h = INVITATION
        draw.panel(surface, layout.rect(*INVITATION), layout, radius=14)
        pulse = round(8 * abs(((self.age * 0.8) % 2) - 1)) / 8  # 9 shades: the text cache holds
        colour = tuple(round(c * (0.6 + 0.4 * pulse)) for c in theme.GOLD)
        if self.turn % 2 == 0:
            heading, body, face = tr(INVITE), tr(INVITE_MORE), "sans"
        else:
            heading, body, face = tr("Did you know?"), fact(tr, self.turn // 2), "sans"
        draw.styled(
            surface,
            layout,
            heading,
            (x + w / 2, y + 8),
            theme.INVITATION,
            max_width=w - 20,
            color=colour,
        )
        draw.paragraph(
            surface,
            layout,
            body,
            (x + 12, y + 60, w - 24, h - 66),
            theme.BODY.size,
            face,
            theme.TEXT,
            "center",
            spacing=1.1,
        )

    def draw_recent(self, surface: pygame.Surface, layout: Layout, tr: Translator) -> None:
        if not self.recent:  # the Play label below already says how to start
            return
        draw.styled(surface, layout, tr(RECENT_LABEL), (24, 401), theme.LABEL, max_width=200)
        for i, (seat, total) in enumerate(self.recent):
            box = layout.rect(236 + i * 45, 396, 40, 34)
            draw.panel(surface, box, layout, edge=theme.SEATS[seat], radius=8, width=2)
            draw.styled(surface, layout, str(total), (256 + i * 45, 401), theme.RECENT_TOTAL)
