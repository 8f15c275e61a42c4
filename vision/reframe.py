"""Where the face found by its colour fits no layout: the pips sought again, other ways.

Contract: `reframed(frame, candidate, face, spots, p) -> (Face, Spots, FaceFit | None)`, frame
BGR uint8 at full resolution, the candidate and face in its pixels. Faces of the box's size
are framed where the face was found, where the finder marked the die, where a camera above
sees its top (`top_of_box`) and where the pips in its box lay out a face (layout.py); the pips
are split from each by the colour distance, each colour axis, round spots of a pip's size and
the learned pip finder's map (`searches`, in that order), and the first reading that passes
every check of pip_fit.fit_pips is taken.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.face_patches import FacePatch, blob_patch, face_patch_of, learned_patch
from vision.faces import FaceFit
from vision.layout import laid_out, lay_out, map_spots
from vision.params import PARAMS, PipParams
from vision.pip_fit import fit_pips, without_flecks
from vision.pip_net import PipMap, PipNet
from vision.pips import Spots, find_spots
from vision.top_face import Face
from vision.types import Candidate

Search = tuple[str, int]  # how spots are split from a face patch: ("colour", axis) an Otsu
# split of the colour distance (axis -1) or of one colour axis (0..5, pips.find_spots);
# ("blob", axis) round spots of a pip's size along the same (face_patches.blob_patch);
# ("learned", -1) the pip finder's map (pip_net.py)


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
    """Where and how reframed() seeks the pips again, in order: (face, search).
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


class Splits:
    """The spots each search splits from a candidate's faces: each face resampled once for all
    its searches, and the pip finder run once, when a learned search first needs its map."""

    def __init__(self, frame: np.ndarray, candidate: Candidate, p: PipParams = PARAMS.pips):
        self.frame, self.candidate, self.p = frame, candidate, p
        self.patches: dict[Face, FacePatch] = {}
        self.pip_map: PipMap | None = None

    def spots(self, face: Face, search: Search) -> Spots:
        if face not in self.patches:
            self.patches[face] = face_patch_of(self.frame, face, self.p)
        if search[0] == "learned" and self.pip_map is None:
            c = self.candidate
            self.pip_map = PipNet.load().pip_map(self.frame, c.centre, c.size)
        return search_spots(self.frame, face, search, self.patches[face], self.p, self.pip_map)


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


def reframed(
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
    size on the face found (face_patches.blob_patch: an Otsu split takes in a marbled face's swirls
    with its pips, a matched filter does not), in any colour difference and along each axis.
    Last, on the face found and the
    framings, split from the learned pip map (face_patches.learned_patch), a face of at least
    `learned_least` pips; then on faces framed where the map's own marks lay out a face
    (layout.map_spots), as the colour's face and spots may be turned or off where the map's
    are not. Each reading must pass every check of fit_pips; the first that does is taken,
    else the face found stands."""
    split = Splits(frame, candidate, p)

    def attempt(again: Face, search: Search) -> tuple[Spots, FaceFit | None]:
        found = split.spots(again, search)
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
    if split.pip_map is not None:  # the map's own layout frames the face
        layout = lay_out(*map_spots(split.pip_map, p), candidate, p)
        for again in _boxed(face, candidate, [layout] if layout else [], p):
            found, fit = attempt(again, ("learned", -1))
            if fit is not None:
                return again, found, fit
    return face, spots, None
