"""The geometric reading of one candidate: its top face, its pips, and the layout they fit.

Contract: `read_pips(frame, candidate, p, leaning) -> PipReading`, frame BGR uint8 (h, w, 3) at
full resolution, the candidate's centre and size in its pixels. The face is found by its colour
(top_face.find_face), the pips on it (pips.find_spots), and the layout of 1..6 fitted
(faces.fit_face). A value is given only when every check a flat, sharp, unglared face passes
holds: the pips of one size at the spacing of a die, square with the face edges, centred on it,
on all nine pip places of the fitted face pips where the layout has them and plain face
elsewhere (a 3 with a faint middle pip is not a 2), and no pip-like spot off those places near
the face's middle (a layout fitted to some of the pips leaves one out). Where the face found
fails, other framings of it are tried, then each colour axis, then round spots of a pip's
size (a matched filter), then the learned pip finder's
map (pip_net.py) in place of the colour distance, for faces of 2-6 (_reframed). Otherwise the
reason, in the reroll reasons' words: a leaning die (`cocked`), glare hiding a pip place or
passing for a pip (`glare`), a blurred face (`blur`), pips that fit no face (`unreadable`).
This reader knows nothing of the classifier: the two readings are independent, and judge.py
asks them to agree.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.colour import median
from vision.faces import (
    SIX_LINES,
    FaceFit,
    fewer_faces,
    fit_face,
    grid,
    hidden_faces,
    layout_of,
)
from vision.layout import laid_out, lay_out, map_spots
from vision.params import PARAMS, PipParams
from vision.pip_net import PipMap, PipNet
from vision.pip_shape import pip_stretch
from vision.pips import FacePatch, Spots, blob_patch, face_patch_of, find_spots, learned_patch
from vision.reading import RerollReason
from vision.top_face import Face, find_face
from vision.types import Candidate, Leaning, PipReading

Search = tuple[str, int]  # how spots are split from a face patch: ("colour", axis) an Otsu
# split of the colour distance (axis -1) or of one colour axis (0..5, pips.find_spots);
# ("blob", axis) round spots of a pip's size along the same (pips.blob_patch); ("learned", -1)
# the pip finder's map (pip_net.py)


def _tilt(a: float, b: float) -> float:
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
    tilt = _tilt(fit.angle, 0.0)
    if tilt > p.max_angle:
        return None, f"pips turned {tilt:.0f} degrees from the face"
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


def _place_radius(fit: FaceFit, a: complex, p: PipParams) -> float:
    """A pip place's disc (face units), kept clear of its neighbours: an even-grid 6's lines
    lie half a step from the middle places."""
    return p.place_radius * abs(a) * fit.lines


def _check_places(fit: FaceFit, spots: Spots, p: PipParams) -> tuple[FaceFit | None, str]:
    """Pips where the layout has them, plain face elsewhere, on all nine places."""
    a, nine = places(fit, spots, p)
    radius = _place_radius(fit, a, p)
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


def glare_hides_pip(fit: FaceFit | None, spots: Spots, p: PipParams = PARAMS.pips) -> bool:
    """Could the glare on this face hide a pip? Yes unless the pips read a face and no face
    with more pips is hidden by it: a face whose layout holds the pips read (in either quarter
    turn) and whose other pips would all lie on glared places. A highlight on the middle of a
    4 may hide a 5, one on the middle of a 2 a 3; one on a single corner of a 1 hides nothing
    (a 3 has two opposite corners), a 6 hides nothing (no face has more pips), and a face
    glared all over by a bright light hides only what its pips leave room for."""
    if spots.glare <= p.glared:
        return False
    if fit is None:
        return True
    empty = _clipped(fit, spots, p, pips=False)
    glared = {g for g, share in empty.items() if share > p.glared_place}
    return any(extra <= glared for extra in hidden_faces(fit.value, fit.lines))


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
    fewer pips lies within the layout read (a 1, 2, or 4 of either turn)."""
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
    radius = _place_radius(fit, a, p)
    return {
        g: spots.saturated_at(place.real, place.imag, radius, p.saturated)
        for g, (place, has_pip) in zip(grid(fit.lines), nine, strict=True)
        if has_pip == pips
    }


def confidence(fit: FaceFit, p: PipParams = PARAMS.pips) -> float:
    """0.5..1 for a fit that passed: how far it is from every limit that would reject it."""
    if fit.value == 1:
        margin = 1 - float(np.hypot(*fit.centre)) / p.max_offset_one
    else:
        margin = min(1 - fit.error / p.max_fit_error, 1 - _tilt(fit.angle, 0.0) / p.max_angle)
    return round(float(np.clip(0.5 + 0.5 * margin, 0.0, 1.0)), 3)


def _blurred(spots: Spots, face: Face, p: PipParams) -> bool:
    """Are the face's edges wider than a sharp camera shows them, both in face sides and in
    frame pixels? A die's rounded, shaded edge spans a few pixels whatever the die's size: on
    a small face it is a large share of the face, and is not blur."""
    width = spots.sharpness(p)
    return width > p.blurred and width * face.side > p.blurred_px


def box_outline(centre: tuple[float, float], side: float) -> np.ndarray:
    """An axis-aligned square outline ((4, 1, 2) float32) of `side` px around `centre`."""
    x, y, h = centre[0], centre[1], side / 2
    return np.array(
        [[[x - h, y - h]], [[x + h, y - h]], [[x + h, y + h]], [[x - h, y + h]]], np.float32
    )


def top_of_box(
    shape: tuple[int, ...], candidate: Candidate, p: PipParams = PARAMS.pips
) -> tuple[float, float]:
    """Where a camera above the dice sees the top face of the die in the candidate's box: a
    die off the picture's middle shows the side that faces the middle, and its top lies
    beyond its box's middle, away from the picture's, by half the side in view. That side
    grows with the distance from the middle: at the corners it is `perspective` box sides
    (`perspective` = half the tangent of half the diagonal angle of view)."""
    h, w = shape[:2]
    dx, dy = candidate.centre[0] - w / 2, candidate.centre[1] - h / 2
    reach = p.perspective * candidate.size / max(float(np.hypot(w / 2, h / 2)), 1.0)
    return candidate.centre[0] + reach * dx, candidate.centre[1] + reach * dy


def searches(
    frame: np.ndarray, candidate: Candidate, face: Face, p: PipParams = PARAMS.pips
) -> list[tuple[Face, Search]]:
    """Where and how _reframed seeks the pips again, in order: (face, search).
    tools/pip_examples.py seeks the development dice's pips along the same searches."""
    framings = [
        (face.centre, face.angle),
        (candidate.centre, face.angle),
        (top_of_box(frame.shape, candidate, p), face.angle),
    ]
    layout = laid_out(frame, candidate, p)
    if layout is not None:
        framings.append(layout)
    boxed = _boxed(face, candidate, framings, p)
    tries: list[tuple[Face, Search]] = [(again, ("colour", -1)) for again in boxed]
    for axis in p.pip_axes:
        tries += [(again, ("colour", int(axis))) for again in [face, *boxed]]
    if p.blobs:
        tries += [(face, ("blob", int(axis))) for axis in (-1, *p.pip_axes)]
    if p.learned:
        tries += [(again, ("learned", -1)) for again in [face, *boxed]]
    return tries


def search_spots(
    frame: np.ndarray,
    face: Face,
    search: Search,
    patch: FacePatch,
    p: PipParams = PARAMS.pips,
    pip_map: PipMap | None = None,
) -> Spots:
    """The spots `search` splits from the face patch (the pip finder's map is needed for a
    "learned" search)."""
    kind, axis = search
    if kind == "blob":
        return find_spots(frame, face, p, -1, blob_patch(patch, axis, p))
    if kind == "learned":
        assert pip_map is not None
        return find_spots(frame, face, p, -1, learned_patch(patch, pip_map, p))
    return find_spots(frame, face, p, axis, patch)


def _boxed(
    face: Face,
    candidate: Candidate,
    framings: list[tuple[tuple[float, float], float]],
    p: PipParams,
) -> list[Face]:
    """Faces of the sizes the die's box implies (`face_of_box`), at each (centre, turn)."""
    return [
        replace(face, centre=centre, angle=angle, side=candidate.size / ratio, share=1 / ratio)
        for ratio in p.face_of_box
        for centre, angle in framings
    ]


def _reframed(
    frame: np.ndarray, candidate: Candidate, face: Face, spots: Spots, p: PipParams
) -> tuple[Face, Spots, FaceFit | None]:
    """The pips sought again where those that differ from the face in any way fit no face.

    First on faces of the size the die's box implies: the face found by its colour takes in a
    side of the die's own colour, or a touching die, and runs large or off centre (pip spacing
    too small, a side's pips among the top's). The face is centred where it was found, where
    the finder marked the die, and where the pips seen in the whole box lay out a face
    (laid_out: centre and turn from the pips themselves); turned as the face found, or as the
    pips. Then along each colour axis (pips.find_spots: a marbled face varies along other axes
    than its pips), on the face found and on those framings. Then as round spots of a pip's
    size on the face found (pips.blob_patch: an Otsu split takes in a marbled face's swirls
    with its pips, a matched filter does not), in any colour difference and along each axis.
    Last, on the face found and the
    framings, split from the learned pip map (pips.learned_patch), a face of at least
    `learned_least` pips; then on faces framed where the map's own marks lay out a face
    (layout.map_spots), as the colour's face and spots may be turned or off where the map's
    are not. Each reading must pass every check of fit_pips; the first that does is taken,
    else the face found stands."""
    patches: dict[Face, FacePatch] = {}
    maps: list[PipMap] = []

    def attempt(again: Face, search: Search) -> tuple[Spots, FaceFit | None]:
        if again not in patches:
            patches[again] = face_patch_of(frame, again, p)
        if search[0] == "learned" and not maps:
            maps.append(PipNet.load().pip_map(frame, candidate.centre, candidate.size))
        found = search_spots(frame, again, search, patches[again], p, maps[0] if maps else None)
        fit, _ = fit_pips(found, p)
        if fit is None and (pips := without_flecks(found, p)) is not None:
            found, (fit, _) = pips, fit_pips(pips, p)
        if fit is not None and search[0] == "learned" and fit.value < p.learned_least:
            fit = None
        return found, fit

    for again, search in searches(frame, candidate, face, p):
        found, fit = attempt(again, search)
        if fit is not None:
            return again, found, fit
    if maps:  # the map's own layout frames the face
        layout = lay_out(*map_spots(maps[0], p), candidate, p)
        for again in _boxed(face, candidate, [layout] if layout else [], p):
            found, fit = attempt(again, ("learned", -1))
            if fit is not None:
                return again, found, fit
    return face, spots, None


def read_pips(
    frame: np.ndarray,
    candidate: Candidate,
    p: PipParams = PARAMS.pips,
    leaning: Leaning | None = None,
) -> PipReading:
    """The geometric reading of the die at `candidate`.

    leaning: where the die leans; by default the kiosk's (`kiosk_leaning`; single photos pass
    their own, photo.leaning_limits).
    """
    lean = leaning or kiosk_leaning(p)
    outline = candidate.outline
    if outline is None:
        outline = box_outline(candidate.centre, p.outline * candidate.size)
    face = find_face(
        frame, np.asarray(outline, np.float32), candidate.centre, candidate.size, 0.0, p
    )
    if face is None:
        return PipReading(None, 0.0, None, RerollReason.UNREADABLE, "no face found")
    spots = find_spots(frame, face, p)
    n = len(spots.centres)

    def refuse(reason: RerollReason, why: str) -> PipReading:
        return PipReading(None, 0.0, face, reason, why, n)

    fit, why = fit_pips(spots, p)
    if fit is None:  # glare is judged on the reading the searches end with
        face, spots, fit = _reframed(frame, candidate, face, spots, p)
        n = len(spots.centres)
    long_face = face.aspect > lean.face
    pips = _in_frame(face, spots)
    shape = None
    if fit is not None and fit.value <= 3 and (lean.round > 1 or candidate.at_wall):
        # no layout to show a tilt: the pips' own shape does
        shape = pip_stretch(frame, pips, float(np.median(spots.diameters)) * face.side / 2)
    flat_pips = fit is not None and (
        fit.stretch < lean.square if fit.value >= 4 else shape is not None and shape < lean.round
    )
    leans = (long_face and not flat_pips) or (fit is not None and fit.stretch > lean.stretch)
    if glare_hides_pip(fit, spots, p):
        return refuse(RerollReason.GLARE, "glare on the face may hide a pip")
    if glare_fakes_pip(fit, spots, p):
        return refuse(RerollReason.GLARE, f"a pip of the {fit.value} read may be a glint")
    if odd_paint(fit, spots, p) > p.one_paint:
        return refuse(RerollReason.GLARE, f"a pip of the {fit.value} read is of another paint")
    if fit is None:
        if spots.contrast > p.min_contrast and _blurred(spots, face, p):
            return refuse(RerollReason.BLUR, f"blurred ({why})")
        if leans:
            return refuse(RerollReason.COCKED, f"face {face.aspect:.2f} long ({why})")
        return refuse(RerollReason.UNREADABLE, why)
    if fit.value >= 4 and fit.stretch > lean.stretch:
        return refuse(RerollReason.COCKED, f"a {fit.value} laid out {fit.stretch:.2f} long")
    if lean.round > 1 and shape is not None and shape > lean.round:
        why = f"the pips of a {fit.value} seen {shape:.2f} long"
        return PipReading(None, 0.0, face, RerollReason.COCKED, why, n, pip_stretch=shape)
    if leans:
        return refuse(RerollReason.COCKED, f"a {fit.value} on a face {face.aspect:.2f} long")
    return PipReading(fit.value, confidence(fit, p), face, None, "", n, pips, fit.stretch, shape)


def kiosk_leaning(p: PipParams = PARAMS.pips) -> Leaning:
    """Where a die on the kiosk's tray leans: its pips show a tilt of 20 degrees or more, a
    4-6's layout or a 1-3's pips 1/cos 20 = 1.064 long (a circle seen at a slant is an ellipse),
    whatever its face found by colour measures; a face too long to be a top with its side in
    view, where the pips do not show it lies flat."""
    return Leaning(p.cocked_face, p.cocked_stretch, p.cocked_stretch, p.cocked_pips)


def _in_frame(face: Face, spots: Spots) -> tuple[tuple[float, float], ...]:
    """The spots' centres in frame px."""
    z = complex(*face.centre) + face.axes * (spots.centres @ np.array([1, 1j]))
    return tuple((float(c.real), float(c.imag)) for c in z)
