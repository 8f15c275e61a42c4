"""What only single photos need: rules applied when there is no calibrated tray, never in the kiosk.

A photo is taken by a hand-held camera at any slant, so flat dice away from the middle show
foreshortened faces; on the kiosk's tray the camera looks straight down and a foreshortened face
means a leaning die. This module is the one place that knows the difference: `is_photo` says
which case a read is in, and `leaning_limits` gives the face aspect and pip-layout stretch above
which a die leans (and where a square layout outweighs a long face), and `one_die_twice`
refuses the one case those looser limits open up: the top and the side of one die (leaning, or
seen at a slant) read as two flat dice edge to edge; `clutter` says which marks
are not read for pips at all, `uncut` judges a die at the picture's edge on the face its pips
lay out, and `pipless` leaves out what only the pip reading takes for a die (the classifier
surely sees no face, and the finder is unsure, no pip of its own lies there, or it is far
smaller or larger than the dice read; on the kiosk's tray, the empty tray tells dice from
clutter and the calibration gives their size). The kiosk's calibrated path takes none of these.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.calibration import Calibration
from vision.face import kiosk_leaning
from vision.layout import box_spots
from vision.params import PARAMS, Params
from vision.reading import RerollReason
from vision.strays import on_face, pip_sized
from vision.top_face import Face
from vision.types import Candidate, DieVerdict, FaceGuess, Leaning, PipReading


def is_photo(calibration: Calibration | None) -> bool:
    """Read as a single photo: no calibration of a tray (its floor and camera unknown)."""
    return calibration is None or not calibration.of_tray


def leaning_limits(calibration: Calibration | None, p: Params = PARAMS) -> Leaning:
    """Where a die is taken to lean (see `Leaning`). On the kiosk's tray, whose camera looks
    straight down, by its pips (`pips.cocked_stretch`, `pips.cocked_pips`), however long its
    face; in a single photo a hand-held camera's slant foreshortens flat dice and stretches
    every pip, so there by its face and layout within the photo's limits, and a long face
    counts for nothing only where a 4-6 lies within `photo.square_layout`."""
    if is_photo(calibration):
        return Leaning(p.photo.cocked_face, p.photo.cocked_stretch, p.photo.square_layout)
    return kiosk_leaning(p.pips)


def one_die_twice(verdicts: list[DieVerdict], p: Params = PARAMS) -> list[DieVerdict]:
    """Two dice read edge to edge, one of them with its pip layout squashed past
    `photo.paired_stretch` (a face tilted 34 degrees or more from the camera's view), may be
    the top and the side of one die: both refused. One camera sees two flat dice side by side
    at one slant, and a side beside its top at a far steeper one; the side's own face found is
    often no help (a square box of the die's size, where its colour runs into the top's), so
    the layout judges. (Opposite faces add up to 7, so one of a top and a side beside it has 4
    to 6 pips, whose layout shows the tilt. On the development photos no two read dice edge to
    edge in a photo answered have a layout past 1.2: a camera's slant alone squashes flat dice
    less.)"""
    read = [v for v in verdicts if v.die is not None and v.pips and v.pips.face]
    doubtful = set()
    for i, a in enumerate(read):
        for b in read[i + 1 :]:
            reach = p.photo.edge_to_edge * max(a.die.size, b.die.size)
            tilted = max(a.pips.stretch or 1.0, b.pips.stretch or 1.0) > p.photo.paired_stretch
            apart = np.hypot(a.die.center[0] - b.die.center[0], a.die.center[1] - b.die.center[1])
            if tilted and apart < reach:
                doubtful.update((id(a), id(b)))
    why = "the top and the side of one die?"
    return [v.refused(RerollReason.COCKED, why) if id(v) in doubtful else v for v in verdicts]


def uncut(
    candidate: Candidate, pips: PipReading, shape: tuple[int, ...], p: Params = PARAMS
) -> Candidate:
    """The candidate judged cut by the picture's edge on where its pips lie, not on the
    finder's box: a box near the edge runs large (a shadow, a side in view). Where 2-6 pips
    were read, the face they lay out (its corners `photo.face_of_pips` times as far from the
    middle as the pip places' corners: the pips and their quarter turns) lies wholly inside
    the picture, and the die is not cut. A lone pip lays out no face. In the kiosk a cut also
    means a die across the tray's edge: its boxes are judged as found."""
    if not candidate.cut or pips.value is None or len(pips.pips) < 2:
        return candidate
    z = np.array([complex(x, y) for x, y in pips.pips])
    middle = z.mean()
    corners = middle + p.photo.face_of_pips * np.concatenate([z - middle, (z - middle) * 1j])
    h, w = shape[:2]
    inside = (corners.real >= 0) & (corners.real <= w - 1) & (corners.imag >= 0)
    if not np.all(inside & (corners.imag <= h - 1)):
        return candidate
    return replace(candidate, cut=False)


UNSOUGHT = PipReading(None, 0.0, None, RerollReason.UNREADABLE, "pips not sought: clutter")


def clutter(candidate: Candidate, guess: FaceGuess, p: Params = PARAMS) -> bool:
    """A mark the finder is unsure of (under `photo.sure_die`) on which the classifier surely
    sees no face: clutter whatever spots the pip reading might fit (pipless), so its pips are
    not sought. Most marks in a cluttered photo are such (carpet tufts, a shoe's eyelets), and
    the pip reading's searches on each cost more than the rest of the read."""
    return guess.no_face(p.classify.none) and candidate.p_die < p.photo.sure_die


def _own_spots(frame: np.ndarray, candidate: Candidate, faces: list[Face], p: Params) -> bool:
    """Does a pip-like spot lie in the candidate's box that is no read die's own (on its face,
    widened by `strays.own_margin`)? A box between dice takes in their pips. Where dice were
    read, a spot is pip-like only of the size their faces give a pip (strays.pip_sized, as the
    stray search holds it): a die of this table has pips of its set's size, a cable's sheen or
    a speck of a desk's grain has not."""
    centres, diameters = box_spots(frame, candidate, p.pips)
    if faces:
        side = float(np.median([face.side for face in faces]))
        centres = centres[pip_sized(diameters * candidate.size, side, p)]
    for x, y in candidate.centre + centres * candidate.size:
        if not any(on_face(face, x, y, p.strays.own_margin) for face in faces):
            return True
    return False


def pipless(frame: np.ndarray, verdicts: list[DieVerdict], p: Params = PARAMS) -> list[DieVerdict]:
    """Candidates refused that only the pip reading takes for a die are left out as clutter:
    the classifier surely sees no face there, and either the finder is unsure of them too (a
    speck on a light box read as a lone pip, a shoe's eyelets as a 2: spots fit a layout by
    chance, and neither learned model sees a die), or, the finder sure, no pip-like spot lies
    on the face nor anywhere in the box but on a read die's face (a shoe, a chair leg, the
    shadow between two dice: every face of a die has pips, and a leaning die shows at least
    one face; where dice were read, pip-like is of their pips' size, `_own_spots`, and the
    spots the pip reading split off the face count only so), or, whatever the finder says,
    it is less than `photo.smaller` the size of every die both readings read in the photo (a
    carpet's tuft, a pip of a large die) or more than its inverse times the largest (a chair,
    a boot): the dice read fix the scale of the dice on this table. Under `photo.tiny` their
    size it is left out whatever either reading says of it: a die of the set that small lies
    far off the table. In the kiosk a die is told from clutter by the empty tray and its size
    by the calibration; a hand-held photo has neither."""
    read = [v.candidate.size for v in verdicts if v.die is not None]
    faces = [v.pips.face for v in verdicts if v.die is not None and v.pips and v.pips.face]
    smallest = min(read, default=0.0)
    out = []
    for v in verdicts:
        r, g = v.pips, v.guess
        refused = v.counts and v.die is None
        no_face = refused and r is not None and g is not None and g.no_face(p.classify.none)
        why = ""
        if refused and v.candidate.size < p.photo.tiny * smallest:
            why = "far too small for a die"
        elif no_face and clutter(v.candidate, g, p):
            why = "only spots, no face: not a die"
        elif (
            no_face
            and r.value is None
            and (r.spots == 0 or bool(faces))
            and r.reason in (RerollReason.UNREADABLE, RerollReason.COCKED)
            and not _own_spots(frame, v.candidate, faces, p)
        ):
            why = "no pips, no face: not a die"
        elif no_face and v.candidate.size < p.photo.smaller * smallest:
            why = "far smaller than the dice read"
        elif no_face and read and v.candidate.size > max(read) / p.photo.smaller:
            why = "far larger than the dice read"
        out.append(DieVerdict(v.candidate, r, g, None, None, why, False) if why else v)
    return out
