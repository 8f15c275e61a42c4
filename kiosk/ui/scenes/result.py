"""The result: who won, why, the stakes, and play again."""

from __future__ import annotations

import pygame

from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene


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

    def explanation(self) -> str:
        """The last throw's ruling says why ("10 is the chance of Player 1: Player 1 wins.")."""
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
        outcome, state = match.state.outcome, match.state
        draw.text(
            surface,
            layout,
            tr.ruling(match.variant.title_key),
            (400, 16),
            26,
            "serif",
            theme.MUTED,
            "center",
        )
        if outcome.winner is None:
            title, colour = tr("A draw"), theme.GOLD
        else:
            seat = int(outcome.winner)
            title = tr("{player} wins!").format(player=tr.player(seat))
            colour = theme.SEATS[seat]
        draw.text(
            surface, layout, title, (400, 46), 64, "serif-bold", colour, "center", max_width=760
        )
        draw.paragraph(
            surface,
            layout,
            self.explanation(),
            (60, 140, 680, 62),
            22,
            "sans",
            theme.TEXT,
            "center",
        )
        stakes = tr.plural("{n} stake", "{n} stakes", outcome.stakes).format(n=outcome.stakes)
        draw.text(surface, layout, stakes, (400, 210), 28, "sans-bold", theme.GOLD, "center")
        for seat in (0, 1):
            x = 250 + seat * 300
            box = layout.rect(x - 130, 290, 260, 110)
            draw.panel(surface, box, layout, edge=theme.SEATS[seat], radius=12)
            draw.text(
                surface,
                layout,
                tr.player(seat),
                (x, 298),
                22,
                "sans-bold",
                theme.SEATS[seat],
                "center",
            )
            draw.text(
                surface,
                layout,
                f"{state.ledger[seat]:+d}",
                (x, 326),
                44,
                "serif-bold",
                theme.TEXT,
                "center",
            )
            draw.text(surface, layout, tr("stakes"), (x, 376), 14, "sans", theme.MUTED, "center")
        throws = tr.plural("{n} throw", "{n} throws", len(match.entries)).format(
            n=len(match.entries)
        )
        draw.text(surface, layout, throws, (400, 250), 16, "sans", theme.MUTED, "center")
