"""Read a roll: find the dice, read each face, and decide whether the roll can be announced.

The reader would rather ask for a re-throw than guess: a die is read only when its pips fit
the layout of a face at the die's own rotation, with pips of one size, at the right spacing
for the die; anything else (a die cut by the edge, leaning, on top of another, blurred,
glared, or simply not understood) makes the whole roll a `reroll` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.bodies import Body, find_bodies
from vision.calibration import Calibration
from vision.faces import FaceFit, fit_face
from vision.frame import frame_problem
from vision.pips import Spots, die_patch, find_spots
from vision.reading import Die, RerollReason, Roll

# A body is a die candidate when its size is within these multiples of the die size;
# smaller specks and larger clutter (a hand, a tray rim) are not dice.
MIN_BODY = 0.55
MAX_BODY = 2.4
MAX_ASPECT = 2.2  # longer bodies are not dice (a rim, a pencil)
OVERLAP_BODY = 1.3  # a body this much larger than a die is dice on top of one another
COCKED_ASPECT = 1.3  # a leaning die shows its top face plus a side: an oblong body
SPACING = (0.17, 0.36)  # pip spacing, in die sides
MAX_FIT_ERROR = 0.28  # pip distance from its layout position, in pip spacings
MAX_ANGLE = 18.0  # degrees between the pip layout and the die's edges
MAX_OFFSET = 0.16  # face centre from body centre, die sides
PIP_RATIO = 2.6  # largest over smallest pip diameter
BLURRED = 0.09  # edge width, in die sides, above which a die is blurred
GLARED = 0.04  # fraction of saturated face pixels above which glare may hide pips


@dataclass(frozen=True, slots=True)
class DieReading:
    """One candidate die and what came of it: a Die, or the reason it could not be read."""

    body: Body
    die: Die | None
    problem: RerollReason | None
    detail: str


def _tilt(a: float, b: float) -> float:
    """Smallest angle between two square grids at angles a and b, degrees."""
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


def read_face(spots: Spots) -> tuple[FaceFit | None, str]:
    """The face these pips show, or None with the reason in words."""
    n = len(spots.centres)
    if spots.face_size <= 0:
        return None, "no face found"
    if n == 0:
        return None, "no pips"
    if n > 6:
        return None, f"{n} pip-like spots"
    fit = fit_face(spots.centres)
    assert fit is not None
    side = spots.face_size
    offset = (
        float(np.hypot(fit.centre[0] - spots.face_centre[0], fit.centre[1] - spots.face_centre[1]))
        / side
    )
    if offset > MAX_OFFSET:
        return None, f"pips off centre by {offset:.2f}"
    if n == 1:
        return fit, ""
    if spots.diameters.max() > PIP_RATIO * spots.diameters.min():
        return None, "pips of different sizes"
    spacing = fit.spacing / side
    if not SPACING[0] <= spacing <= SPACING[1]:
        return None, f"pip spacing {spacing:.2f} of the die"
    if fit.error > MAX_FIT_ERROR:
        return None, f"pips do not fit a {n} (error {fit.error:.2f})"
    tilt = _tilt(fit.angle, spots.face_angle)
    if tilt > MAX_ANGLE:
        return None, f"pips turned {tilt:.0f} degrees from the die"
    return fit, ""


def confidence(fit: FaceFit, spots: Spots) -> float:
    """0..1: how far the fit is from every limit that would reject it."""
    if fit.value == 1:
        margin = 1 - float(np.hypot(*fit.centre)) / MAX_OFFSET
    else:
        tilt = _tilt(fit.angle, spots.face_angle)
        margin = min(1 - fit.error / MAX_FIT_ERROR, 1 - tilt / MAX_ANGLE)
    return round(float(np.clip(0.5 + 0.5 * margin, 0.0, 1.0)), 3)


def read_body(frame: np.ndarray, body: Body, die_size: float) -> DieReading:
    """Read one die body, or say why not."""
    if body.at_edge:
        return DieReading(body, None, RerollReason.CUT, "die cut by the edge")
    if body.size > OVERLAP_BODY * die_size:
        return DieReading(body, None, RerollReason.OVERLAP, "dice on top of each other")
    side = body.size
    spots = find_spots(die_patch(frame, body.centre, side, body.rect[2]))
    fit, why = read_face(spots)
    leaning = body.aspect > COCKED_ASPECT or spots.face_aspect > COCKED_ASPECT
    if fit is None:
        if spots.sharpness > BLURRED:
            return DieReading(body, None, RerollReason.BLUR, f"blurred ({why})")
        if spots.glare > GLARED:
            return DieReading(body, None, RerollReason.GLARE, f"glare ({why})")
        if leaning:
            return DieReading(body, None, RerollReason.COCKED, f"die leaning ({why})")
        return DieReading(body, None, RerollReason.UNREADABLE, why)
    if leaning:
        return DieReading(body, None, RerollReason.COCKED, "die leaning")
    die = Die(
        value=fit.value,
        center=(round(body.centre[0], 1), round(body.centre[1], 1)),
        size=round(side, 1),
        confidence=confidence(fit, spots),
    )
    return DieReading(body, die, None, "")


def read_dice(
    frame: np.ndarray, calibration: Calibration | None = None
) -> tuple[list[DieReading], float]:
    """Every die candidate in the frame with its reading, and the die size used (pixels)."""
    bodies = find_bodies(frame, calibration)
    if not bodies:
        return [], 0.0
    if calibration is not None and calibration.die_size:
        die_size = float(calibration.die_size)
    else:
        die_size = float(np.median([b.size for b in bodies]))
    candidates = [
        b
        for b in bodies
        if MIN_BODY * die_size <= b.size <= MAX_BODY * die_size and b.aspect <= MAX_ASPECT
    ]
    return [read_body(frame, body, die_size) for body in candidates], die_size


def decide(readings: list[DieReading], expect: int | None) -> Roll:
    """Turn per-die readings into a roll: ok only when every candidate is read."""
    dice = tuple(r.die for r in readings if r.die is not None)
    for reading in readings:
        if reading.problem is not None:
            x, y = reading.body.centre
            return Roll(dice, reading.problem, f"{reading.detail} at ({x:.0f}, {y:.0f})")
    if not dice:
        return Roll((), RerollReason.WRONG_COUNT, "no dice found")
    if expect is not None and len(dice) != expect:
        return Roll(dice, RerollReason.WRONG_COUNT, f"{len(dice)} dice, expected {expect}")
    return Roll(dice)


def inspect(
    frame: np.ndarray, *, expect: int | None = 3, calibration: Calibration | None = None
) -> tuple[Roll, list[DieReading]]:
    """read_roll() plus every die candidate with its reading (for the debug view)."""
    problem = frame_problem(frame)
    if problem is not None:
        return Roll((), RerollReason.BAD_FRAME, problem), []
    try:
        readings, _ = read_dice(frame, calibration)
    except cv2.error as error:  # a frame OpenCV cannot digest is a bad frame, not a crash
        return Roll((), RerollReason.BAD_FRAME, f"OpenCV: {error.err}"), []
    return decide(readings, expect), readings


def read_roll(
    frame: np.ndarray, *, expect: int | None = 3, calibration: Calibration | None = None
) -> Roll:
    """Read the dice in a BGR uint8 frame (h, w, 3). Never raises on a bad frame.

    expect: the number of dice the game needs (None: any number). The Roll is `ok` only when
    exactly that many dice were found and every one was read with confidence.
    """
    return inspect(frame, expect=expect, calibration=calibration)[0]
