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
from vision.faces import LAYOUTS, FaceFit, fit_face
from vision.frame import frame_problem
from vision.pips import Spots, body_patch, die_patch, find_spots
from vision.reading import Die, RerollReason, Roll

# A body is a die candidate when its size is within these multiples of the die size;
# smaller specks and larger clutter (a hand, a tray rim) are not dice.
MIN_BODY = 0.55
MAX_BODY = 2.4
MAX_ASPECT = 2.2  # longer bodies are not dice (a rim, a pencil)
SQUARE_FILL = 0.8  # a body this full and this square looks like a die even when unread
SQUARE_ASPECT = 1.25
MIN_FILL = 0.6  # nor bodies covering less of their rectangle (a shoe, a cable, a shadow)
OVERLAP_BODY = 1.3  # a body this much larger than a die is dice on top of one another
OVERLAP_UNREAD = 1.15  # ...or this much larger when its pips cannot be read
COCKED_ASPECT = 1.3  # a leaning die shows its top face plus a side: an oblong body
COCKED_FACE = 1.18  # ...and a foreshortened top face
SPACING = (0.17, 0.36)  # pip spacing, in die sides
MAX_FIT_ERROR = 0.28  # pip distance from its layout position, in pip spacings
MAX_ANGLE = 18.0  # degrees between the pip layout and the die's edges
MAX_OFFSET = 0.16  # face centre from body centre, die sides
PIP_RATIO = 2.6  # largest over smallest pip diameter
BLURRED = 0.052  # edge width, in die sides, above which an unread die is called blurred
ONE_FACE = 0.75  # a single pip is trusted only on a face found whole (die sides)
GRID_OFF = 0.5  # an empty pip place differs from the face less than this share of a pip
GLARED = 0.04  # fraction of saturated face pixels above which glare may hide pips


@dataclass(frozen=True, slots=True)
class DieReading:
    """One candidate die and what came of it: a Die, or the reason it could not be read.

    evidence: whether an unread candidate still looks like a die (a square body, or a face of
    one colour with pip-like spots); one that does not is clutter and is left out.
    """

    body: Body
    die: Die | None
    problem: RerollReason | None
    detail: str
    evidence: bool = True


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
        if spots.face_size < ONE_FACE:
            return None, f"a lone spot on a face of {spots.face_size:.2f}"
        return _check_grid(fit, spots)
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
    return _check_grid(fit, spots)


def _check_grid(fit: FaceFit, spots: Spots) -> tuple[FaceFit | None, str]:
    """The nine pip places of the fitted face: pips where the layout has them, face elsewhere.

    This catches a pip the spot finder missed (a 3 whose middle pip is faint is not a 2).
    """
    if fit.value == 1:
        a = 0.28 * spots.face_size * np.exp(1j * np.radians(spots.face_angle))
    else:
        a = fit.spacing * np.exp(1j * np.radians(fit.angle))
        # recover the fitted orientation: spacing/angle lose which way the layout points
        a = _orient(fit, spots, a)
    layout = set(LAYOUTS[fit.value])
    radius = 0.3 * abs(a) * 0.9
    on, off = [], []
    for gx in (-1, 0, 1):
        for gy in (-1, 0, 1):
            place = complex(fit.centre[0], fit.centre[1]) + a * complex(gx, gy)
            value = spots.contrast_at(place.real, place.imag, radius)
            (on if complex(gx, gy) in layout else off).append(value)
    if max(off) > GRID_OFF * min(on) or max(off) > spots.contrast:
        return None, f"a pip where a {fit.value} has none"
    return fit, ""


def _orient(fit: FaceFit, spots: Spots, a: complex) -> complex:
    """Of the layout turned by a or by a quarter turn more, the one that fits the pips."""
    z = spots.centres[:, 0] + 1j * spots.centres[:, 1] - complex(*fit.centre)
    layout = np.array(LAYOUTS[fit.value])
    best = a
    best_cost = float("inf")
    for turn in (a, a * 1j):
        cost = float(np.sum(np.min(np.abs(z[:, None] - turn * layout[None, :]), axis=1)))
        if cost < best_cost:
            best, best_cost = turn, cost
    return best


def confidence(fit: FaceFit, spots: Spots) -> float:
    """0..1: how far the fit is from every limit that would reject it."""
    if fit.value == 1:
        margin = 1 - float(np.hypot(*fit.centre)) / MAX_OFFSET
    else:
        tilt = _tilt(fit.angle, spots.face_angle)
        margin = min(1 - fit.error / MAX_FIT_ERROR, 1 - tilt / MAX_ANGLE)
    return round(float(np.clip(0.5 + 0.5 * margin, 0.0, 1.0)), 3)


def read_body(frame: np.ndarray, body: Body) -> DieReading:
    """Read the top face of one die body, or say why not."""
    square = body.fill >= SQUARE_FILL and body.aspect <= SQUARE_ASPECT
    if body.at_edge:
        return DieReading(body, None, RerollReason.CUT, "die cut by the edge", body.fill >= 0.75)
    patch = die_patch(frame, body.centre, body.size, body.rect[2])
    spots = find_spots(patch, body_patch(body.contour, body.centre, body.size, body.rect[2]))
    fit, why = read_face(spots)
    leaning = body.aspect > COCKED_ASPECT or spots.face_aspect > COCKED_FACE
    if fit is None and body.pieces > 1:
        return DieReading(body, None, RerollReason.OVERLAP, f"dice touching or on top ({why})")
    if spots.glare > GLARED:
        return DieReading(body, None, RerollReason.GLARE, "glare on the die", True)
    if fit is None:
        evidence = square or spots.face_size >= 0.35 or len(spots.centres) > 0
        if spots.sharpness > BLURRED:
            return DieReading(body, None, RerollReason.BLUR, f"blurred ({why})", evidence)
        if leaning:
            return DieReading(body, None, RerollReason.COCKED, f"die leaning ({why})", evidence)
        return DieReading(body, None, RerollReason.UNREADABLE, why, evidence)
    if leaning:
        return DieReading(body, None, RerollReason.COCKED, "die leaning")
    die = Die(
        value=fit.value,
        center=(round(body.centre[0], 1), round(body.centre[1], 1)),
        size=round(body.size * spots.face_size, 1),
        confidence=confidence(fit, spots),
    )
    return DieReading(body, die, None, "")


def _die_like(body: Body) -> bool:
    return body.aspect <= MAX_ASPECT and body.fill >= MIN_FILL


def read_dice(
    frame: np.ndarray, calibration: Calibration | None = None
) -> tuple[list[DieReading], float]:
    """Every die candidate in the frame with its reading, and the die size used (pixels).

    The die size is the calibrated one, else the median of the dice read, else the median of
    the die-like bodies; bodies much smaller are specks, much larger are not dice.
    """
    bodies = [b for b in find_bodies(frame, calibration) if _die_like(b)]
    if not bodies:
        return [], 0.0
    readings = [read_body(frame, body) for body in bodies]
    if calibration is not None and calibration.die_size:
        die_size = float(calibration.die_size)
    else:
        read = [r.body.size for r in readings if r.die is not None]
        die_size = float(np.median(read or [b.size for b in bodies]))
    kept = []
    for reading in readings:
        size = reading.body.size / die_size
        if size < MIN_BODY or size > MAX_BODY or not reading.evidence:
            continue
        limit = OVERLAP_BODY if reading.die else OVERLAP_UNREAD
        if size > limit and reading.problem is not RerollReason.CUT:
            why = "dice on top of each other" + (f" ({reading.detail})" if reading.die else "")
            reading = DieReading(reading.body, None, RerollReason.OVERLAP, why)
        kept.append(reading)
    return kept, die_size


def decide(readings: list[DieReading], expect: int | None) -> Roll:
    """Turn per-die readings into a roll: ok only when every candidate is read."""
    dice = tuple(sorted((r.die for r in readings if r.die is not None), key=lambda d: d.center))
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
