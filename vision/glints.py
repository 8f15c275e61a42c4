"""Is a bright spot on a face a pip's paint or a lamp's light? The glare checks of a reading.

Contract: each takes the fit read (faces.FaceFit, or None) and the spots it was read from
(pips.Spots, face units) and answers yes or no (`odd_paint`: a Lab distance). Glare may hide a
pip (a clipped place where a face of more pips has one), pass for one (a clipped spot beside
pips with no clipped pixel), or be of another colour than the paint of a face's light pips.
face.read_pips refuses such a reading as `glare`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import median
from vision.faces import FaceFit, fewer_faces, grid, hidden_faces, layout_of
from vision.params import PARAMS, PipParams
from vision.pip_fit import place_radius, places
from vision.pips import Spots


def glare_hides_pip(fit: FaceFit | None, spots: Spots, p: PipParams = PARAMS.pips) -> bool:
    """Could the glare on this face hide a pip? Yes unless the pips read a face and no face
    with more pips is hidden by it: a face whose layout holds the pips read (in either quarter
    turn) and whose other pips would all lie on glared places. A highlight on the middle of a
    4 may hide a 5, one on the middle of a 2 a 3; one on a single corner of a 1 hides nothing
    (a 3 has two opposite corners), a 6 hides nothing (no face has more pips), and a face
    glared all over by a bright light hides only what its pips leave room for: not the places
    on both sides of a pip seen within the glare (`_between`)."""
    if spots.glare <= p.glared:
        return False
    if fit is None:
        return True
    empty = _clipped(fit, spots, p, pips=False)
    glared = {g for g, share in empty.items() if share > p.glared_place}
    a, nine = places(fit, spots, p)
    at = dict(zip(grid(fit.lines), (z for z, _ in nine), strict=True))
    around = {  # the glare about each pip read: the clipped face within a pip step of it
        g: spots.saturated_at(at[g].real, at[g].imag, abs(a), p.saturated) > p.glared_place
        for g in layout_of(fit.value, fit.lines)
    }
    return any(
        extra <= glared and not any(around[g] and _between(g, extra) for g in around)
        for extra in hidden_faces(fit.value, fit.lines)
    )


def _between(pip: complex, extra: set[complex]) -> bool:
    """Does a pip place lie between the places a face of more pips adds (in their convex
    hull)? A lamp's glint on a flat face is its image in a mirror, as convex as the lamp: one
    glare over two opposite corners covers the middle between them too, and where a pip read
    there is seen within that glare, the glare hides no pip (a face glared all over under a
    bright light: a 1 is no 3 or 5, a 3 no 5). Two glints, one on each corner, with the face
    between them unclipped, could still hide a 3's corners on a 1 (two lamps): refused."""
    if len(extra) < 2:
        return False
    corners = np.array([[z.real, z.imag] for z in extra], np.float32)
    hull = cv2.convexHull(corners)
    if len(hull) < 3:  # the places lie on a line: is the pip on the segment?
        a, b = complex(*hull[0, 0]), complex(*hull[-1, 0])
        return abs(abs(pip - a) + abs(pip - b) - abs(a - b)) < 1e-3
    return cv2.pointPolygonTest(hull, (pip.real, pip.imag), False) >= 0


def glare_fakes_pip(fit: FaceFit | None, spots: Spots, p: PipParams = PARAMS.pips) -> bool:
    """Could glare on this face pass for a pip? A lamp's glint on a glossy die is a round spot
    brighter than any paint, clipped in every channel: on the middle of a 2 it is the middle
    pip of a 3. Yes where pips read on clipped places (`glared_place`) sit beside pips with no
    clipped pixel at all, which lay out a face of fewer pips (a 3 less its middle is a 2): the
    pips of a face are of one paint, and white paint overexposed clips in some measure on
    every pip. A 1 has no other pip to compare its own with, and is read. On the development
    photos no pip read right is clipped (1424 faces fitted); with a glint on every 2 and 4
    (benchmarks/eval_glints.py) 37 fitted faces of 2-6 pips hold one."""
    if fit is None or not (spots.least >= p.saturated).any():
        return False  # nothing clipped (the common case: most faces, at no cost)
    shares = _clipped(fit, spots, p, pips=True)
    glared = {g for g, share in shares.items() if share > p.glared_place}
    if not glared or any(shares[g] > 0 for g in shares.keys() - glared):
        return False  # none clipped, or the others clipped too: white paint overexposed
    return any(glared == less for less in fewer_faces(fit.value, fit.lines))


def odd_paint(fit: FaceFit | None, spots: Spots, p: PipParams = PARAMS.pips) -> float:
    """How far (Lab distance) the pips that a face of fewer pips lacks differ in colour from
    the rest, on a face of light pips: the pips of a face are of one paint, and a glint where a
    3 or a 5 has its middle pip is the lamp's light on the die's own colour, no paint's. (On a
    face of dark pips a glint is lighter than the face, which `one_tone` refuses; dark drilled
    pips are shaded unevenly.) The largest, over such fewer faces, of the least difference of
    their extra pips (each pip's core against the median of the others'); 0 where no face of
    fewer pips lies within the layout read (a 1 or a 2)."""
    if fit is None or spots.paints is None or len(spots.paints) != fit.value:
        return 0.0
    if spots.tones is None or float(np.median(spots.tones)) <= 0:
        return 0.0
    _, nine = places(fit, spots, p)
    at = dict(zip(grid(fit.lines), (z for z, _ in nine), strict=True))
    pips = spots.centres[:, 0] + 1j * spots.centres[:, 1]
    owner = {g: int(np.argmin(np.abs(pips - at[g]))) for g in layout_of(fit.value, fit.lines)}
    if len(set(owner.values())) != fit.value:
        return 0.0  # no pip to each place: the layout checks judge such a fit
    worst = 0.0
    for extra in fewer_faces(fit.value, fit.lines):
        odd = [owner[g] for g in extra]
        paint = median(spots.paints[[i for g, i in owner.items() if g not in extra]])
        worst = max(worst, min(_lighter_or_other(spots.paints[i], paint) for i in odd))
    return worst


def _lighter_or_other(colour: np.ndarray, paint: np.ndarray) -> float:
    """How far a pip's colour (Lab) is from the paint of its face's other pips, counting the
    lightness only where it is lighter: light added to a die (a glint) makes a spot lighter
    than the paint or of the body's hue; a shadow only darkens the paint, hue kept."""
    d = colour - paint
    return float(np.sqrt(max(float(d[0]), 0.0) ** 2 + float(d[1]) ** 2 + float(d[2]) ** 2))


def _clipped(fit: FaceFit, spots: Spots, p: PipParams, pips: bool) -> dict[complex, float]:
    """The share of clipped pixels on each of the fitted face's places (grid place, pip
    steps) that holds a pip (`pips`) or is plain (not `pips`)."""
    a, nine = places(fit, spots, p)
    radius = place_radius(fit, a, p)
    return {
        g: spots.saturated_at(place.real, place.imag, radius, p.saturated)
        for g, (place, has_pip) in zip(grid(fit.lines), nine, strict=True)
        if has_pip == pips
    }
