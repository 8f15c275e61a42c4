"""Where dice may be: the learned die finder, and on a calibrated tray the empty-tray difference.

Contract: `find_candidates(frame, calibration, p) -> (candidates, unexplained)`. frame: BGR uint8
(h, w, 3); candidates: at most `p.max_candidates`, surest first, centre and die side in frame
pixels; unexplained: outlines ((n, 1, 2) int32, frame px) of things on a calibrated tray that
are larger than a die and hold no candidate (dice heaped, a hand): the judge refuses a roll
while one lies there, so nothing on the tray is ever silently left out.

The two sources are independent: the finder (vision/dice_net.py) sees dice at any scale in any
photo; the difference to the empty tray sees anything that came onto the tray, whatever it
looks like. On a calibrated tray the calibration's die size fixes the finder's scale. A
candidate is not yet a die: both readings and the judge decide.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.colour import lab_distance
from vision.face import box_outline
from vision.image import downsize
from vision.params import PARAMS, CandidateParams
from vision.types import Candidate

WORK_DIE = 24.0  # px a die is wide in the working copy of the tray difference


def from_finder(
    frame: np.ndarray, die: float | None, p: CandidateParams = PARAMS.candidates
) -> list[Candidate]:
    """The die finder's marks (die: the expected die side in px, or None for any scale)."""
    from vision import dice_net

    found = dice_net.find_dice(frame, die)
    return [
        Candidate((float(c.centre[0]), float(c.centre[1])), float(c.size), float(c.p_die))
        for c in found
        if c.p_die >= p.min_p_die
    ][: p.max_candidates]


def tray_blobs(
    frame: np.ndarray,
    empty: np.ndarray,
    die: float | None,
    p: CandidateParams = PARAMS.candidates,
    tray: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Outlines ((n, 1, 2) int32, frame px) of what differs from the empty tray.

    Both frames are shrunk so a die is about WORK_DIE px wide (or to a long side of 320 px when
    no die size is known) and their channels matched in median first: a change of light moves
    the whole floor, a die only its own patch. With the tray's floor polygon (`tray`) only what
    lies within `p.floor_reach` die sides of the floor counts: a sleeve on the rim, a phone
    beside the tray are not on it (and would otherwise refuse every roll as dice heaped).
    """
    scale = min(1.0, WORK_DIE / die) if die else min(1.0, 320 / max(frame.shape[:2]))
    size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
    now_lab = _small_lab(frame, size)
    reach = p.floor_reach * (die or max(frame.shape[:2]) / 16)
    then_lab, then_median, floor = _empty_lab(empty, size, tray, reach)
    shift = np.median(now_lab[::2, ::2].reshape(-1, 3), axis=0) - then_median
    distance = lab_distance(now_lab - shift, then_lab)
    mask = (distance > p.tray_distance).astype(np.uint8)
    if floor is not None:
        mask &= floor
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [np.round(c / scale).astype(np.int32) for c in contours]


def _small_lab(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    small = downsize(frame, size)
    return cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)


_EMPTY: dict[tuple, tuple] = {}


def _empty_lab(
    empty: np.ndarray, size: tuple[int, int], tray: np.ndarray | None, reach: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The empty tray shrunk to `size` in Lab, its median colour, and the mask (uint8 0/1,
    `size`) of the floor grown by `reach` frame px (None without a floor), made once per
    calibration (the kiosk reads every settled frame against the same empty frame)."""
    key = (id(empty), id(tray), size, round(reach, 1))
    cached = _EMPTY.get(key)
    if cached is None or cached[0] is not empty or cached[1] is not tray:
        lab = _small_lab(empty, size)
        floor = None
        if tray is not None:
            to_small = np.array([size[0] / empty.shape[1], size[1] / empty.shape[0]])
            points = np.asarray(tray, np.float64).reshape(-1, 2) * to_small
            floor = np.zeros((size[1], size[0]), np.uint8)
            cv2.fillPoly(floor, [np.round(points).astype(np.int32)], 1)
            r = max(1, round(reach * float(to_small.mean())))
            grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
            floor = cv2.dilate(floor, grow)
        if len(_EMPTY) > 4:
            _EMPTY.clear()
        median = np.median(lab[::2, ::2].reshape(-1, 3), axis=0)
        cached = _EMPTY[key] = (empty, tray, lab, median, floor)
    return cached[2], cached[3], cached[4]


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
) -> tuple[list[Candidate], list[np.ndarray]]:
    """Every place a die may lie, and what lies on a calibrated tray unexplained by them."""
    face = calibration.die_size if calibration is not None else None
    die = face * p.body_of_face if face else None
    found = from_finder(frame, die, p)
    tray = calibration.tray if calibration is not None else None
    unexplained: list[np.ndarray] = []
    empty = calibration.empty if calibration is not None else None
    if empty is not None and empty.shape == frame.shape:
        found, unexplained = _with_tray(frame, empty, found, die, tray, p)
    kept = []
    for c in found:
        where, at_wall = _on_tray(c, tray, p)
        if where == "out":
            continue  # beside the track: a die on the table is not thrown
        cut = where == "across" or _cut(c.centre, c.size, frame.shape, p)
        kept.append(Candidate(c.centre, c.size, c.p_die, c.on_tray, c.outline, cut, at_wall))
    return kept[: p.max_candidates], unexplained


def _beside(found: list[Candidate], tray: np.ndarray | None, reach: float) -> list[Candidate]:
    """The finder's marks further than `reach` px outside the tray's floor: dice beside it."""
    if tray is None:
        return []
    floor = np.asarray(tray, np.float32).reshape(-1, 1, 2)
    return [c for c in found if cv2.pointPolygonTest(floor, c.centre, True) < -reach]


def _with_tray(
    frame: np.ndarray,
    empty: np.ndarray,
    found: list[Candidate],
    die: float | None,
    tray: np.ndarray | None,
    p: CandidateParams,
) -> tuple[list[Candidate], list[np.ndarray]]:
    """The finder's candidates joined with the tray difference's blobs."""
    if die is None:
        sizes = [c.size for c in found if c.p_die >= 0.5]
        die = float(np.median(sizes)) if sizes else None
    out = list(found)
    unexplained = []
    reference = die or max(frame.shape[:2]) / 16  # only to tell a speck from a thing
    beside = _beside(found, tray, p.floor_reach * reference)
    for outline in tray_blobs(frame, empty, die, p, tray)[: 4 * p.max_candidates]:
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
            if one_die:
                out.append(Candidate(centre, float(np.sqrt(area)), 0.0, True, outline))
            else:
                unexplained.append(outline)  # something on the tray no finder mark explains
        elif len(inside) == 1 and one_die:
            c = out[inside[0]]
            out[inside[0]] = Candidate(c.centre, c.size, c.p_die, True, outline)
        elif dice is not None and dice > p.tray_area[1] * len(inside):
            unexplained.append(outline)  # larger than the dice the finder sees in it
    return out, unexplained
