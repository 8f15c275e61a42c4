"""What changed between two frames of a camera that may shake: the change detection under
settle.py.

Contract: frames are grey (h, w) or BGR (h, w, 3) / BGRA (h, w, 4) uint8 arrays (`pixels`,
else FrameError); `shrink` makes the small float32 work copy everything here compares;
`changed_fraction(a, b, mask) -> float` is the share of the masked pixels that changed once
the light is matched and the camera's own shift (and small turn or zoom, shake.py) is undone.
Pure functions, no state: the settle detector decides what the change means.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.shake import (
    SHIFT_FLOOR,
    grey,
    move,
    reach,
    refined_motion,
    rim_error,
    shift_between,
    shift_map,
)


class FrameError(ValueError):
    """A frame that cannot be looked at: wrong type, shape, or not matching the calibration."""


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
    return grey(result)


def _places(changed: np.ndarray) -> int:
    """How many places apart (more than a few work pixels) show change."""
    near = cv2.dilate(changed, np.ones((5, 5), np.uint8))
    return cv2.connectedComponents(near)[0] - 1


_NEIGHBOURS = np.ones((3, 3), np.uint8)
_AROUND = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.float32)  # the 8 neighbours
_PATCH = np.ones((2, 2), np.uint8)
RIM_BETTER = 1.02  # undoing a shift must not make the picture's edge match worse, by more than
# its noise: a shake of 0.03-0.1 work px barely changes a dim rim, and undoing the true shake
# left it "worse" in 46% of such frame pairs of the shaking-camera recordings (1.0 to 1.25;
# 0.1-0.2 px: 15%, up to 1.02 at the 90th percentile). Rejected, the shake counted as motion,
# and a throw at rest under a visitor's shadow was never answered (tests/vision/test_watch_cli)
RIM_WORSE = 2.5  # where a camera's shift explained a change at one place and a plain edge
# did not confirm it, undoing it made the edge match worse by 1.02 to 2.0 times (560 frame
# pairs of hand-held filmed development photos of three sets, benchmarks/eval_filmed.py
# --part dev): worse than this, the edge stood still and the die moved
ENVELOPE = 1.0  # share of a pixel's neighbourhood range a shift undone leaves as tolerance


def changed_pixels(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    like: np.ndarray | None = None,
    shake: float = 0.0,
    residue: float = 0.0,
    jitter: float = 0.0,
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
    patch or at least a line of its edge. Where a motion of the camera was undone and the
    picture's edge confirms it, a change of at most `residue` pixels is what undoing it leaves
    (a few 2x2 patches at pips' and dice's edges, where a tenth of a pixel left of the shift
    and the codec's blocks, which move with the picture, add up), and nothing is returned.
    Where the edge is too plain to confirm it, a shift explaining a change at several places
    is taken, and at one place (a die alone, or dice together) only a `jitter` (_jitter).
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
        shift = shift_map(dx, dy)
        tried.append((shift, _changed(a, b, everywhere, level, like, shift)))
    still_rim = None  # the picture's edge error with nothing undone, worked out once
    refined, refined_rim = None, None  # a finer motion than the shift, and its edge error
    if not tried or cv2.countNonZero(tried[0][1]):  # the shift alone does not explain it all
        refined = refined_motion(a, b, (dx, dy), shake)
        # a turn only where the picture's edge confirms it: dice creeping alone also give ECC
        # a small motion, which makes the edge match worse
        if refined is not None:
            still_rim = rim_error(a, b, None)
            refined_rim = rim_error(a, b, refined)
            if refined_rim < RIM_BETTER * still_rim:
                tried.append((refined, _changed(a, b, everywhere, level, like, refined)))
    if not tried:
        return plain
    if still_rim is None:
        still_rim = rim_error(a, b, None)
    motion, after = min(tried, key=lambda t: cv2.countNonZero(t[1]))  # explains the most
    # taken when undoing it makes the picture's edge match better, where only the camera moves,
    # or when it explains the change over the whole picture at several places apart (dice and
    # the tray's walls do not all move alike): a die moving alone on a bare floor also gives a
    # shift, but neither of these
    rim = refined_rim if motion is refined and refined_rim is not None else None
    if rim is None:
        rim = rim_error(a, b, motion)
    seen_at_edge = rim < RIM_BETTER * still_rim
    if not seen_at_edge and (
        10 * cv2.countNonZero(after) > cv2.countNonZero(before)
        or (_places(before) < 2 and not _jitter(motion, a.shape, rim, still_rim, jitter))
    ):
        return plain
    moved = cv2.bitwise_and(after, mask)
    count = cv2.countNonZero(moved)
    if count >= cv2.countNonZero(plain):
        return plain
    # the residue of undoing the camera's motion only where the picture's edge shows it moved:
    # dice nudged alike at several places also give a shift, which the edge does not confirm
    return np.zeros_like(moved) if seen_at_edge and count <= residue else moved


def _jitter(
    motion: np.ndarray, shape: tuple[int, ...], rim: float, still_rim: float, jitter: float
) -> bool:
    """Whether a motion explaining a change at one place, unconfirmed by the picture's edge,
    is still taken for the camera's: it moves the picture by at most `jitter` work pixels and
    the edge does not contradict it. A plain edge cannot confirm a shift, and a codec leaves a
    plain edge as it was while the camera moves; an edge with texture that stood still while a
    die moved matches far worse once the shift is undone (RIM_WORSE)."""
    return reach(motion, shape) <= jitter and rim <= RIM_WORSE * still_rim


def _changed(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    like: np.ndarray,
    shift: np.ndarray | None,
) -> np.ndarray:
    if shift is not None:
        b = move(b, shift)
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
    differs = beyond(outside, level)
    if shift is not None:
        # under shake a die that moves changes a patch, not a speck at a pip's rim
        differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, _PATCH)
        # what the shake brought into view at the picture's edge is new
        r = int(np.ceil(reach(shift, a.shape))) + 1
        differs[:r], differs[-r:], differs[:, :r], differs[:, -r:] = 0, 0, 0, 0
    return cv2.bitwise_and(differs, mask)


def beyond(outside: np.ndarray, level: float) -> np.ndarray:
    """uint8 mask (255) of the pixels where `outside` (how far a pixel lies outside what it
    should be, grey or per channel: then their mean) exceeds `level`, a pixel none of whose
    neighbours does dropped: a moving die changes a patch or at least a line of its edge,
    sensor noise and a JPEG block's corner a lone pixel."""
    excess = grey(outside)
    differs = cv2.compare(excess, level, cv2.CMP_GT)
    neighbours = cv2.filter2D(differs // 255, -1, _AROUND, borderType=cv2.BORDER_CONSTANT)
    return cv2.bitwise_and(differs, cv2.compare(neighbours, 0, cv2.CMP_GT))


def changed_fraction(
    a: np.ndarray,
    b: np.ndarray,
    mask: np.ndarray,
    level: float,
    shake: float = 0.0,
    residue: float = 0.0,
    jitter: float = 0.0,
) -> float:
    """Fraction of the mask's pixels that `changed_pixels` finds changed (residue: pixels a
    camera's motion undone may leave changed, changed_pixels)."""
    inside = cv2.countNonZero(mask)
    if inside == 0:
        return 0.0
    changed = changed_pixels(a, b, mask, level, shake=shake, residue=residue, jitter=jitter)
    return cv2.countNonZero(changed) / inside


def outline_points(polygon: np.ndarray) -> np.ndarray:
    """A polygon as the (n, 1, 2) float32 points OpenCV takes."""
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
