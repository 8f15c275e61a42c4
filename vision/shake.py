"""How the camera itself moved between two frames: the shake of a hand or of a table knocked by
a throw, which settle.py must not take for dice moving.

Contract: small work images (motion.shrink's float32 copies, grey or BGR) of one size;
`shift_between(a, b, limit) -> (dx, dy)` work pixels, `refined_motion(a, b, shift, limit)` a
2x3 affine map (float32) or None, `rim_error(a, b, motion)` the mean difference along the
picture's edge once `b` is moved; `move(image, motion)` applies a shift or a map, `reach` says
how far a map moves the picture's corners. Pure functions.
"""

from __future__ import annotations

import cv2
import numpy as np

SHIFT_FLOOR = 0.03  # work pixels: a smaller global shift found is the noise of the estimate
_MEAN_OF_CHANNELS = np.full((1, 3), 1 / 3, np.float32)


def grey(image: np.ndarray) -> np.ndarray:
    """A work image as grey: the mean of its channels."""
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
    ga, gb = grey(a), grey(b)
    dx = dy = 0.0
    for _ in range(3):
        moved = move(gb, (dx, dy)) if dx or dy else gb
        (rx, ry), response = cv2.phaseCorrelate(moved, ga)
        if response < 0.2:
            return 0.0, 0.0
        dx, dy = dx + rx, dy + ry
        if np.hypot(rx, ry) < 0.02:
            break
    if np.hypot(dx, dy) > limit:
        return 0.0, 0.0
    return float(dx), float(dy)


def rim_error(a: np.ndarray, b: np.ndarray, shift: np.ndarray | None) -> float:
    """Mean absolute difference along the picture's edge, where only the camera moves (the
    tray's wall and what lies around it), with `b` moved by `shift` first. Unthresholded: the
    texture of a wall shows a shift of a tenth of a pixel that no pixel change would."""
    h, w = a.shape[:2]
    r = max(2, round(RIM * h))
    ring = np.full((h, w), 255, np.uint8)
    ring[r : h - r, r : w - r] = 0
    ring[:2], ring[-2:], ring[:, :2], ring[:, -2:] = 0, 0, 0, 0  # what the shake brings in
    moved = move(b, shift) if shift is not None else b
    return float(np.mean(cv2.mean(cv2.absdiff(a, moved), ring)[: 3 if a.ndim == 3 else 1]))


def move(image: np.ndarray, shift: tuple[float, float] | np.ndarray) -> np.ndarray:
    """`image` moved by a shift (dx, dy) or a 2x3 affine map (refined_motion's)."""
    move = shift if isinstance(shift, np.ndarray) else shift_map(*shift)
    size = (image.shape[1], image.shape[0])
    return cv2.warpAffine(image, move, size, borderMode=cv2.BORDER_REPLICATE)


def shift_map(dx: float, dy: float) -> np.ndarray:
    """The 2x3 affine map (float32) of a shift by (dx, dy)."""
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
    inverse = shift_map(-shift[0], -shift[1])  # ECC maps a's pixels into b
    try:
        _, inverse = cv2.findTransformECC(
            grey(a).astype(np.float32),
            grey(b).astype(np.float32),
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
    return forward if reach(forward, a.shape) >= SHIFT_FLOOR else None


def reach(motion: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far (work pixels) a motion moves the picture's corners at most."""
    h, w = shape[:2]
    corners = np.float32([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]])
    return float(np.abs(corners @ motion.T - corners[:, :2]).max())
