"""Find the top face of one die: the first step of the geometric reading (face.py).

Contract: `find_face(frame, outline, centre, side, angle, p, floor) -> Face | None`, frame BGR
uint8 (h, w, 3) at full resolution, the die's outline ((n, 1, 2) float32), centre and side in
its pixels; floor, on a calibrated tray, the empty tray (BGR uint8, the frame's shape). The
die is resampled to a patch aligned with its outline, `patch` pixels a side covering
`patch_span` die sides, so every threshold is in die units and the cost does not depend on the
camera's resolution. The top face is the region of the face colour (the median of the die's
middle) connected to the middle and inside the outline; its rotated rectangle is the Face, in
frame pixels. On a calibrated tray what is the empty floor, lit or in shadow, is no part of
the face (`floor_of`): a black die's shadow is nearly its colour. Its pips are sought next
(pips.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.colour import lab_distance, median
from vision.params import PARAMS, PipParams


@dataclass(frozen=True, slots=True)
class Face:
    """The top face of a die in frame pixels: centre (x, y), side, angle (degrees), aspect of
    its rectangle, the share of the die side it spans, and how much of its rectangle the face
    region fills (a die face fills it; a patch of clutter seldom does)."""

    centre: tuple[float, float]
    side: float
    angle: float
    aspect: float
    share: float
    fill: float = 1.0

    @property
    def axes(self) -> complex:
        """The face's x axis in frame pixels (a side long, turned by its angle): a point in face
        units times this is its offset from the face's centre in frame pixels."""
        return self.side * complex(np.exp(1j * np.radians(self.angle)))


def resample(
    frame: np.ndarray, centre: tuple[float, float], angle: float, scale: float, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """A size x size patch of the frame, `centre` in its middle, turned by `angle` (degrees)
    and scaled by `scale`, and the affine map from frame to patch."""
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += np.array([size / 2, size / 2]) - np.array(centre)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    patch = cv2.warpAffine(
        frame, matrix, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE
    )
    return patch, matrix


def square(size: int, half: float) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    c = size / 2
    lo, hi = round(c - half), round(c + half) - 1
    mask[lo : hi + 1, lo : hi + 1] = 1
    return mask


@lru_cache(maxsize=4)
def _middle(p: PipParams) -> np.ndarray:
    """The die's middle in the body patch, where the face colour is taken."""
    return square(p.patch, p.patch / p.patch_span * 0.28)


def _fill(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


_SUM = np.ones((1, 3), np.float32)  # cv2.transform by it sums a pixel's three channels


def floor_of(patch: np.ndarray, empty: np.ndarray, p: PipParams) -> np.ndarray:
    """Where a patch of the frame is the floor under it, lit as when empty or in a shadow:
    bool (h, w), from the patch and the same patch of the empty tray (BGR, float32). A shadow
    scales the floor's colour by one factor; a die, whatever its own colour, does not. Per
    pixel, f the frame's colour and e the floor's: f's part along e (the floor shaded, of
    length f.e/|e|) and the rest, whose length is sqrt(|f|^2 - (f.e)^2/|e|^2)."""
    along = cv2.transform(patch * empty, _SUM)
    shaded = along * along / (cv2.transform(empty * empty, _SUM) + 1.0)  # squared lengths
    rest = np.maximum(cv2.transform(patch * patch, _SUM) - shaded, 0.0)
    return cv2.sqrt(rest) < p.floor_shade * cv2.sqrt(shaded) + p.floor_noise


def find_face(
    frame: np.ndarray,
    outline: np.ndarray,
    centre: tuple[float, float],
    side: float,
    angle: float = 0.0,
    p: PipParams = PARAMS.pips,
    floor: np.ndarray | None = None,
) -> Face | None:
    """The top face of the die whose outline is `outline` ((n, 1, 2) frame pixels), or None.

    side: the die's side in frame pixels; angle: the outline's turn (degrees); floor: the
    empty tray, where there is one (the face then stops where the floor begins).
    """
    middle_mask = _middle(p)
    scale = p.patch / (p.patch_span * side)
    patch, matrix = resample(frame, centre, angle, scale, p.patch)
    body = np.zeros((p.patch, p.patch), np.uint8)
    points = cv2.transform(outline.astype(np.float32), matrix)
    cv2.fillPoly(body, [np.round(points).astype(np.int32)], 1)
    body = cv2.dilate(body, np.ones((3, 3), np.uint8))

    # smoothed a little: the blended rim of a pip must not pass for a face of another colour
    smooth = cv2.GaussianBlur(patch, (5, 5), 1.2)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = median(lab[middle_mask > 0])
    distance = lab_distance(lab, colour)
    near = (distance < 40) & (middle_mask > 0)
    if near.sum() > 20:
        colour = median(lab[near])
        distance = lab_distance(lab, colour)
    inside = np.clip(distance[body > 0], 0, 255).astype(np.uint8)
    if inside.size < 10:
        return None
    otsu, _ = cv2.threshold(inside, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = float(np.clip(p.face_share * otsu, p.min_contrast, 2 * p.min_contrast))
    face_like = ((distance <= threshold) & (body > 0)).astype(np.uint8)
    if floor is not None:  # the threshold as without it: the floor only takes pixels away
        empty, _ = resample(floor, centre, angle, scale, p.patch)
        empty = cv2.GaussianBlur(empty, (5, 5), 1.2).astype(np.float32)
        on_floor = floor_of(smooth.astype(np.float32), empty, p)
        if on_floor[middle_mask > 0].mean() < p.floor_middle:  # a die unlike its floor
            face_like[on_floor] = 0
    unit = p.patch / p.patch_span
    k = max(3, int(unit * 0.22) | 1)  # closes over pips (0.12-0.25 of a side)
    closed = cv2.morphologyEx(
        face_like, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    _, labels = cv2.connectedComponents(closed, connectivity=4)
    middle = labels[middle_mask > 0]
    middle = middle[middle > 0]
    if len(middle) == 0:
        return None
    region = _fill((labels == np.bincount(middle).argmax()).astype(np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    face_outline = max(contours, key=cv2.contourArea)
    (fx, fy), (fw, fh), fangle = cv2.minAreaRect(face_outline)
    face_side = float(np.sqrt(max(cv2.contourArea(face_outline), 1.0)))
    inverse = cv2.invertAffineTransform(matrix)
    cx, cy = inverse @ np.array([fx, fy, 1.0])
    return Face(
        centre=(float(cx), float(cy)),
        side=face_side / scale,
        angle=(angle + fangle) % 360.0,
        aspect=max(fw, fh) / max(min(fw, fh), 1e-6),
        share=face_side / unit,
        fill=float(cv2.contourArea(face_outline) / max(fw * fh, 1e-6)),
    )
