"""Game choice: the games of the rules' registry, the readings staff put on the menu, the rules
and odds, and the language.

Visitors see one row per game (its standard reading: the first with a printed source,
`visitor_variants()`), the game named by `[game] default_game` first; `[game] menu_variants`
adds scholarly readings. A game added to the rules registry (Hazard, of two dice) shows up here
by itself. The menu scrolls when its rows outgrow the screen.
"""

from __future__ import annotations

import pygame

from kiosk.config import menu_names
from kiosk.i18n import N_
from kiosk.rules.variants import Variant, find_variant, visitor_variants
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene, heading
from kiosk.ui.touch import Target

ROW = 90  # height of one choice, design units (17 mm on the 7-inch panel: a finger's width)
TOP = 66  # where the first row starts
VISIBLE = 4  # rows on screen at once; more scroll
RULES, LANGUAGE = "rules", "language"
# One plain line per game for visitors (a game without one shows its registry summary).
BLURBS = {
    "azar": N_("An azar wins at once, or a race."),
    "medio-azar": N_("Azars pay as you go, then a race."),
    "hazard": N_("Two dice: call a main, 5 to 9."),
}


def menu(config) -> list[Variant]:
    """The games offered, in order: the configured first game, every other game's standard
    reading (readings without a printed source stay off unless staff list them), the extras."""
    names = menu_names(config.game)
    first, extras = names[0], names[1:]
    # The config was checked against the registry.
    offered: list[Variant] = [find_variant(*first)]
    standard: dict[str, Variant] = {}
    for variant in visitor_variants():
        standard.setdefault(variant.game, variant)
    for chosen in [*standard.values(), *(find_variant(*extra) for extra in extras)]:
        if chosen not in offered:
            offered.append(chosen)
    return offered


class Choose(Scene):
    name = "choose"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        self.games = menu(kiosk.config)
        self.rows: list[Variant | str] = [*self.games, RULES, LANGUAGE]
        self.selected = 0
        self.scroll = 0

    def enter(self, **options) -> None:
        super().enter(**options)
        self._keep_in_view()

    def on_button(self, button: str, kind: str) -> None:
        if button == "left":
            self.selected = (self.selected - 1) % len(self.rows)
        elif button == "right":
            self.selected = (self.selected + 1) % len(self.rows)
        elif button == "ok":
            self.choose(self.rows[self.selected])
        self._keep_in_view()

    def on_touch(self, key: str) -> None:
        if key == "up":
            self.scroll = max(0, self.scroll - 1)
        elif key == "down":
            self.scroll = min(len(self.rows) - VISIBLE, self.scroll + 1)
        elif key.startswith("row:"):
            self.selected = int(key[4:])
            self.choose(self.rows[self.selected])

    def choose(self, row: Variant | str) -> None:
        if row == RULES:
            self.kiosk.goto("rules")
        elif row == LANGUAGE:
            self.kiosk.goto("language")
        else:
            self.kiosk.new_match(row)

    def _keep_in_view(self) -> None:
        if self.selected < self.scroll:
            self.scroll = self.selected
        elif self.selected >= self.scroll + VISIBLE:
            self.scroll = self.selected - VISIBLE + 1

    def shown(self) -> range:
        return range(self.scroll, min(len(self.rows), self.scroll + VISIBLE))

    def touch_targets(self) -> list[Target]:
        targets = [
            Target(f"row:{i}", (40, TOP + n * ROW, 700, ROW - 8))
            for n, i in enumerate(self.shown())
        ]
        if self.scroll > 0:
            targets.append(Target("up", (744, TOP, 52, 2 * ROW - 8)))
        if self.scroll + VISIBLE < len(self.rows):
            targets.append(Target("down", (744, TOP + 2 * ROW, 52, 2 * ROW - 8)))
        return targets

    def hints(self):
        return (self.tr("Previous"), self.tr("Choose"), self.tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.selected, self.scroll)

    def labels(self, row: Variant | str) -> tuple[str, str]:
        tr = self.tr
        if row == RULES:
            return tr("Rules and odds"), tr("How to play, words, history.")
        if row == LANGUAGE:
            return "Français · Español · English", tr("Choose your language")
        title = tr.ruling(row.title_key)
        standard = row == find_variant(row.game)
        blurb = BLURBS.get(row.game) if standard else None
        return title, tr(blurb) if blurb else tr.ruling(row.summary_key)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        heading(surface, layout, self.tr("Choose a game"))
        for n, i in enumerate(self.shown()):
            y = TOP + n * ROW
            chosen = i == self.selected
            box = layout.rect(40, y, 700, ROW - 8)
            if self.pressed == f"row:{i}":
                draw.panel(surface, box, layout, color=theme.PRESSED, edge=theme.GOLD, width=3)
                colour = theme.GOLD
            else:
                colour = draw.option(surface, layout, box, chosen, radius=12, width=3)
            title, summary = self.labels(self.rows[i])
            draw.styled(
                surface, layout, title, (56, y + 2), theme.MENU_TITLE, max_width=670, color=colour
            )
            draw.styled(surface, layout, summary, (56, y + 36), theme.MENU_SUMMARY, max_width=670)
        if self.scroll > 0:
            draw.styled(surface, layout, "▲", (770, TOP + 50), theme.SCROLL_MARK)
        if self.scroll + VISIBLE < len(self.rows):
            draw.styled(surface, layout, "▼", (770, TOP + 3 * ROW), theme.SCROLL_MARK)
