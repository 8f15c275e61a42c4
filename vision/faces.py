"""Which face do these pips show? Fit the pip layouts of faces 1..6 to pip centres.

Pure geometry, no pixels. Every face layout is point-symmetric about the face centre, so the
centre of the pips is the centre of the face; the layout is then fitted with a rotation and a
scale (a similarity, never a mirror) in closed form with complex numbers (Procrustes), over
the few pairings that keep the pips in angular order. The residual, measured in pip spacings,
says how well the pips fit the face: a poor fit means "unreadable", not a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Pip layouts in units of the pip spacing (half the distance between corner pips), face centre
# at 0. The centre pip, when there is one, is listed first.
LAYOUTS: dict[int, tuple[complex, ...]] = {
    1: (0j,),
    2: (-1 - 1j, 1 + 1j),
    3: (0j, -1 - 1j, 1 + 1j),
    4: (-1 - 1j, 1 - 1j, 1 + 1j, -1 + 1j),
    5: (0j, -1 - 1j, 1 - 1j, 1 + 1j, -1 + 1j),
    6: (-1 - 1j, 1 - 1j, 1 + 0j, 1 + 1j, -1 + 1j, -1 + 0j),
}
HAS_CENTRE = {1: True, 2: False, 3: True, 4: False, 5: True, 6: False}
# Half the distance between a 6's two lines of three pips, in pip steps: 1 on a standard die
# (the lines two steps apart), 0.5 where the six lie on an even grid of two by three (dice
# vary: the damiantab-phone set's are so).
SIX_LINES: tuple[float, ...] = (1.0, 0.5)
# ...and every separation between, as dice are made (byler's flat 6s lay out 1.26 long at the
# median against the standard design, damiantab's 1.12 against the even grid): a 6 is laid out
# square by some design in this range where it lies flat.
SIX_DESIGNS = np.linspace(0.5, 1.0, 51)
# Faces whose layout cannot show every tilt, so their pips' shape is measured (pip_shape.py): a
# 1-3 lays its pips on a line, and a 6's lines lie as far apart as its maker chose
# (SIX_DESIGNS), so a tilt across them looks like another design.
SHAPED = (1, 2, 3, 6)


def layout_of(value: int, lines: float = 1.0) -> tuple[complex, ...]:
    """The pip layout of `value` in pip steps, a 6's two lines `lines` steps from its middle."""
    if value != 6 or lines == 1.0:
        return LAYOUTS[value]
    return tuple(complex(z.real * lines, z.imag) for z in LAYOUTS[6])


def grid(lines: float) -> list[complex]:
    """The nine pip places of a face in pip steps (a 6's lines `lines` from its middle), in
    the order pip_fit.places gives them."""
    return [complex(gx * lines, gy) for gx in (-1, 0, 1) for gy in (-1, 0, 1)]


def hidden_faces(value: int, lines: float = 1.0) -> list[set[complex]]:
    """The places (pip steps) a face of more pips than `value` adds to its layout, for every
    such face that holds all of value's pips, in either quarter turn of its layout."""
    own = set(layout_of(value, lines))
    out = []
    for more in range(value + 1, 7):
        for turn in (1, 1j):
            layout = {turn * z for z in layout_of(more)}
            if own <= layout:
                out.append(layout - own)
    return out


def fewer_faces(value: int, lines: float = 1.0) -> list[set[complex]]:
    """The places (pip steps) of `value`'s layout that a face of fewer pips lacks, for every
    such face whose layout lies within value's in either quarter turn (a 3 less its middle is
    a 2, a 5 less its middle a 4)."""
    own = set(layout_of(value, lines))
    out = []
    for fewer in range(1, value):
        for turn in (1, 1j):
            layout = {turn * z for z in layout_of(fewer)}
            if layout <= own:
                out.append(own - layout)
    return out


@dataclass(frozen=True, slots=True)
class FaceFit:
    """The best fit of one face layout to a set of pips.

    value: the face (number of pips); centre: (x, y) of the face centre in the pips' frame;
    spacing: the fitted pip spacing in pixels; angle: the layout's rotation in degrees, modulo
    90; error: the largest distance from a pip to its layout position, in pip spacings
    (0 for a single pip, where no layout can be fitted); lines: of a 6, how far its two lines
    of pips lie from its middle (SIX_LINES), else 1. stretch: how much longer one way than the
    other the pips lie than the layout (1: seen square-on), a 6's against the design that lays
    it out squarest (SIX_DESIGNS): what a tilt must explain. fitted_stretch: the same against
    the layout fitted (a 6's of `lines`): a 6 laid out square so is of a known design, flat.
    """

    value: int
    centre: tuple[float, float]
    spacing: float
    angle: float
    error: float
    stretch: float = 1.0
    lines: float = 1.0
    fitted_stretch: float = 1.0


def _angular_order(z: np.ndarray) -> np.ndarray:
    return z[np.argsort(np.angle(z))]


def _similarity(observed: np.ndarray, layout: np.ndarray) -> tuple[complex, float]:
    """Least-squares a (scale and rotation as one complex) with observed ~ a * layout."""
    a = complex(np.vdot(layout, observed) / np.vdot(layout, layout).real)
    if abs(a) == 0:
        return a, float("inf")
    error = float(np.max(np.abs(observed - a * layout)) / abs(a))
    return a, error


def fit_face(points: np.ndarray, lines: float = 1.0) -> FaceFit | None:
    """Fit the layout with as many pips as given; None for 0 or more than 6 pips.

    points: (n, 2) float array of pip centres (x, y) in pixels; lines: for six, how far the
    two lines of pips are taken to lie from the middle (SIX_LINES).
    """
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    n = len(points)
    if n not in LAYOUTS:
        return None
    z = points[:, 0] + 1j * points[:, 1]
    centre = complex(z.mean())
    z = z - centre
    if n == 1:
        return FaceFit(1, (centre.real, centre.imag), 0.0, 0.0, 0.0, 1.0)
    lines = lines if n == 6 else 1.0
    error, a, observed, target = _fit(z, n, lines)
    angle = float(np.degrees(np.angle(a))) % 90.0
    if n == 6:  # one map from the layout, judged against the design fitted and every other
        matrix = _affine(observed, target)
        fitted, stretch = _ratio(matrix), _six_stretch(matrix, lines)
    else:
        fitted = stretch = _stretch(observed, target)
    return FaceFit(n, (centre.real, centre.imag), abs(a), angle, error, stretch, lines, fitted)


def _fit(z: np.ndarray, n: int, lines: float) -> tuple[float, complex, np.ndarray, np.ndarray]:
    """(error, a, pips in layout order, layout) of the best pairing of the centred pips `z`
    with the layout of n (a 6's lines `lines` from its middle)."""
    layout = np.array(layout_of(n, lines))
    if HAS_CENTRE[n]:
        middle = int(np.argmin(np.abs(z)))
        rim = _angular_order(np.delete(z, middle))
        head_obs, head_layout = z[middle : middle + 1], layout[:1]
        rim_layout = _angular_order(layout[1:])
    else:
        rim = _angular_order(z)
        head_obs, head_layout = z[:0], layout[:0]
        rim_layout = _angular_order(layout)
    target = np.concatenate([head_layout, rim_layout])
    best: tuple[float, complex, np.ndarray] = (float("inf"), 0j, z)
    for shift in range(len(rim)):
        observed = np.concatenate([head_obs, np.roll(rim, shift)])
        a, error = _similarity(observed, target)
        if error < best[0]:
            best = (error, a, observed)
    return best[0], best[1], best[2], target


def _six_stretch(matrix: np.ndarray, lines: float) -> float:
    """A 6's stretch against the design that lays it out squarest (SIX_DESIGNS): the distance
    between its lines is the maker's, so its layout shows a tilt only where no design explains
    it (a standard 6 tilted along its lines, an even-grid one across them; face.py measures
    the pips' shape for the rest). matrix: the map from the 6 of `lines` to the pips
    (`_affine`). The design d lays that 6 out by diag(d / lines, 1) first, so the map from it
    is `matrix` times diag(lines / d, 1)."""
    return min(_ratio(matrix @ np.diag([lines / design, 1.0])) for design in SIX_DESIGNS)


def _affine(observed: np.ndarray, layout: np.ndarray) -> np.ndarray:
    """The linear map (2x2, acting on column vectors) taking the layout to the pips, least
    squares."""
    source = np.column_stack([layout.real, layout.imag])
    target = np.column_stack([observed.real, observed.imag])
    matrix, *_ = np.linalg.lstsq(source, target, rcond=None)
    return matrix.T


def _ratio(matrix: np.ndarray) -> float:
    """Longest over shortest axis of a 2x2 linear map."""
    singular = np.linalg.svd(matrix, compute_uv=False)
    return float(singular[0] / max(singular[1], 1e-9))


def _stretch(observed: np.ndarray, layout: np.ndarray) -> float:
    """Longest over shortest axis of the affine map from layout to pips (1: seen square-on).

    Only layouts that span two directions (4, 5, 6 pips) can show it; others give 1.
    """
    if len(layout) < 4:
        return 1.0
    return _ratio(_affine(observed, layout))
