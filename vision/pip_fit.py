"""Which face a set of pips shows, and every check a layout must pass to be read.

Contract: `fit_pips(spots, p) -> (FaceFit | None, why)`, spots in face units (pips.Spots: face
side 1, centre 0, the face's axes). A face is read only when its pips are of one size and one
tone, at a die's spacing, square with the face, centred on it, on all nine pip places pips
where the layout has them and plain face elsewhere, and no pip-like spot lies off those places
near the face's middle. `places` gives the nine places of a fitted layout (glints.py judges
the light on them), `confidence` how far a fit lies from every limit.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.faces import SIX_LINES, FaceFit, fit_face, grid, layout_of
from vision.params import PARAMS, PipParams
from vision.pips import Spots


def tilt(a: float, b: float) -> float:
    """Smallest angle between two square grids at angles a and b, degrees."""
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


def fit_pips(spots: Spots, p: PipParams = PARAMS.pips) -> tuple[FaceFit | None, str]:
    """The face these pips show, or None with the reason in words."""
    n = len(spots.centres)
    if n == 0:
        return None, "no pips"
    if n > 6:
        return None, f"{n} pip-like spots"
    if spots.cut:
        return None, "a pip cut by the edge of the face found"
    first: tuple[FaceFit | None, str] | None = None
    for lines in SIX_LINES if n == 6 else (1.0,):  # a 6 of either design (faces.SIX_LINES)
        fit, why = _fit_layout(spots, lines, p)
        if fit is not None:
            return fit, why
        first = first or (fit, why)
    assert first is not None
    return first


def without_flecks(spots: Spots, p: PipParams = PARAMS.pips) -> Spots | None:
    """The spots less those too small to be the others' size (under 1/`pip_ratio` of the
    largest), or None where there are none such: the pips of a die are of one size, and a
    marbled face's flecks beside them are smaller. What is left must pass every check of a
    reading, the places of the layout fitted plain where a fleck was left out."""
    d = spots.diameters
    if len(d) < 2:
        return None
    keep = d * p.pip_ratio >= d.max()
    if keep.all():
        return None
    return replace(
        spots,
        centres=spots.centres[keep],
        diameters=d[keep],
        tones=None if spots.tones is None else spots.tones[keep],
        paints=None if spots.paints is None else spots.paints[keep],
    )


def _fit_layout(spots: Spots, lines: float, p: PipParams) -> tuple[FaceFit | None, str]:
    """fit_pips() for one design of the layout (a 6's lines `lines` from its middle)."""
    n = len(spots.centres)
    fit = fit_face(spots.centres, lines)
    assert fit is not None  # 1..6 points always fit some layout
    offset = float(np.hypot(*fit.centre))
    if offset > (p.max_offset_one if n == 1 else p.max_offset):
        return None, f"pips off centre by {offset:.2f}"
    if n == 1:
        if spots.contrast <= p.min_contrast:
            return None, "a lone faint spot"  # a knot in wood grain, a fleck on the felt
        if spots.face.share < p.one_face:
            return None, f"a lone spot on a face of {spots.face.share:.2f}"
        return _check_places(fit, spots, p)
    if spots.diameters.max() > p.pip_ratio * spots.diameters.min():
        return None, "pips of different sizes"
    if spots.tones is not None and min(spots.tones) < -p.one_tone < p.one_tone < max(spots.tones):
        return None, "pips both darker and lighter than the face"
    if not p.spacing[0] <= fit.spacing <= p.spacing[1]:
        return None, f"pip spacing {fit.spacing:.2f} of the face"
    if fit.error > p.max_fit_error:
        return None, f"pips do not fit a {n} (error {fit.error:.2f})"
    turn = tilt(fit.angle, 0.0)
    if turn > p.max_angle:
        return None, f"pips turned {turn:.0f} degrees from the face"
    return _check_places(fit, spots, p)


def places(
    fit: FaceFit, spots: Spots, p: PipParams = PARAMS.pips
) -> tuple[complex, list[tuple[complex, bool]]]:
    """The nine pip places of the fitted face (face units), each with whether the face has a
    pip there; and the pip spacing and turn (one complex) they are laid out by."""
    if fit.value == 1:
        a = complex(p.one_spacing)
    else:
        a = _orient(fit, spots, fit.spacing * np.exp(1j * np.radians(fit.angle)))
    layout = set(layout_of(fit.value, fit.lines))
    return a, [(complex(*fit.centre) + a * g, g in layout) for g in grid(fit.lines)]


def _orient(fit: FaceFit, spots: Spots, a: complex) -> complex:
    """Of the layout turned by a or by a quarter turn more, the one that fits the pips."""
    z = spots.centres[:, 0] + 1j * spots.centres[:, 1] - complex(*fit.centre)
    layout = np.array(layout_of(fit.value, fit.lines))
    costs = [
        float(np.sum(np.min(np.abs(z[:, None] - turn * layout[None, :]), axis=1)))
        for turn in (a, a * 1j)
    ]
    return a if costs[0] <= costs[1] else a * 1j


def place_radius(fit: FaceFit, a: complex, p: PipParams) -> float:
    """A pip place's disc (face units), kept clear of its neighbours: an even-grid 6's lines
    lie half a step from the middle places."""
    return p.place_radius * abs(a) * fit.lines


def _check_places(fit: FaceFit, spots: Spots, p: PipParams) -> tuple[FaceFit | None, str]:
    """Pips where the layout has them, plain face elsewhere, on all nine places."""
    a, nine = places(fit, spots, p)
    radius = place_radius(fit, a, p)
    on, off = [], []
    contrasts = spots.contrast_at_each([place for place, _ in nine], radius)
    for (_, has_pip), value in zip(nine, contrasts, strict=True):
        (on if has_pip else off).append(value)
    if max(off) > p.grid_off * min(on) or max(off) > spots.contrast:
        return None, f"a pip where a {fit.value} has none"
    if min(on) < p.grid_on * spots.contrast:
        return None, f"no pip where a {fit.value} has one"  # a fleck near a place taken for it
    stray = spots.unexplained([z for z, _ in nine], radius, p.unexplained_reach, p)
    if stray > p.grid_off * min(on):
        return None, f"a pip off the places of a {fit.value}"
    return fit, ""


def confidence(fit: FaceFit, p: PipParams = PARAMS.pips) -> float:
    """0.5..1 for a fit that passed: how far it is from every limit that would reject it."""
    if fit.value == 1:
        margin = 1 - float(np.hypot(*fit.centre)) / p.max_offset_one
    else:
        margin = min(1 - fit.error / p.max_fit_error, 1 - tilt(fit.angle, 0.0) / p.max_angle)
    return round(float(np.clip(0.5 + 0.5 * margin, 0.0, 1.0)), 3)
