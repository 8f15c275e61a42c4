"""Find die bodies: regions that differ from the tray, split where dice touch.

Works on a downscaled copy (the long side at most WORK_SIDE pixels): die bodies are large,
pips are looked at later on full-resolution crops. The tray is the empty-tray reference when
the calibration has one, otherwise a heavy median of the frame itself (dice are small next to
the tray, so the median sees the floor through them, uneven light included).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.colour import lab_distance, percentile_u8

WORK_SIDE = 640  # long side of the working copy, pixels
BACKGROUND_SHRINK = 8  # the tray model is a median on a copy this many times smaller
BACKGROUND_KERNEL = 9  # median aperture on that copy (x8: about 72 working pixels)
MIN_DISTANCE = 22.0  # Lab distance below which a pixel is always tray
OFF_TRAY = 0.3  # a body with less than this share on the tray floor is outside the tray
ON_RIM = 0.1  # a body with this share off the floor lies on the rim (cut)
AGAINST_RIM = 0.0  # a body reaching the floor outline (die sides) touches the wall: may lean
WALL_REACH = 0.75  # a die leaning on the wall lies within this many top faces of it (flat: 0.5)
SPLIT_AREA = 1.5  # blobs larger than this many dice are split
FLAT_GRADIENT = 4.0  # Lab units per pixel under which a patch of a blob counts as flat
SEED_SIDE = 0.3  # a flat patch seeds a piece when its area is at least (this x die side)^2
NOISE_FACTOR = 6.0
FACE_OF_BODY = 0.8  # top face side over body side, when no die was read to measure it


@dataclass(frozen=True, slots=True)
class Body:
    """One candidate die body, in full-frame pixels.

    centre: (x, y); size: side of the square with the body's area; rect: cv2 rotated rect
    ((cx, cy), (w, h), angle) of the body; contour: (n, 1, 2) int32 outline; at_edge: the body
    touches the image border or lies partly off the tray (a die on the rim); pieces: how many
    bodies came out of its blob (1 for a die standing alone); against_rim: it touches the tray's
    wall, so it may lean on it.
    """

    centre: tuple[float, float]
    size: float
    rect: tuple[tuple[float, float], tuple[float, float], float]
    contour: np.ndarray
    at_edge: bool
    pieces: int
    against_rim: bool = False

    @property
    def fill(self) -> float:
        """Share of the rotated rectangle the body covers (about 0.9 for a die seen from above)."""
        w, h = self.rect[1]
        return float(self.size**2 / max(w * h, 1e-6))

    @property
    def aspect(self) -> float:
        w, h = self.rect[1]
        return max(w, h) / max(min(w, h), 1e-6)


def to_lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def tray_model(lab: np.ndarray) -> np.ndarray:
    """What the empty tray would look like, from the frame alone. lab: (h, w, 3) uint8."""
    h, w = lab.shape[:2]
    small = cv2.resize(
        lab,
        (max(1, w // BACKGROUND_SHRINK), max(1, h // BACKGROUND_SHRINK)),
        interpolation=cv2.INTER_AREA,
    )
    k = min(BACKGROUND_KERNEL, (min(small.shape[:2]) // 2) * 2 + 1)
    if k >= 3:
        small = cv2.medianBlur(small, k)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground(lab: np.ndarray, tray: np.ndarray) -> np.ndarray:
    """Pixels that differ from the tray: uint8 mask (0/255), same size as lab."""
    distance = lab_distance(lab, tray)
    sample = np.clip(distance[::2, ::2], 0, 255).astype(np.uint8)
    median = percentile_u8(sample, 50)
    mad = percentile_u8(cv2.absdiff(sample, np.full_like(sample, round(median))), 50)
    threshold = max(MIN_DISTANCE, median + NOISE_FACTOR * 1.4826 * mad)
    return (distance > threshold).astype(np.uint8) * 255


def _holes(mask: np.ndarray) -> list[np.ndarray]:
    """Outlines of the holes of a 0/255 mask (regions it encloses), from the contour tree."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]


def _outlined(lightness: np.ndarray, max_area: float) -> np.ndarray:
    """Regions closed by a sharp outline, as a pale die on a pale tray is: uint8 mask 0/255.

    lightness: the L plane of the Lab image (h, w) uint8.
    """
    grey = cv2.GaussianBlur(lightness, (5, 5), 1.0)
    edges = cv2.dilate(cv2.Canny(grey, 20, 60), np.ones((3, 3), np.uint8))
    out = np.zeros_like(edges)
    for hole in _holes(edges):
        area = cv2.contourArea(hole)
        x, y, w, h = cv2.boundingRect(hole)
        if 30 <= area < max_area and max(w, h) <= 1.6 * min(w, h) and area >= 0.5 * w * h:
            cv2.drawContours(out, [hole], -1, 255, cv2.FILLED)
    return out


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill holes smaller than max_area pixels (pips inside a body), not a ring's inside."""
    small = [hole for hole in _holes(mask) if cv2.contourArea(hole) < max_area]
    if small:
        mask = mask.copy()
        cv2.drawContours(mask, small, -1, 255, cv2.FILLED)
    return mask


def _against(contour: np.ndarray, polygon: np.ndarray, margin: float) -> bool:
    """Does the outline come within `margin` pixels of the tray polygon's edge?"""
    poly = polygon.reshape(-1, 1, 2).astype(np.float32)
    points = contour.reshape(-1, 2)[:: max(1, len(contour) // 24)]
    return any(cv2.pointPolygonTest(poly, (float(x), float(y)), True) <= margin for x, y in points)


def nearest_wall(
    tray: np.ndarray | None, point: tuple[float, float]
) -> tuple[float, np.ndarray] | None:
    """How far the point lies inside the tray floor's outline (negative outside), in pixels, and
    the unit vector towards the outline's nearest point; None when there is no tray.

    tray: the floor polygon in full-frame pixels.
    """
    if tray is None:
        return None
    corners = np.asarray(tray, np.float64).reshape(-1, 2)
    p = np.asarray(point, np.float64)
    best, towards = np.inf, np.zeros(2)
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        t = np.clip(np.dot(p - a, b - a) / max(np.dot(b - a, b - a), 1e-12), 0.0, 1.0)
        step = a + t * (b - a) - p
        if np.hypot(*step) < best:
            best, towards = float(np.hypot(*step)), step
    polygon = corners.astype(np.float32).reshape(-1, 1, 2)
    inside = cv2.pointPolygonTest(polygon, (float(p[0]), float(p[1])), False) >= 0
    return (best if inside else -best), towards / max(best, 1e-9)


def near_wall(tray: np.ndarray | None, point: tuple[float, float], reach: float) -> bool:
    """Does the point lie within `reach` pixels of the tray floor's outline (or outside it)?"""
    wall = nearest_wall(tray, point)
    return wall is not None and wall[0] < reach


def _split_row(mask: np.ndarray, die: float) -> list[np.ndarray] | None:
    """Dice side by side make an oblong of k squares: cut it across, or None if it is not."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (cx, cy), (w, h), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    long, short = max(w, h), min(w, h)
    k = round(long / short)
    if k < 2 or abs(short / die - 1) > 0.35 or abs(long / (k * short) - 1) > 0.25:
        return None
    axis = np.radians(angle if w >= h else angle + 90)
    ys, xs = np.mgrid[: mask.shape[0], : mask.shape[1]]
    along = (xs - cx) * np.cos(axis) + (ys - cy) * np.sin(axis)
    slot = np.clip(((along / long + 0.5) * k).astype(int), 0, k - 1)
    return [((slot == i) & (mask > 0)).astype(np.uint8) * 255 for i in range(k)]


def _split(mask: np.ndarray, lab: np.ndarray, die: float) -> list[np.ndarray]:
    """Split one blob into die-sized pieces. mask: uint8 crop around the blob; lab: same crop.

    A row of touching dice is cut across into squares. Any other cluster is flooded (watershed
    over the colour gradient) from its flat patches: the faces of the dice, where the colour
    is even, seeded apart by the seams and shadows between dice.
    """
    row = _split_row(mask, die)
    if row is not None:
        return row
    channels = lab.astype(np.float32)
    gradient = np.zeros(mask.shape, np.float32)
    for c in range(3):
        gx = cv2.Sobel(channels[..., c], cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channels[..., c], cv2.CV_32F, 0, 1, ksize=3)
        gradient = np.maximum(gradient, cv2.magnitude(gx, gy) / 8)
    inside = mask > 0
    flat = (gradient < max(FLAT_GRADIENT, float(np.percentile(gradient[inside], 35)))) & inside
    flat = cv2.erode(flat.astype(np.uint8), np.ones((3, 3), np.uint8))
    count, seeds, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
    markers = np.zeros(mask.shape, np.int32)
    label = 0
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] >= (SEED_SIDE * die) ** 2:
            label += 1
            markers[seeds == i] = label
    if label <= 1:
        return [mask]
    # no seed outside: the floods from the faces share the whole blob between them
    relief = np.clip(gradient * 4, 0, 254).astype(np.uint8)
    relief[~inside] = 255
    cv2.watershed(cv2.cvtColor(relief, cv2.COLOR_GRAY2BGR), markers)
    markers[markers == -1] = 0
    if np.any(inside & (markers == 0)):
        # the watershed lines: give each line pixel to a neighbouring piece
        grown = cv2.dilate(markers.astype(np.float32), np.ones((3, 3), np.uint8))
        markers = np.where(markers == 0, grown.astype(np.int32), markers)
    return [((markers == k) & inside).astype(np.uint8) * 255 for k in range(1, label + 1)]


def _ragged(mask: np.ndarray) -> bool:
    """A blob that does not fill its rotated rectangle like one die does."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (_, _), (w, h), _ = cv2.minAreaRect(outline)
    return cv2.contourArea(outline) < 0.75 * w * h or max(w, h) > 1.3 * min(w, h)


def _typical_die(stats: np.ndarray, blobs: list[int]) -> float:
    """Median side of the blobs shaped like one die (square and full), else of all blobs.

    Specks (under a quarter of the upper-quartile blob area) do not vote.
    """
    sides, square = [], []
    floor = 0.25 * float(np.percentile([stats[i, cv2.CC_STAT_AREA] for i in blobs], 75))
    for i in blobs:
        if stats[i, cv2.CC_STAT_AREA] <= floor:
            continue
        w, h, area = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT], stats[i, 4]
        side = float(np.sqrt(area))
        sides.append(side)
        if max(w, h) <= 1.5 * min(w, h) and area >= 0.55 * w * h and max(w, h) <= 1.6 * side:
            square.append(side)
    return float(np.median(square or sides))


def working_copy(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame shrunk so that its long side is at most WORK_SIDE, and the scale used."""
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    if scale == 1.0:
        return frame, scale
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA), scale


_EMPTY_CACHE: list = [None, None]  # the last empty-tray frame seen and its working Lab copy


def _empty_lab(empty: np.ndarray) -> np.ndarray:
    """Working Lab copy of the empty-tray frame, kept while the same frame is in use."""
    if _EMPTY_CACHE[0] is not empty:
        _EMPTY_CACHE[:] = [empty, to_lab(working_copy(empty)[0])]
    return _EMPTY_CACHE[1]


def find_bodies(
    frame: np.ndarray,
    calibration: Calibration | None = None,
    work: tuple[np.ndarray, float] | None = None,
    lab: np.ndarray | None = None,
) -> list[Body]:
    """Die bodies in a BGR frame (h, w, 3) uint8, largest blobs split into die-sized pieces.

    work: the frame's working_copy(), and lab its Lab conversion, when the caller has them.
    """
    work, scale = work if work is not None else working_copy(frame)
    size = (work.shape[1], work.shape[0])
    lab = lab if lab is not None else to_lab(work)
    calibration = calibration or Calibration()
    if calibration.empty is not None and calibration.empty.shape == frame.shape:
        tray = _empty_lab(calibration.empty)
    else:
        tray = tray_model(lab)
    mask = foreground(lab, tray)
    mask |= _outlined(lab[..., 0], (0.2 * min(size)) ** 2)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = _fill_holes(mask, (0.06 * min(size)) ** 2)

    region = None
    if calibration.tray is not None:
        region = np.zeros(mask.shape, np.uint8)
        poly = np.round(np.asarray(calibration.tray, np.float64) * scale).astype(np.int32)
        cv2.fillPoly(region, [poly], 1)

    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    min_area = max(30.0, (min(size) * 0.02) ** 2)
    blobs = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    if not blobs:
        return []
    if calibration.die_size:  # a top face's side: the body (sides, shadow) is larger
        die = calibration.die_size / FACE_OF_BODY * scale
    else:
        die = _typical_die(stats, blobs)

    bodies: list[Body] = []
    for i in blobs:
        x, y, bw, bh, area = stats[i]
        crop = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8) * 255
        if area < (0.35 * die) ** 2:
            continue
        if area > SPLIT_AREA * die * die or (area > die * die and _ragged(crop)):
            pieces = _split(crop, lab[y : y + bh, x : x + bw], die)
        else:
            pieces = [crop]
        for piece in pieces:
            contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if not contours:
                continue
            contour = max(contours, key=cv2.contourArea) + np.array([x, y], np.int32)
            piece_area = cv2.contourArea(contour)
            if piece_area < (0.35 * die) ** 2:
                continue
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
            against = False
            at_edge = bool(
                contour[:, 0, 0].min() <= 0
                or contour[:, 0, 1].min() <= 0
                or contour[:, 0, 0].max() >= size[0] - 1
                or contour[:, 0, 1].max() >= size[1] - 1
            )
            if region is not None:
                window = region[y : y + bh, x : x + bw]
                on_tray = cv2.countNonZero(cv2.bitwise_and(piece, piece, mask=window))
                share = on_tray / max(cv2.countNonZero(piece), 1)
                if share < OFF_TRAY:
                    continue  # outside the tray: not part of the throw
                at_edge = at_edge or share < 1 - ON_RIM
                against = _against(contour, poly, die * AGAINST_RIM)
            inv = 1.0 / scale
            full_contour = np.round(contour * inv).astype(np.int32)
            bodies.append(
                Body(
                    centre=(cx * inv, cy * inv),
                    size=float(np.sqrt(piece_area)) * inv,
                    rect=((cx * inv, cy * inv), (rw * inv, rh * inv), angle),
                    contour=full_contour,
                    at_edge=at_edge,
                    pieces=len(pieces),
                    against_rim=against,
                )
            )
    return bodies
