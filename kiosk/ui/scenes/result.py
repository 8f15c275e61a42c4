"""The result: who came out ahead and by which rule, the prize, each player's net, play again.

The headline follows `verdict`: it names only a player who ends the game ahead, or says the
game is even.
"""

from __future__ import annotations

import pygame

from kiosk.i18n import N_
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.touch import Target
from kiosk.ui.verdict import verdict

WINS = N_("{player} wins!")
EVEN = N_("All square!")
PRIZE = N_("{player} took the prize: {stakes}.")
AHEAD_BY_AZARS = N_("{player} won more with azars and ends ahead.")
EVEN_AFTER_AZARS = N_("With the azars paid, both players end even.")
NET_LABEL = N_("stakes this game")
EXPLANATION_BOX = (24, 132, 752, 84)  # the ruling that ended it, two lines at body size
WHY_BOX = (24, 218, 752, 82)  # the rule that decided, two lines
CARD_Y, CARD_H = 304, 124


class Result(Scene):
    name = "result"

    def on_button(self, button: str, kind: str) -> None:
        match = self.kiosk.match
        if match is None:
            self.kiosk.goto("choose")
        elif button == "ok":
            self.kiosk.new_match(match.variant)
        elif button == "right":
            self.kiosk.goto("choose")
        elif button == "left" and match.entries and self.kiosk.staff:
            match.undo()  # staff: a misread ended the game, take it back and play on
            self.kiosk.goto("play")

    def on_touch(self, key: str) -> None:
        if key == "home":
            self.kiosk.goto("language")

    def touch_targets(self) -> list[Target]:
        return [Target("home", (8, 4, 150, 40))]

    def explanation(self) -> str:
        """By which rule: the last throw's ruling ("10 is the chance of Player 1...")."""
        match = self.kiosk.match
        last = match.last
        if last is not None:
            return self.tr.ruling(last.ruling.key, last.ruling.params)
        return self.tr.ruling(match.state.outcome.reason)

    def hints(self):
        undo = self.tr("Undo") if self.kiosk.staff else None
        return (undo, self.tr("Play again"), self.tr("Other game"))

    def view(self) -> tuple:
        match = self.kiosk.match
        return (self.name, match.game_id if match else None)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr, match = self.tr, self.kiosk.match
        if match is None or match.state.outcome is None:
            return
        self.draw_home(surface, layout)
        result = verdict(match.state)
        draw.styled(
            surface,
            layout,
            tr.ruling(match.variant.title_key),
            (400, 8),
            theme.GAME_NAME,
            max_width=440,
        )
        if result.ahead is None:
            title, colour = tr(EVEN), theme.GOLD
        else:
            title = tr(WINS).format(player=tr.player(int(result.ahead)))
            colour = theme.SEATS[int(result.ahead)]
        draw.styled(surface, layout, title, (400, 40), theme.RESULT, max_width=780, color=colour)
        draw.paragraph(
            surface,
            layout,
            self.explanation(),
            EXPLANATION_BOX,
            theme.BODY.size,
            "sans",
            theme.TEXT,
            "center",
            spacing=1.1,
        )
        draw.paragraph(
            surface,
            layout,
            self.why(result),
            WHY_BOX,
            theme.BODY_BOLD.size,
            "sans-bold",
            theme.GOLD,
            "center",
            spacing=1.1,
        )
        for seat in (0, 1):
            self.draw_net(surface, layout, seat, result.net[seat])

    def why(self, result) -> str:
        """The rule that decided, and in Medio azar why the player ahead is the one named."""
        tr = self.tr
        if not self.kiosk.match.variant.reports_stakes or result.winner is None:
            return tr.ruling(result.reason)
        if result.ahead is None:
            return tr(EVEN_AFTER_AZARS)
        if result.ahead != result.winner:
            return tr(AHEAD_BY_AZARS).format(player=tr.player(int(result.ahead)))
        return tr(PRIZE).format(
            player=tr.player(int(result.winner)), stakes=self.stakes(result.prize)
        )

    def draw_home(self, surface: pygame.Surface, layout: Layout) -> None:
        box = layout.rect(8, 4, 150, 40)
        down = self.pressed == "home"
        draw.panel(
            surface, box, layout, color=theme.PRESSED if down else theme.BACKGROUND, radius=12
        )
        draw.styled(
            surface, layout, "⌂ " + self.tr("Language"), (83, 12), theme.HOME, max_width=136
        )

    def draw_net(self, surface: pygame.Surface, layout: Layout, seat: int, net: int) -> None:
        tr = self.tr
        x = 210 + seat * 380
        y = CARD_Y
        box = layout.rect(x - 170, y, 340, CARD_H)
        draw.panel(surface, box, layout, edge=theme.SEATS[seat], radius=12, width=2)
        draw.styled(
            surface, layout, tr.player(seat), (x, y + 4), theme.RESULT_SEAT, color=theme.SEATS[seat]
        )
        figure = f"{net:+d}" if net else "0"
        draw.styled(surface, layout, figure, (x, y + 34), theme.NET)
        draw.styled(surface, layout, tr(NET_LABEL), (x, y + 94), theme.NET_LABEL, max_width=320)
