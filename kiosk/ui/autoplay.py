"""Autoplay for the demo: throws the simulated dice and presses the buttons like a visitor.

It acts only through the kiosk's public doors (the event queue and the simulated tray), so a
game it plays goes through exactly the code a visitor's game does: the real dice reader, the
rules engine and the log.
"""

from __future__ import annotations

import logging

from kiosk.i18n import LANGUAGES

log = logging.getLogger(__name__)

PAUSE = 0.8  # seconds between two actions (game time)
THROW_TIMEOUT = 12.0  # no answer from the reader this long: throw again


class Autoplay:
    """Call `step()` once per frame."""

    def __init__(self, kiosk) -> None:
        self.kiosk = kiosk
        self.games = 0  # finished games seen on the result screen, each counted once
        self._counted: int | None = None  # id of the last game counted
        self._next = 0.0
        self._thrown_at: float | None = None
        self._reads_at_throw = 0
        self._scene = ""

    def _wait(self, seconds: float = PAUSE) -> None:
        self._next = self.kiosk.clock() + seconds

    def step(self) -> None:
        kiosk = self.kiosk
        now = kiosk.clock()
        scene = kiosk.scene.name
        if scene != self._scene:
            self._scene = scene
            self._wait()
        if now < self._next:
            return
        self._wait()
        if scene == "attract":
            kiosk.press("ok")
        elif scene == "language":
            want = LANGUAGES.index(LANGUAGES[self.games % len(LANGUAGES)])
            kiosk.press("ok" if kiosk.scene.selected == want else "right")
        elif scene == "choose":
            # Each game on the menu in turn, of three dice only: the simulated tray throws
            # three (Hazard's two dice are entered by hand in the demo).
            playable = [i for i, v in enumerate(kiosk.scene.games) if v.dice == 3]
            want = playable[self.games % len(playable)]
            kiosk.press("ok" if kiosk.scene.selected == want else "right")
        elif scene == "play":
            self.play(now)
        elif scene == "result":
            self._count(kiosk.match)
            self._thrown_at = None
            kiosk.press("right")  # another game
        else:
            kiosk.press("ok", "hold")  # out of maintenance or anything unexpected

    def _count(self, match) -> None:
        """Count the game on the result screen once, by its id: leaving the screen may take more
        than one press (the first may only answer "still playing?")."""
        if match is not None and match.is_over and match.game_id != self._counted:
            self._counted = match.game_id
            self.games += 1

    def play(self, now: float) -> None:
        kiosk, scene = self.kiosk, self.kiosk.scene
        match = kiosk.match
        if match is None or match.is_over:
            return
        if scene.entry is not None:  # no camera: enter the dice by hand, like a referee
            kiosk.press("ok")
            return
        answered = kiosk.reads > self._reads_at_throw
        waiting = self._thrown_at is not None and not answered
        if waiting and now - self._thrown_at < THROW_TIMEOUT:
            return
        if kiosk.throw_dice():
            self._thrown_at = now
            self._reads_at_throw = kiosk.reads
