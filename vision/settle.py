"""When to read: settle detection over a stream of frames, and a vote over the reads.

A referee must read the dice once they are at rest, read each throw once, and never announce a
reading that a single odd frame produced. Three small pieces do that, all pure (no camera, no
threads, time passed in):

- `SettleDetector.update(frame, t) -> SettleState` looks at a small copy of each frame and
  says whether the tray is EMPTY, something is MOVING, a big object (a hand) is BLOCKING it, or the
  dice have SETTLED: nothing changed for `still_for` seconds, compared frame to frame (fast
  motion) and against a frame from one to two windows ago (slow creep). Costs under 1 ms per
  frame: one area downscale (colour kept), a few array ops on ~160x120 pixels.
- `RollVote.add(roll) -> Roll | None` takes the reader's `Roll` of each settled frame and answers
  once `votes` consecutive reads agree die by die (same values at the same places) or are all
  rerolls. It never averages: the answer is one frame's own reading. Reads that keep
  disagreeing end in a reroll after `max_reads`.
- `ThrowWatcher` wires both for the kiosk's vision worker and adds what neither knows alone: one
  answer per throw, and `RerollReason.NOT_MOVED` when the scene settles again exactly as it was
  at the last answer (a hand passed over the tray; nobody threw)::

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

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.reading import Die, RerollReason, Roll


class FrameError(ValueError):
    """A frame that cannot be looked at: wrong type, shape, or not matching the calibration."""


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

    def __post_init__(self) -> None:
        if self.still_for < 0 or self.max_gap <= 0:
            raise ValueError("still_for must be >= 0 and max_gap > 0")
        if self.work_width < 16:
            raise ValueError("work_width must be at least 16 pixels")
        if self.max_reads is None:
            object.__setattr__(self, "max_reads", max(12, 4 * self.votes))
        if not 1 <= self.votes <= self.max_reads:
            raise ValueError("need 1 <= votes <= max_reads")
        if not 0 <= self.empty_cover < self.blocked_cover <= 1:
            raise ValueError("need 0 <= empty_cover < blocked_cover <= 1")


def pixels(frame: np.ndarray) -> np.ndarray:
    """The frame as grey (h, w) or BGR (h, w, 3) uint8; raises FrameError for anything else
    than a grey, BGR or BGRA uint8 image."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise FrameError("a frame must be a uint8 numpy array")
    if frame.ndim == 2 and frame.size:
        return frame
    if frame.ndim == 3 and frame.shape[2] in (3, 4) and frame.shape[0] and frame.shape[1]:
        return frame if frame.shape[2] == 3 else cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise FrameError(f"a frame must be (h, w), (h, w, 3) or (h, w, 4), not {frame.shape}")


def work_size(shape: tuple[int, ...], work_width: int) -> tuple[int, int]:
    """(width, height) of the small image for a frame of `shape`; never larger than the frame."""
    h, w = shape[:2]
    if w <= work_width:
        return w, h
    return work_width, max(1, round(h * work_width / w))


def shrink(frame: np.ndarray, work_width: int) -> np.ndarray:
    """A small float32 copy of the frame, averaged down (which also averages out noise). Colour
    is kept: a red die on green felt can have the felt's brightness. A frame more than four
    times the work width is first thinned to four times it by taking every n-th pixel: the
    average of 16 pixels is quiet enough, and a colour area resize of a big frame is not cheap."""
    image = pixels(frame)
    width, height = work_size(image.shape, work_width)
    if image.shape[1] > 4 * width:
        image = cv2.resize(image, (4 * width, 4 * height), interpolation=cv2.INTER_NEAREST)
    if image.shape[1] != width:
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    return image.astype(np.float32)


_MEAN_OF_CHANNELS = np.full((1, 3), 1 / 3, np.float32)


def difference(a: np.ndarray, b: np.ndarray, like: np.ndarray) -> np.ndarray:
    """How much small images `a` and `b` differ, pixel by pixel (float32, 2-D): in grey levels,
    or for colour images the mean over the three channels of the absolute difference (a change
    of brightness counts as in grey; a change of hue at the same brightness counts too). Each
    channel of `b` is first scaled so that its mean over the pixels `like` (uint8 mask)
    matches `a`'s, so flicker, exposure and white-balance steps are not difference."""
    gain = tuple(
        mean_a / mean_b if mean_b > 1.0 else 1.0
        for mean_a, mean_b in zip(cv2.mean(a, like), cv2.mean(b, like), strict=True)
    )
    result = cv2.absdiff(a, cv2.multiply(b, gain))
    return cv2.transform(result, _MEAN_OF_CHANNELS) if a.ndim == 3 else result


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.transform(image, _MEAN_OF_CHANNELS)


RIM = 0.12  # depth of the picture's edge (of its height) where only the camera moves


def shift_between(a: np.ndarray, b: np.ndarray, limit: float) -> tuple[float, float]:
    """The global shift (dx, dy, work pixels) that moves small image `b` onto `a`, by phase
    correlation; (0, 0) when larger than `limit` (then it is not shake) or unsure.

    OpenCV's sub-pixel peak falls short of a fraction-of-a-pixel shift (0.41 for 0.5), so it is
    taken again on `b` moved by the shift so far, until what is left is negligible.
    """
    if limit <= 0 or min(a.shape[:2]) < 16:
        return 0.0, 0.0
    ga, gb = _grey(a), _grey(b)
    dx = dy = 0.0
    for _ in range(3):
        moved = _move(gb, (dx, dy)) if dx or dy else gb
        (rx, ry), response = cv2.phaseCorrelate(moved, ga)
        if response < 0.2:
            return 0.0, 0.0
        dx, dy = dx + rx, dy + ry
        if np.hypot(rx, ry) < 0.02:
            break
    if np.hypot(dx, dy) > limit:
        return 0.0, 0.0
    return float(dx), float(dy)


def _rim_error(a: np.ndarray, b: np.ndarray, shift: np.ndarray | None) -> float:
    """Mean absolute difference along the picture's edge, where only the camera moves (the
    tray's wall and what lies around it), with `b` moved by `shift` first. Unthresholded: the
    texture of a wall shows a shift of a tenth of a pixel that no pixel change would."""
    h, w = a.shape[:2]
    r = max(2, round(RIM * h))
    ring = np.full((h, w), 255, np.uint8)
    ring[r : h - r, r : w - r] = 0
    ring[:2], ring[-2:], ring[:, :2], ring[:, -2:] = 0, 0, 0, 0  # what the shake brings in
    moved = _move(b, shift) if shift is not None else b
    return float(np.mean(cv2.mean(cv2.absdiff(a, moved), ring)[: 3 if a.ndim == 3 else 1]))


def _places(changed: np.ndarray) -> int:
    """How many places apart (more than a few work pixels) show change."""
    near = cv2.dilate(changed, np.ones((5, 5), np.uint8))
    return cv2.connectedComponents(near)[0] - 1


def _move(image: np.ndarray, shift: tuple[float, float] | np.ndarray) -> np.ndarray:
    """`image` moved by a shift (dx, dy) or a 2x3 affine map (refined_motion's)."""
    move = shift if isinstance(shift, np.ndarray) else _shift_map(*shift)
    size = (image.shape[1], image.shape[0])
    return cv2.warpAffine(image, move, size, borderMode=cv2.BORDER_REPLICATE)


def _shift_map(dx: float, dy: float) -> np.ndarray:
    return np.float32([[1, 0, dx], [0, 1, dy]])


TURN = 0.01  # largest turn (radians, about half a degree) or scale step taken for a camera
_ECC = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 1e-3)  # cost: about 1 ms


def refined_motion(
    a: np.ndarray, b: np.ndarray, shift: tuple[float, float], limit: float
) -> np.ndarray | None:
    """The camera motion (2x3 affine map, work pixels) that moves small image `b` onto `a`,
    refined from a global shift by the turn and scale a hand-held camera adds (ECC image
    alignment started from the shift: a turn of a quarter degree moves the picture's corners
    by half a work pixel, as much as the shake). None when it fails, moves nothing, or goes
    past `TURN` or `limit`."""
    if limit <= 0 or min(a.shape[:2]) < 16:
        return None
    inverse = _shift_map(-shift[0], -shift[1])  # ECC maps a's pixels into b
    try:
        _, inverse = cv2.findTransformECC(
            _grey(a).astype(np.float32),
            _grey(b).astype(np.float32),
            inverse,
            cv2.MOTION_AFFINE,
            _ECC,
            None,
            1,
        )
    except cv2.error:
        return None  # no convergence (a flat or changing picture)
    forward = cv2.invertAffineTransform(inverse).astype(np.float32)
    linear = forward[:, :2] - np.eye(2, dtype=np.float32)
    if np.abs(linear).max() > TURN or np.hypot(*forward[:, 2]) > limit + 1:
        return None
    return forward if _reach(forward, a.shape) >= SHIFT_FLOOR else None


def _reach(motion: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far (work pixels) a motion moves the picture's corners at most."""
    h, w = shape[:2]
    corners = np.float32([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]])
    return float(np.abs(corners @ motion.T - corners[:, :2]).max())


_NEIGHBOURS = np.ones((3, 3), np.uint8)
_AROUND = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.float32)  # the 8 neighbours
_PATCH = np.ones((2, 2), np.uint8)
SHIFT_FLOOR = 0.03  # work pixels: a smaller global shift found is the noise of the estimate
RIM_BETTER = 1.0  # undoing a shift must not make the picture's edge match worse
ENVELOPE = 1.0  # share of a pixel's neighbourhood range a shift undone leaves as tolerance


def changed_pixels(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    like: np.ndarray | None = None,
    shake: float = 0.0,
) -> np.ndarray:
    """uint8 mask (255) of the pixels inside `mask` where `a` differs from `b` by more than
    `level`, the light matched over `like` (by default the whole mask).

    Shake-proof: when the two differ by a global shift (up to `shake` work pixels, see
    shift_between), `b` is moved back by it, and a pixel of `a` then counts as changed only when
    it lies outside the range of `b` over its 3x3 neighbourhood by `level`: what is left of the
    shift (the estimate is good to about 0.1 pixel, and a pip's edge has a contrast of 200)
    stays within that range, a die thrown moves by more than a work pixel (4 px at 640 wide).
    Without a shift the comparison is pixel to pixel, as sensitive as it can be (a die nudged
    by 2 px at 640 wide is seen).
    Isolated changed pixels (sensor noise, JPEG blocks) are dropped: a moving die changes a
    patch or at least a line of its edge.
    """
    like = mask if like is None else like
    everywhere = np.full(mask.shape, 255, np.uint8)  # masked last: each is worked out once
    before = _changed(a, b, everywhere, level, like, None)
    plain = cv2.bitwise_and(before, mask)
    if not cv2.countNonZero(plain):
        return plain
    dx, dy = shift_between(a, b, shake)
    tried = []
    if np.hypot(dx, dy) >= SHIFT_FLOOR:
        shift = _shift_map(dx, dy)
        tried.append((shift, _changed(a, b, everywhere, level, like, shift)))
    still_rim = None  # the picture's edge error with nothing undone, worked out once
    if not tried or cv2.countNonZero(tried[0][1]):  # the shift alone does not explain it all
        refined = refined_motion(a, b, (dx, dy), shake)
        # a turn only where the picture's edge confirms it: dice creeping alone also give ECC
        # a small motion, which makes the edge match worse
        if refined is not None:
            still_rim = _rim_error(a, b, None)
            if _rim_error(a, b, refined) < RIM_BETTER * still_rim:
                tried.append((refined, _changed(a, b, everywhere, level, like, refined)))
    if not tried:
        return plain
    if still_rim is None:
        still_rim = _rim_error(a, b, None)
    motion, after = min(tried, key=lambda t: cv2.countNonZero(t[1]))  # explains the most
    # taken when undoing it makes the picture's edge match better, where only the camera moves,
    # or when it explains the change over the whole picture at several places apart (dice and
    # the tray's walls do not all move alike): a die moving alone on a bare floor also gives a
    # shift, but neither of these
    if _rim_error(a, b, motion) >= RIM_BETTER * still_rim and (
        10 * cv2.countNonZero(after) > cv2.countNonZero(before) or _places(before) < 2
    ):
        return plain
    moved = cv2.bitwise_and(after, mask)
    return moved if cv2.countNonZero(moved) < cv2.countNonZero(plain) else plain


def _changed(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    like: np.ndarray,
    shift: np.ndarray | None,
) -> np.ndarray:
    if shift is not None:
        b = _move(b, shift)
    gain = tuple(
        mean_a / mean_b if mean_b > 1.0 else 1.0
        for mean_a, mean_b in zip(cv2.mean(a, like), cv2.mean(b, like), strict=True)
    )
    b = cv2.multiply(b, gain)
    if shift is not None:
        low = cv2.addWeighted(b, 1 - ENVELOPE, cv2.erode(b, _NEIGHBOURS), ENVELOPE, 0.0)
        high = cv2.addWeighted(b, 1 - ENVELOPE, cv2.dilate(b, _NEIGHBOURS), ENVELOPE, 0.0)
        outside = cv2.max(cv2.subtract(a, high), cv2.subtract(low, a))
    else:
        outside = cv2.absdiff(a, b)
    excess = cv2.transform(outside, _MEAN_OF_CHANNELS) if a.ndim == 3 else outside
    differs = cv2.compare(excess, level, cv2.CMP_GT)
    neighbours = cv2.filter2D(differs // 255, -1, _AROUND, borderType=cv2.BORDER_CONSTANT)
    differs = cv2.bitwise_and(differs, cv2.compare(neighbours, 0, cv2.CMP_GT))
    if shift is not None:
        # under shake a die that moves changes a patch, not a speck at a pip's rim
        differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, _PATCH)
        # what the shake brought into view at the picture's edge is new
        r = int(np.ceil(_reach(shift, a.shape))) + 1
        differs[:r], differs[-r:], differs[:, :r], differs[:, -r:] = 0, 0, 0, 0
    return cv2.bitwise_and(differs, mask)


def changed_fraction(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    shake: float = 0.0,
) -> float:
    """Fraction of the mask's pixels that `changed_pixels` finds changed."""
    inside = cv2.countNonZero(mask)
    if inside == 0:
        return 0.0
    changed = changed_pixels(a, b, mask, level, shake=shake)
    return cv2.countNonZero(changed) / inside


def _points(polygon: np.ndarray) -> np.ndarray:
    return np.asarray(polygon, np.float32).reshape(-1, 1, 2)


def tray_mask(size: tuple[int, int], frame_width: int, tray: np.ndarray | None) -> np.ndarray:
    """uint8 mask (255 inside) of the tray polygon, drawn at the small image's `size`."""
    width, height = size
    if tray is None:
        return np.full((height, width), 255, np.uint8)
    mask = np.zeros((height, width), np.uint8)
    polygon = np.round(np.asarray(tray, np.float64) * (width / frame_width)).astype(np.int32)
    cv2.fillPoly(mask, [polygon.reshape(-1, 1, 2)], 255)
    return mask


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
        level, shake = self.config.motion_level, self.config.shake
        moved = changed_fraction(a, b, self._mask, level, shake)
        return moved <= self.config.motion_cover

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
            level, shake = config.motion_level, config.shake
            self.motion = max(
                changed_fraction(small, self._previous, self._mask, level, shake),
                changed_fraction(small, self._anchor, self._mask, level, shake),
            )
            moving = self.motion > config.motion_cover
        if moving or t - self._anchor_t > 2 * config.still_for:
            # creep is judged over one or two windows, so hours of daylight drift never add up
            self._anchor, self._anchor_t = small, t
        if moving:
            self._last_motion = t
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
        self._tray_area = shape[0] * shape[1] if tray is None else cv2.contourArea(_points(tray))
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


def same_dice(a: Roll, b: Roll, tolerance: float) -> bool:
    """Whether two readings agree die by die: as many dice, and each die of `a` has exactly one
    die of `b` within `tolerance` die sizes of its centre, showing the same value."""
    if len(a.dice) != len(b.dice):
        return False
    used: set[int] = set()
    for die in a.dice:
        near = [i for i, other in enumerate(b.dice) if _close(die, other, tolerance)]
        if len(near) != 1 or near[0] in used or b.dice[near[0]].value != die.value:
            return False
        used.add(near[0])
    return True


def _close(a: Die, b: Die, tolerance: float) -> bool:
    reach = tolerance * max(a.size, b.size, 1.0)
    return (a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2 <= reach**2


class RollVote:
    """Turns the readings of one still scene into one answer, by agreement, never by average."""

    def __init__(self, config: SettleConfig | None = None) -> None:
        self.config = config or SettleConfig()
        self._reads: list[Roll] = []

    def clear(self) -> None:
        """Start over: the scene moved, the reads so far belong to another throw."""
        self._reads.clear()

    def add(self, roll: Roll) -> Roll | None:
        """Take one frame's reading; return the answer once there is one, else None.

        When the last `votes` readings are all ok and agree die by die, the answer is the newest
        of them. When they are all rerolls, it is the newest of those giving the commonest reason
        (a reader may name the same bad throw `overlap` on one frame and `wrong_count` on the
        next; either way the throw is not announced). After `max_reads` readings without
        agreement it is an UNREADABLE reroll carrying the newest reading's dice."""
        self._reads.append(roll)
        last = self._reads[-self.config.votes :]
        if len(last) == self.config.votes:
            if all(not read.ok for read in last):
                commonest = Counter(read.reason for read in last).most_common(1)[0][0]
                return next(read for read in reversed(last) if read.reason is commonest)
            tolerance = self.config.place_tolerance
            if all(read.ok and same_dice(roll, read, tolerance) for read in last):
                return roll
        if len(self._reads) < self.config.max_reads:
            return None
        seen = Counter(read.reason or "ok" for read in self._reads)
        summary = ", ".join(f"{count} {reason}" for reason, count in seen.most_common())
        detail = f"reads of the still dice disagree ({summary})"
        return Roll(roll.dice, RerollReason.UNREADABLE, detail)


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
        self._last_scene: np.ndarray | None = None  # the scene at the last answer
        self._last_roll: Roll | None = None

    @property
    def state(self) -> SettleState:
        return self.detector.state

    def update(self, frame: np.ndarray, t: float) -> Roll | None:
        """Take the next frame at time `t`; return the throw's answer on the frame it is known."""
        state = self.detector.update(frame, t)
        if state is not SettleState.SETTLED:
            if self._stirred_at is None:
                self._stirred_at = t
            self._answered = False
            self.vote.clear()
            return None
        stirred_at = self._stirred_at  # kept until this still scene is answered
        scene = self.detector.scene
        if self._answered:
            self._last_scene = scene  # follow slow light changes while nothing happens
            return None
        if self._last_scene is not None and self.detector.same_scene(scene, self._last_scene):
            stir = self.detector.last_motion - (t if stirred_at is None else stirred_at)
            if stir < self.config.min_motion:
                self._answered = True  # a flicker of noise: the old answer still stands
                self._stirred_at = None
                return None
            return self._answer(self._not_moved(), scene)
        answer = self.vote.add(self._read(frame))
        if answer is None:
            return None
        if answer.reason is RerollReason.WRONG_COUNT and not answer.dice:
            self._answered = True  # the reader sees no dice at all: a shadow, not a throw
            self._last_scene = scene
            self._stirred_at = None
            return None
        last = self._last_roll
        if answer.ok and last is not None and same_dice(answer, last, self.config.place_tolerance):
            answer = self._not_moved()
        return self._answer(answer, scene)

    def _not_moved(self) -> Roll:
        dice = self._last_roll.dice if self._last_roll is not None else ()
        return Roll(dice, RerollReason.NOT_MOVED, "the dice are where the last read left them")

    def _answer(self, roll: Roll, scene: np.ndarray) -> Roll:
        self._answered = True
        self._stirred_at = None
        self._last_scene = scene
        if roll.reason is not RerollReason.NOT_MOVED:
            self._last_roll = roll
        if roll.ok and roll.dice:
            self.detector.learn_die_size(float(np.median([die.size for die in roll.dice])))
        self.vote.clear()
        return roll
