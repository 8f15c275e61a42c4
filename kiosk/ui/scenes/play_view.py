"""How the play screen looks: where things go (design units, the 800x480 layout), and the
drawing of the throw shown big, the last throw and its ruling, the live tray with each die
outlined, the entry of dice by hand, a player's choice, the two seats and the next throw.

`PlayView` is the drawing half of `kiosk.ui.scenes.play.Play`, which holds the game's state
on screen and answers the buttons; it draws from that state and changes none of it.
"""

from __future__ import annotations

import pygame

from kiosk.i18n import N_
from kiosk.ui import draw, explain, theme
from kiosk.ui.layout import Layout
from kiosk.worker import Preview

WRONG_COUNT = {2: N_("The table needs exactly two dice in the track.")}
ENTER_DICE = {2: N_("Enter the two dice"), 3: N_("Enter the three dice")}
REROLL_REASONS = {
    "wrong_count": N_("The table needs exactly three dice in the track."),
    "unreadable": N_("A die could not be read."),
    "cocked": N_("A die leans, or touches the wall of the track."),
    "overlap": N_("Two dice lie on top of each other."),
    "cut": N_("A die is at the edge of the track."),
    "blur": N_("The picture is blurred."),
    "glare": N_("A reflection hides the pips."),
    "not_moved": N_("The dice did not move."),
    "bad_frame": N_("The camera picture cannot be used."),
}
ROLLING = N_("The dice are rolling...")
RESTLESS = N_("Dice lying still? Call staff.")  # TRAY_BOX, 5 mm
HISTORY_CHIPS = 8  # past totals in the title bar
# Where things go on the table (design units, x, y, width, height). The sentences are set at
# body size (5 mm cap height on the 7-inch panel): the ruling in three lines at most, the next
# throw in three; tests/kiosk/test_legibility.py checks every sentence the games can produce.
LAST_BOX = (12, 42, 540, 190)  # the last throw: dice, total, ruling
RULING_BOX = (24, 112, 518, 118)
TRAY_BOX = (560, 42, 228, 190)  # the camera's picture, each die outlined with its read
SEAT_Y, SEAT_H = 236, 60
NEXT_PANEL = (12, 300, 776, 130)
NEXT_BOX = (24, 306, 752, 120)
WIDE_BOX = (12, 42, 776, 190)  # entering dice, or a choice, over the last throw and the tray
REVEAL_RULING_BOX = (24, 208, 752, 124)  # the throw shown big: its ruling, three lines at most
REVEAL_GLOSS_BOX = (24, 340, 752, 86)  # and a term met for the first time, two lines
LINE_SPACING = 1.1
CHOOSE_HINT = N_("◀ ▶ choose, ● calls.")
CANCEL_HINT = N_("Hold ◀ to cancel.")


def sentence(
    surface: pygame.Surface,
    layout: Layout,
    text: str,
    box: tuple[float, float, float, float],
    colour: tuple = theme.TEXT,
    align: str = "left",
    bold: bool = False,
) -> None:
    """A sentence of the play screen at body size in `box` (design units), shrunk to fit;
    tests/kiosk/test_legibility.py holds every sentence the games make to its box."""
    size, face = (theme.BODY_BOLD.size, "sans-bold") if bold else (theme.BODY.size, "sans")
    draw.paragraph(surface, layout, text, box, size, face, colour, align, spacing=LINE_SPACING)


def tray_notice(preview: Preview) -> str | None:
    """What the band across the live tray says (untranslated), or None: the dice rolling, or,
    once the tray is restless, a word to call staff (thrown dice stop within seconds: the
    table or camera shakes, or something moves in view)."""
    if preview.motion != "moving":
        return None
    return RESTLESS if preview.restless else ROLLING


class PlayView:
    """The play screen's drawing, mixed into Play: it reads Play's state (match, entry and its
    selected die, option, reroll, reveal, undo_armed) and the scene's kiosk and tr."""

    def view(self) -> tuple:
        m = self.match
        return (
            self.name,
            len(m.entries) if m else 0,
            self.option,
            self.reroll,
            self.entry is not None,
            self.kiosk.camera_ok,
            self.kiosk.uncalibrated,
            self.reveal > 0,
        )

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        if self.match is None:
            return
        last = self.match.last
        if self.reveal > 0 and self.entry is None and last is not None and not last.is_choice:
            self.draw_reveal(surface, layout)
            return
        self.draw_title(surface, layout)
        if self.entry is not None:
            box = layout.rect(*WIDE_BOX)
            draw.panel(surface, box, layout, color=(12, 10, 8), radius=10)
            self.draw_entry(surface, layout, box)
        elif self.match.choice is not None:
            box = layout.rect(*WIDE_BOX)
            draw.panel(surface, box, layout, color=(12, 10, 8), radius=10)
            self.draw_choice(surface, layout, self.match.choice)
        else:
            self.draw_last(surface, layout)
            self.draw_tray(surface, layout, layout.rect(*TRAY_BOX))
        for seat in (0, 1):
            self.draw_seat(surface, layout, seat, 12 + seat * 392)
        self.draw_next(surface, layout)

    # -- the throw, shown big ------------------------------------------------------------------
    def draw_reveal(self, surface: pygame.Surface, layout: Layout) -> None:
        tr, last = self.tr, self.match.last
        seat = int(last.seat)
        who = tr("{player} threw").format(player=tr.player(seat))
        draw.styled(
            surface, layout, who, (400, 8), theme.TO_THROW, max_width=760, color=theme.SEATS[seat]
        )
        left = 34 + 66 * (3 - len(last.dice))  # two dice (Hazard) closer to the total
        for i, value in enumerate(last.dice):
            draw.die(surface, layout.rect(left + i * 132, 70, 120, 120), value)
        draw.styled(surface, layout, "=", (478, 84), theme.REVEAL_EQUALS)
        draw.styled(surface, layout, str(last.total), (640, 40), theme.REVEAL_TOTAL)
        ruling = tr.ruling(last.ruling.key, last.ruling.params)
        sentence(surface, layout, ruling, REVEAL_RULING_BOX, align="center", bold=True)
        term = explain.new_term(self.match.entries)
        if term is not None:
            gloss = explain.gloss(tr, term)
            sentence(surface, layout, gloss, REVEAL_GLOSS_BOX, theme.MUTED, align="center")

    # -- the table -----------------------------------------------------------------------------
    def draw_title(self, surface: pygame.Surface, layout: Layout) -> None:
        tr, match = self.tr, self.match
        draw.styled(
            surface,
            layout,
            tr.ruling(match.variant.title_key),
            (14, 6),
            theme.TITLE,
            max_width=260,
        )
        prize = getattr(match.state, "prize", None)
        if match.variant.reports_stakes and prize is not None and not match.is_over:
            text = tr("Prize: {stakes}").format(stakes=self.stakes(prize))
            draw.styled(surface, layout, text, (786, 10), theme.PRIZE, max_width=200)
        thrown = [entry for entry in match.entries if not entry.is_choice]
        entries = thrown[-HISTORY_CHIPS:-1]
        for i, entry in enumerate(entries):  # the totals before the last one, oldest first
            box = layout.rect(290 + i * 38, 8, 34, 26)
            draw.panel(surface, box, layout, edge=theme.SEATS[int(entry.seat)], radius=6, width=2)
            draw.styled(surface, layout, str(entry.total), (307 + i * 38, 11), theme.HISTORY_TOTAL)

    def _headline(self, surface, layout, title: str, style, text: str) -> None:
        """In the last throw's place, when there is no throw to show: a title and a sentence."""
        centre = LAST_BOX[0] + LAST_BOX[2] / 2
        draw.styled(surface, layout, title, (centre, 54), style, max_width=LAST_BOX[2] - 24)
        sentence(surface, layout, text, RULING_BOX, align="center")

    def draw_last(self, surface: pygame.Surface, layout: Layout) -> None:
        """The last throw: its dice, its total in big figures, and its ruling."""
        tr, match = self.tr, self.match
        box = layout.rect(*LAST_BOX)
        draw.panel(surface, box, layout, radius=10)
        if self.reroll is not None:
            reason = REROLL_REASONS.get(self.reroll, REROLL_REASONS["unreadable"])
            if self.reroll == "wrong_count":
                reason = WRONG_COUNT.get(self.dice_count, reason)
            self._headline(surface, layout, tr("Please throw again."), theme.REROLL, tr(reason))
            return
        last = match.last
        if last is None:
            phase = tr.ruling(match.state.phase)
            self._headline(surface, layout, tr("First throw"), theme.FIRST_THROW, phase)
            return
        if last.is_choice:  # a called main: the number, no dice
            draw.styled(
                surface,
                layout,
                tr("main {main}").format(main=last.dice[0]),
                (26, 54),
                theme.CALLED_MAIN,
                max_width=250,
            )
        else:
            for i, value in enumerate(last.dice):
                draw.die(surface, layout.rect(26 + i * 64, 52, 56, 56), value)
            closer = 64 * (3 - len(last.dice))  # two dice (Hazard): the total follows them
            draw.styled(surface, layout, "=", (250 - closer, 44), theme.EQUALS)
            draw.styled(surface, layout, str(last.total), (340 - closer, 28), theme.TOTAL)
        sentence(surface, layout, tr.ruling(last.ruling.key, last.ruling.params), RULING_BOX)

    def draw_tray(self, surface: pygame.Surface, layout: Layout, box: pygame.Rect) -> None:
        draw.panel(surface, box, layout, color=(12, 10, 8), radius=10)
        preview = self.kiosk.worker.preview() if self.kiosk.worker is not None else None
        if preview is None or not self.kiosk.camera_ok:
            message = self.tr("Camera lost: enter the dice with the buttons.")
            if self.kiosk.worker is None:
                message = self.tr("No camera: enter the dice with the buttons.")
            elif getattr(self.kiosk.worker, "camera_ok", False) is None:
                message = self.tr("Starting the camera...")
            x, y, w, h = TRAY_BOX
            box = (x + 8, y + 8, w - 16, h - 16)
            sentence(surface, layout, message, box, theme.WARN, align="center", bold=True)
            return
        inner = box.inflate(-layout.px(8), -layout.px(8))
        image, scale = self._surface(preview, inner.size)
        target = image.get_rect(center=inner.center)
        surface.blit(image, target)
        self.draw_dice_marks(surface, layout, preview, target, scale)
        notice = tray_notice(preview)
        if notice is not None and self.match and not self.match.is_over:
            x, y, w, h = TRAY_BOX
            tall = 96 if notice == ROLLING else h  # the call to staff takes the whole picture
            top = y + (h - tall) / 2
            band = pygame.Surface(layout.rect(x, top, w, tall).size, pygame.SRCALPHA)
            band.fill(theme.OVERLAY)
            surface.blit(band, layout.point(x, top))
            draw.paragraph(
                surface,
                layout,
                self.tr(notice),
                (x + 6, top + 6, w - 12, tall - 10),
                theme.BODY_BOLD.size,
                "sans-bold",
                theme.TEXT,
                "center",
                spacing=1.0,
            )

    def _surface(self, preview, room: tuple[int, int]) -> tuple[pygame.Surface, float]:
        """The preview as a surface fitting `room`, and its scale; made once per new picture.

        The worker already shrinks pictures to about the panel's width, so scaling here is
        skipped when the fit is within a few pixels.
        """
        if preview.t != self._preview_t or self._preview_surface is None:
            h, w = preview.image.shape[:2]
            image = pygame.image.frombuffer(preview.image, (w, h), "BGR")
            scale = min(room[0] / w, room[1] / h)
            size = (round(w * scale), round(h * scale))
            if abs(size[0] - w) > 4 or abs(size[1] - h) > 4:
                image = pygame.transform.smoothscale(image, size)
            else:
                image, scale = image.copy(), 1.0  # the copy lets go of the worker's array
            self._preview_surface, self._preview_scale = image, scale
            self._preview_t = preview.t
        return self._preview_surface, self._preview_scale

    def draw_dice_marks(self, surface, layout, preview, target: pygame.Rect, scale: float):
        """A gold frame on each die read, and its value on a tag above it, or below or beside
        it when dice lying close together would put one tag over another die's or tag."""
        boxes = []
        for die in preview.dice:
            side = die.size * scale * 1.25
            rect = pygame.Rect(0, 0, round(side), round(side))
            rect.center = (
                round(target.left + die.center[0] * scale),
                round(target.top + die.center[1] * scale),
            )
            pygame.draw.rect(surface, theme.GOLD, rect, layout.px(2), border_radius=layout.px(4))
            boxes.append(rect)
        taken = list(boxes)
        gap = layout.px(2)
        for die, rect in zip(preview.dice, boxes, strict=True):
            label = draw.rendered("sans-bold", layout.px(18), str(die.value), theme.BACKGROUND)
            places = (
                label.get_rect(midbottom=(rect.centerx, rect.top - gap)),
                label.get_rect(midtop=(rect.centerx, rect.bottom + gap)),
                label.get_rect(midleft=(rect.right + gap * 3, rect.centery)),
                label.get_rect(midright=(rect.left - gap * 3, rect.centery)),
            )
            others = [t for t in taken if t is not rect]
            tag = next(
                (p for p in places if p.inflate(gap * 4, gap).collidelist(others) == -1),
                places[0],
            )
            taken.append(tag.inflate(gap * 4, gap))
            pygame.draw.rect(
                surface, theme.GOLD, tag.inflate(gap * 4, gap), border_radius=layout.px(4)
            )
            surface.blit(label, tag)

    def draw_entry(self, surface, layout, box: pygame.Rect) -> None:
        tr = self.tr
        if self.entry_purpose == "correct":
            title = tr("Correct the last throw")
        elif not self.kiosk.camera_ok:
            title = tr("Camera lost: enter the dice with the buttons.")
        elif self.kiosk.uncalibrated:
            title = tr("Tray not calibrated: enter the dice with the buttons.")
        else:
            title = tr(ENTER_DICE.get(len(self.entry or ()), ENTER_DICE[3]))
        draw.styled(surface, layout, title, (400, 48), theme.CHOICE_TITLE, max_width=752)
        left = 90 + 55 * (3 - len(self.entry or ()))  # fewer dice stay centred on the same place
        for i, value in enumerate(self.entry or ()):
            rect = layout.rect(left + i * 110, 100, 80, 80)
            selected = i == self.entry_index
            draw.die(surface, rect, value, edge=theme.GOLD if selected else None)
            if selected:
                pygame.draw.rect(
                    surface,
                    theme.GOLD,
                    rect.inflate(layout.px(14), layout.px(14)),
                    layout.px(3),
                    border_radius=layout.px(18),
                )
        total = sum(self.entry or ())
        draw.styled(surface, layout, str(total), (600, 80), theme.TOTAL)
        draw.styled(surface, layout, tr(CANCEL_HINT), (400, 188), theme.NOTE, max_width=752)

    def draw_choice(self, surface, layout, choice) -> None:
        """The options of the awaited choice (Hazard's main) in a row, the shown one framed."""
        tr = self.tr
        title = tr("{player}: call the main.").format(player=tr.player(int(choice.seat)))
        draw.styled(surface, layout, title, (400, 48), theme.CHOICE_TITLE, max_width=752)
        width = 720 / len(choice.options)
        for i, option in enumerate(choice.options):
            selected = i == self.option % len(choice.options)
            rect = layout.rect(40 + i * width + 8, 96, width - 16, 84)
            colour = draw.option(surface, layout, rect, selected, radius=12, width=3)
            draw.styled(
                surface,
                layout,
                str(option),
                (40 + i * width + width / 2, 104),
                theme.CHOICE_OPTION,
                color=colour,
            )
        draw.styled(surface, layout, tr(CHOOSE_HINT), (400, 188), theme.NOTE, max_width=752)

    def draw_seat(self, surface, layout, seat: int, x: float) -> None:
        """A player's card: name, whose throw it is (or the stakes won so far), the chance."""
        tr, match = self.tr, self.match
        state = match.state
        turn = not match.is_over and int(state.to_throw) == seat and self.entry is None
        y = SEAT_Y
        box = layout.rect(x, y, 384, SEAT_H)
        draw.panel(
            surface,
            box,
            layout,
            edge=theme.SEATS[seat] if turn else theme.PANEL_EDGE,
            radius=10,
            width=4 if turn else 1,
        )
        pygame.draw.circle(surface, theme.SEATS[seat], layout.point(x + 22, y + 18), layout.px(9))
        draw.styled(
            surface,
            layout,
            tr.player(seat),
            (x + 40, y + 2),
            theme.SEAT_NAME,
            max_width=190,
            color=theme.SEATS[seat],
        )
        if turn:
            below, colour = tr("throws now"), theme.SEATS[seat]
        elif match.variant.reports_stakes:
            below, colour = tr("won so far: {n}").format(n=f"{state.ledger[seat]:+d}"), theme.TEXT
        else:
            below, colour = "", theme.MUTED
        draw.styled(
            surface, layout, below, (x + 40, y + 33), theme.SEAT_NOTE, max_width=250, color=colour
        )
        chances = getattr(state, "chances", None)
        chance = chances[seat] if chances is not None else None
        draw.styled(
            surface,
            layout,
            explain.seat_word(tr, state, seat),
            (x + 290, y + 4),
            theme.CHANCE_LABEL,
            max_width=80,
        )
        value = str(chance) if chance else "–"
        draw.styled(
            surface,
            layout,
            value,
            (x + 372, y - 4),
            theme.CHANCE,
            color=theme.TEXT if chance else theme.MUTED,
        )

    def draw_next(self, surface, layout) -> None:
        """What the next throw can do (or the undo question, or the end of the game)."""
        tr, match = self.tr, self.match
        box = layout.rect(*NEXT_PANEL)
        draw.panel(surface, box, layout, color=theme.BACKGROUND, radius=10)
        if self.undo_armed > 0:
            text, colour = tr("Press left again to undo the last throw."), theme.WARN
        elif match.is_over:
            text, colour = tr("The game is over."), theme.GOLD
        elif self.entry is not None:
            text, colour = explain.next_throw(tr, match.state), theme.MUTED
        else:
            text, colour = explain.next_throw(tr, match.state), theme.TEXT
        sentence(surface, layout, text, NEXT_BOX, colour)
