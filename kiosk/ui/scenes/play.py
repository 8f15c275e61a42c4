"""Play: the live tray with each die outlined, whose throw it is, both chances, the stakes, the
throws so far, and one sentence for the last ruling.

Buttons: left undoes the last throw (pressed twice), right lets the referee correct the last
read, ok enters a throw by hand (in the demo: throws the simulated dice). With the camera gone,
entering by hand opens by itself. Entering dice: left/right change the selected die, ok moves
on and confirms; holding left cancels. Holding left outside an entry leaves the game.
When the game waits for a player's choice (Hazard's main), left/right change the option and
ok calls it; camera reads wait until it is made.
"""

from __future__ import annotations

import logging

import pygame

from kiosk.i18n import N_
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.worker import CameraStatus, RollRead

log = logging.getLogger(__name__)

WRONG_COUNT = {2: N_("The table needs exactly two dice in the track.")}
ENTER_DICE = {2: N_("Enter the two dice")}
REROLL_REASONS = {
    "wrong_count": N_("The table needs exactly three dice in the track."),
    "unreadable": N_("A die could not be read."),
    "cocked": N_("A die is leaning, or touches the wall (it may lean)."),
    "overlap": N_("Two dice lie on top of each other."),
    "cut": N_("A die is at the edge of the track."),
    "blur": N_("The picture is blurred."),
    "glare": N_("A reflection hides the pips."),
    "not_moved": N_("The dice did not move."),
    "bad_frame": N_("The camera picture cannot be used."),
}
# A word beside each past throw saying what it did, from its ruling key.
TAGS = (
    ("throw_off", N_("throw-off")),
    ("wins", N_("wins")),
    ("reazar_loses", N_("loses")),
    ("encuentro", N_("encuentro")),
    ("chance_for", N_("chance")),
    ("new_opponent_chance", N_("chance")),
    ("azar_pays", N_("azar")),
    ("azar_wins", N_("azar")),
    ("prize_raised", N_("azar")),
    ("recovery_due", N_("again")),
    ("nick", N_("wins")),
    ("out", N_("loses")),
    ("main_loses", N_("loses")),
    ("chance_set", N_("chance")),
)
UNDO_CONFIRM_SECONDS = 4.0
END_PAUSE_SECONDS = 3.0  # the last ruling stays on screen this long before the result
HISTORY_ROWS = 6


class Play(Scene):
    name = "play"

    def enter(self, **options) -> None:
        super().enter(**options)
        self.entry: list[int] | None = None  # dice being entered by hand
        self.entry_touched = False
        self.entry_index = 0
        self.entry_purpose = "manual"  # or "correct"
        self.reroll: str | None = None  # reason key of the last "throw again"
        self.undo_armed = 0.0  # seconds left to confirm an undo
        self.ending = END_PAUSE_SECONDS if self.match and self.match.is_over else None
        self.option = 2  # the option shown at a choice: the middle one (Hazard: 7, the best)
        self._preview_t = None
        self._preview_surface: pygame.Surface | None = None
        self._preview_scale = 1.0

    @property
    def match(self):
        return self.kiosk.match

    # -- input -------------------------------------------------------------------------------
    def on_button(self, button: str, kind: str) -> None:
        if self.match is None:
            self.kiosk.goto("choose")
            return
        if self.entry is not None:
            self._entry_button(button, kind)
            return
        choice = self.match.choice
        if choice is not None and not (button == "left" and kind == "hold"):
            self._choice_button(button, choice)
            return
        if button == "left" and kind == "hold":
            self.match.abandon()
            self.kiosk.match = None
            self.kiosk.goto("choose")
        elif button == "left":
            if self.undo_armed > 0 and self.match.entries:
                self.match.undo()
                self.undo_armed = 0.0
                self.reroll = None
                self.ending = None
                self.kiosk.show_turn()
            elif self.match.entries:
                self.undo_armed = UNDO_CONFIRM_SECONDS
        elif button == "right":
            last = self.match.last
            if last is not None and not last.is_choice:  # a called main is undone, not corrected
                self.start_entry("correct", list(last.dice))
        elif button == "ok" and not self.match.is_over:
            if self.kiosk.camera_ok and self.kiosk.tray is not None and self.kiosk.throw_dice():
                return  # the demo's simulated tray threw
            self.start_entry("manual")  # the referee enters a throw by hand

    def _choice_button(self, button: str, choice) -> None:
        """Left/right show the previous/next option, ok makes the choice."""
        options = choice.options
        self.option %= len(options)
        if button in ("left", "right"):
            self.option = (self.option + (-1 if button == "left" else 1)) % len(options)
            return
        if button == "ok":
            self.match.choose(options[self.option])
            self._after_throw()

    @property
    def dice_count(self) -> int:
        return self.match.variant.dice if self.match is not None else 3

    def start_entry(self, purpose: str, dice: list[int] | None = None) -> None:
        if self.match is not None and self.match.choice is not None:
            return  # a choice comes first (Hazard's main): no dice to enter yet
        self.entry = dice or [1] * self.dice_count
        self.entry_index = 0
        self.entry_purpose = purpose
        self.entry_touched = False  # a referee has started entering
        self.undo_armed = 0.0

    def _entry_button(self, button: str, kind: str) -> None:
        assert self.entry is not None
        self.entry_touched = True
        if button == "left" and kind == "hold":
            self.entry = None
            return
        if button in ("left", "right"):
            step = -1 if button == "left" else 1
            i = self.entry_index
            self.entry[i] = (self.entry[i] - 1 + step) % 6 + 1
            return
        if self.entry_index < len(self.entry) - 1:
            self.entry_index += 1
            return
        dice, self.entry = tuple(self.entry), None
        if self.entry_purpose == "correct":
            self.match.correct(dice)
        else:
            self.match.throw(dice, source="manual")
        self._after_throw()

    def on_event(self, event) -> None:
        if isinstance(event, CameraStatus):
            # The camera is back: an entry nobody has started gives way to the camera again.
            untouched = self.entry is not None and not self.entry_touched
            if event.ok and untouched and self.entry_purpose == "manual":
                self.entry = None
            return
        if not isinstance(event, RollRead) or self.match is None or self.entry is not None:
            return
        if self.match.is_over or self.match.choice is not None:
            return  # a read is accepted only when a throw is expected
        roll = event.roll
        if not roll.ok:
            self.reroll = str(roll.reason)
            return
        confidence = min((die.confidence for die in roll.dice), default=None)
        self.match.throw(roll.values, source="camera", confidence=confidence)
        self._after_throw()

    def _after_throw(self) -> None:
        self.reroll = None
        self.undo_armed = 0.0
        self.ending = END_PAUSE_SECONDS if self.match.is_over else None
        self.kiosk.show_turn()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.undo_armed = max(0.0, self.undo_armed - dt)
        if self.ending is not None:
            self.ending -= dt
            if self.ending <= 0:
                self.ending = None
                self.kiosk.goto("result")
                return
        if (
            not self.kiosk.camera_ok
            and self.entry is None
            and self.match is not None
            and not self.match.is_over
        ):
            self.start_entry("manual")

    # -- drawing -----------------------------------------------------------------------------
    def hints(self):
        tr = self.tr
        if self.entry is not None:
            last = self.entry_index == len(self.entry) - 1
            return ("−", tr("Confirm") if last else tr("Next die"), "+")
        choice = self.match.choice if self.match is not None else None
        if choice is not None:
            option = choice.options[self.option % len(choice.options)]
            return ("−", tr("Call {main}").format(main=option), "+")
        undo = tr("Press again") if self.undo_armed > 0 else tr("Undo")
        throw = None
        if self.match is not None and not self.match.is_over:
            simulated = self.kiosk.tray is not None and self.kiosk.dice == 3
            throw = tr("Throw") if simulated else tr("Enter dice")
        thrown = self.match is not None and bool(self.match.entries)
        correctable = thrown and not self.match.last.is_choice
        return (undo if thrown else None, throw, tr("Correct") if correctable else None)

    def view(self) -> tuple:
        m = self.match
        return (
            self.name,
            len(m.entries) if m else 0,
            self.option,
            self.reroll,
            self.entry is not None,
            self.kiosk.camera_ok,
        )

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        if self.match is None:
            return
        tr, match = self.tr, self.match
        draw.text(
            surface,
            layout,
            tr.ruling(match.variant.title_key),
            (14, 4),
            28,
            "serif-bold",
            theme.GOLD,
            max_width=440,
        )
        count = tr.plural("{n} throw", "{n} throws", len(match.entries)).format(
            n=len(match.entries)
        )
        draw.text(surface, layout, count, (786, 12), 16, "sans", theme.MUTED, "right")
        self.draw_tray(surface, layout, layout.rect(12, 46, 456, 256))
        self.draw_message(surface, layout)
        for seat in (0, 1):
            self.draw_seat(surface, layout, seat, 46 + seat * 80)
        self.draw_prize(surface, layout)
        self.draw_history(surface, layout)

    def draw_tray(self, surface: pygame.Surface, layout: Layout, box: pygame.Rect) -> None:
        draw.panel(surface, box, layout, color=(12, 10, 8), radius=10)
        if self.entry is not None:
            self.draw_entry(surface, layout, box)
            return
        if self.match is not None and self.match.choice is not None:
            self.draw_choice(surface, layout, self.match.choice)
            return
        preview = self.kiosk.worker.preview() if self.kiosk.worker is not None else None
        if preview is None or not self.kiosk.camera_ok:
            message = self.tr("Camera lost: enter the dice with the buttons.")
            if self.kiosk.worker is None:
                message = self.tr("No camera: enter the dice with the buttons.")
            elif getattr(self.kiosk.worker, "camera_ok", False) is None:
                message = self.tr("Starting the camera...")
            draw.paragraph(
                surface, layout, message, (40, 150, 400, 60), 20, "sans-bold", theme.WARN, "center"
            )
            return
        inner = box.inflate(-layout.px(8), -layout.px(8))
        image, scale = self._surface(preview, inner.size)
        target = image.get_rect(center=inner.center)
        surface.blit(image, target)
        self.draw_dice_marks(surface, layout, preview, target, scale)
        state = {
            "moving": self.tr("The dice are rolling..."),
        }.get(preview.motion)
        if state and self.match and not self.match.is_over:
            draw.text(surface, layout, state, (24, 52), 14, "sans-bold", theme.TEXT)

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
        for die in preview.dice:
            cx = target.left + die.center[0] * scale
            cy = target.top + die.center[1] * scale
            side = die.size * scale * 1.25
            rect = pygame.Rect(0, 0, round(side), round(side))
            rect.center = (round(cx), round(cy))
            pygame.draw.rect(surface, theme.GOLD, rect, layout.px(2), border_radius=layout.px(4))
            label = draw.rendered("sans-bold", layout.px(16), str(die.value), theme.BACKGROUND)
            tag = label.get_rect(midbottom=(rect.centerx, rect.top - layout.px(2)))
            pygame.draw.rect(
                surface,
                theme.GOLD,
                tag.inflate(layout.px(8), layout.px(2)),
                border_radius=layout.px(4),
            )
            surface.blit(label, tag)

    def draw_choice(self, surface, layout, choice) -> None:
        """The options of the awaited choice (Hazard's main) in a row, the shown one framed."""
        tr = self.tr
        title = tr("{player}: call the main.").format(player=tr.player(int(choice.seat)))
        draw.text(
            surface, layout, title, (240, 60), 22, "sans-bold", theme.GOLD, "center", max_width=430
        )
        width = 420 / len(choice.options)
        for i, option in enumerate(choice.options):
            selected = i == self.option % len(choice.options)
            rect = layout.rect(30 + i * width + 6, 120, width - 12, 90)
            colour = draw.option(surface, layout, rect, selected, radius=12, width=3)
            draw.text(
                surface,
                layout,
                str(option),
                (30 + i * width + width / 2, 140),
                40,
                "serif-bold",
                colour,
                "center",
            )
        draw.text(
            surface,
            layout,
            tr("Left and right choose, the middle button calls."),
            (240, 250),
            14,
            "sans",
            theme.MUTED,
            "center",
            max_width=430,
        )

    def draw_entry(self, surface, layout, box: pygame.Rect) -> None:
        tr = self.tr
        if self.entry_purpose == "correct":
            title = tr("Correct the last throw")
        elif not self.kiosk.camera_ok:
            title = tr("Camera lost: enter the dice with the buttons.")
        else:
            title = tr(ENTER_DICE.get(len(self.entry or ()), "Enter the three dice"))
        draw.text(
            surface, layout, title, (240, 60), 22, "sans-bold", theme.GOLD, "center", max_width=430
        )
        left = 240 - 65 * len(self.entry or ()) + 15  # the row of dice centred in the tray panel
        for i, value in enumerate(self.entry or ()):
            rect = layout.rect(left + i * 130, 112, 100, 100)
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
        draw.text(
            surface,
            layout,
            tr("Total: {total}").format(total=total),
            (240, 236),
            20,
            "sans",
            theme.TEXT,
            "center",
        )
        draw.text(
            surface,
            layout,
            tr("Hold the left button to cancel."),
            (240, 270),
            14,
            "sans",
            theme.MUTED,
            "center",
        )

    def draw_message(self, surface, layout) -> None:
        tr, match = self.tr, self.match
        box = layout.rect(12, 308, 456, 122)
        draw.panel(surface, box, layout, radius=10)
        if self.reroll is not None:
            reason = REROLL_REASONS.get(self.reroll, REROLL_REASONS["unreadable"])
            if self.reroll == "wrong_count":
                reason = WRONG_COUNT.get(self.dice_count, reason)
            reason = tr(reason)
            sentence = tr("Please throw again.") + " " + reason
            colour = theme.WARN
        elif match.last is not None:
            sentence = tr.ruling(match.last.ruling.key, match.last.ruling.params)
            colour = theme.TEXT
        else:
            sentence = tr.ruling(match.state.phase)
            colour = theme.TEXT
        draw.paragraph(surface, layout, sentence, (26, 316, 428, 70), 21, "sans", colour)
        if match.is_over:
            instruction, colour = tr("The game is over."), theme.GOLD
        elif match.choice is not None:
            seat = int(match.to_throw)
            instruction = tr("{player}: call the main.").format(player=tr.player(seat))
            colour = theme.SEATS[seat]
        else:
            seat = int(match.to_throw)
            instruction = tr("{player}: throw the dice.").format(player=tr.player(seat))
            colour = theme.SEATS[seat]
        if self.undo_armed > 0:
            instruction, colour = tr("Press left again to undo the last throw."), theme.WARN
        draw.text(surface, layout, instruction, (26, 396), 20, "sans-bold", colour, max_width=428)

    def draw_seat(self, surface, layout, seat: int, y: float) -> None:
        tr, state = self.tr, self.match.state
        turn = not self.match.is_over and int(state.to_throw) == seat
        box = layout.rect(480, y, 308, 72)
        draw.panel(
            surface,
            box,
            layout,
            edge=theme.SEATS[seat] if turn else theme.PANEL_EDGE,
            radius=10,
            width=3 if turn else 1,
        )
        pygame.draw.circle(surface, theme.SEATS[seat], layout.point(500, y + 22), layout.px(8))
        draw.text(
            surface,
            layout,
            tr.player(seat),
            (516, y + 8),
            20,
            "sans-bold",
            theme.SEATS[seat],
            max_width=150,
        )
        chances = getattr(state, "chances", None)
        chance = chances[seat] if chances is not None else None
        label = tr("Chance: {total}").format(total=chance) if chance else tr("No chance yet")
        draw.text(
            surface,
            layout,
            label,
            (496, y + 40),
            17,
            "sans",
            theme.TEXT if chance else theme.MUTED,
            max_width=180,
        )
        ledger = state.ledger[seat] if getattr(state, "ledger", None) is not None else 0
        draw.text(
            surface, layout, f"{ledger:+d}", (776, y + 8), 28, "sans-bold", theme.TEXT, "right"
        )
        draw.text(surface, layout, tr("stakes"), (776, y + 48), 12, "sans", theme.MUTED, "right")
        if turn:
            draw.text(
                surface,
                layout,
                tr("throws"),
                (690, y + 12),
                14,
                "sans-bold",
                theme.SEATS[seat],
                "right",
            )

    def draw_prize(self, surface, layout) -> None:
        state = self.match.state
        prize = getattr(state, "prize", None)
        if prize is None:
            return
        text = self.tr.plural("Prize: {n} stake", "Prize: {n} stakes", prize).format(n=prize)
        draw.text(surface, layout, text, (484, 208), 17, "sans-bold", theme.GOLD, max_width=300)

    def draw_history(self, surface, layout) -> None:
        tr = self.tr
        box = layout.rect(480, 234, 308, 196)
        draw.panel(surface, box, layout, color=theme.BACKGROUND, radius=10)
        draw.text(surface, layout, tr("Throws so far"), (494, 240), 14, "sans-bold", theme.MUTED)
        entries = self.match.entries[-HISTORY_ROWS:]
        first = len(self.match.entries) - len(entries)
        for row, entry in enumerate(entries):
            y = 262 + row * 27
            seat = int(entry.seat)
            draw.text(
                surface,
                layout,
                str(first + row + 1),
                (512, y + 2),
                14,
                "sans",
                theme.MUTED,
                "right",
            )
            pygame.draw.circle(surface, theme.SEATS[seat], layout.point(526, y + 11), layout.px(6))
            if entry.is_choice:
                called = tr("main {main}").format(main=entry.dice[0])
                draw.text(surface, layout, called, (540, y), 17, "sans-bold", theme.TEXT)
                continue
            for i, value in enumerate(entry.dice):
                draw.die(surface, layout.rect(540 + i * 26, y, 22, 22), value)
            draw.text(surface, layout, f"= {entry.total}", (622, y), 17, "sans-bold", theme.TEXT)
            tag = next((tr(word) for part, word in TAGS if part in entry.ruling.key), "")
            if entry.source == "manual":
                tag = f"{tag} · {tr('by hand')}" if tag else tr("by hand")
            draw.text(
                surface, layout, tag, (776, y + 3), 14, "sans", theme.MUTED, "right", max_width=100
            )
