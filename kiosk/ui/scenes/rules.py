"""Rules and odds: each game's rules, the words of the games, their history, the exact odds and
the sources, in the visitor's language.

Text pages wrap at most 55 characters a line; a large-text mode (the "A+" corner, or holding
the left button) sets them bigger and splits a page that no longer fits. The odds come from
`facts`, computed off the main loop at start.
"""

from __future__ import annotations

import pygame

from kiosk.i18n import N_
from kiosk.ui import draw, explain, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene, heading
from kiosk.ui.scenes import facts
from kiosk.ui.touch import Target

AZAR_RULES = N_(
    "3, 4, 5, 6, 15, 16, 17 and 18 are azars; 7 to 14 are chances.\n"
    "First throw: an azar wins at once. Otherwise it is the other player's chance.\n"
    "Second throw: an azar (a reazar) loses. A new total is your own chance. "
    "The same total again: start over.\n"
    "Then throw in turn: the first chance to come up wins for its owner.\n"
    "The first caster changes from one game to the next."
)
MEDIO_RULES = N_(
    "3 to 7 and 14 to 18 are azars; 8 to 13 are reazars.\n"
    "Both throw: the higher total casts.\n"
    "Every azar wins a stake. The first reazar is the other player's chance.\n"
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
HISTORY = N_(
    "Alfonso X of Castile had the Book of Games (chess, dice and tables) finished in "
    "Seville in 1283. [Libro de los juegos, colophon]\n"
    "Its one copy is at El Escorial, Ms. T.I.6: Azar on folio 67r, Medio azar on "
    "folios 70r-70v. [ed. Biblioteca Castro, 2007]\n"
    "Dante opens Purgatorio VI with the game of zara: the loser stays behind, "
    "sadly replaying the throws. [Purgatorio VI, 1-3]\n"
    "The word came from Arabic az-zahr, the die; in Spanish azar now means chance, "
    "and English hazard, a dice game, gave its name to risk. [RAE dictionary, azar; "
    "Oxford English Dictionary, hazard]"
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
TEXTS = {
    "azar": AZAR_RULES,
    "medio_azar": MEDIO_RULES,
    "hazard": HAZARD_RULES,
    "history": HISTORY,
    "sources": SOURCES,
}
# The rules pages, titled by their game's standard reading.
TITLES = {
    "azar": "azar.title.card",
    "medio_azar": "medio_azar.title.card",
    "hazard": "hazard.title.called_main",
}
PAGES = ("azar", "medio_azar", "hazard", "glossary", "history", "odds", "sources")
MAIN_ROW = N_("{game}, main of {main}")
BOX = (44, 80, 712, 346)  # a text page: at body size about 36 characters a line
SIZES = {False: theme.BODY.size, True: 46}  # body size, normal and large text
SPACING = 1.2  # line height, in font line sizes
ODDS_ROWS = 5  # rows of the odds table a screenful holds


class Rules(Scene):
    name = "rules"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        facts.warm()  # the odds are ready long before anyone opens their page
        self.large = False

    def enter(self, **options) -> None:
        super().enter(**options)
        self.page = 0
        self.part = 0  # which screenful of a page split in large text

    def on_button(self, button: str, kind: str) -> None:
        if button == "left" and kind == "hold":
            self.toggle_large()
        elif button == "left":
            self.turn(-1)
        elif button == "right":
            self.turn(1)
        else:
            self.kiosk.goto("choose")

    def on_touch(self, key: str) -> None:
        if key == "large":
            self.toggle_large()

    def toggle_large(self) -> None:
        self.large = not self.large
        self.part = 0

    def turn(self, step: int) -> None:
        """The next (or previous) screenful: the next part of a split page, then the next page."""
        parts = len(self.parts())
        if 0 <= self.part + step < parts:
            self.part += step
            return
        self.page = (self.page + step) % len(PAGES)
        self.part = 0 if step > 0 else len(self.parts()) - 1

    def touch_targets(self) -> list[Target]:
        return [Target("large", (8, 4, 80, 44))]

    def hints(self):
        return (self.tr("Previous"), self.tr("Back"), self.tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.page, self.part, self.large)

    # -- pages -------------------------------------------------------------------------------
    def title(self) -> str:
        tr, page = self.tr, PAGES[self.page]
        if page in TITLES:
            return tr.ruling(TITLES[page])
        return {
            "glossary": tr("The words of the games"),
            "history": tr("History"),
            "odds": tr("The exact odds"),
            "sources": tr("Sources"),
        }[page]

    def page_text(self) -> str:
        tr, page = self.tr, PAGES[self.page]
        if page == "glossary":
            return "\n".join(explain.gloss(tr, term) for term, _, _ in explain.GLOSSARY)
        if page == "sources":
            return tr(SOURCES) + "\n" + tr(HAZARD_SOURCES)
        return tr(TEXTS.get(page, ""))

    def parts(self, layout: Layout | None = None) -> list[str]:
        """The page's text cut into screenfuls at the current size (whole paragraphs)."""
        if PAGES[self.page] == "odds":
            rows = len(facts.odds_table()) if facts.ready() else 1
            return [""] * max(1, -(-rows // ODDS_ROWS))
        layout = layout or self.kiosk.layout
        px = layout.px(SIZES[self.large])
        width, height = layout.px(BOX[2]), layout.px(BOX[3])
        line_h = round(draw.font("sans", px).get_linesize() * SPACING / 1.17)
        parts: list[list[str]] = [[]]
        used = 0
        for paragraph in self.page_text().split("\n"):
            lines = len(draw.wrap("sans", px, paragraph, width)) + 1  # a blank line after
            if parts[-1] and used + lines - 1 > height // line_h:
                parts.append([])
                used = 0
            parts[-1].append(paragraph)
            used += lines
        return ["\n\n".join(part) for part in parts]

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        page = PAGES[self.page]
        parts = self.parts(layout)
        self.part = min(self.part, len(parts) - 1)
        footer = f"{self.page + 1} / {len(PAGES)}"
        if len(parts) > 1:
            footer += f"  ({self.part + 1}/{len(parts)})"
        draw.styled(surface, layout, footer, (786, 12), theme.PAGE_NUMBER)
        self.draw_large_toggle(surface, layout)
        if page == "odds":
            heading(surface, layout, self.title())
            self.draw_odds(surface, layout)
            return
        heading(surface, layout, self.title())
        draw.paragraph(
            surface,
            layout,
            parts[self.part],
            BOX,
            SIZES[self.large],
            "sans",
            theme.TEXT,
            spacing=SPACING,
        )

    def draw_large_toggle(self, surface: pygame.Surface, layout: Layout) -> None:
        box = layout.rect(8, 4, 80, 44)
        down = self.pressed == "large"
        draw.panel(
            surface,
            box,
            layout,
            color=theme.PRESSED if down else theme.BACKGROUND,
            edge=theme.GOLD if self.large else theme.PANEL_EDGE,
            radius=12,
        )
        label = "A\u2212" if self.large else "A+"
        draw.styled(surface, layout, label, (48, 10), theme.LARGE_TEXT_TOGGLE)

    def draw_odds(self, surface: pygame.Surface, layout: Layout) -> None:
        """The exact odds, a few games a screenful: who casts first wins how often, and how
        many throws a game lasts (the caster's losses are the rest of the hundred)."""
        tr = self.tr
        if not facts.ready():
            draw.styled(surface, layout, tr("Computing the odds..."), (400, 200), theme.NOTE)
            return
        columns = ((610, tr("First player wins")), (720, tr("Throws per game")))
        # both headings at one size: the size at which the longer of them fits its box
        px = layout.px(20)
        fits = [
            draw.paragraph_fit("sans-bold", px, label, layout.px(110), layout.px(52), 1.0)[0]
            for _, label in columns
        ]
        heading = 20 * min(fits) / px
        for x, label in columns:
            draw.paragraph(
                surface,
                layout,
                label,
                (x - 55, 74, 110, 52),
                heading,
                "sans-bold",
                theme.MUTED,
                "center",
                spacing=1.0,
            )
        rows = facts.odds_table()[self.part * ODDS_ROWS :][:ODDS_ROWS]
        for row, (key, main, wins, _loses, throws) in enumerate(rows):
            title = tr.ruling(key)
            if main is not None:
                title = tr(MAIN_ROW).format(game=title, main=main)
            y = 132 + row * 60
            draw.panel(surface, layout.rect(30, y, 740, 54), layout, radius=8)
            draw.styled(surface, layout, title, (42, y + 8), theme.ODDS_GAME, max_width=496)
            values = (tr.percent(wins, 1), tr.decimal(throws, 1))
            for (x, _), value in zip(columns, values, strict=True):
                draw.styled(surface, layout, value, (x, y + 8), theme.ODDS_FIGURE)
