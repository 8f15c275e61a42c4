"""When to read: settle detection over a stream of frames, and a vote over the reads.

A referee must read the dice once they are at rest, read each throw once, and never announce a
reading that a single odd frame produced. Three small pieces do that, all pure (no camera, no
threads, time passed in):

- `SettleDetector.update(frame, t) -> SettleState` looks at a small copy of each frame and
  says whether the tray is EMPTY, something is MOVING, a big object (a hand) is BLOCKING it, or the
  dice have SETTLED: nothing changed for `still_for` seconds, compared frame to frame (fast
  motion) and against a frame from one to two windows ago (slow creep). Costs under 1 ms per
  frame: one area downscale (colour kept), a few array ops on ~160x120 pixels. What changed
  between two frames, the camera's own shake undone, is motion.py's.
- `RollVote.add(roll) -> Roll | None` (vote.py) takes the reader's `Roll` of each settled
  frame and answers once `votes` consecutive reads agree die by die (same values at the same
  places) or are all rerolls. It never averages: the answer is one frame's own reading.
  Reads that keep disagreeing end in a reroll after `max_reads`.
- `ThrowWatcher` (watcher.py) wires both for the kiosk's vision worker and adds what neither
  knows alone: one answer per throw, and `RerollReason.NOT_MOVED` when the scene settles again
  exactly as it was at the last answer (a hand passed over the tray; nobody threw)::

      read = lambda frame: read_roll(frame, calibration=calibration)  # vision.reader
      watcher = ThrowWatcher(read, SettleConfig(), calibration)
      for frame, t in camera:                 # t: monotonic seconds
          roll = watcher.update(frame, t)     # reads only settled frames, votes, decides
          if roll is not None:
              events.put(roll)                # once per throw: ok, or a reroll with a reason

Frames are BGR (h, w, 3), BGRA (h, w, 4) or grey (h, w) uint8 arrays (a camera's luma plane
is the cheapest input, but it cannot see a red die on green felt of the same brightness).
Changes in lighting are handled three ways: per-pixel thresholds sit well above sensor noise
once the frame is averaged down; each comparison first matches the mean of each colour channel
(flicker, auto-exposure and white-balance steps, clouds), against the empty tray on the bare
floor only; and the empty-tray reference slowly follows the light wherever the floor is bare
(daylight drift).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.motion import (
    FrameError,
    changed_fraction,
    difference,
    outline_points,
    pixels,
    shrink,
    tray_mask,
    work_size,
)
from vision.relight import unexplained


class SettleState(StrEnum):
    EMPTY = "empty"  # still, and nothing differs from the empty tray (needs a reference)
    MOVING = "moving"  # something changed within the last `still_for` seconds
    BLOCKED = "blocked"  # still, but too much of the tray is covered to be dice (a hand)
    SETTLED = "settled"  # still for `still_for` seconds with something in the tray: read now


@dataclass(frozen=True)
class SettleConfig:
    """Tuning of settle detection and voting. Levels are grey levels (0..255; for colour, the
    mean absolute difference over the channels) of the averaged-down image, covers fractions
    of the tray's area, so neither depends on the camera's resolution."""

    still_for: float = 0.3  # seconds without change before the dice count as settled
    work_width: int = 160  # width of the small image the checks run on
    motion_level: float = 12.0  # a pixel changed if it differs by more than this
    motion_cover: float = 0.001  # the scene changed if more than this fraction of pixels did
    empty_level: float = 20.0  # a pixel differs from the empty tray by more than this
    empty_cover: float = 0.0007  # at most this fraction differing: the tray is empty
    blocked_dice: float = 12.0  # covering more than this many dice's area: a hand, not dice
    blocked_cover: float = 0.3  # the same as a share of the tray, when the die size is unknown
    max_gap: float = 1.0  # a longer pause between frames counts as motion (camera stalled)
    drift_rate: float = 0.05  # how fast the empty reference follows the light, per still frame
    votes: int = 3  # consecutive agreeing reads needed for an answer
    max_reads: int | None = None  # reads of a still scene before a reroll (None: 4 x votes, >= 12)
    place_tolerance: float = 0.5  # dice agree if their centres are within this many die sizes
    min_motion: float = 0.1  # after an answer, shorter stirs (noise, a fly) are not a new throw
    shake: float = 3.0  # largest global shift (work pixels) taken for the camera or table shaking
    # (a throw shakes a table by up to 2 px at 1280 wide: a quarter of a work pixel; a hand-held
    # phone by more), found by phase correlation and undone before frames are compared
    shake_residue: int = 20  # ...and where one was undone, the picture's edge confirming it, a
    # change of at most this many work pixels is what undoing it leaves, not motion: a few
    # 2x2 patches at pips' and dice's edges (a tenth of a pixel left of the shift; the codec's
    # blocks move with the picture).
    # Chosen: at rest under a camera shaking by 2 px, 4-13 px changed between frames (drawn and
    # real photos, tests/vision/test_settle_camera.py; the simulated tray filmed as MJPEG,
    # hardware/sim/recording.py); counted as motion, dice at rest never settled in 5 throws of
    # 48. A die sliding by half a work pixel a frame changes 23-69 px against the frame one or
    # two settling times before, where it is seen moving.
    jitter: float = 1.0  # a shift the picture's edge does not confirm (a bare floor, or a
    # codec that leaves a plain edge as it was) is still the camera's where it explains a change
    # at one place (a die, or dice together) and moves the picture by at most this many work
    # pixels: a die moving that little between frames, and that little against the frame one
    # or two settling times before, is at rest for reading.
    # Chosen: with it, a webcam photo of one die on a plain desk filmed hand-held in MPEG-4
    # settles in 0.3 s; without it, never (tests/vision/test_settle_camera.py). A die sliding
    # there at 2 px a frame at 640 wide (half a work pixel; 4.5-9 against the frame one or two
    # settling times before) is never settled.

    def __post_init__(self) -> None:
        if self.still_for < 0 or self.max_gap <= 0:
            raise ValueError("still_for must be >= 0 and max_gap > 0")
        if self.work_width < 16:
            raise ValueError("work_width must be at least 16 pixels")
        if self.max_reads is None:
            object.__setattr__(self, "max_reads", max(12, 4 * self.votes))
        if not 1 <= self.votes <= self.max_reads:
            raise ValueError("need 1 <= votes <= max_reads")
        if self.shake_residue < 0 or self.jitter < 0:
            raise ValueError("shake_residue and jitter must be >= 0")
        if not 0 <= self.empty_cover < self.blocked_cover <= 1:
            raise ValueError("need 0 <= empty_cover < blocked_cover <= 1")


class SettleDetector:
    """Says, frame by frame, whether the tray is empty, moving, blocked or settled.

    Feed every frame with its monotonic timestamp in seconds. With a calibration, only the tray
    polygon is watched (people walking past the tray do not count) and its empty frame tells
    EMPTY and BLOCKED apart from SETTLED; without one, a still scene is always SETTLED.
    """

    def __init__(
        self, config: SettleConfig | None = None, calibration: Calibration | None = None
    ) -> None:
        self.config = config or SettleConfig()
        self.calibration = calibration or Calibration()
        self.state = SettleState.MOVING
        self.moved = False  # the last frame changed (the state stays MOVING a window after)
        self.motion = 0.0  # changed fraction against the previous frame or the anchor
        self.cover = 0.0  # fraction of the tray differing from the empty reference
        self._shape: tuple[int, ...] | None = None
        self._mask = np.zeros((0, 0), np.uint8)
        self._bare = self._mask
        self._empty: np.ndarray | None = None
        self.die_size = self.calibration.die_size
        self._tray_area = 0.0
        self._blocked = self.config.blocked_cover
        self._previous: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # a frame from up to two windows ago
        self._anchor_t = 0.0
        self._last_motion = 0.0  # time of the last frame that showed motion
        self._last_t = 0.0

    @property
    def scene(self) -> np.ndarray | None:
        """The small image of the last frame (float32), for comparing scenes later."""
        return self._previous

    def reset(self) -> None:
        """Forget the frames seen so far; the next still window starts from scratch."""
        self._previous = None
        self._anchor = None
        self.state = SettleState.MOVING

    def same_scene(self, a: np.ndarray, b: np.ndarray) -> bool:
        """Whether two small images from `scene` show the same tray: nothing moved between."""
        if a.shape != b.shape:
            return False
        return self._changed(a, b) <= self.config.motion_cover

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        """The share of the watched tray that changed between two small images, the camera's
        own shake undone (motion.changed_fraction, with this configuration's levels)."""
        c = self.config
        return changed_fraction(
            a, b, self._mask, c.motion_level, c.shake, c.shake_residue, c.jitter
        )

    def light_only(self, a: np.ndarray, b: np.ndarray) -> bool:
        """Whether two small images from `scene` differ by a change of light alone (a
        visitor's shadow, the sun through a window): nothing on the tray came, went or
        moved (relight.py; the light matched over LIGHT_SPAN die sides)."""
        if a.shape != b.shape or self._shape is None:
            return False
        width = a.shape[1]
        die = self.die_size * width / self._shape[1] if self.die_size else None
        span = LIGHT_SPAN * die if die else width / 6
        changed = unexplained(a, b, self._mask, self.config.motion_level, span)
        inside = max(1, cv2.countNonZero(self._mask))
        limit = self.config.motion_cover * inside
        if die:  # a die that came, went or moved is more than a line along an edge
            limit = max(limit, LIGHT_THING * die * die)
        return cv2.countNonZero(changed) <= limit

    def update(self, frame: np.ndarray, t: float) -> SettleState:
        """Take the next frame, taken at time `t` (seconds), and return the tray's state."""
        config = self.config
        small = shrink(frame, config.work_width)
        if frame.shape != self._shape:
            self._start(frame.shape)
        if (
            self._previous is None
            or self._anchor is None
            or t < self._last_t
            or t - self._last_t > config.max_gap
        ):
            moving = True
            self.motion = 1.0
        else:
            self.motion = max(
                self._changed(small, self._previous), self._changed(small, self._anchor)
            )
            moving = self.motion > config.motion_cover
        if moving or t - self._anchor_t > 2 * config.still_for:
            # creep is judged over one or two windows, so hours of daylight drift never add up
            self._anchor, self._anchor_t = small, t
        if moving:
            self._last_motion = t
        self.moved = moving
        self._previous = small
        self._last_t = t
        self.state = SettleState.MOVING if moving else self._judge(small, t)
        return self.state

    @property
    def last_motion(self) -> float:
        """Time of the last frame that showed motion."""
        return self._last_motion

    def _judge(self, small: np.ndarray, t: float) -> SettleState:
        """The state of a frame that did not move: still settling, or what is lying there."""
        config = self.config
        if t - self._last_motion < config.still_for:
            return SettleState.MOVING
        if self._empty is None:
            return SettleState.SETTLED
        # The light is matched on the bare floor only: bright dice must not raise the gain.
        inside = max(1, cv2.countNonZero(self._mask))
        level = config.empty_level
        # The light is matched on the bare floor only: bright dice must not raise the gain.
        change = difference(small, self._empty, self._bare)
        bare = cv2.bitwise_and(self._mask, cv2.compare(change, level, cv2.CMP_LE))
        moved = cv2.countNonZero(cv2.bitwise_xor(bare, self._bare)) > 0.01 * inside
        if moved and cv2.countNonZero(bare):
            # Something came or went since the last still frame: match again on what is bare
            # now (even a few floor pixels give the light; dice there would bias it).
            change = difference(small, self._empty, bare)
            bare = cv2.bitwise_and(self._mask, cv2.compare(change, level, cv2.CMP_LE))
        self._bare = bare if cv2.countNonZero(bare) > 0.2 * inside else self._mask
        differs = cv2.bitwise_and(self._mask, cv2.compare(change, level, cv2.CMP_GT))
        self.cover = cv2.countNonZero(differs) / inside
        # The bare floor follows the light (daylight drift); dice and hands do not leak in.
        cv2.accumulateWeighted(small, self._empty, config.drift_rate, cv2.bitwise_not(differs))
        if self.cover <= config.empty_cover:
            return SettleState.EMPTY
        if self.cover > self._blocked:
            return SettleState.BLOCKED
        return SettleState.SETTLED

    def _start(self, shape: tuple[int, ...]) -> None:
        """Set up masks and the reference for frames of a new shape."""
        empty = self.calibration.empty
        if empty is not None and empty.shape[:2] != shape[:2]:
            raise FrameError(
                f"frames are {shape[1]}x{shape[0]} but the tray was calibrated at "
                f"{empty.shape[1]}x{empty.shape[0]}: calibrate again"
            )
        size = work_size(shape, self.config.work_width)
        self._mask = tray_mask(size, shape[1], self.calibration.tray)
        self._bare = self._mask  # where the floor looked bare at the last still frame
        if empty is not None and len(shape) == 2:
            empty = cv2.cvtColor(pixels(empty), cv2.COLOR_BGR2GRAY)  # grey frames, grey reference
        self._empty = None if empty is None else shrink(empty, self.config.work_width)
        tray = self.calibration.tray
        area = shape[0] * shape[1] if tray is None else cv2.contourArea(outline_points(tray))
        self._tray_area = area
        self._shape = shape
        self._limit_cover()
        self.reset()

    def learn_die_size(self, size: float) -> None:
        """Take the die size from the reader when the calibration gave none: from then on a
        hand is told from dice by how much of the tray it covers in dice."""
        if self.calibration.die_size is None and size > 0:
            self.die_size = float(size)
            self._limit_cover()

    def _limit_cover(self) -> None:
        """The share of the tray above which a still thing is not dice (BLOCKED)."""
        self._blocked = self.config.blocked_cover
        if self.die_size:
            dice_area = self.config.blocked_dice * self.die_size**2
            self._blocked = min(1.0, dice_area / max(self._tray_area, 1.0))


LIGHT_SPAN = 3  # die sides over which a change of light is matched (SettleDetector.light_only)
LIGHT_THING = 0.25  # die areas: unexplained by the light, less than this is no thing that came,
# went or moved (a die's own area is one). A visitor's shadow whose edge lies along a die's own
# edge leaves a line of it relit imperfectly: up to 14 work px (0.08 die areas) in the
# shaking-camera recordings, where 0.1% of the tray (5 px) took it for a hand: "the dice did not
# move" was said to a visitor who had only leant over the tray after the ruling
