"""Where dice may be: the learned die finder, and on a calibrated tray the empty-tray difference.

Contract: `find_candidates(frame, calibration, p) -> (candidates, unexplained)`. frame: BGR uint8
(h, w, 3); candidates: at most `p.max_candidates`, surest first, centre and die side in frame
pixels; unexplained: outlines ((n, 1, 2) int32, frame px) of things on a calibrated tray that
are larger than a die and hold no candidate (dice heaped, a hand): the judge refuses a roll
while one lies there, so nothing on the tray is ever silently left out.

The two sources are independent: the finder (vision/dice_net.py) sees dice at any scale in any
photo; the difference to the empty tray (vision/tray_difference.py) sees anything that came
onto the tray, whatever it looks like. On a calibrated tray the calibration's die size fixes
the finder's scale and every candidate's size: both readings look at a die's box of that
size around its mark. A mark's own size is the finder's guess, and where the die is hard to
see (a black die in a visitor's shadow) it may mark one pip, small: a box of that size holds
the pip alone, which both readings would then take for a 1. A candidate is not yet a die:
both readings and the judge decide.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.calibration import Calibration, empty_under
from vision.classify import Looks
from vision.face import box_outline
from vision.image import Halvings
from vision.params import PARAMS, CandidateParams
from vision.tray_difference import TrayDifference, reference_side, tray_blobs
from vision.types import Candidate


def from_finder(
    frame: np.ndarray,
    die: float | None,
    p: CandidateParams = PARAMS.candidates,
    looks: Looks | None = None,
    halvings: Halvings | None = None,
) -> list[Candidate]:
    """The die finder's marks (die: the expected die side in px, or None for any scale);
    looks: the classifier's answers on this frame, which the finder's merge asks too;
    halvings: the frame's, shared with the tray difference."""
    from vision import dice_net

    is_face = None if looks is None else (lambda _, boxes: looks.sure_faces(boxes))
    found = dice_net.find_dice(frame, die, is_face, halvings, p)
    return [
        Candidate((float(c.centre[0]), float(c.centre[1])), float(c.size), float(c.p_die))
        for c in found
        if c.p_die >= p.min_p_die
    ][: p.max_candidates]


def _cut(
    centre: tuple[float, float], side: float, shape: tuple[int, ...], p: CandidateParams
) -> bool:
    """Does a die's box reach past the picture's edge?"""
    half = side / 2 * (1 - p.edge_margin)
    x, y = centre
    return x - half < 0 or y - half < 0 or x + half > shape[1] or y + half > shape[0]


def _on_tray(c: Candidate, tray: np.ndarray | None, p: CandidateParams) -> tuple[str, bool]:
    """Where a candidate lies against the tray floor's polygon: "in", "across" its edge (its
    box reaching over it: cut, or up the wall), or "out" (beside the tray: not thrown); and
    whether its outline (or box) comes within `wall_touch` die sides of the edge."""
    if tray is None:
        return "in", False
    polygon = np.asarray(tray, np.float32).reshape(-1, 1, 2)
    depth = cv2.pointPolygonTest(polygon, (float(c.centre[0]), float(c.centre[1])), True)
    if depth <= -c.size / 2:
        return "out", False
    if depth <= 0:
        return "across", True
    outline = c.outline if c.outline is not None else box_outline(c.centre, c.size)
    points = np.asarray(outline, np.float32).reshape(-1, 2)
    nearest = min(cv2.pointPolygonTest(polygon, (float(x), float(y)), True) for x, y in points)
    return "in", nearest < p.wall_touch * c.size


def find_candidates(
    frame: np.ndarray,
    calibration: Calibration | None = None,
    p: CandidateParams = PARAMS.candidates,
    looks: Looks | None = None,
) -> tuple[list[Candidate], list[np.ndarray]]:
    """Every place a die may lie, and what lies on a calibrated tray unexplained by them
    (looks: the classifier's answers on this frame, shared with the judge's)."""
    face = calibration.die_size if calibration is not None else None
    die = face * p.body_of_face if face else None
    halvings = Halvings(frame)  # both sources shrink the frame
    found = from_finder(frame, die, p, looks, halvings)
    tray = calibration.tray if calibration is not None else None
    unexplained: list[np.ndarray] = []
    empty = empty_under(calibration, frame)
    if empty is not None:
        found, unexplained = _with_tray(frame, empty, found, die, tray, p, halvings)
    kept = []
    for c in found:
        if die:  # the calibration's die size, not the mark's own guess
            c = Candidate(c.centre, die, c.p_die, c.on_tray, c.outline)
        where, at_wall = _on_tray(c, tray, p)
        if where == "out":
            continue  # beside the track: a die on the table is not thrown
        cut = where == "across" or _cut(c.centre, c.size, frame.shape, p)
        kept.append(Candidate(c.centre, c.size, c.p_die, c.on_tray, c.outline, cut, at_wall))
    return kept[: p.max_candidates], unexplained


def free_standing(
    candidate: Candidate, candidates: list[Candidate], p: CandidateParams = PARAMS.candidates
) -> bool:
    """Has this die on the kiosk's tray nothing to lean on: seen alone by the tray difference
    (its own outline) clear of the wall, and no other candidate's centre within `p.support`
    die sides of its own? (Any other candidate counts, a die or not: a die is free only where
    nothing lies beside it.) Without its own outline (a sunbeam or a visitor's shadow across
    it makes one blob of the dice under it) nothing shows it is clear of the wall: its box
    is the finder's, and the box of a die leaning on the rim can lie 0.6 die sides from the
    floor's edge, where its shadow up the wall, in its outline, would have shown it there."""
    if candidate.at_wall or candidate.outline is None:
        return False
    x, y = candidate.centre
    reach = p.support * candidate.size
    return not any(
        other is not candidate and np.hypot(other.centre[0] - x, other.centre[1] - y) < reach
        for other in candidates
    )


def apart(
    candidate: Candidate,
    middle: tuple[float, float],
    others: list[tuple[float, float]],
    side: float,
    p: CandidateParams = PARAMS.candidates,
) -> Candidate:
    """The candidate with the outline its top face is sought in cut at the midline to each
    other die beside it: a box of `side` px about its mark, less what lies nearer another die's
    middle than to its own `middle`, of those `p.beside` to `p.support` die sides away. Two flat
    dice's top faces lie each on its own side of that line; a box of a die's size about one
    takes in a strip of the other's face where the two touch. The middles are the pips' (every
    layout is symmetric about the face's middle): the finder's marks lie a few pixels off. (An
    outline so cut is no tray difference's: the die has another beside it, and is not taken to
    stand free, `free_standing`, either way.)"""
    x, y = middle
    near = [
        (ox, oy)
        for ox, oy in others
        if p.beside * candidate.size <= np.hypot(ox - x, oy - y) < p.support * candidate.size
    ]
    if not near:
        return candidate
    outline = box_outline(candidate.centre, side).reshape(-1, 2)
    reach = 4 * side  # beyond the box: a square standing for the half-plane on this die's side
    for ox, oy in near:
        u = np.array([ox - x, oy - y]) / np.hypot(ox - x, oy - y)  # toward the other die
        v = np.array([-u[1], u[0]])
        mid = np.array([(x + ox) / 2, (y + oy) / 2])
        half = np.array(
            [
                mid + reach * v,
                mid - reach * v,
                mid - reach * (v + 2 * u),
                mid + reach * (v - 2 * u),
            ],
            np.float32,
        )
        area, cut = cv2.intersectConvexConvex(outline.astype(np.float32), half)
        if area <= 0 or cut is None:
            return candidate
        outline = cut.reshape(-1, 2)
    return replace(candidate, outline=outline.reshape(-1, 1, 2).astype(np.float32))


def _beside(found: list[Candidate], tray: np.ndarray | None, reach: float) -> list[Candidate]:
    """The finder's marks further than `reach` px outside the tray's floor: dice beside it."""
    if tray is None:
        return []
    floor = np.asarray(tray, np.float32).reshape(-1, 1, 2)
    return [c for c in found if cv2.pointPolygonTest(floor, c.centre, True) < -reach]


def _holds_more(
    difference: TrayDifference,
    outline: np.ndarray,
    marks: list[tuple[float, float]],
    die: float,
    p: CandidateParams,
) -> bool:
    """Does a blob of the dice's scale (at most `p.tray_area[1]` die areas a mark in it) hold
    more than the dice the finder marks in it? It does where it is more than `p.one_blob`
    times its part within `p.own_reach` die sides of the marks, both as found and once the light is
    matched (a die's own shadow is no thing): a die touching them that the finder did not
    mark. Left out, such a die would go unseen: a third die thrown into a game of two would
    leave the two read announced. (A larger blob is mostly a change of light, a visitor's
    shadow over a die: what is left of it once the light is matched is judged by area.)"""
    for lit in (False, True):
        area, own = difference.areas(outline, marks, p.own_reach * die, lit)
        if area <= p.one_blob * own:
            return False
    return True


def _missed(
    difference: TrayDifference,
    outline: np.ndarray,
    marks: list[tuple[float, float]],
    die: float,
    p: CandidateParams,
) -> Candidate | None:
    """The one die the finder missed in a blob that holds more than its marks, or None where
    the blob is not one die more. Where two dice touch, the finder may mark one mark for the
    pair. With a disc of `p.missed_disc` die sides cut out about each mark, the missed die's
    middle is the point deepest in what is left of the blob (what differs once the light is
    matched: no shadow): a marked die keeps only its corners there, its neighbour its whole
    square. It must lie `p.missed_depth` die sides deep (a whole die's middle lies over 0.4
    deep), and with it marked too the blob must hold no more than its marks (`_holds_more`;
    three touching dice with one marked hold more). The blob stays unexplained all the same:
    only that die and every mark in it read as dice explain it (judge.judge_roll); that die
    taken for a part of another, or for none, leaves it refusing the roll."""
    area = difference.lit_area(outline)
    n = len(marks) + 1
    if area > p.tray_area[1] * n * die**2 or area < (n - 1 + p.tray_area[0]) * die**2:
        return None
    found = difference.deepest(outline, marks, p.missed_disc * die)
    if found is None or found[1] < p.missed_depth * die:
        return None
    centre = found[0]
    polygon = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    if cv2.pointPolygonTest(polygon, centre, False) < 0:
        return None
    if any(np.hypot(centre[0] - mx, centre[1] - my) < p.beside * die for mx, my in marks):
        return None
    if _holds_more(difference, outline, [*marks, centre], die, p):
        return None  # more than one die more (three touching, one marked)
    return Candidate((float(centre[0]), float(centre[1])), die, 0.0, True)


def _with_tray(
    frame: np.ndarray,
    empty: np.ndarray,
    found: list[Candidate],
    die: float | None,
    tray: np.ndarray | None,
    p: CandidateParams,
    halvings: Halvings,
) -> tuple[list[Candidate], list[np.ndarray]]:
    """The finder's candidates joined with the tray difference's blobs."""
    if die is None:
        sizes = [c.size for c in found if c.p_die >= 0.5]
        die = float(np.median(sizes)) if sizes else None
    out = list(found)
    unexplained = []
    reference = reference_side(frame.shape, die)
    beside = _beside(found, tray, p.floor_reach * reference)
    difference = tray_blobs(frame, empty, die, p, tray, halvings)
    for outline in difference.outlines[: 4 * p.max_candidates]:
        area = cv2.contourArea(outline)
        m = cv2.moments(outline)
        if m["m00"] <= 0 or area < p.tray_area[0] * reference**2:
            continue  # a speck: sensor noise, a crumb
        centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
        polygon = outline.astype(np.float32)
        if any(cv2.pointPolygonTest(polygon, c.centre, True) >= -c.size / 2 for c in beside):
            continue  # the edge of a die beside the tray, where the difference is cut off
        inside = [
            i for i, c in enumerate(out) if cv2.pointPolygonTest(polygon, c.centre, False) >= 0
        ]
        dice = area / die**2 if die else None  # the blob's area in die areas
        one_die = dice is not None and dice <= p.tray_area[1]

        if not inside:
            if difference.lit_area(outline) < p.tray_area[0] * reference**2:
                continue  # a change of light: a visitor's shadow, a lamp
            if one_die:
                out.append(Candidate(centre, float(np.sqrt(area)), 0.0, True, outline))
            else:
                unexplained.append(outline)  # something on the tray no finder mark explains
        elif dice is not None and dice > p.tray_area[1] * len(inside):
            if difference.lit_area(outline) > p.tray_area[1] * len(inside) * die**2:
                unexplained.append(outline)  # larger than the dice the finder sees in it,
                # also once the light is matched around it (else a visitor's shadow)
        elif die is not None and _holds_more(
            difference, outline, [out[i].centre for i in inside], die, p
        ):
            unexplained.append(outline)  # more than the dice the finder marks in it...
            missed = _missed(difference, outline, [out[i].centre for i in inside], die, p)
            if missed is not None:  # ...unless the die more is read there (judge_roll)
                out.append(missed)
        elif len(inside) == 1 and one_die:
            c = out[inside[0]]
            out[inside[0]] = Candidate(c.centre, c.size, c.p_die, True, outline)
    return out, unexplained
