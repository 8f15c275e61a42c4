"""Find the top face of one die and the pips on it, of either polarity, in the face's own frame.

Two resamplings of the full-resolution frame, so every threshold is in die units and the cost
does not depend on the camera's resolution:
1. a patch around the die (aligned with its outline) where the top face is found: the region of
   the face colour (the median of the die's middle) connected to the middle and inside the
   outline; its rotated rectangle is the face;
2. a patch of that face alone, axis-aligned, `face_px` pixels per face side, where the pips are
   the compact spots that differ from the face colour (Otsu split of the colour distances):
   dark pips on light dice and light pips on dark dice alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.colour import lab_distance
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


@dataclass(frozen=True, slots=True)
class Spots:
    """Pip candidates on one face, in face units (face side = 1, face centre = 0, face axes).

    centres: (n, 2) float; diameters: (n,) float; contrast: the Lab distance split used; glare:
    share of clipped face pixels; grey: the face patch (uint8, for sharpness()); distance: the
    patch's float32 colour distance from the face colour; cut: pip-like spots on the face that
    reach the edge of the area searched (a pip left out: the face found is cut short).
    """

    face: Face
    centres: np.ndarray
    diameters: np.ndarray
    contrast: float
    glare: float
    grey: np.ndarray
    distance: np.ndarray
    face_px: int
    cut: int = 0

    def sharpness(self, p: PipParams = PARAMS.pips) -> float:
        """Width of the steepest edge on the face, in face sides: large when blurred."""
        return _edge_width(self.grey, _masks(p)[1] > 0) / self.face_px

    def contrast_at(self, x: float, y: float, radius: float) -> float:
        """Mean colour distance in a disc (face units); 0 outside the patch."""
        disc = self._disc(x, y, radius)
        return float(self.distance[disc].mean()) if disc.any() else 0.0

    def saturated_at(self, x: float, y: float, radius: float, level: int) -> float:
        """Share of pixels at or above `level` in a disc (face units); 0 outside the patch."""
        disc = self._disc(x, y, radius)
        return float(np.mean(self.grey[disc] >= level)) if disc.any() else 0.0

    def unexplained(
        self, places: list[complex], radius: float, reach: float, p: PipParams
    ) -> float:
        """The strongest pip-sized spot on the face farther than `radius` (face units) from
        every place given: the mean top-hat of the colour distance over a disc of a place's
        size, at its most, within `reach` of the face centre. A layout fitted to some of a
        face's pips (a 2 on the middle and a corner of a 3 whose third pip was missed) leaves
        one out; marbling and shading larger than a pip do not count."""
        side = self.distance.shape[0]
        hat = cv2.morphologyEx(
            self.distance, cv2.MORPH_TOPHAT, _ellipse(p.unexplained_hat * self.face_px)
        )
        r = max(1, round(radius * self.face_px))
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r, r), r, 1.0, cv2.FILLED)
        mean = cv2.filter2D(hat, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
        keep = np.zeros((side, side), np.uint8)
        half = side / 2
        lo, hi = round(half - reach * self.face_px), round(half + reach * self.face_px)
        keep[lo:hi, lo:hi] = 1
        pip = float(self.diameters.max()) / 2 if len(self.diameters) else radius
        clear = round((radius + pip) * self.face_px) + 1  # a disc there still takes in the pip
        for place in places:
            x, y = half + place.real * self.face_px, half + place.imag * self.face_px
            cv2.circle(keep, (round(x), round(y)), clear, 0, cv2.FILLED)
        return float(mean[keep > 0].max()) if keep.any() else 0.0

    def _disc(self, x: float, y: float, radius: float) -> np.ndarray:
        side = self.distance.shape[0]
        mask = np.zeros((side, side), np.uint8)
        centre = (round(side / 2 + x * self.face_px), round(side / 2 + y * self.face_px))
        cv2.circle(mask, centre, max(1, round(radius * self.face_px)), 1, cv2.FILLED)
        return mask > 0


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


def is_round(w: int, h: int, n: int, fill: float = 0.45, ratio: float = 2.0) -> bool:
    """Is a spot of n pixels in a w x h box round enough for a pip: it fills `fill` of the
    disc of its box's longer side, and that side is under `ratio` times the shorter (not a
    crack, a scratch, a rim or the edge of a shadow)?"""
    return n >= fill * np.pi * (max(w, h) / 2) ** 2 and max(w, h) <= ratio * min(w, h)


def _square(size: int, half: float) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    c = size / 2
    lo, hi = round(c - half), round(c + half) - 1
    mask[lo : hi + 1, lo : hi + 1] = 1
    return mask


def face_patch(p: PipParams) -> int:
    """Side in pixels of the face patch pips are sought in."""
    return round(p.face_px * p.face_span)


@lru_cache(maxsize=4)
def _masks(p: PipParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The die's middle (body patch), the face inset and the pip search area (face patch)."""
    side = face_patch(p)
    middle = _square(p.patch, p.patch / p.patch_span * 0.28)
    inner = _square(side, p.face_px * (0.5 - p.face_inset))
    area = _square(side, p.face_px * p.pip_reach)
    return middle, inner, area


@lru_cache(maxsize=8)
def _ellipse(size: float) -> np.ndarray:
    """An elliptical structuring element about `size` pixels wide (odd, at least 3)."""
    k = max(3, round(size) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _fill(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def find_face(
    frame: np.ndarray,
    outline: np.ndarray,
    centre: tuple[float, float],
    side: float,
    angle: float = 0.0,
    p: PipParams = PARAMS.pips,
) -> Face | None:
    """The top face of the die whose outline is `outline` ((n, 1, 2) frame pixels), or None.

    side: the die's side in frame pixels; angle: the outline's turn (degrees).
    """
    middle_mask = _masks(p)[0]
    scale = p.patch / (p.patch_span * side)
    patch, matrix = resample(frame, centre, angle, scale, p.patch)
    body = np.zeros((p.patch, p.patch), np.uint8)
    points = cv2.transform(outline.astype(np.float32), matrix)
    cv2.fillPoly(body, [np.round(points).astype(np.int32)], 1)
    body = cv2.dilate(body, np.ones((3, 3), np.uint8))

    # smoothed a little: the blended rim of a pip must not pass for a face of another colour
    lab = cv2.cvtColor(cv2.GaussianBlur(patch, (5, 5), 1.2), cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = np.median(lab[middle_mask > 0], axis=0)
    distance = lab_distance(lab, colour)
    near = (distance < 40) & (middle_mask > 0)
    if near.sum() > 20:
        colour = np.median(lab[near], axis=0)
        distance = lab_distance(lab, colour)
    inside = np.clip(distance[body > 0], 0, 255).astype(np.uint8)
    if inside.size < 10:
        return None
    otsu, _ = cv2.threshold(inside, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = float(np.clip(p.face_share * otsu, p.min_contrast, 2 * p.min_contrast))
    face_like = ((distance <= threshold) & (body > 0)).astype(np.uint8)
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


@dataclass(frozen=True, slots=True)
class FacePatch:
    """A face resampled once for every colour axis its pips are sought along: the grey and Lab
    patch, the face colour and every pixel's colour distance from it."""

    grey: np.ndarray
    lab: np.ndarray
    colour: np.ndarray
    distance: np.ndarray


def face_patch_of(frame: np.ndarray, face: Face, p: PipParams = PARAMS.pips) -> FacePatch:
    """The face patch find_spots() reads: `face_px` pixels per face side, face axes."""
    _, inner_mask, _ = _masks(p)
    patch, _ = resample(frame, face.centre, face.angle, p.face_px / face.side, face_patch(p))
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = np.median(lab[inner_mask > 0], axis=0)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    return FacePatch(grey, lab, colour, lab_distance(lab, colour))


def find_spots(
    frame: np.ndarray,
    face: Face,
    p: PipParams = PARAMS.pips,
    direction: int = -1,
    patch: FacePatch | None = None,
) -> Spots:
    """Pip candidates on a face found by find_face().

    direction: -1, the pips differ from the face colour in any way; 0..5, they differ along
    one colour axis, lighter, darker, redder, greener, yellower or bluer (Lab +L, -L, +a, -a,
    +b, -b): marbling varies a face's colour along other axes than its pips do.
    patch: face_patch_of(frame, face, p), when already made for another axis.
    """
    _, inner_mask, area_mask = _masks(p)
    side = face_patch(p)
    if patch is None:
        patch = face_patch_of(frame, face, p)
    lab, colour, distance = patch.lab, patch.colour, patch.distance
    area, inner = area_mask > 0, inner_mask > 0
    split = distance
    if direction >= 0:
        sign = 1.0 if direction % 2 == 0 else -1.0
        split = np.maximum(sign * (lab[..., direction // 2] - colour[direction // 2]), 0)
        split = split * (2.0 if direction >= 2 else 1.0)  # a, b span half of L's range
    otsu, _ = cv2.threshold(
        np.clip(split[inner], 0, 255).astype(np.uint8),
        0,
        255,
        cv2.THRESH_BINARY + cv2.THRESH_OTSU,
    )
    threshold = max(p.min_contrast, float(otsu))
    spots = ((split > threshold) & area).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    edge = np.zeros(count, bool)
    lo = int(np.argmax(area.any(axis=0)))
    hi = side - 1 - int(np.argmax(area.any(axis=0)[::-1]))
    for line in (labels[lo, :], labels[hi, :], labels[:, lo], labels[:, hi]):
        edge[line] = True
    centres, diameters, cut = [], [], 0
    for i in range(1, count):
        _, _, w, h, n = stats[i]
        diameter = max(w, h) / p.face_px
        if not p.pip_min <= diameter <= p.pip_max:
            continue
        if not is_round(w, h, n):
            continue
        centre = (centroids[i] - side / 2) / p.face_px
        if edge[i]:
            cut += bool(np.abs(centre).max() <= 0.5)
            continue
        if np.abs(centre).max() > p.pip_limit:
            continue
        centres.append(centre)
        diameters.append(2 * np.sqrt(n / np.pi) / p.face_px)
    grey = patch.grey
    return Spots(
        face=face,
        centres=np.array(centres, float).reshape(-1, 2),
        diameters=np.array(diameters, float),
        contrast=threshold,
        glare=float(np.mean(grey[inner] >= p.saturated)),
        grey=grey,
        distance=distance,
        face_px=p.face_px,
        cut=cut,
    )


def _edge_width(grey: np.ndarray, area: np.ndarray) -> float:
    """Contrast over the steepest gradient on the face: about the width of an edge, pixels."""
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    magnitude = np.sqrt(gx**2 + gy**2)[area]
    values = g[area]
    contrast = float(np.percentile(values, 98) - np.percentile(values, 2))
    steepest = float(np.percentile(magnitude, 99))
    if contrast < 1 or steepest < 1e-3:
        return float("inf")
    return contrast / steepest
