"""What passes between the reader's stages. The kiosk sees only `vision.reading` (Roll, Die).

candidates.py -> Candidate; face.py -> PipReading; classify.py -> FaceGuess; judge.py ->
DieVerdict per candidate and the Roll. All positions and sizes are in pixels of the frame read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from vision.reading import Die, RerollReason
from vision.top_face import Face


@dataclass(frozen=True, slots=True)
class Candidate:
    """Where a die may be: centre (x, y) and die side (px), how sure the die finder is that a
    die lies there (0 when only the empty-tray difference saw it), whether the tray difference
    saw it, its outline when one is known ((n, 1, 2) int32; else a square of `size`), whether
    it is cut by the picture's edge, and whether it lies closer to the tray's wall than a flat
    die can (then it leans on it)."""

    centre: tuple[float, float]
    size: float
    p_die: float
    on_tray: bool = False
    outline: object = None
    cut: bool = False
    at_wall: bool = False


class Leaning(NamedTuple):
    """Where the geometric reading takes a die to lean: a top face found longer than `face`
    times its width, or a pip layout squashed more than `stretch`. A 4, 5 or 6 laid out within
    `square` of the layout fitted (a 6's design, `faces.FaceFit.fitted_stretch`), a 1, 2, 3 or
    6 whose pips look within `round` (pip_shape.py), is judged by its pips alone (1.0: never):
    its long face took in a side of its own colour, which perspective shows beside a flat die
    away from the picture's middle. both: a tilt is taken only where the
    face found is long and the pips show it too (past `square` or `round`), not where one sign
    alone shows it: a die with nothing to lean on (candidates.free_standing)."""

    face: float
    stretch: float
    square: float = 1.0
    round: float = 1.0
    both: bool = False


@dataclass(frozen=True, slots=True)
class PipReading:
    """The geometric reading of one candidate: the face its pips fit, or why none.

    value: 1..6, or None with `reason` and `detail`; confidence: 0..1 margin to the fit's
    limits; face: the top face found (None if none); spots: pip-like spots counted;
    pips: where the pips read lie (frame px); stretch: how much the fitted pip layout is
    squashed along one axis (1: seen square-on; 4, 5 and 6 pips show it; None where no layout
    fitted); pip_stretch: how much longer one way than the other the pips themselves look
    (pip_shape.py; measured on the kiosk's tray on dice showing 1-3 or 6, else None). A
    reading refused for any reason keeps both where they were measured: the kiosk's reader
    learns from them how exactly its camera measures flat dice (tray_reader.py).
    """

    value: int | None
    confidence: float
    face: Face | None
    reason: RerollReason | None
    detail: str
    spots: int = 0
    pips: tuple[tuple[float, float], ...] = ()
    stretch: float | None = None
    pip_stretch: float | None = None


@dataclass(frozen=True, slots=True)
class FaceGuess:
    """The learned classifier's reading of one candidate: its likeliest value (None: "not a
    flat top face"), that answer's calibrated probability, and the probability of any face."""

    value: int | None
    p: float
    p_face: float

    def no_face(self, none: float) -> bool:
        """Does the classifier see no flat top face here at probability `none` or more?"""
        return self.value is None and self.p >= none


@dataclass(frozen=True, slots=True)
class DieVerdict:
    """What the judge made of one candidate: a die read (`die`), a die refused (`reason`), or
    not a die at all (`counts` False: clutter, a pip, a glint; left out of the roll)."""

    candidate: Candidate
    pips: PipReading | None
    guess: FaceGuess | None
    die: Die | None
    reason: RerollReason | None
    detail: str
    counts: bool = True

    def refused(self, reason: RerollReason, detail: str) -> DieVerdict:
        """This candidate refused after all (a later check saw what its readings could not)."""
        return DieVerdict(self.candidate, self.pips, self.guess, None, reason, detail)
