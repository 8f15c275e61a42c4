"""How round a face's pips look: a leaning die's pips are ellipses.

A pip is a circle on its face. Seen by a pinhole camera whose sensor is parallel to the tray,
a flat face shows it round wherever the die lies; a face tilted by an angle t shows it 1/cos t
longer one way than the other (20 degrees: 1.064). A 4 or 5 shows a tilt in its layout
(faces.py, `stretch`); a 1, 2 or 3 lays its pips out on a line, and a 6's lines lie as far
apart as its maker chose (faces.SIX_DESIGNS), so only the pips' own shape shows every tilt. The
kiosk's judge asks this of dice showing 1-3 or 6 (faces.SHAPED) against the wall, where dice
lean.

Contract: `pip_stretch(frame, pips, radius) -> float | None`. frame BGR uint8 (h, w, 3); pips
the pip centres read (frame px); radius a pip's radius (frame px). Each pip's outline is
taken at half its contrast to the face around it (Lab distance from a plane of colour fitted
over a ring around the pip, so that a sheen's gradient does not move it; on a copy enlarged
with cubic interpolation until the pip is `shape_across` px wide, so the outline falls between
pixels), measured again centred on itself where it lay off the centre given, and its length
the square root of the ratio of its second moments' larger eigenvalue to the smaller.
The answer is the roundest pip's: a tilt stretches every pip of a face alike, a glint or a
fleck beside one pip stretches that one. None where no pip stands out from the face around
it by `shape_contrast` (PipParams).
Cost: one or two windows of 4 pip radii a side per pip (bench: 0.64 ms for a 3 whose pips
are 8.6 px in radius, one x86 core).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.colour import median
from vision.params import PARAMS, PipParams


def pip_stretch(
    frame: np.ndarray,
    pips: tuple[tuple[float, float], ...],
    radius: float,
    p: PipParams = PARAMS.pips,
) -> float | None:
    """How much longer one way than the other the roundest pip looks (1: round), or None."""
    shapes = [s for s in (_shape(frame, centre, radius, p) for centre in pips) if s is not None]
    if not shapes:
        return None
    return min(_length(s) for s in shapes)


def _length(moments: np.ndarray) -> float:
    """How much longer one way than the other a shape of these second moments is."""
    eigen = np.linalg.eigvalsh(moments)
    return float(np.sqrt(eigen[1] / max(eigen[0], 1e-9)))


def _shape(
    frame: np.ndarray, centre: tuple[float, float], radius: float, p: PipParams
) -> np.ndarray | None:
    """One pip's second moments (2x2, trace 1) at half its contrast, or None. Measured twice:
    the second time centred on the outline the first found (a pip read a pixel off its centre
    takes its own rim into the ring on one side)."""
    if radius < 1.0:
        return None
    found = _outline(frame, centre, radius, p)
    if found is None:
        return None
    moved = np.hypot(found[1][0] - centre[0], found[1][1] - centre[1])
    again = _outline(frame, found[1], radius, p) if moved > 0.05 * radius else None
    moments = (again or found)[0]
    trace = float(np.trace(moments))
    return moments / trace if trace > 0 else None


@lru_cache(maxsize=16)
def _places(
    half: int, radius: float, ring_radii: tuple[float, float], core_radius: float
) -> tuple[np.ndarray, ...] | None:
    """A window's ring and core masks about its middle, the plane's basis (1, x, y in pip
    radii) at each pixel, and the least-squares solve of a plane over the ring: the same for
    every pip of a die (one radius), so made once."""
    y, x = np.mgrid[-half : half + 1, -half : half + 1]
    r = np.hypot(x, y) / radius
    ring = (r > ring_radii[0]) & (r <= ring_radii[1])
    core = r <= core_radius
    if ring.sum() < 8 or not core.any():
        return None
    basis = np.stack([np.ones_like(r), x / radius, y / radius], axis=-1)
    return ring, core, basis, np.linalg.pinv(basis[ring])


def _outline(
    frame: np.ndarray, centre: tuple[float, float], radius: float, p: PipParams
) -> tuple[np.ndarray, tuple[float, float]] | None:
    """The second moments (2x2, px squared) and centre (frame px) of the pip's outline at
    half its contrast to the face around it, in a window about `centre`; None where no pip
    stands out there."""
    half = int(np.ceil(p.shape_ring[1] * radius)) + 2
    side = 2 * half + 1
    window = cv2.getRectSubPix(frame, (side, side), (float(centre[0]), float(centre[1])))
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    places = _places(half, radius, p.shape_ring, p.shape_core)
    if places is None:
        return None
    ring, core, basis, solve = places
    # the face around the pip as a plane of colour over the ring: a sheen or a lamp's fall-off
    # lights one side of a pip more than the other, which would move its outline
    plane = solve @ lab[ring]
    distance = np.sqrt(((lab - basis @ plane) ** 2).sum(axis=2))
    inside, outside = float(median(distance[core])), float(median(distance[ring]))
    if inside - outside < p.shape_contrast:
        return None
    up = int(np.clip(np.ceil(p.shape_across / (2 * radius)), 1, p.shape_upscale))
    big = cv2.resize(distance, None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
    _, labels = cv2.connectedComponents((big > (inside + outside) / 2).astype(np.uint8))
    own = labels[big.shape[0] // 2, big.shape[1] // 2]
    if own == 0:
        return None
    m = cv2.moments((labels == own).astype(np.uint8), True)
    if m["m00"] <= 0:
        return None
    moments = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"] / up**2
    # the enlarged copy's pixel k covers the window's k / up - (up - 1) / (2 up)
    shift = (up - 1) / (2 * up)
    mx = m["m10"] / m["m00"] / up - shift - half
    my = m["m01"] / m["m00"] / up - shift - half
    return moments, (float(centre[0]) + mx, float(centre[1]) + my)
