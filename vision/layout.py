"""Where the pips in a die's whole box lay out a top face: a framing that needs no face edges.

The geometric reading finds the top face by its colour first (top_face.find_face). On a die whose
sides have the top's colour, or that touches another, that face runs large or off centre. This
module finds the face from the pips alone: pip-like spots over the whole box (top, sides, a
neighbour's rim), then the largest set of them, of similar size, that fits a layout of 2..6 at a
die's pip spacing for the box's size. face.py then reads the pips again on the face so framed,
with every check of a reading; nothing here gives a value.

Spots are found as a white top-hat of the colour distance from the die's colour: what differs
from its surroundings at pip size and smaller, of either polarity, so the table around the die
and a glinting rim joined to a pip do not merge with it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import cv2
import numpy as np

from vision.colour import lab_distance
from vision.faces import FaceFit, fit_face
from vision.params import PARAMS, PipParams
from vision.pip_net import INPUT, PX, PipMap
from vision.pips import is_round, peaks_on
from vision.top_face import resample
from vision.types import Candidate


@lru_cache(maxsize=2)
def _kernels(p: PipParams) -> tuple[np.ndarray, np.ndarray, int]:
    box_px = p.laid_out_px
    side = round(box_px * p.laid_out_span)
    k = max(3, round(p.laid_out_tophat * box_px) | 1)
    tophat = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    middle = np.zeros((side, side), np.uint8)
    lo, hi = round(side / 2 - box_px / 4), round(side / 2 + box_px / 4)
    middle[lo:hi, lo:hi] = 1
    return tophat, middle > 0, side


def box_spots(
    frame: np.ndarray, candidate: Candidate, p: PipParams = PARAMS.pips
) -> tuple[np.ndarray, np.ndarray]:
    """Pip-like spots in the candidate's box: centres (n, 2) and diameters (n,), box sides,
    box centre at 0, frame axes."""
    tophat, middle, side = _kernels(p)
    scale = p.laid_out_px / max(candidate.size, 1.0)
    patch, _ = resample(frame, candidate.centre, 0.0, scale, side)
    lab = cv2.cvtColor(cv2.GaussianBlur(patch, (3, 3), 0.8), cv2.COLOR_BGR2LAB).astype(np.float32)
    distance = lab_distance(lab, np.median(lab[middle], axis=0))
    hat = cv2.morphologyEx(distance, cv2.MORPH_TOPHAT, tophat)
    level = np.clip(hat, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    spots = (hat > max(p.min_contrast, float(otsu))).astype(np.uint8)
    spots = cv2.morphologyEx(spots, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=4)
    centres, diameters = [], []
    for i in range(1, count):
        x, y, w, h, n = stats[i]
        diameter = 2 * np.sqrt(n / np.pi) / p.laid_out_px
        if not p.laid_out_pip[0] <= diameter <= p.laid_out_pip[1]:
            continue
        if not is_round(w, h, n):
            continue
        centre = (centroids[i] - side / 2) / p.laid_out_px
        if np.abs(centre).max() < 0.5:
            centres.append(centre)
            diameters.append(diameter)
    return np.array(centres, float).reshape(-1, 2), np.array(diameters, float)


def laid_out(
    frame: np.ndarray, candidate: Candidate, p: PipParams = PARAMS.pips
) -> tuple[tuple[float, float], float] | None:
    """The centre (frame px) and turn (degrees) of the face of 2..6 the pips in the box lay
    out, or None when no set of them does."""
    return lay_out(*box_spots(frame, candidate, p), candidate, p)


def map_spots(pip_map: PipMap, p: PipParams = PARAMS.pips) -> tuple[np.ndarray, np.ndarray]:
    """The pips the learned pip finder marks around a candidate, as box_spots gives spots:
    centres (n, 2) and diameters (n,) in box sides, box centre at 0, frame axes. Each mark
    split at its peaks (about `learned_apart` apart) into pips of equal area, as the finder
    runs neighbouring pips together on small dice."""
    marks = (pip_map.p > p.learned_split).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    peaks = peaks_on(pip_map.p, labels, round(p.learned_apart * PX))
    shared = np.bincount([i for i, _ in peaks], minlength=count)
    centres, diameters = [], []
    for i, peak in peaks:
        centre = (peak - INPUT / 2) / PX
        if np.abs(centre).max() < 0.5:
            centres.append(centre)
            diameters.append(2 * np.sqrt(stats[i, 4] / shared[i] / np.pi) / PX)
    return np.array(centres, float).reshape(-1, 2), np.array(diameters, float)


def lay_out(
    centres: np.ndarray, diameters: np.ndarray, candidate: Candidate, p: PipParams = PARAMS.pips
) -> tuple[tuple[float, float], float] | None:
    """The centre (frame px) and turn (degrees) of the face of 2..6 that spots in the box
    (box_spots' or map_spots') lay out, or None when no set of them does."""
    if len(centres) < 2:
        return None
    order = np.argsort(np.hypot(*centres.T))[: p.laid_out_spots]  # nearest the box's middle
    low = p.spacing[0] / max(p.face_of_box)
    high = p.spacing[1] / min(p.face_of_box)
    for n in range(min(6, len(order)), 1, -1):
        best: FaceFit | None = None
        for chosen in combinations(order, n):
            pick = list(chosen)
            size = diameters[pick]
            if size.max() > p.pip_ratio * size.min():
                continue
            fit = fit_face(centres[pick])
            assert fit is not None  # 2..6 points always fit some layout
            if not low <= fit.spacing <= high or fit.error > p.max_fit_error:
                continue
            if best is None or fit.error < best.error:
                best = fit
        if best is not None:
            x, y = best.centre
            centre = (
                candidate.centre[0] + x * candidate.size,
                candidate.centre[1] + y * candidate.size,
            )
            return centre, best.angle
    return None
