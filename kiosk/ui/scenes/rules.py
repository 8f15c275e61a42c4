"""Rules and odds: each game's rules in the visitor's language, with their sources, and the
exact odds computed by the rules engine."""

from __future__ import annotations

from functools import cache

import pygame

from kiosk.i18n import N_
from kiosk.rules import AwaitChoice
from kiosk.rules.odds import exact_odds
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene, heading
from kiosk.ui.scenes.choose import VARIANTS

AZAR_RULES = N_(
    "3, 4, 5, 6, 15, 16, 17 and 18 are azares; 7 to 14 are chances.\n"
    "First throw: an azar wins at once. Otherwise it is the opponent's chance.\n"
    "Second throw: an azar (a reazar) loses. A new total is your own chance. "
    "The same total again: start over.\n"
    "Then throw in turn: the first chance to come up wins for its owner."
)
MEDIO_RULES = N_(
    "3 to 7 and 14 to 18 are azares; 8 to 13 are reazares.\n"
    "Both throw: the higher total starts.\n"
    "Every azar wins a stake. The first reazar is the opponent's chance.\n"
    "Throw that chance again first: throw once more, an azar takes the table.\n"
    "The second reazar is your chance. The first chance to come up wins three stakes; "
    "each azar before it adds one."
)
HAZARD_RULES = N_(
    "Hazard, English, with two dice: its name comes from azar.\n"
    "The caster calls a main: 5, 6, 7, 8 or 9.\n"
    "First throw: the main wins (so do 12 with 6 or 8, and 11 with 7). "
    "2 and 3 lose, and 11 or 12 when they do not win.\n"
    "Any other total is the caster's chance: he throws until the chance wins or the main loses."
)
SOURCES = N_(
    "Alfonso X, Libro de los juegos (1283), Escorial Ms. T.I.6, f. 67r (Azar) and f. 70r "
    "(Medio azar). Rule cards by the association Aisling-1198. "
    "Basulto Santos et al. (2006) computed the odds of Azar. Dante, Purgatorio VI, names "
    "the zara."
)
HAZARD_SOURCES = N_(
    "Hazard: R. Seymour, The Compleat Gamester (1739); Chambers's Encyclopaedia, "
    "which gives the odds of a main of 6 or 8 as 7,295 to 6,961 for the setter."
)
RULES = {"azar": AZAR_RULES, "medio_azar": MEDIO_RULES, "hazard": HAZARD_RULES}
TITLES = {"azar": "azar.title.card", "medio_azar": "medio_azar.title.card"}
TITLES["hazard"] = "hazard.title.called_main"
PAGES = ("azar", "medio_azar", "hazard", "odds", "sources")
ODDS_MAIN = 7  # the main shown in the odds table: the caster's best
MAIN_ROW = N_("{game}, main of {main}")


@cache
def odds_table() -> list[tuple[str, int | None, float, float, float]]:
    """(title key, main called or None, caster wins, caster loses, mean throws) for every
    variant on the menu, exact."""
    rows = []
    for variant in VARIANTS:
        asks = isinstance(variant.new_game().awaiting, AwaitChoice)
        main = ODDS_MAIN if asks else None
        odds = exact_odds(variant, {"main": ODDS_MAIN} if asks else None)
        rows.append(
            (
                variant.title_key,
                main,
                float(odds.outcomes.get("caster_wins", 0)),
                float(odds.outcomes.get("caster_loses", 0)),
                float(odds.expected_throws),
            )
        )
    return rows


class Rules(Scene):
    name = "rules"

    def enter(self, **options) -> None:
        super().enter(**options)
        self.page = 0

    def on_button(self, button: str, kind: str) -> None:
        if button == "left":
            self.page = (self.page - 1) % len(PAGES)
        elif button == "right":
            self.page = (self.page + 1) % len(PAGES)
        else:
            self.kiosk.goto("choose")

    def hints(self):
        return (self.tr("Previous"), self.tr("Back"), self.tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.page)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.tr
        page = PAGES[self.page]
        footer = f"{self.page + 1} / {len(PAGES)}"
        draw.text(surface, layout, footer, (786, 12), 14, "sans", theme.MUTED, "right")
        if page in RULES:
            title = tr.ruling(TITLES[page])
            heading(surface, layout, title, tr("The rules"))
            text = tr(RULES[page])
            draw.paragraph(
                surface, layout, text, (50, 100, 700, 320), 20, "sans", theme.TEXT, spacing=1.45
            )
        elif page == "odds":
            heading(surface, layout, tr("The exact odds"), tr("Computed by the rules engine."))
            self.draw_odds(surface, layout)
        else:
            heading(surface, layout, tr("Sources"))
            draw.paragraph(
                surface,
                layout,
                tr(SOURCES) + "\n" + tr(HAZARD_SOURCES),
                (50, 100, 700, 320),
                20,
                "serif",
                theme.TEXT,
                spacing=1.45,
            )

    def draw_odds(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.tr
        columns = (
            (360, tr("First player wins")),
            (530, tr("First player loses")),
            (700, tr("Throws per game")),
        )
        for x, label in columns:
            draw.text(
                surface,
                layout,
                label,
                (x, 104),
                14,
                "sans-bold",
                theme.MUTED,
                "center",
                max_width=160,
            )
        for row, (key, main, wins, loses, throws) in enumerate(odds_table()):
            y = 136 + row * 52
            title = tr.ruling(key)
            if main is not None:
                title = tr(MAIN_ROW).format(game=title, main=main)
            box = layout.rect(40, y, 720, 44)
            draw.panel(surface, box, layout, radius=8)
            draw.text(
                surface,
                layout,
                title,
                (56, y + 9),
                20,
                "serif-bold",
                theme.GOLD,
                max_width=220,
            )
            for (x, _), value in zip(
                columns, (tr.percent(wins), tr.percent(loses), tr.decimal(throws, 2)), strict=True
            ):
                draw.text(surface, layout, value, (x, y + 9), 20, "sans", theme.TEXT, "center")
