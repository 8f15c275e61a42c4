"""Frames in, one answer per throw out: the settle detector and the vote (settle.py, vote.py)
over the reader, as the kiosk's vision worker runs them.

`ThrowWatcher.update(frame, t) -> Roll | None` answers once a throw's dice are at rest and the
reads of that rest agree; after an answer nothing is read until the tray changes again, by more
than a passing frame or the light. Pure: no camera, no threads, time passed in.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.calibration import Calibration
from vision.reading import RerollReason, Roll
from vision.settle import SettleConfig, SettleDetector, SettleState
from vision.vote import RollVote, same_dice

RUNNING = 3  # changed frames in a row that are a stir whatever follows (a passing frame
# changes two: the one it replaces and the one after it)


class ThrowWatcher:
    """Frames in, one answer per throw out: settle, read, vote, and spot throws that weren't.

    `read` turns a frame into the reader's Roll (normally `vision.reader.read_roll` with the
    kiosk's calibration). It is only called for settled frames, and only until the throw has
    its answer; then nothing is read until the scene moves again.
    """

    def __init__(
        self,
        read: Callable[[np.ndarray], Roll],
        config: SettleConfig | None = None,
        calibration: Calibration | None = None,
    ) -> None:
        self.config = config or SettleConfig()
        self.detector = SettleDetector(self.config, calibration)
        self.vote = RollVote(self.config)
        self._read = read
        self._answered = False  # this still scene has had its answer
        self._stirred_at: float | None = None  # first unsettled frame after the answer
        self._stir_seen = False  # this stir changed the tray for more than a passing frame
        self._changing = 0  # frames running that changed, up to this one
        self._last_scene: np.ndarray | None = None  # the scene at the last answer
        self._last_roll: Roll | None = None
        self._last_bare = False  # the reader saw no dice in the scene at the last answer
        self._rest_at: float | None = None  # the first settled frame of this still scene
        self.cut_short: tuple[float, int] | None = None  # set on the frame (only) where dice
        # at rest, read but not yet answered, were moved: when the rest began and how many
        # reads it had (`watch` tells the builder; the throw is then never answered)

    @property
    def reader(self) -> Callable[[np.ndarray], Roll]:
        """The reader each settled frame is read by (the kiosk's TrayReader)."""
        return self._read

    @property
    def state(self) -> SettleState:
        return self.detector.state

    @property
    def unanswered_since(self) -> float | None:
        """When the tray began the change that has no answer yet (a throw still rolling, or
        at rest while its reads have not agreed), in the frames' time; None when the last
        change has its answer or was only the light or a passing frame. A recording that ends
        here ends mid-throw."""
        return self._stirred_at if self._stir_seen and not self._answered else None

    def update(self, frame: np.ndarray, t: float) -> Roll | None:
        """Take the next frame at time `t`; return the throw's answer on the frame it is known."""
        state = self.detector.update(frame, t)
        moved = self.detector.moved
        self._changing = self._changing + 1 if moved else 0
        running = self._changing >= RUNNING
        self.cut_short = None
        if state is not SettleState.SETTLED:
            if self._stirred_at is None:
                self._stirred_at = t
            if self._rest_at is not None and not self._answered and self.vote.reads:
                self.cut_short = (self._rest_at, self.vote.reads)
            self._rest_at = None
            self._answered = False
            self.vote.clear()
            self._watch_stir(moved, running)
            return None
        if self._rest_at is None:
            self._rest_at = t
        stirred_at = self._stirred_at  # kept until this still scene is answered
        scene = self.detector.scene
        if self._answered:
            self._last_scene = scene  # follow slow light changes while nothing happens
            return None
        if self._last_scene is not None and not self._stir_seen:
            # Only the light changed since the answer (a visitor leaned over the tray, the sun
            # came out), or one passing frame: the answer stands, in the new light.
            self._answered = True
            self._last_scene = scene
            self._end_stir()
            return None
        if self._last_scene is not None and self.detector.same_scene(scene, self._last_scene):
            stir = self.detector.last_motion - (t if stirred_at is None else stirred_at)
            if stir < self.config.min_motion or not self._stir_seen or self._last_bare:
                # noise, or the tray is as bare as it was: dice thrown and taken away unread
                # are no throw that wasn't
                self._answered = True  # a flicker of noise: the old answer still stands
                self._end_stir()
                return None
            return self._answer(self._not_moved(), scene)
        answer = self.vote.add(self._read(frame))
        if answer is None:
            return None
        if answer.reason is RerollReason.WRONG_COUNT and not answer.dice:
            self._answered = True  # the reader sees no dice at all: a shadow, not a throw
            self._last_scene = scene
            self._last_bare = True
            self._end_stir()
            return None
        last = self._last_roll
        if answer.ok and last is not None and same_dice(answer, last, self.config.place_tolerance):
            answer = self._not_moved()
        return self._answer(answer, scene)

    def _watch_stir(self, moved: bool, running: bool) -> None:
        """Did the tray change for more than a passing frame or the light since the answer:
        RUNNING changed frames in a row (a hand, a die rolling), or, between changes, a tray
        that looks other than at the answer (dice nudged slowly, seen in single frames as the
        change adds up), and in either case by more than the light (a visitor leaning over the
        tray shades it for many frames, the sun coming out changes it for good: neither is a
        throw, and "the dice did not move" would answer nobody)? A glint, or a compressed
        video's poorer frame, changes the frames into and out of it, and then the tray looks
        as it did: a stir of those alone is no throw, not even one that wasn't."""
        detector, scene, last = self.detector, self.detector.scene, self._last_scene
        if self._stir_seen or scene is None:
            return
        if last is None:
            self._stir_seen = running
        elif running or (not moved and not detector.same_scene(scene, last)):
            self._stir_seen = not detector.light_only(scene, last)

    def _end_stir(self) -> None:
        """The still scene has its answer (or keeps the old one): the next stir starts anew."""
        self._stirred_at = None
        self._stir_seen = False

    def _not_moved(self) -> Roll:
        dice = self._last_roll.dice if self._last_roll is not None else ()
        return Roll(dice, RerollReason.NOT_MOVED, "the dice are where the last read left them")

    def _answer(self, roll: Roll, scene: np.ndarray) -> Roll:
        self._answered = True
        self._end_stir()
        self._last_scene = scene
        self._last_bare = False
        if roll.reason is not RerollReason.NOT_MOVED:
            self._last_roll = roll
        if roll.ok and roll.dice:
            self.detector.learn_die_size(float(np.median([die.size for die in roll.dice])))
        self.vote.clear()
        return roll
