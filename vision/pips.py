"""Find the pips on a die's top face (top_face.py), of either polarity, in the face's own frame.

Contract: `find_spots(frame, face, p, direction, patch) -> Spots`, frame BGR uint8 (h, w, 3) at
full resolution, the Face in its pixels; Spots in face units (face side 1, centre 0, along the
face's axes). The face alone is resampled, axis-aligned, `face_px` pixels per face side (so
every threshold is in face units), and the pips are the compact round spots that differ from
the face colour (an Otsu split of the colour distances, or of one Lab axis): dark pips on
light dice and light pips on dark dice alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.colour import median
from vision.face_patches import FacePatch, face_patch, face_patch_of, masks
from vision.params import PARAMS, PipParams
from vision.top_face import Face


@dataclass(frozen=True, slots=True)
class Spots:
    """Pip candidates on one face, in face units (face side = 1, face centre = 0, face axes).

    centres: (n, 2) float; diameters: (n,) float; contrast: the Lab distance split used; glare:
    share of clipped face pixels; grey: the face patch (uint8, for sharpness()); least: each
    patch pixel's least channel (uint8: a pixel is clipped, and hides what lies under it, only
    where every channel is); distance: the patch's float32 colour distance from the face colour;
    cut: pip-like spots on the face that reach the edge of the area searched (a pip left out:
    the face found is cut short).
    """

    face: Face
    centres: np.ndarray
    diameters: np.ndarray
    contrast: float
    glare: float
    grey: np.ndarray
    least: np.ndarray
    distance: np.ndarray
    face_px: int
    cut: int = 0
    tones: np.ndarray | None = None  # (n,) float: each pip's Lightness less the face's (Lab
    # L, 0-255): the pips of one face are of one paint, all darker or all lighter than it
    paints: np.ndarray | None = None  # (n, 3) float: each pip's median Lab over its core

    def sharpness(self, p: PipParams = PARAMS.pips) -> float:
        """Width of the steepest edge on the face, in face sides: large when blurred."""
        return _edge_width(self.grey, masks(p)[0] > 0) / self.face_px

    def contrast_at_each(self, places: list[complex], radius: float) -> list[float]:
        """The mean colour distance in a disc of `radius` (face units) at each place (x + iy,
        face units), 0 off the patch; one filter for all places: the mean over each disc is
        its sum over the patch divided by its pixels in the patch."""
        side = self.distance.shape[0]
        r = max(1, round(radius * self.face_px))
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r, r), r, 1.0, cv2.FILLED)
        border = cv2.BORDER_CONSTANT
        total = cv2.filter2D(self.distance, cv2.CV_32F, disc, borderType=border)
        count = cv2.filter2D(np.ones_like(self.distance), cv2.CV_32F, disc, borderType=border)
        out = []
        for z in places:
            x, y = round(side / 2 + z.real * self.face_px), round(side / 2 + z.imag * self.face_px)
            inside = 0 <= x < side and 0 <= y < side and count[y, x] > 0
            out.append(float(total[y, x] / count[y, x]) if inside else 0.0)
        return out

    def saturated_at(self, x: float, y: float, radius: float, level: int) -> float:
        """Share of pixels clipped (every channel at or above `level`) in a disc (face units);
        0 outside the patch."""
        disc = self._disc(x, y, radius)
        return float(np.mean(self.least[disc] >= level)) if disc.any() else 0.0

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


def is_round(w: int, h: int, n: int, fill: float = 0.45, ratio: float = 2.0) -> bool:
    """Is a spot of n pixels in a w x h box round enough for a pip: it fills `fill` of the
    disc of its box's longer side, and that side is under `ratio` times the shorter (not a
    crack, a scratch, a rim or the edge of a shadow)?"""
    return n >= fill * np.pi * (max(w, h) / 2) ** 2 and max(w, h) <= ratio * min(w, h)


@lru_cache(maxsize=8)
def _ellipse(size: float) -> np.ndarray:
    """An elliptical structuring element about `size` pixels wide (odd, at least 3)."""
    k = max(3, round(size) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


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
    inner_mask, area_mask = masks(p)
    side = face_patch(p)
    if patch is None:
        patch = face_patch_of(frame, face, p)
    lab, colour, distance = patch.lab, patch.colour, patch.distance
    area, inner = area_mask > 0, inner_mask > 0
    split = distance
    if direction >= 0 and patch.split_at is None:
        sign = 1.0 if direction % 2 == 0 else -1.0
        split = np.maximum(sign * (lab[..., direction // 2] - colour[direction // 2]), 0)
        split = split * (2.0 if direction >= 2 else 1.0)  # a, b span half of L's range
    if patch.split_at is not None:
        threshold = patch.split_at
    else:
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
    pieces = _pieces(stats, centroids)
    if patch.apart:
        pieces = _peaks_apart(split, labels, pieces, p)
    centres, diameters, cores, cut = [], [], [], 0
    for i, (w, h, n), middle in pieces:
        diameter = max(w, h) / p.face_px
        if not p.pip_min <= diameter <= p.pip_max:
            continue
        if not is_round(w, h, n):
            continue
        centre = (middle - side / 2) / p.face_px
        if edge[i]:
            cut += bool(np.abs(centre).max() <= 0.5)
            continue
        if np.abs(centre).max() > p.pip_limit:
            continue
        centres.append(centre)
        diameters.append(2 * np.sqrt(n / np.pi) / p.face_px)
        cores.append(_core(lab, middle, 0.5 * diameters[-1] * p.face_px))
    grey = patch.grey
    return Spots(
        face=face,
        centres=np.array(centres, float).reshape(-1, 2),
        diameters=np.array(diameters, float),
        contrast=threshold,
        glare=float(np.mean(patch.least[inner] >= p.saturated)),
        grey=grey,
        least=patch.least,
        distance=distance,
        face_px=p.face_px,
        cut=cut,
        tones=np.array([core[:, 0].mean() - colour[0] for core in cores], float),
        paints=np.array([median(core) for core in cores], float).reshape(-1, 3),
    )


def _core(lab: np.ndarray, middle: np.ndarray, radius: float) -> np.ndarray:
    """The Lab pixels (k, 3) within the middle half of a spot's radius: its core, clear of
    the anti-aliased rim and of the shadow or halo around it. Their median is its paint, as a
    vein or a fleck across the core is a minority of it."""
    r = max(1, round(0.5 * radius))
    x, y = round(float(middle[0])), round(float(middle[1]))
    return lab[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1].reshape(-1, 3)


Piece = tuple[int, tuple[int, int, int], np.ndarray]  # component, (w, h, pixels), centre


def _pieces(stats: np.ndarray, centroids: np.ndarray) -> list[Piece]:
    """Each connected spot (but the background) as one piece."""
    return [(i, (int(s[2]), int(s[3]), int(s[4])), centroids[i]) for i, s in enumerate(stats) if i]


def peaks_on(values: np.ndarray, labels: np.ndarray, window: int) -> list[tuple[int, np.ndarray]]:
    """The local maxima of `values` (float32) over `window` px on the spots of `labels`
    (connected components, 0 the background): the spot each lies on and its centre (x, y), one
    per plateau."""
    top = (values >= cv2.dilate(values, _ellipse(window))) & (labels > 0)
    count, marks, _, middles = cv2.connectedComponentsWithStats(top.astype(np.uint8), 8, cv2.CV_32S)
    return [(int(labels[marks == j][0]), middles[j]) for j in range(1, count)]


def _peaks_apart(
    split: np.ndarray, labels: np.ndarray, pieces: list[Piece], p: PipParams
) -> list[Piece]:
    """The learned map's spots, each split at its peaks: the map of a small die's face runs
    neighbouring pips together, but keeps a peak on each (as the die finder's heat does on each
    die). A spot with k peaks at least `learned_apart` apart is k pips of its area over k
    (a die's pips are of one size), centred on the peaks."""
    peaks = peaks_on(split, labels, round(p.learned_apart * p.face_px))
    out = []
    for i, (w, h, n), centre in pieces:
        on = [peak for owner, peak in peaks if owner == i]
        if len(on) <= 1:
            out.append((i, (w, h, n), centre))
            continue
        each = max(1, round(2 * np.sqrt(n / len(on) / np.pi)))
        out += [(i, (each, each, max(1, n // len(on))), peak) for peak in on]
    return out


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
