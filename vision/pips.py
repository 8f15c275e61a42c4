"""Find the pips on one die, of either polarity, in the die's own frame.

The die is resampled from the full-resolution frame into a small square patch aligned with
its body (PATCH pixels for PATCH_SPAN die sides), so every later threshold is in die units and
the cost does not depend on the camera's resolution. A pip is a compact spot that differs from
the face around it: the face is a local median (wider than a pip, narrower than the die), so
uneven light and a tinted face cancel out, and dark pips on light dice read like light pips on
dark dice.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH = 64  # patch side, pixels
PATCH_SPAN = 1.3  # the patch covers this many die sides
PIP_MIN = 0.05  # pip diameter range, in die sides
PIP_MAX = 0.34
MIN_CONTRAST = 16.0  # Lab distance a pip must stand out from its face, at least
FACE_SHARE = 0.6  # the face is closer to its colour than this share of the Otsu threshold
PIP_INLAND = 0.13  # a pip centre lies this far inside the face (die sides): side-face pips don't


@dataclass(frozen=True, slots=True)
class Spots:
    """Pip candidates on one die, in die units (die side = 1, die centre = 0, die axes).

    centres: (n, 2) float; diameters: (n,) float; contrast: Lab distance threshold used;
    glare: fraction of the face that is saturated; sharpness: edge width of the strongest
    edge, in die sides (large when blurred); face_*: the top face found (centre, side, aspect
    of its bounding rectangle, rectangle angle in degrees); distance: (PATCH, PATCH) float32
    distance of each patch pixel from the face colour.
    """

    centres: np.ndarray
    diameters: np.ndarray
    contrast: float
    glare: float
    sharpness: float
    face_centre: tuple[float, float]
    face_size: float
    face_aspect: float
    face_angle: float
    distance: np.ndarray | None = None

    def contrast_at(self, x: float, y: float, radius: float) -> float:
        """Mean distance from the face colour in a disc (die units), 0 outside the patch."""
        if self.distance is None:
            return 0.0
        unit = PATCH / PATCH_SPAN
        mask = np.zeros((PATCH, PATCH), np.uint8)
        centre = (round(PATCH / 2 + x * unit), round(PATCH / 2 + y * unit))
        cv2.circle(mask, centre, max(1, round(radius * unit)), 1, cv2.FILLED)
        if not mask.any():
            return 0.0
        return float(self.distance[mask > 0].mean())


def _patch_matrix(centre: tuple[float, float], side: float, angle: float) -> np.ndarray:
    matrix = cv2.getRotationMatrix2D(centre, angle, PATCH / (PATCH_SPAN * side))
    matrix[:, 2] += np.array([PATCH / 2, PATCH / 2]) - np.array(centre)
    return matrix


def body_patch(
    contour: np.ndarray, centre: tuple[float, float], side: float, angle: float
) -> np.ndarray:
    """The body outline (n, 1, 2) drawn filled into the die's patch frame, uint8 0/1."""
    matrix = _patch_matrix(centre, side, angle)
    points = cv2.transform(contour.astype(np.float32), matrix)
    mask = np.zeros((PATCH, PATCH), np.uint8)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1)
    return mask


def die_patch(
    frame: np.ndarray, centre: tuple[float, float], side: float, angle: float
) -> np.ndarray:
    """Resample the square around a die into a PATCH x PATCH BGR patch aligned with the die."""
    scale = PATCH / (PATCH_SPAN * side)
    matrix = _patch_matrix(centre, side, angle)
    return cv2.warpAffine(
        frame,
        matrix,
        (PATCH, PATCH),
        flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def face_mask(inset: float = 0.08) -> np.ndarray:
    """The die's top face in patch pixels, shrunk by `inset` die sides (edges and shadows)."""
    mask = np.zeros((PATCH, PATCH), np.uint8)
    half = PATCH / PATCH_SPAN * (0.5 - inset)
    c = PATCH / 2
    cv2.rectangle(
        mask,
        (round(c - half), round(c - half)),
        (round(c + half), round(c + half)),
        255,
        cv2.FILLED,
    )
    return mask


_FACE = face_mask()
_MIDDLE = face_mask(0.22)


def _median_colour(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.median(lab[mask > 0].reshape(-1, 3), axis=0)


def find_spots(patch: np.ndarray, body: np.ndarray | None = None) -> Spots:
    """Pip candidates in a die patch made by die_patch().

    The top face is the region of the face colour around the patch centre (its colour is the
    median of the middle of the die, refined once without the pixels far from it); pips are
    the holes in that region, whatever their colour, so marks outside the face never count.
    body: the die's body in the patch (uint8 0/1, from body_patch), so that a touching die of
    the same colour is not taken for part of this one's face.
    """
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    unit = PATCH / PATCH_SPAN  # patch pixels per die side
    colour = _median_colour(lab, _MIDDLE)
    distance = np.sqrt(((lab - colour) ** 2).sum(axis=2))
    near = (distance < 40) & (_MIDDLE > 0)
    if near.sum() > 20:
        colour = np.median(lab[near], axis=0)
        distance = np.sqrt(((lab - colour) ** 2).sum(axis=2))
    otsu, _ = cv2.threshold(
        np.clip(distance[_FACE > 0], 0, 255).astype(np.uint8),
        0,
        255,
        cv2.THRESH_BINARY + cv2.THRESH_OTSU,
    )
    threshold = float(np.clip(FACE_SHARE * otsu, MIN_CONTRAST, 45))
    face_like = (distance <= threshold).astype(np.uint8)
    if body is not None:
        face_like &= cv2.dilate(body, np.ones((3, 3), np.uint8))
    k = max(3, int(unit * 0.22) | 1)
    closed = cv2.morphologyEx(
        face_like, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    count, labels = cv2.connectedComponents(closed, connectivity=4)
    middle = labels[_MIDDLE > 0]
    middle = middle[middle > 0]
    if len(middle) == 0:
        return _no_spots(threshold)
    top = np.bincount(middle).argmax()
    face = (labels == top).astype(np.uint8)
    face = _fill(face)
    holes = (face > 0) & (face_like == 0)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(
        holes.astype(np.uint8), connectivity=8
    )
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (fx, fy), (fw, fh), fangle = cv2.minAreaRect(outline)
    inland = cv2.distanceTransform(face, cv2.DIST_L2, 3)
    centres, diameters = [], []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        cx, cy = centroids[i]
        if inland[int(round(cy)), int(round(cx))] < PIP_INLAND * unit:
            continue
        diameter = max(w, h) / unit
        if not PIP_MIN <= diameter <= PIP_MAX:
            continue
        if area < 0.45 * np.pi * (max(w, h) / 2) ** 2 or max(w, h) > 2.2 * min(w, h):
            continue
        centres.append((centroids[i] - PATCH / 2) / unit)
        diameters.append(2 * np.sqrt(area / np.pi) / unit)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    return Spots(
        centres=np.array(centres, float).reshape(-1, 2),
        diameters=np.array(diameters, float),
        contrast=threshold,
        glare=float(np.mean(grey[face > 0] >= 250)),
        sharpness=_edge_width(grey) / unit,
        face_centre=((fx - PATCH / 2) / unit, (fy - PATCH / 2) / unit),
        face_size=float(np.sqrt(cv2.contourArea(outline))) / unit,
        face_aspect=max(fw, fh) / max(min(fw, fh), 1e-6),
        face_angle=float(fangle),
        distance=distance,
    )


def _no_spots(threshold: float) -> Spots:
    return Spots(np.zeros((0, 2)), np.zeros(0), threshold, 0.0, 0.0, (0.0, 0.0), 0.0, 1.0, 0.0)


def _fill(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def _edge_width(grey: np.ndarray) -> float:
    """Contrast over the steepest gradient on the face: about the width of an edge, pixels."""
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    magnitude = np.sqrt(gx**2 + gy**2)[_FACE > 0]
    values = g[_FACE > 0]
    contrast = float(np.percentile(values, 98) - np.percentile(values, 2))
    steepest = float(np.percentile(magnitude, 99))
    if contrast < 1 or steepest < 1e-3:
        return float("inf")
    return contrast / steepest
