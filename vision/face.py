"""The geometric reading of one candidate: its top face, its pips, and the layout they fit.

Contract: `read_pips(frame, candidate, p, leaning, floor) -> PipReading`, frame BGR uint8
(h, w, 3) at full resolution, the candidate's centre and size in its pixels, floor the empty
tray (the frame's shape) where there is one. The face is found by its colour
(top_face.find_face), the pips on it (pips.find_spots), and the layout of 1..6 fitted
(faces.fit_face). A value is given only when every check a flat, sharp, unglared face passes
holds: the pips of one size at the spacing of a die, square with the face edges, centred on it,
on all nine pip places of the fitted face pips where the layout has them and plain face
elsewhere (a 3 with a faint middle pip is not a 2), and no pip-like spot off those places near
the face's middle (a layout fitted to some of the pips leaves one out). Where the face found
fails, other framings of it are tried, then each colour axis, then round spots of a pip's
size (a matched filter), then the learned pip finder's
map (pip_net.py) in place of the colour distance, for faces of 2-6 (reframe.py). Otherwise the
reason, in the reroll reasons' words: a leaning die (`cocked`), glare hiding a pip place or
passing for a pip or of another paint (`glare`, glints.py), a blurred face (`blur`), pips
that fit no face (`unreadable`). The layout checks are pip_fit.py's.
This reader knows nothing of the classifier: the two readings are independent, and judge.py
asks them to agree.
"""

from __future__ import annotations

import numpy as np

from vision.faces import SHAPED
from vision.glints import glare_fakes_pip, glare_hides_pip, odd_paint
from vision.params import PARAMS, PipParams
from vision.pip_fit import confidence, fit_pips
from vision.pip_shape import pip_stretch
from vision.pips import Spots, find_spots
from vision.reading import RerollReason
from vision.reframe import reframed
from vision.top_face import Face, find_face
from vision.types import Candidate, Leaning, PipReading


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


def read_pips(
    frame: np.ndarray,
    candidate: Candidate,
    p: PipParams = PARAMS.pips,
    leaning: Leaning | None = None,
    floor: np.ndarray | None = None,
) -> PipReading:
    """The geometric reading of the die at `candidate`.

    leaning: where the die leans; by default the kiosk's (`kiosk_leaning`; single photos pass
    their own, photo.leaning_limits). floor: the empty tray, on a calibrated tray.
    """
    lean = leaning or kiosk_leaning(p)
    face = top_face_of(frame, candidate, p, floor)
    if face is None:
        return PipReading(None, 0.0, None, RerollReason.UNREADABLE, "no face found")
    spots = find_spots(frame, face, p)
    n = len(spots.centres)

    fit, why = fit_pips(spots, p)
    found = face  # by its colour: the other framings are square boxes, which show no tilt
    if fit is None:  # glare is judged on the reading the searches end with
        face, spots, fit = reframed(frame, candidate, face, spots, p)
        n = len(spots.centres)
    long_face = (found if lean.both else face).aspect > lean.face
    pips = _in_frame(face, spots)
    shape = None
    if fit is not None and fit.value in SHAPED and (lean.round > 1 or candidate.at_wall):
        # no layout to show every tilt: the pips' own shape does
        radius = float(np.median(spots.diameters)) * face.side / 2
        shape = pip_stretch(frame, pips, radius, p)

    def refuse(reason: RerollReason, why: str) -> PipReading:
        """A refusal keeping what was measured of the face (the reader learns from it)."""
        stretch = None if fit is None else fit.stretch
        return PipReading(None, 0.0, face, reason, why, n, stretch=stretch, pip_stretch=shape)

    round_pips = shape is not None and shape < lean.round
    flat_pips = fit is not None and (
        round_pips
        if fit.value <= 3
        else fit.fitted_stretch < lean.square or (fit.value == 6 and round_pips)
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
    if not lean.both and lean.round > 1 and shape is not None and shape > lean.round:
        return refuse(RerollReason.COCKED, f"the pips of a {fit.value} seen {shape:.2f} long")
    if leans:
        return refuse(RerollReason.COCKED, f"a {fit.value} on a face {face.aspect:.2f} long")
    return PipReading(fit.value, confidence(fit, p), face, None, "", n, pips, fit.stretch, shape)


def top_face_of(
    frame: np.ndarray, candidate: Candidate, p: PipParams, floor: np.ndarray | None = None
) -> Face | None:
    """The top face found by its colour in the candidate's outline, or in a box of
    `p.outline` times its size where it has none (top_face.find_face)."""
    outline = candidate.outline
    if outline is None:
        outline = box_outline(candidate.centre, p.outline * candidate.size)
    return find_face(
        frame, np.asarray(outline, np.float32), candidate.centre, candidate.size, 0.0, p, floor
    )


ANY_LEAN = Leaning(float("inf"), float("inf"))  # no face or layout too long to be read


def shows_one(frame: np.ndarray, box: tuple[float, float, float], fill: float) -> bool:
    """Does the geometric reading find a die's square face with its one pip in the middle in
    this box (centre x, y and side, frame px), however the die leans? A die showing 1 does; a
    pip seen close up, which the face classifier also calls a 1, is round: the face found on
    it fills less than `fill` of its bounding rectangle."""
    x, y, side = box
    candidate = Candidate((x, y), side, 1.0)
    face = top_face_of(frame, candidate, PARAMS.pips)
    if face is None or face.fill < fill:  # every framing read_pips tries keeps this fill
        return False
    return read_pips(frame, candidate, leaning=ANY_LEAN).value == 1


def kiosk_leaning(p: PipParams = PARAMS.pips, free: bool = False) -> Leaning:
    """Where a die on the kiosk's tray leans: its pips show a tilt of 20 degrees or more, a
    4-6's layout or a 1-3's or 6's pips 1/cos 20 = 1.064 long (a circle seen at a slant is an
    ellipse; a 6's layout shows only a tilt no maker's design explains, faces.SIX_DESIGNS),
    whatever its face found by colour measures; a face too long to be a top with its side in
    view, where the pips do not show it lies flat.

    free: the die has nothing to lean on (candidates.free_standing): clear of the wall and of
    every other die, a cube on the floor rests on a face, and only a die propped on something
    the tray difference does not show can tilt. It is then taken to lean only where both signs
    of a tilt show: its face found long, and its pips or layout long too. Real pips, drilled
    and shaded, and a real lens make flat dice's pips and layouts look 1.05-1.3 long now and
    then, past the limits, on square faces; a tilt foreshortens the face and its pips alike."""
    if free:
        return Leaning(p.cocked_face, p.free_stretch, p.cocked_stretch, p.cocked_pips, both=True)
    return Leaning(p.cocked_face, p.cocked_stretch, p.cocked_stretch, p.cocked_pips)


def _in_frame(face: Face, spots: Spots) -> tuple[tuple[float, float], ...]:
    """The spots' centres in frame px."""
    z = complex(*face.centre) + face.axes * (spots.centres @ np.array([1, 1j]))
    return tuple((float(c.real), float(c.imag)) for c in z)
