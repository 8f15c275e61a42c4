"""Read a roll: find the dice, read each face, and decide whether the roll can be announced.

The reader would rather ask for a re-throw than guess: a die is read only when its pips fit
the layout of a face at the die's own rotation, with pips of one size, at the right spacing
for the die; anything else (a die cut by the edge, leaning, on top of another, blurred,
glared, or simply not understood) makes the whole roll a `reroll` with the reason.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision import dice_net
from vision.bodies import (
    FACE_OF_BODY,
    WALL_REACH,
    Body,
    find_bodies,
    nearest_wall,
    to_lab,
    working_copy,
)
from vision.calibration import Calibration
from vision.faces import LAYOUTS, FaceFit, fit_face
from vision.frame import frame_problem
from vision.pips import (
    MIN_CONTRAST,
    Face,
    Spots,
    find_face,
    find_spots,
    pip_like_spots,
    spot_centres,
)
from vision.reading import Die, RerollReason, Roll
from vision.second_look import (
    SETTLED_BY_FINDER,
    body_faces,
    merge,
    not_faces,
    read_at_edge,
    read_faces,
    read_pips,
    reframe,
)

log = logging.getLogger(__name__)

# A body is a die candidate when its size is within these multiples of the die size;
# smaller specks and larger clutter (a hand, a tray rim) are not dice.
MIN_BODY = 0.55
MIN_EVIDENT_BODY = 0.4  # smaller still when pips on a face show it is (part of) a die
MAX_BODY = 2.4
MAX_ASPECT = 2.2  # longer bodies are not dice (a rim, a pencil)
EVIDENT_FACE = 0.4  # an unread body is a die if it has spots on a face this large (body sides),
EVIDENT_FILL = 0.75  # ...filling this much of its rectangle,
EVIDENT_ASPECT = 2.2  # ...not more oblong than this (a die cut by the edge: EVIDENT_CUT_ASPECT),
EVIDENT_CUT_ASPECT = 3.0
EVIDENT_SIZE = (0.7, 1.45)  # ...and as large as the dice read, within these factors
SHAPE_SIZE = (0.8, 1.25)  # or its body is as large as the dice read, within these factors,
SHAPE_ASPECT = 1.25  # ...square
SHAPE_FILL = 0.75  # ...and full
SPOTTED_SIZE = (0.6, 1.5)  # or it is this large, over the dice read, with pips on it
CUT_SIZE = (0.45, 1.25)  # a body cut by the edge keeps part of a die's size
MIN_FILL = 0.6  # nor bodies covering less of their rectangle (a shoe, a cable, a shadow)
OVERLAP_UNREAD = 1.3  # an unread body this much larger than the dice read is dice piled up
OVERLAP_RAGGED = 1.15  # ...or this much larger and not filling its rectangle
ATTACHED_MARGIN = 0.2  # a pip this far off a face (face sides) is on another die or a side
PERSPECTIVE = 0.5  # how far out (face sides) the sides of a flat die show at the view's edge
ATTACHED = 0.6  # a face spanning less of its body than this has something else attached
FACES_APART = 0.7  # flat dice's faces lie a side apart or more (a size read runs 25% large)
# A die leaning on the wall lies within WALL_REACH (bodies.py) of it. When its sides are the
# colour of its top, the face found takes in the side it turns up, away from the wall: its pips
# then lie towards the wall, off the face's centre by more than WALL_SHIFT face sides (flat dice
# by the wall: under 0.12 in 99 of 100).
WALL_SHIFT = 0.14
COCKED_FACE = 1.3  # a leaning die shows a foreshortened top face...
COCKED_STRETCH = 1.5  # ...and a pip layout squashed along one axis
# In a single photo taken at a slant, every flat die's top face is foreshortened alike: when all
# the dice found show faces at least SLANT_ASPECT foreshortened (at most SLANT_MAX), their long
# axes within SLANT_AXES degrees of one another, the camera's tilt did it, not dice leaning.
SLANT_ASPECT = 1.15
SLANT_MAX = 1.6
SLANT_AXES = 20.0
SLANT_APART = 1.2  # ...and lying apart (in faces' long sides): the top and side of one leaning
# die are foreshortened alike too, edge to edge
# A camera looking down shows a flat die away from the middle of its view with the side facing
# the middle: the top face stands out, the face found takes in that side and is foreshortened
# along the line to the middle, the top's pips lying outward of its centre. In a single photo, a
# die refused as leaning for its face alone is read when that is all it shows: at least
# OUTWARD_REACH out (over half the picture's diagonal), its long axis within OUTWARD_AXIS
# degrees of that line, its pips at least OUTWARD_PIPS face sides outward (byler's top-down
# photos: 0.08-0.14 on the flat dice so refused).
OUTWARD_REACH = 0.3
OUTWARD_AXIS = 25.0
OUTWARD_PIPS = 0.05
LEANING_SHAPE = "die leaning"  # the refusal of a die whose pips read, for its face's shape alone
# A die leans only on something: the tray's wall, or another die or thing (then its body is a
# piece of a cluster, or larger than one die). A die refused for its face's shape alone, lying
# alone and away from the wall, is flat: the face found took in a side of its own colour that
# perspective shows (dark dice: the simulated tray's black dice lost a third of ordinary throws
# so). It is read if its face is no more oblong than UNPROPPED_FACE: a top face seen alone that
# oblong leans under 44 degrees, so it is still the face most turned up.
UNPROPPED_FACE = 1.4
UNPROPPED_BODY = 1.2  # a body larger than this (die sizes) may hold a die leaning on another
SPACING = (0.17, 0.31)  # pip spacing, in face sides
MAX_FIT_ERROR = 0.28  # pip distance from its layout position, in pip spacings
MAX_ANGLE = 12.0  # degrees between the pip layout and the die's edges
MAX_OFFSET = 0.25  # centre of the pips from the centre of the face found, face sides
MAX_OFFSET_ONE = 0.16  # ...for a lone pip, which has no layout to vouch for it
PIP_RATIO = 2.6  # largest over smallest pip diameter
BLURRED = 0.052  # edge width, in die sides, above which an unread die is called blurred
# A face whose colour split (Otsu) is no stronger than the pip finder's floor shows texture (wood
# grain, felt), not pips: such spots are no evidence of a die, and its soft edges no sign of blur
# (a blurred die keeps pips that stand out from its face).
FAINT = MIN_CONTRAST
ONE_FACE = 0.75  # a single pip is trusted only on a face found whole (die sides)
ONE_SPACING = 0.28  # pip spacing assumed for a lone pip's grid check (face sides)
MAX_STRAY = 1.0  # share of the face around the pips allowed to differ from the face colour
GRID_OFF = 0.5  # an empty pip place differs from the face less than this share of a pip
GLARED = 0.04  # fraction of saturated face pixels above which glare may hide pips...
GLARED_PLACE = 0.1  # ...and does where it covers this much of a place without a pip
PLACE_RADIUS = 0.27  # a pip place's disc, in pip spacings (a pip and its rim)


@dataclass(frozen=True, slots=True)
class DieReading:
    """One candidate die and what came of it: a Die, or the reason it could not be read.

    evidence: whether an unread candidate still looks like a die (a square body, or a face of
    one colour with pip-like spots); one that does not is clutter and is left out.
    spots: how many pip-like spots its face showed (a tentative count, even when refused).
    pips_off: where the centre of the pips read lies from the face's centre (x, y pixels).
    in_view: whether all nine pip places of the face read, each with a pip's rim, lie in the
    picture (a die touching its edge is read only so, see second_look.read_at_edge).
    pips: where the pips read lie (frame pixels), for a die read.
    """

    body: Body
    die: Die | None
    problem: RerollReason | None
    detail: str
    evidence: bool = True
    face: Face | None = None
    spots: int = 0
    pips_off: tuple[float, float] = (0.0, 0.0)
    in_view: bool = True
    pips: tuple[tuple[float, float], ...] = ()


def _tilt(a: float, b: float) -> float:
    """Smallest angle between two square grids at angles a and b, degrees."""
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


def read_face(spots: Spots) -> tuple[FaceFit | None, str]:
    """The face these pips show (positions in face units), or None with the reason in words."""
    n = len(spots.centres)
    if n == 0:
        return None, "no pips"
    if n > 6:
        return None, f"{n} pip-like spots"
    if spots.cut:
        return None, "a pip cut by the edge of the face found"
    fit = fit_face(spots.centres)
    assert fit is not None
    offset = float(np.hypot(*fit.centre))
    if offset > (MAX_OFFSET_ONE if n == 1 else MAX_OFFSET):
        return None, f"pips off centre by {offset:.2f}"
    if n == 1:
        if spots.contrast <= FAINT:
            return None, "a lone faint spot"  # a knot in wood grain, a fleck on the felt
        if spots.face.share < ONE_FACE:
            return None, f"a lone spot on a face of {spots.face.share:.2f}"
        return _check_grid(fit, spots)
    if spots.diameters.max() > PIP_RATIO * spots.diameters.min():
        return None, "pips of different sizes"
    if not SPACING[0] <= fit.spacing <= SPACING[1]:
        return None, f"pip spacing {fit.spacing:.2f} of the die"
    if fit.error > MAX_FIT_ERROR:
        return None, f"pips do not fit a {n} (error {fit.error:.2f})"
    tilt = _tilt(fit.angle, 0.0)
    if tilt > MAX_ANGLE:
        return None, f"pips turned {tilt:.0f} degrees from the die"
    return _check_grid(fit, spots)


def _check_grid(fit: FaceFit, spots: Spots) -> tuple[FaceFit | None, str]:
    """The nine pip places of the fitted face: pips where the layout has them, face elsewhere.

    This catches a pip the spot finder missed (a 3 whose middle pip is faint is not a 2).
    """
    a, places = _places(fit, spots)
    radius = PLACE_RADIUS * abs(a)
    on, off = [], []
    for place, has_pip in places:
        value = spots.contrast_at(place.real, place.imag, radius)
        (on if has_pip else off).append(value)
    if max(off) > GRID_OFF * min(on) or max(off) > spots.contrast:
        return None, f"a pip where a {fit.value} has none"
    stray = spots.stray_share(complex(*fit.centre), a, LAYOUTS[fit.value])
    if stray > MAX_STRAY:
        return None, f"face not of one colour around the pips ({stray:.0%})"
    return fit, ""


def _places(fit: FaceFit, spots: Spots) -> tuple[complex, list[tuple[complex, bool]]]:
    """The nine pip places of the fitted face (face units), each with whether the face has a
    pip there; and the pip spacing and turn (a complex) they were laid out by."""
    if fit.value == 1:
        a = complex(ONE_SPACING)
    else:
        a = _orient(fit, spots, fit.spacing * np.exp(1j * np.radians(fit.angle)))
    layout = set(LAYOUTS[fit.value])
    grid = [complex(gx, gy) for gx in (-1, 0, 1) for gy in (-1, 0, 1)]
    return a, [(complex(*fit.centre) + a * g, g in layout) for g in grid]


def glare_hides_pip(fit: FaceFit | None, spots: Spots) -> bool:
    """Could the glare on this face hide a pip? Yes unless the pips read a face and no place
    where that face has no pip is glared: a highlight on the middle of a 5 leaves a clean 4,
    one on the face between the pips hides nothing."""
    if spots.glare <= GLARED:
        return False
    if fit is None:
        return True
    a, places = _places(fit, spots)
    radius = PLACE_RADIUS * abs(a)
    return any(
        spots.saturated_at(place.real, place.imag, radius) > GLARED_PLACE
        for place, has_pip in places
        if not has_pip
    )


def _orient(fit: FaceFit, spots: Spots, a: complex) -> complex:
    """Of the layout turned by a or by a quarter turn more, the one that fits the pips."""
    z = spots.centres[:, 0] + 1j * spots.centres[:, 1] - complex(*fit.centre)
    layout = np.array(LAYOUTS[fit.value])
    costs = [
        float(np.sum(np.min(np.abs(z[:, None] - turn * layout[None, :]), axis=1)))
        for turn in (a, a * 1j)
    ]
    return a if costs[0] <= costs[1] else a * 1j


def confidence(fit: FaceFit) -> float:
    """0..1: how far the fit is from every limit that would reject it."""
    if fit.value == 1:
        margin = 1 - float(np.hypot(*fit.centre)) / MAX_OFFSET
    else:
        margin = min(1 - fit.error / MAX_FIT_ERROR, 1 - _tilt(fit.angle, 0.0) / MAX_ANGLE)
    return round(float(np.clip(0.5 + 0.5 * margin, 0.0, 1.0)), 3)


def _within_hull(frame: np.ndarray, body: Body, face: Face, spots: Spots) -> tuple[Face, Spots]:
    """A face found stopping short of a pip at its edge, sought again within the body's convex
    hull (a pip at the die's edge can bend the outline in around it; a die's top is convex),
    and taken when it no longer cuts a pip: the pips' checks then judge it like any other."""
    again = find_face(frame, cv2.convexHull(body.contour), body.centre, body.size, body.rect[2])
    if again is None:
        return face, spots
    spots_again = find_spots(frame, again)
    return (face, spots) if spots_again.cut else (again, spots_again)


def read_body(frame: np.ndarray, body: Body, cocked_face: float = COCKED_FACE) -> DieReading:
    """Read the top face of one die body, or say why not.

    An unread body keeps `evidence` when it still looks like a die: a face of one colour that
    fills its rectangle, with pip-like spots on it. cocked_face: the face aspect above which the
    die leans (larger in a photo seen at a slant).
    """
    face = find_face(frame, body.contour, body.centre, body.size, body.rect[2])
    if face is None:
        return DieReading(body, None, RerollReason.UNREADABLE, "no face found", False)
    spots = find_spots(frame, face)
    if spots.cut and not body.at_edge:
        face, spots = _within_hull(frame, body, face, spots)
    faint = spots.contrast <= FAINT
    evidence = (
        len(spots.centres) > 0
        and not faint
        and face.share >= EVIDENT_FACE
        and face.fill >= EVIDENT_FILL
        and face.aspect <= (EVIDENT_CUT_ASPECT if body.at_edge else EVIDENT_ASPECT)
    )

    def refuse(reason: RerollReason, why: str, looks_like_die: bool = evidence) -> DieReading:
        return DieReading(body, None, reason, why, looks_like_die, face, len(spots.centres))

    if body.at_edge:
        return refuse(RerollReason.CUT, "die cut by the edge")
    fit, why = read_face(spots)
    leaning = face.aspect > cocked_face or (fit is not None and fit.stretch > COCKED_STRETCH)
    if fit is None and body.pieces > 1:
        return refuse(RerollReason.OVERLAP, f"dice touching or on top ({why})")
    if glare_hides_pip(fit, spots):
        return refuse(RerollReason.GLARE, "glare on the die", True)
    if fit is None:
        if not faint and spots.sharpness() > BLURRED:
            return refuse(RerollReason.BLUR, f"blurred ({why})")
        if leaning:
            return refuse(RerollReason.COCKED, f"die leaning ({why})")
        return refuse(RerollReason.UNREADABLE, why)
    if leaning:
        return refuse(RerollReason.COCKED, LEANING_SHAPE, True)
    if body.against_rim:
        return refuse(RerollReason.COCKED, f"{fit.value} against the tray wall: it may lean", True)
    if face.share < ATTACHED:
        return refuse(RerollReason.OVERLAP, f"{fit.value} on a larger body", True)
    die = Die(
        value=fit.value,
        center=(round(face.centre[0], 1), round(face.centre[1], 1)),
        size=round(face.side, 1),
        confidence=confidence(fit),
    )
    axes = face.axes
    turn = complex(*fit.centre) * axes
    in_view = _places_in_view(fit, spots, frame.shape)
    pips = tuple(
        (float(z.real), float(z.imag))
        for z in complex(*face.centre) + axes * (spots.centres @ np.array([1, 1j]))
    )
    return DieReading(
        body, die, None, "", True, face, len(spots.centres), (turn.real, turn.imag), in_view, pips
    )


def _places_in_view(fit: FaceFit, spots: Spots, frame_shape: tuple[int, ...]) -> bool:
    """Do all nine pip places of the fitted face, each with a pip's rim, lie in the picture?"""
    face = spots.face
    a, places = _places(fit, spots)
    turn = face.axes
    rim = PLACE_RADIUS * abs(a) * face.side
    height, width = frame_shape[:2]
    return all(
        rim <= z.real <= width - 1 - rim and rim <= z.imag <= height - 1 - rim
        for z in (complex(*face.centre) + turn * place for place, _ in places)
    )


SHARED_PIP = 0.4  # a pip this near another die's face centre (its face sides) lies on that face
STRAY_REACH = 0.75  # pips of one die lie within this many face sides of the next one
HEAP_BODY = 1.4  # a body this many die sizes across may be a heap of dice...
HEAP_PIPS = 3  # ...and is one when it shows this many pip-like spots
SHAPE_PROBLEMS = (RerollReason.UNREADABLE, RerollReason.COCKED, RerollReason.BLUR)


def _die_like(body: Body) -> bool:
    return body.aspect <= MAX_ASPECT and body.fill >= MIN_FILL


def read_dice(
    frame: np.ndarray, calibration: Calibration | None = None
) -> tuple[list[DieReading], float]:
    """Every die candidate in the frame with its reading, and the die size used (pixels).

    The die size (of a body) is the calibrated one, else the median of the dice read, else the
    median of the die-like bodies. Bodies much smaller are specks. A body too large or too odd
    to be one die is a heap of dice when pips show on it (never announced), else clutter.
    """
    work = working_copy(frame)
    lab = to_lab(work[0])
    bodies = find_bodies(frame, calibration, work, lab)
    if not bodies:
        return [], 0.0
    candidates = [b for b in bodies if _die_like(b)]
    readings = [read_body(frame, body) for body in candidates]
    read = [r for r in readings if r.die is not None]
    if calibration is not None and calibration.die_size:
        face = float(calibration.die_size)
        die_size = face / FACE_OF_BODY
    else:
        die_size = float(np.median([r.body.size for r in read] or [b.size for b in bodies]))
        face = float(np.median([r.die.size for r in read])) if read else FACE_OF_BODY * die_size
    known = bool(read) or bool(calibration is not None and calibration.die_size)
    spots = spot_centres(lab, face, work[1])
    if known:
        # odd-shaped bodies of a die's size with pips on them: dice seen at a slant
        readings += [
            read_body(frame, body)
            for body in bodies
            if not _die_like(body)
            and SPOTTED_SIZE[0] <= body.size / die_size <= SPOTTED_SIZE[1]
            and _spots_in(body, spots) >= 2
        ]
    # against an empty-tray reference, anything die-sized that came onto the tray is a die (or
    # a problem); without one, an unread body must look like a die not to be taken for clutter
    referenced = calibration is not None and calibration.empty is not None
    kept = []
    for reading in readings:
        size = reading.body.size / die_size
        if size < (MIN_EVIDENT_BODY if reading.evidence else MIN_BODY):
            continue
        shaped = known and _die_shaped(reading, size)
        spotted = (
            known
            and SPOTTED_SIZE[0] <= size <= SPOTTED_SIZE[1]
            and _spots_in(reading.body, spots) >= 2
        )
        if not (referenced or shaped or spotted or _plausible(reading, face, known)):
            if _heap(frame, reading.body, size, face):
                kept.append(_heaped(reading.body))
            continue
        piled = size > OVERLAP_UNREAD or (size > OVERLAP_RAGGED and reading.body.fill < 0.8)
        if reading.die is None and piled and reading.problem in SHAPE_PROBLEMS:
            why = f"dice on top of each other ({reading.detail})"
            reading = DieReading(reading.body, None, RerollReason.OVERLAP, why)
        kept.append(reading)
    in_kept = {id(r.body) for r in kept}
    for body in bodies:
        size = body.size / die_size
        if id(body) in in_kept or _die_like(body) or size < MIN_BODY:
            continue
        if _heap(frame, body, size, face):
            kept.append(_heaped(body))
        elif referenced and not known:
            # no die read and no size to judge it by: dice lying together, their shadows joining
            # them into one odd body; never a silent "no dice" while something lies there
            why = "something in the tray that is not one die (dice together?)"
            kept.append(DieReading(body, None, RerollReason.UNREADABLE, why))
    frame_size = (frame.shape[1], frame.shape[0])
    tray = calibration.tray if calibration is not None else None
    kept = [_unpropped(frame, reading, die_size) for reading in kept]
    kept = [_check_attached(reading, spots, die_size, frame_size) for reading in kept]
    kept = [_check_wall(reading, tray, face) for reading in kept]
    sizable = [b for b in bodies if b.size >= MIN_BODY * die_size]
    kept += _stray_dice(frame, sizable, spots, face, die_size, tray)
    if _single_photo(calibration):
        slanted = _slanted(kept)
        kept = [_in_perspective(frame, r, slanted, spots, die_size, frame_size) for r in kept]
    return _pips_shared(kept), die_size


def _pips_shared(readings: list[DieReading]) -> list[DieReading]:
    """Dice read with a pip on another die's face (within SHARED_PIP of its centre, face
    sides) are refused: flat dice's faces never overlap, so a die lies partly over the other
    and one of them was read with a pip of the other (a 1 a quarter under a 2 read as a 2)."""
    faces = [(r, r.face) for r in readings if r.die is not None and r.face is not None]
    shared = set()
    for a, _ in faces:
        for b, face in faces:
            if a is b:
                continue
            for x, y in a.pips:
                z = (complex(x, y) - complex(*face.centre)) / face.axes
                if max(abs(z.real), abs(z.imag)) < SHARED_PIP:
                    shared.update((id(a), id(b)))
    why = "a pip on the face of another die: dice on top of each other"
    return [
        DieReading(r.body, None, RerollReason.OVERLAP, why) if id(r) in shared else r
        for r in readings
    ]


def _unpropped(frame: np.ndarray, reading: DieReading, die_size: float) -> DieReading:
    """A die refused as leaning for its oblong face alone, read again when nothing there can
    prop it (see UNPROPPED_FACE); the wall's and attached pips' checks follow. A body cut by
    the picture's edge is refused before (it may lean on something out of view)."""
    if not _leaning_by_shape(reading) or not lies_alone(reading.body, die_size):
        return reading
    again = read_body(frame, reading.body, UNPROPPED_FACE)
    return reading if again.die is None else again


def _leaning_by_shape(reading: DieReading) -> bool:
    """Refused as leaning for its oblong face alone (its pips fit a face: LEANING_SHAPE)."""
    return reading.problem is RerollReason.COCKED and reading.detail == LEANING_SHAPE


def lies_alone(body: Body, die_size: float | None) -> bool:
    """Nothing there to lean on: one piece (no other die joined to it), not against the tray's
    wall, no larger than one die (die_size: a die's body side)."""
    if die_size is None or body.pieces > 1 or body.against_rim:
        return False
    return body.size <= UNPROPPED_BODY * die_size


def _in_perspective(
    frame: np.ndarray,
    reading: DieReading,
    slanted: bool,
    spots: np.ndarray,
    die_size: float,
    frame_size: tuple[int, int],
) -> DieReading:
    """In a single photo, a die refused as leaning only for its oblong face, read again if the
    camera's view explains it: all dice foreshortened alike (slanted: see SLANT_ASPECT), or this
    one showing the side a flat die shows out there (see OUTWARD_REACH)."""
    if not _leaning_by_shape(reading):
        return reading
    if reading.face is None or not (slanted or _outward(reading.face, frame_size)):
        return reading
    again = read_body(frame, reading.body, SLANT_MAX)
    face = again.face
    if again.die is None or face is None or face.foreshortening > SLANT_MAX:
        return reading
    if not slanted:
        out = _outward(face, frame_size)
        if out is None or (complex(*again.pips_off) * np.conj(out)).real < OUTWARD_PIPS * face.side:
            return reading  # its top's pips do not stand outward of its side
    return _check_attached(again, spots, die_size, frame_size)


def _outward(face: Face, frame_size: tuple[int, int]) -> complex | None:
    """The unit direction (x + iy) away from the middle of the view when the face lies far out
    and is long along it, as a flat die showing its side there (see OUTWARD_REACH); else None."""
    w, h = frame_size
    out = complex(face.centre[0] - w / 2, face.centre[1] - h / 2)
    if abs(out) < OUTWARD_REACH * 0.5 * np.hypot(w, h):
        return None
    if _between_axes(face.long_axis, float(np.degrees(np.angle(out)))) > OUTWARD_AXIS:
        return None
    return out / abs(out)


def _slanted(readings: list[DieReading]) -> bool:
    """Does every die found show a face foreshortened alike (the camera's tilt, see
    SLANT_ASPECT)?"""
    faces = [r.face for r in readings]
    if len(faces) < 2 or any(
        f is None or not SLANT_ASPECT <= f.foreshortening <= SLANT_MAX for f in faces
    ):
        return False
    found = [f for f in faces if f is not None]
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            if _between_axes(a.long_axis, b.long_axis) > SLANT_AXES:
                return False
            long = max(f.side * np.sqrt(f.foreshortening) for f in (a, b))
            if np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < SLANT_APART * long:
                return False
    return True


def _between_axes(a: float, b: float) -> float:
    """Smallest angle between two directions (degrees, modulo 180)."""
    d = (a - b) % 180.0
    return min(d, 180.0 - d)


def _spots_in(body: Body, spots: np.ndarray) -> int:
    """How many pip-like spots lie inside a body."""
    return sum(
        cv2.pointPolygonTest(body.contour, (float(p[0]), float(p[1])), False) > 0 for p in spots
    )


def _plausible(reading: DieReading, face: float, known: bool) -> bool:
    """Is this candidate a die? Read, or looking like one with a face of the dice's size."""
    if reading.die is not None:
        return True
    if not reading.evidence or reading.face is None:
        return False
    if not known or reading.problem is RerollReason.CUT:
        return True
    return EVIDENT_SIZE[0] <= reading.face.side / face <= EVIDENT_SIZE[1]


def _die_shaped(reading: DieReading, size: float) -> bool:
    """Is this unread body shaped and sized like the dice read (size: over their size)?

    A square, full body as large as the others is a die the reader failed to understand; a
    die cut by the edge shows a full part of one, of one colour.
    """
    body = reading.body
    if body.pieces > 1:
        return False  # cut out of a larger blob: square by construction, proves nothing
    if body.at_edge:
        share = reading.face.share if reading.face is not None else 0.0
        return CUT_SIZE[0] <= size <= CUT_SIZE[1] and body.fill >= 0.6 and share >= 0.6
    return (
        SHAPE_SIZE[0] <= size <= SHAPE_SIZE[1]
        and body.aspect <= SHAPE_ASPECT
        and body.fill >= SHAPE_FILL
    )


def _perspective(
    offsets: np.ndarray, centre: tuple[float, float], frame_size: tuple[int, int]
) -> np.ndarray:
    """Which spots (offsets from a face centre, complex, in face sides) a flat die can show on
    its sides: a camera above the middle of the picture sees the sides that face away from the
    middle, the more so the farther out the die lies (about half a face at the edge of a
    wide-angle view)."""
    w, h = frame_size
    outward = complex(centre[0] - w / 2, centre[1] - h / 2)
    reach = abs(outward) / (0.5 * max(w, h))  # 0 in the middle, about 1 at the edges
    if reach < 0.05:
        return np.zeros(len(offsets), bool)
    along = (offsets * np.conj(outward / abs(outward))).real
    across = np.abs((offsets * np.conj(outward / abs(outward))).imag)
    return (
        (along > 0.3)
        & (along <= 0.5 + ATTACHED_MARGIN + PERSPECTIVE * reach)
        & (across <= 0.5 + 0.5 * along)
    )


def _check_attached(
    reading: DieReading, spots: np.ndarray, die_size: float, frame_size: tuple[int, int]
) -> DieReading:
    """A die read on a body that holds pips well off its face is not alone: another die is
    attached, or (when the body is no larger than one die) the pips are on its own side, seen
    because it leans."""
    if reading.die is None or reading.face is None or len(spots) == 0:
        return reading
    face = reading.face
    inside = [
        p
        for p in spots
        if cv2.pointPolygonTest(reading.body.contour, (float(p[0]), float(p[1])), False) > 0
    ]
    if not inside:
        return reading
    turn = np.exp(-1j * np.radians(face.angle))
    offsets = np.array(inside) @ np.array([1, 1j]) - complex(*face.centre)
    z = offsets * turn / face.side
    beyond = np.maximum(np.abs(z.real), np.abs(z.imag)) > 0.5 + ATTACHED_MARGIN
    beyond &= ~_perspective(offsets / face.side, face.centre, frame_size)
    if beyond.sum() >= 1:
        if reading.body.size <= OVERLAP_UNREAD * die_size:
            why = f"pips beside the {reading.die.value}: a side seen, the die leans"
            return DieReading(reading.body, None, RerollReason.COCKED, why, True, face)
        why = f"pips beside the {reading.die.value}: another die attached"
        return DieReading(reading.body, None, RerollReason.OVERLAP, why, True, face)
    return reading


def _check_wall(reading: DieReading, tray: np.ndarray | None, face: float) -> DieReading:
    """A die read by the tray wall with its pips off its face's centre, towards the wall, leans
    on the wall (see WALL_SHIFT).

    The body finder calls a die touching the wall `cocked` when its outline reaches the floor's
    edge; a dark die against the dark foot of the wall stops short of it. face: the dice's top
    face side (pixels).
    """
    die = reading.die
    wall = nearest_wall(tray, die.center) if die is not None else None
    if die is None or wall is None or wall[0] >= WALL_REACH * face:
        return reading
    shift = float(np.dot(reading.pips_off, wall[1])) / face
    if shift <= WALL_SHIFT:
        return reading
    why = f"{die.value} by the tray wall, its pips {shift:.2f} of a face towards it: it leans"
    return DieReading(reading.body, None, RerollReason.COCKED, why, True, reading.face)


def _stray_dice(
    frame: np.ndarray,
    bodies: list[Body],
    spots: np.ndarray,
    face: float,
    die_size: float,
    tray: np.ndarray | None,
) -> list[DieReading]:
    """Dice the body finder missed (a white die on a white tray), found by their pips.

    Pip-like spots outside every body are grouped (pips of one die lie within a face side of
    each other); each group laid out like the pips of a face of the dice's size is read as a
    die around its centre, or reported unreadable, so a missed die can never make an incomplete
    roll look complete.
    """
    if tray is not None:
        polygon = np.asarray(tray, np.float32).reshape(-1, 1, 2)
        spots = [
            p for p in spots if cv2.pointPolygonTest(polygon, (float(p[0]), float(p[1])), False) > 0
        ]
    outside = [
        p
        for p in spots
        if all(
            cv2.pointPolygonTest(b.contour, (float(p[0]), float(p[1])), True) < -0.1 * face
            for b in bodies
        )
    ]
    readings = []
    for group in _groups(np.array(outside).reshape(-1, 2), STRAY_REACH * face):
        if not _pip_layout(group, face):
            continue
        centre = group.mean(axis=0)
        half = 0.5 * die_size
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) + centre
        contour = np.round(square).astype(np.int32).reshape(-1, 1, 2)
        body = Body(
            centre=(float(centre[0]), float(centre[1])),
            size=die_size,
            rect=((float(centre[0]), float(centre[1])), (die_size, die_size), 0.0),
            contour=contour,
            at_edge=False,
            pieces=1,
        )
        reading = read_body(frame, body)
        if reading.die is None:
            why = f"pips outside any die found ({reading.detail})"
            reading = DieReading(body, None, RerollReason.UNREADABLE, why, True, reading.face)
        readings.append(reading)
    return readings


def _pip_layout(points: np.ndarray, face: float) -> bool:
    """Do these spots lie like the pips of a face of the dice's size?

    Three to six pips: any two spots lie like the pips of a 2, so pairs prove nothing.
    """
    if not 3 <= len(points) <= 6:
        return False
    fit = fit_face(points / face)
    return (
        fit is not None and SPACING[0] <= fit.spacing <= SPACING[1] and fit.error <= MAX_FIT_ERROR
    )


def _groups(points: np.ndarray, reach: float) -> list[np.ndarray]:
    """Points linked by distances under `reach`, as groups (single linkage)."""
    n = len(points)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.hypot(*(points[i] - points[j])) < reach:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return [points[idx] for idx in groups.values()]


def _heap(frame: np.ndarray, body: Body, size: float, face: float) -> bool:
    """Is this body, too odd to read as one die, dice together (a piece of a split cluster, or
    a large body) with pips showing?"""
    if body.pieces == 1 and size <= HEAP_BODY:
        return False
    return pip_like_spots(frame, body.contour, face) >= HEAP_PIPS


def _heaped(body: Body) -> DieReading:
    return DieReading(body, None, RerollReason.OVERLAP, "dice heaped together")


def decide(readings: list[DieReading], expect: int | None) -> Roll:
    """Turn per-die readings into a roll: ok only when every candidate is read."""
    dice = tuple(sorted((r.die for r in readings if r.die is not None), key=lambda d: d.center))
    for reading in readings:
        if reading.problem is not None:
            x, y = reading.body.centre
            return Roll(dice, reading.problem, f"{reading.detail} at ({x:.0f}, {y:.0f})")
    if not dice:
        return Roll((), RerollReason.WRONG_COUNT, "no dice found")
    for a, b in _overlapping(dice):
        why = f"the faces read at ({a.center[0]:.0f}, {a.center[1]:.0f}) and "
        why += f"({b.center[0]:.0f}, {b.center[1]:.0f}) overlap: dice on top of each other"
        return Roll(dice, RerollReason.OVERLAP, why)
    if expect is not None and len(dice) != expect:
        return Roll(dice, RerollReason.WRONG_COUNT, f"{len(dice)} dice, expected {expect}")
    return Roll(dice)


def _overlapping(dice: tuple[Die, ...]) -> list[tuple[Die, Die]]:
    """Pairs of dice read with faces overlapping. The top faces of flat dice lie in one plane,
    so their squares never overlap, however the dice touch (centres at least a face side apart
    when edge to edge); two read so close are one die read twice, or one on another."""
    return [
        (a, b)
        for i, a in enumerate(dice)
        for b in dice[i + 1 :]
        if np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
        < FACES_APART * 0.5 * (a.size + b.size)
    ]


def inspect(
    frame: np.ndarray,
    *,
    expect: int | None = 3,
    calibration: Calibration | None = None,
    second_look: bool = True,
) -> tuple[Roll, list[DieReading]]:
    """read_roll() plus every die candidate with its reading (for the debug view).

    second_look: when the pips alone do not give an `ok` roll, ask the die finder too; in a
    single photo with any number of dice expected, always (a die whose body was not seen, on a
    dark or busy background, would otherwise be left out of a roll reported `ok`).
    """
    problem = frame_problem(frame)
    if problem is not None:
        return Roll((), RerollReason.BAD_FRAME, problem), []
    try:
        readings, _ = read_dice(frame, calibration)
    except cv2.error as error:  # a frame OpenCV cannot digest is a bad frame, not a crash
        return Roll((), RerollReason.BAD_FRAME, f"OpenCV: {error.err}"), []
    roll = decide(readings, expect)
    if not second_look or (roll.ok and not (_single_photo(calibration) and expect is None)):
        return roll, readings
    readings = _second_look(frame, readings, calibration)
    return decide(readings, expect), readings


def _single_photo(calibration: Calibration | None) -> bool:
    """Read as a single photo: no calibration of a tray (its background guessed, the camera's
    view unknown)."""
    return calibration is None or not calibration.of_tray


def _second_look(
    frame: np.ndarray, readings: list[DieReading], calibration: Calibration | None
) -> list[DieReading]:
    """The readings amended by the die finder and face classifier (second_look.py); unchanged
    if they cannot run (a model file missing: the pips alone still read).

    On a calibrated tray the dice are of one size (the calibrated one, or that of the dice the
    pips read): a finder's die of another size may be leaning and is not read; with no size to
    compare, the second look is not taken at all.
    """
    photo = _single_photo(calibration)
    sizes = [r.die.size for r in readings if r.die is not None]
    measured = float(np.median(sizes)) if sizes else None  # top face of the dice the pips read
    face = None
    if not photo:
        if any(r.problem not in (None, *SETTLED_BY_FINDER) for r in readings):
            return readings  # a refusal the second look may not overturn: spare its cost
        face = calibration.die_size or measured
        if face is None:
            return readings
    tray = calibration.tray if calibration is not None else None
    top = face or measured
    try:
        candidates = read_faces(frame, dice_net.find_dice(frame, face and face / FACE_OF_BODY))
        candidates = reframe(frame, candidates, [r.die.center for r in readings if r.die])
        candidates = read_pips(frame, candidates, top)
        if photo:
            candidates = read_at_edge(frame, candidates, readings, top)
        framed = body_faces(frame, readings)
        clutter = not_faces(framed) if photo else None
    except (cv2.error, FileNotFoundError) as error:
        _unavailable(str(error))
        return readings
    return merge(readings, candidates, frame.shape, tray, clutter, face, framed)


@lru_cache(maxsize=8)
def _unavailable(why: str) -> None:
    """Say once (per cause) that the second look cannot run, not on every read."""
    log.warning("second look unavailable, the pips alone read: %s", why)


def read_roll(
    frame: np.ndarray,
    *,
    expect: int | None = 3,
    calibration: Calibration | None = None,
    second_look: bool = True,
) -> Roll:
    """Read the dice in a BGR uint8 frame (h, w, 3). Never raises on a bad frame.

    expect: the number of dice the game needs (None: any number). The Roll is `ok` only when
    exactly that many dice were found and every one was read with confidence.
    """
    return inspect(frame, expect=expect, calibration=calibration, second_look=second_look)[0]


LEARN_DICE = 30  # a learnt die size is the median top face of the last this many dice read


class TrayReader:
    """read_roll() as the kiosk runs it, frame after frame, on its calibrated tray.

    A calibration made from the empty tray alone gives no die size; without one, dice touching
    each other are split at a size guessed from the blob itself. So the size is learnt from the
    dice read `ok` (the median top face of the last LEARN_DICE) and read with from then on. A
    calibration that gives a size keeps it; without a tray or an empty frame (single photos)
    nothing is learnt.
    """

    def __init__(self, calibration: Calibration | None, expect: int | None = 3) -> None:
        self.calibration = calibration
        self.expect = expect
        self._learn = (
            calibration is not None and calibration.die_size is None and calibration.of_tray
        )
        self._sizes: deque[float] = deque(maxlen=LEARN_DICE)

    def __call__(self, frame: np.ndarray) -> Roll:
        roll = read_roll(frame, expect=self.expect, calibration=self.calibration)
        if self._learn and roll.ok and self.calibration is not None:
            self._sizes.extend(die.size for die in roll.dice)
            size = round(float(np.median(self._sizes)), 1)
            self.calibration = replace(self.calibration, die_size=size)
        return roll
