"""Play: the throw shown big, then the table: the last total and its ruling, each player's
chance, the live tray with each die outlined, and what the next throw can do.

After each throw the three dice and the total fill the screen for a moment, with the ruling
as caption and a one-line gloss of a term met for the first time (a button brings the table
back and does what it says); then the play layout, whose largest things are the last total,
the two chances and the next throw.

Buttons: left undoes the last throw (pressed twice), right lets the referee correct the last
read, ok enters a throw by hand (in the demo: throws the simulated dice). With the camera gone,
entering by hand opens by itself. Entering dice: left/right change the selected die, ok moves
on and confirms; holding left cancels. Holding left outside an entry leaves the game.
When the game waits for a player's choice (Hazard's main), left/right change the option and
ok calls it; camera reads wait until it is made. Dice are entered and asked for by the game's
number of dice (Hazard throws two).
"""

from __future__ import annotations

import logging

import pygame

from kiosk.events import CameraStatus, RollRead
from kiosk.ui.scene import Scene
from kiosk.ui.scenes.play_view import PlayView

log = logging.getLogger(__name__)

UNDO_CONFIRM_SECONDS = 4.0
REVEAL_SECONDS = 3.0  # the throw fills the screen this long (a button skips it)
END_PAUSE_SECONDS = 3.5  # the last throw stays on screen this long before the result


class Play(PlayView, Scene):
    name = "play"

    def enter(self, **options) -> None:
        super().enter(**options)
        self.entry: list[int] | None = None  # dice being entered by hand
        self.entry_touched = False
        self.entry_index = 0
        self.entry_purpose = "manual"  # or "correct"
        self.entry_for_camera = False
        self.reroll: str | None = None  # reason key of the last "throw again"
        self.undo_armed = 0.0  # seconds left to confirm an undo
        self.ending = END_PAUSE_SECONDS if self.match and self.match.is_over else None
        self.reveal = 0.0  # seconds the last throw still fills the screen
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
        self.reveal = 0.0  # any button brings the table back, and does what it says
        choice = self.match.choice
        if choice is not None and not (button == "left" and kind == "hold"):
            self._choice_button(button, choice)
            return
        if button == "left" and kind == "hold":
            self.match.abandon()
            self.kiosk.match = None
            self.kiosk.goto("choose")
        elif button == "left" and self.kiosk.staff:
            if self.undo_armed > 0 and self.match.entries:
                self.match.undo()
                self.undo_armed = 0.0
                self.reroll = None
                self.ending = None
                self.kiosk.show_turn()
            elif self.match.entries:
                self.undo_armed = UNDO_CONFIRM_SECONDS
        elif button == "right" and self.kiosk.staff:
            last = self.match.last
            if last is not None and not last.is_choice:  # a called main is undone, not corrected
                self.start_entry("correct", list(last.dice))
        elif button == "ok" and not self.match.is_over:
            simulated = self.kiosk.camera_ok and self.kiosk.tray is not None
            if simulated and self.kiosk.dice == 3:
                self.kiosk.throw_dice()  # the demo's simulated tray
            elif not self.kiosk.camera_rules or self.kiosk.staff or simulated:
                # By hand: the camera is lost or its tray not calibrated, the staff do it, or
                # the demo's tray cannot throw this game's dice (it throws three; Hazard two).
                self.start_entry("manual")

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
        self.entry_for_camera = False  # started because the camera may not rule (update)
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
            if self.kiosk.camera_rules and untouched and self.entry_purpose == "manual":
                self.entry = None
            return
        if not isinstance(event, RollRead) or self.match is None or self.entry is not None:
            return
        if not self.kiosk.camera_rules:
            return  # an uncalibrated tray's reads rule nothing (Kiosk.camera_rules)
        if self.match.is_over or self.match.choice is not None:
            return  # a read is accepted only when a throw is expected
        roll = event.roll
        self.cue("landing")  # the dice came to rest
        if not roll.ok or len(roll.values) != self.dice_count:
            # A read of another count than the game's (a reader not yet asked for Hazard's
            # two dice) is a re-throw too, never a throw the rules would refuse.
            self.reroll = str(roll.reason) if not roll.ok else "wrong_count"
            self.match.reroll(self.reroll)
            self.cue("again")
            return
        confidence = min((die.confidence for die in roll.dice), default=None)
        places = tuple((die.center[0], die.center[1], die.size) for die in roll.dice)
        self.match.throw(roll.values, source="camera", confidence=confidence, places=places)
        self._after_throw()

    def _after_throw(self) -> None:
        self.reroll = None
        self.undo_armed = 0.0
        last = self.match.last
        # A called main has no dice to show big, and is no total thrown.
        self.reveal = 0.0 if last.is_choice else REVEAL_SECONDS
        self.ending = END_PAUSE_SECONDS if self.match.is_over else None
        self.cue("win" if self.match.is_over else "ruling")
        if not last.is_choice:
            self.kiosk.scenes["attract"].remember(int(last.seat), last.total)
        self.speak(self.tr.ruling(last.ruling.key, last.ruling.params))
        self.kiosk.show_turn()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.undo_armed = max(0.0, self.undo_armed - dt)
        self.reveal = max(0.0, self.reveal - dt)
        if self.ending is not None:
            self.ending -= dt
            if self.ending <= 0:
                self.ending = None
                self.kiosk.goto("result")
                return
        if (
            not self.kiosk.camera_rules
            and self.entry is None
            and self.match is not None
            and not self.match.is_over
        ):
            self.start_entry("manual")
            self.entry_for_camera = self.entry is not None
        elif self.kiosk.camera_rules and self.entry_for_camera and not self.entry_touched:
            self.entry = None  # calibrated, or the camera back, before anyone started entering

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
            simulated = self.kiosk.tray is not None and self.kiosk.camera_ok
            if simulated and self.kiosk.dice == 3:
                throw = tr("Throw")
            elif not self.kiosk.camera_rules or self.kiosk.staff or simulated:
                throw = tr("Enter dice")
        thrown = self.match is not None and bool(self.match.entries) and self.kiosk.staff
        correctable = thrown and not self.match.last.is_choice
        return (undo if thrown else None, throw, tr("Correct") if correctable else None)
