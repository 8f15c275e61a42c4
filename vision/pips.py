"""Find the top face of one die and the pips on it, of either polarity, in the face's own frame.

Two resamplings of the full-resolution frame, so every threshold is in die units and the cost
does not depend on the camera's resolution:
1. a patch around the body (aligned with it) where the top face is found: the region of the
   face colour (the median of the die's middle) connected to the middle and inside the body;
   its rotated rectangle is the face;
2. a patch of that face alone, axis-aligned, FACE_PX pixels per face side, where the pips are
   the compact spots that differ from the face colour (Otsu split of the colour distances):
   dark pips on light dice and light pips on dark dice alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import lab_distance

PATCH = 64  # body patch side, pixels
PATCH_SPAN = 1.3  # the body patch covers this many body sides
FACE_PX = 44  # face patch: pixels per face side
FACE_SPAN = 1.25  # the face patch covers this many face sides
PIP_MIN = 0.07  # pip diameter range, in face sides
PIP_MAX = 0.36
MIN_CONTRAST = 18.0  # Lab distance a pip must stand out from its face, at least
FACE_SHARE = 0.6  # the face is closer to its colour than this share of the Otsu threshold
HEAP_DIE_PX = 24  # die side, pixels, when a heap of dice is searched for pips
HEAP_CONTRAST = 40.0  # Lab distance from the local median that makes a spot in a heap
FACE_SQUARE = 1.6  # the face around a layout spans this many pip spacings from its centre
PIP_CLEAR = 0.45  # a pip, with its blur, lies within this many pip spacings of its place
FACE_INSET = 0.1  # the face colour is taken this far inside the face edges (face sides)
PIP_REACH = 0.58  # pips are sought this far from the face centre (the face found may be off)
PIP_LIMIT = 0.46  # ...and kept when their centre is within this distance of it
SATURATED = 250  # grey level of a glared (clipped) pixel


@dataclass(frozen=True, slots=True)
class Face:
    """The top face of a die in frame pixels: centre (x, y), side, angle (degrees), aspect of
    its rectangle, the share of the body side it spans, how much of its rectangle the face
    region fills (a die face fills it; a patch of clutter seldom does), and how the face is
    foreshortened: the ratio of its region's long axis to its short one by second moments (1
    for a square at any rotation, 1/cos(t) for a square tilted by t), and that long axis's
    direction (degrees, modulo 180)."""

    centre: tuple[float, float]
    side: float
    angle: float
    aspect: float
    share: float
    fill: float = 1.0
    foreshortening: float = 1.0
    long_axis: float = 0.0

    @property
    def axes(self) -> complex:
        """The face's x axis in frame pixels (a side long, turned by its angle): a point in face
        units times this is its offset from the face's centre in frame pixels."""
        return self.side * complex(np.exp(1j * np.radians(self.angle)))


@dataclass(frozen=True, slots=True)
class Spots:
    """Pip candidates on one face, in face units (face side = 1, face centre = 0, face axes).

    centres: (n, 2) float; diameters: (n,) float; contrast: Lab distance threshold used;
    glare: share of saturated face pixels; grey: the face patch in grey levels (for
    sharpness()); distance: (n, n) float32 colour distance of each face
    patch pixel from the face colour; cut: pip-like spots on the face that reach the edge of the
    area searched (a pip of this face, left out: the face found is cut short).
    """

    face: Face
    centres: np.ndarray
    diameters: np.ndarray
    contrast: float
    glare: float
    grey: np.ndarray
    distance: np.ndarray
    cut: int = 0

    def sharpness(self) -> float:
        """Width of the steepest edge on the face, in face sides: large when blurred."""
        return _edge_width(self.grey, _INNER > 0) / FACE_PX

    def contrast_at(self, x: float, y: float, radius: float) -> float:
        """Mean colour distance in a disc (face units); 0 outside the patch."""
        disc = _disc(self.distance.shape[0], x, y, radius)
        return float(self.distance[disc].mean()) if disc.any() else 0.0

    def saturated_at(self, x: float, y: float, radius: float) -> float:
        """Share of saturated (glared) pixels in a disc (face units); 0 outside the patch."""
        disc = _disc(self.grey.shape[0], x, y, radius)
        return float(np.mean(self.grey[disc] >= SATURATED)) if disc.any() else 0.0

    def stray_share(self, centre: complex, a: complex, pips: tuple[complex, ...]) -> float:
        """Share of the face around a fitted layout (centre, a: spacing and turn, face units)
        that is not the face colour, pips left out: 0 for a clean face of one colour."""
        side = self.distance.shape[0]
        half = FACE_SQUARE * a
        corners = [centre + half * c for c in (-1 - 1j, 1 - 1j, 1 + 1j, -1 + 1j)]
        points = np.array([[z.real, z.imag] for z in corners]) * FACE_PX + side / 2
        area = np.zeros((side, side), np.uint8)
        cv2.fillPoly(area, [np.round(points).astype(np.int32)], 1)
        for pip in pips:
            z = (centre + a * pip) * FACE_PX + complex(side / 2, side / 2)
            radius = max(1, round(PIP_CLEAR * abs(a) * FACE_PX))
            cv2.circle(area, (round(z.real), round(z.imag)), radius, 0, cv2.FILLED)
        inside = area > 0
        if not inside.any():
            return 1.0
        return float(np.mean(self.distance[inside] > self.contrast))


def _disc(side: int, x: float, y: float, radius: float) -> np.ndarray:
    """A disc (face units, centre 0) in a face patch of `side` pixels, as a boolean mask."""
    mask = np.zeros((side, side), np.uint8)
    centre = (round(side / 2 + x * FACE_PX), round(side / 2 + y * FACE_PX))
    cv2.circle(mask, centre, max(1, round(radius * FACE_PX)), 1, cv2.FILLED)
    return mask > 0


def _matrix(centre: tuple[float, float], angle: float, scale: float, size: int) -> np.ndarray:
    """Affine map from the frame to a size x size patch: centre to the middle, turned by angle."""
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[:, 2] += np.array([size / 2, size / 2]) - np.array(centre)
    return matrix


def _warp(frame: np.ndarray, matrix: np.ndarray, size: int, scale: float) -> np.ndarray:
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(frame, matrix, (size, size), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def _square(size: int, half: float) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    c = size / 2
    lo, hi = round(c - half), round(c + half) - 1
    mask[lo : hi + 1, lo : hi + 1] = 1
    return mask


_MIDDLE = _square(PATCH, PATCH / PATCH_SPAN * 0.28)
FACE_PATCH = round(FACE_PX * FACE_SPAN)
_INNER = _square(FACE_PATCH, FACE_PX * (0.5 - FACE_INSET))
_PIP_AREA = _square(FACE_PATCH, FACE_PX * PIP_REACH)


_distance = lab_distance


def _fill(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def find_face(
    frame: np.ndarray, contour: np.ndarray, centre: tuple[float, float], side: float, angle: float
) -> Face | None:
    """The top face of the die whose body is `contour` ((n, 1, 2) frame pixels), or None."""
    scale = PATCH / (PATCH_SPAN * side)
    matrix = _matrix(centre, angle, scale, PATCH)
    patch = _warp(frame, matrix, PATCH, scale)
    body = np.zeros((PATCH, PATCH), np.uint8)
    points = cv2.transform(contour.astype(np.float32), matrix)
    cv2.fillPoly(body, [np.round(points).astype(np.int32)], 1)
    body = cv2.dilate(body, np.ones((3, 3), np.uint8))

    # smoothed a little: the blended rim of a pip must not pass for a face of another colour
    lab = cv2.cvtColor(cv2.GaussianBlur(patch, (5, 5), 1.2), cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = np.median(lab[_MIDDLE > 0], axis=0)
    distance = _distance(lab, colour)
    near = (distance < 40) & (_MIDDLE > 0)
    if near.sum() > 20:
        colour = np.median(lab[near], axis=0)
        distance = _distance(lab, colour)
    inside = np.clip(distance[body > 0], 0, 255).astype(np.uint8)
    if inside.size < 10:
        return None
    otsu, _ = cv2.threshold(inside, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = float(np.clip(FACE_SHARE * otsu, MIN_CONTRAST, 36))
    face_like = ((distance <= threshold) & (body > 0)).astype(np.uint8)
    unit = PATCH / PATCH_SPAN
    k = max(3, int(unit * 0.22) | 1)
    closed = cv2.morphologyEx(
        face_like, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    count, labels = cv2.connectedComponents(closed, connectivity=4)
    middle = labels[_MIDDLE > 0]
    middle = middle[middle > 0]
    if len(middle) == 0:
        return None
    region = _fill((labels == np.bincount(middle).argmax()).astype(np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (fx, fy), (fw, fh), fangle = cv2.minAreaRect(outline)
    face_side = float(np.sqrt(max(cv2.contourArea(outline), 1.0)))
    inverse = cv2.invertAffineTransform(matrix)
    cx, cy = inverse @ np.array([fx, fy, 1.0])
    ratio, direction = _axes(outline)
    return Face(
        centre=(float(cx), float(cy)),
        side=face_side / scale,
        angle=(angle + fangle) % 360.0,
        aspect=max(fw, fh) / max(min(fw, fh), 1e-6),
        share=face_side / unit,
        fill=float(cv2.contourArea(outline) / max(fw * fh, 1e-6)),
        foreshortening=ratio,
        long_axis=(angle + direction) % 180.0,
    )


def _axes(outline: np.ndarray) -> tuple[float, float]:
    """Long over short axis of a region by its second moments, and the long axis's direction
    (degrees, in the outline's frame)."""
    m = cv2.moments(outline)
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    spread = float(np.hypot(a - c, 2 * b))
    long, short = (a + c + spread) / 2, (a + c - spread) / 2
    ratio = float(np.sqrt(long / short)) if short > 0 else float("inf")
    return ratio, float(np.degrees(0.5 * np.arctan2(2 * b, a - c)))


def find_spots(frame: np.ndarray, face: Face) -> Spots:
    """Pip candidates on a face found by find_face()."""
    scale = FACE_PX / face.side
    matrix = _matrix(face.centre, face.angle, scale, FACE_PATCH)
    patch = _warp(frame, matrix, FACE_PATCH, scale)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    area = _PIP_AREA > 0
    inner = _INNER > 0
    colour = np.median(lab[inner], axis=0)
    distance = _distance(lab, colour)
    otsu, _ = cv2.threshold(
        np.clip(distance[inner], 0, 255).astype(np.uint8),
        0,
        255,
        cv2.THRESH_BINARY + cv2.THRESH_OTSU,
    )
    threshold = max(MIN_CONTRAST, float(otsu))
    spots = ((distance > threshold) & area).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    edge = np.zeros(count, bool)
    lo = int(np.argmax(area.any(axis=0)))
    hi = FACE_PATCH - 1 - int(np.argmax(area.any(axis=0)[::-1]))
    for line in (labels[lo, :], labels[hi, :], labels[:, lo], labels[:, hi]):
        edge[line] = True
    centres, diameters, cut = [], [], 0
    for i in range(1, count):
        x, y, w, h, n = stats[i]
        diameter = max(w, h) / FACE_PX
        if not PIP_MIN <= diameter <= PIP_MAX:
            continue
        if n < 0.45 * np.pi * (max(w, h) / 2) ** 2 or max(w, h) > 2.0 * min(w, h):
            continue
        centre = (centroids[i] - FACE_PATCH / 2) / FACE_PX
        if edge[i]:
            cut += bool(np.abs(centre).max() <= 0.5)
            continue
        if np.abs(centre).max() > PIP_LIMIT:
            continue
        centres.append(centre)
        diameters.append(2 * np.sqrt(n / np.pi) / FACE_PX)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    return Spots(
        face=face,
        centres=np.array(centres, float).reshape(-1, 2),
        diameters=np.array(diameters, float),
        contrast=threshold,
        glare=float(np.mean(grey[inner] >= SATURATED)),
        grey=grey,
        distance=distance,
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


def pip_like_spots(frame: np.ndarray, contour: np.ndarray, die: float) -> int:
    """How many pip-sized spots, of either polarity, lie inside a body of any shape.

    Tells a heap of dice (many spots) from clutter such as a hand or a shoe (few or none),
    when the body is too large or too odd to be read as one die. die: die side in pixels.
    """
    x, y, w, h = cv2.boundingRect(contour)
    # an outline may reach past the picture (a box drawn round a die at its edge)
    x1, y1 = min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    x, y = max(x, 0), max(y, 0)
    w, h = x1 - x, y1 - y
    if w <= 0 or h <= 0:
        return 0
    scale = HEAP_DIE_PX / die
    crop = frame[y : y + h, x : x + w]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    mask = np.zeros((size[1], size[0]), np.uint8)
    points = np.round((contour - np.array([x, y])) * scale).astype(np.int32)
    cv2.fillPoly(mask, [points], 1)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    local = cv2.medianBlur(lab, int(HEAP_DIE_PX * 0.5) | 1).astype(np.float32)
    distance = _distance(lab.astype(np.float32), local)
    spots = ((distance > HEAP_CONTRAST) & (mask > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(spots, connectivity=8)
    found = 0
    for i in range(1, count):
        _, _, sw, sh, n = stats[i]
        diameter = max(sw, sh) / HEAP_DIE_PX
        if PIP_MIN <= diameter <= PIP_MAX and max(sw, sh) <= 2 * min(sw, sh):
            found += n >= 0.45 * np.pi * (max(sw, sh) / 2) ** 2
    return found


def spot_centres(lab: np.ndarray, die: float, frame_scale: float = 1.0) -> np.ndarray:
    """Centres (n, 2) of the pip-like spots of the whole frame, in pixels of the original.

    lab: the frame in Lab (uint8), or a copy shrunk by frame_scale; die: die side in original
    pixels.
    The frame is looked at with dice HEAP_DIE_PX pixels wide; a spot differs by HEAP_CONTRAST
    (Lab, either polarity) from the median of its surroundings and has the size of a pip.
    """
    die = die * frame_scale
    h, w = lab.shape[:2]
    scale = min(1.0, HEAP_DIE_PX / die)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(lab, size, interpolation=cv2.INTER_AREA) if scale < 1 else lab
    # the surroundings: a median half a die across, taken on a half-size copy (it is smooth)
    half_size = (max(1, size[0] // 2), max(1, size[1] // 2))
    half = cv2.resize(small, half_size, interpolation=cv2.INTER_AREA)
    local = cv2.medianBlur(half, int(die * scale * 0.25) | 1)
    local = cv2.resize(local, size, interpolation=cv2.INTER_LINEAR)
    distance = _distance(small.astype(np.float32), local.astype(np.float32))
    spots = (distance > HEAP_CONTRAST).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    unit = die * scale
    keep = []
    for i in range(1, count):
        _, _, sw, sh, n = stats[i]
        # pips on a side seen at a slant are ellipses: up to 3 times longer than wide
        if not PIP_MIN <= max(sw, sh) / unit <= PIP_MAX or max(sw, sh) > 3 * min(sw, sh):
            continue
        if n >= 0.25 * np.pi * (max(sw, sh) / 2) ** 2:
            keep.append(centroids[i] / (scale * frame_scale))
    return np.array(keep, float).reshape(-1, 2)
