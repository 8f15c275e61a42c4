"""Has the camera moved since the tray was calibrated? Where the tray now lies in the picture.

A visitor leaning on the table knocks the camera a few pixels. Read against the calibration as
made, the floor's outline and the empty tray then lie beside the real ones: past about 6 px at
1280x720 every die near the wall is `cut`, and a die touching the wall on the far side may not
be seen to touch it. `camera_shift` measures the shift on the tray's rim (its walls and what
lies around them, where no die lies): the frame and the empty tray, grey, shrunk to WORK_WIDTH
px wide, in log (a change of light scales the picture; in log it only adds) and less their
blur (a visitor's shadow is smooth), matched over the rim by phase correlation (any shift,
whole pixels) and refined by ECC (translation, to a fraction of a pixel). On the simulated
tray, five colourings, shifts up to 40 px, with and without a shadow across the tray, it is
within 0.4 px (tests/vision/test_tray_shift.py). `moved` is the calibration as the moved
camera sees it; `FollowedCamera` keeps the kiosk's reader on it (vision.tray_reader.TrayReader).

Contract: frames BGR uint8 (h, w, 3) of the empty tray's shape; shifts in frame pixels, (dx,
dy) moving the empty tray onto the frame. `camera_shift` and `moved` are pure. Cost: about 5
ms at 1280x720 (the kiosk measures once for each new rest of the dice, not every frame).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibration import Calibration

log = logging.getLogger(__name__)

WORK_WIDTH = 320  # px: the width the rim is compared at (1280 -> 4 frame px a work pixel)
DETAIL = 4.0  # work px: the blur a picture's detail is taken against (shadows are smoother)
INSIDE = 0.03  # of the work width: the floor, from this far inside its outline, is not rim
EDGE = 3  # work px at the picture's edge left out (what a shift brings in)
MATCH = 0.8  # the rim's match a shift must reach to be followed (Shift.match; on the simulated
# tray 0.96-1.0 for a shifted camera, 0.88 for one also turned half a degree, 0.5 for 1.5)
HOLD = 0.75  # frame px: a shift this near the one followed is that one, measured again
REACH = 0.1  # of the frame's width: a camera moved further is not followed (calibrate again)
LOST = 3  # measures in a row whose rim does not match: the picture is not the calibration's
_ECC = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)


@dataclass(frozen=True, slots=True)
class Shift:
    """How far the picture moved since calibration (frame px), and how well the rim matches
    once moved back: ECC's correlation coefficient over the rim (1 alike; a turned or
    refocused camera, or a hand over the rim, lowers it)."""

    dx: float
    dy: float
    match: float

    @property
    def length(self) -> float:
        return math.hypot(self.dx, self.dy)


def camera_shift(frame: np.ndarray, calibration: Calibration) -> Shift | None:
    """The shift of `frame` against the calibration's empty tray, or None where it cannot be
    measured (no empty tray or floor, a frame of another shape, a flat rim, no convergence)."""
    empty, tray = calibration.empty, calibration.tray
    if empty is None or tray is None or frame.shape != empty.shape:
        return None
    then, rim = _rim_of(empty, tray)
    now = _detail(frame, (then.shape[1], then.shape[0]))
    weight = rim.astype(np.float32) / 255.0
    (dx, dy), _ = cv2.phaseCorrelate(then * weight, now * weight)
    start = np.float32([[1, 0, dx], [0, 1, dy]])
    try:
        match, warp = cv2.findTransformECC(then, now, start, cv2.MOTION_TRANSLATION, _ECC, rim, 3)
    except cv2.error:
        return None  # no convergence: a flat or covered rim
    scale = frame.shape[1] / then.shape[1]
    return Shift(float(warp[0, 2]) * scale, float(warp[1, 2]) * scale, float(match))


def moved(calibration: Calibration, dx: int, dy: int) -> Calibration:
    """`calibration` as a camera moved by (dx, dy) whole pixels sees it: its floor outline and
    its empty tray moved alike (what the move brings in at the picture's edge repeats the
    edge's pixels; it lies off the floor)."""
    tray, empty = calibration.tray, calibration.empty
    if tray is not None:
        tray = (np.asarray(tray) + np.array([dx, dy])).astype(np.int32)
    if empty is not None:
        move = np.float32([[1, 0, dx], [0, 1, dy]])
        size = (empty.shape[1], empty.shape[0])
        empty = cv2.warpAffine(empty, move, size, borderMode=cv2.BORDER_REPLICATE)
    return replace(calibration, tray=tray, empty=empty)


class FollowedCamera:
    """The calibration as the camera now sees it, for a reader that runs all day.

    `follow` measures the camera's shift on a frame; where it has moved a pixel or more from
    the shift followed so far (HOLD), and the rim matches once moved back (MATCH), it answers
    the calibration moved with it (whole pixels, from the one staff made). A camera moved past
    REACH is not followed (`too_far`; a knock that far may also have turned it); a rim that
    does not match (a hand over it, a turned camera) changes nothing, and one that does not
    match LOST times in a row is the picture no longer the calibration's (`lost`: a turned
    camera, a sign left on the rim). Each change is a warning in the log, which staff see.
    """

    def __init__(self, home: Calibration | None) -> None:
        self.home = home  # as staff made it
        self.shift: Shift | None = None  # the last shift measured
        self.offset = (0, 0)  # the whole pixels the calibration followed is moved by
        self.unmatched = 0  # measures in a row whose rim did not match

    @property
    def too_far(self) -> bool:
        """Has the camera moved further since calibration than is followed?"""
        shift, home = self.shift, self.home
        if shift is None or home is None or home.empty is None or shift.match < MATCH:
            return False
        return shift.length > REACH * home.empty.shape[1]

    @property
    def lost(self) -> bool:
        """Has the rim not matched the calibration's for LOST measures in a row?"""
        return self.unmatched >= LOST

    def follow(self, frame: np.ndarray, in_use: Calibration | None) -> Calibration | None:
        """The calibration to read `frame` with where the camera's move changes it (keeping
        `in_use`'s die size, which the reader learns), else None."""
        home = self.home
        shift = camera_shift(frame, home) if home is not None else None
        if shift is None or in_use is None or home is None:
            return None
        was_far, self.shift = self.too_far, shift
        self.unmatched = self.unmatched + 1 if shift.match < MATCH else 0
        if self.unmatched == LOST:
            log.warning(
                "the picture no longer matches the calibration on the tray's rim (match %.2f; "
                "a turned camera, or something left on the rim?): calibrate again",
                shift.match,
            )
        if shift.match < MATCH or self.too_far:
            if self.too_far and not was_far:
                log.warning(
                    "the camera has moved %.0f px since the tray was calibrated, too far to "
                    "follow: every roll is thrown again until staff calibrate again",
                    shift.length,
                )
            return None
        offset = (round(shift.dx), round(shift.dy))
        near = math.hypot(shift.dx - self.offset[0], shift.dy - self.offset[1]) < HOLD
        if offset == self.offset or near:
            return None
        self.offset = offset
        log.warning(
            "the camera has moved (%+d, %+d) px since the tray was calibrated: the reader "
            "follows it (calibrate again if it keeps moving)",
            *offset,
        )
        home = replace(home, die_size=in_use.die_size)
        return moved(home, *offset) if any(offset) else home


def _detail(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The picture's detail at `size`: grey, area-averaged, log, less its blur (float32)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = np.log1p(cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32))
    return small - cv2.GaussianBlur(small, (0, 0), DETAIL)


_RIMS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


def _rim_of(empty: np.ndarray, tray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The empty tray's detail and the rim mask (uint8 0/255: off the floor's inside and the
    picture's edge), at the work size; made once per calibration."""
    key = (id(empty), id(tray))
    cached = _RIMS.get(key)
    if cached is None or cached[0] is not empty or cached[1] is not tray:
        width = min(WORK_WIDTH, empty.shape[1])
        size = (width, max(1, round(empty.shape[0] * width / empty.shape[1])))
        scale = width / empty.shape[1]
        floor = np.zeros((size[1], size[0]), np.uint8)
        points = np.round(np.asarray(tray, np.float64).reshape(-1, 2) * scale)
        cv2.fillPoly(floor, [points.astype(np.int32)], 255)
        inside = max(1, round(INSIDE * width))
        floor = cv2.erode(
            floor, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)), None, iterations=inside
        )
        rim = cv2.bitwise_not(floor)
        rim[:EDGE], rim[-EDGE:], rim[:, :EDGE], rim[:, -EDGE:] = 0, 0, 0, 0
        if len(_RIMS) > 4:
            _RIMS.clear()
        cached = _RIMS[key] = (empty, tray, _detail(empty, size), rim)
    return cached[2], cached[3]
