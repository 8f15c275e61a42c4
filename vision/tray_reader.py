"""The kiosk's reader: read_roll() frame after frame on its calibrated tray, learning its dice.

Contract: `TrayReader(calibration, expect, params, faces, on_learnt)(frame) -> Roll`, frame BGR
uint8 (h, w, 3) from the tray's camera. It reads with `reader.inspect`, the stages a single
photo is read with, and keeps what only a fixed camera over one tray can learn: the size of the
dice's top faces, the shape of their pips, and where the camera has moved since calibration.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from copy import copy
from dataclasses import replace

import numpy as np

from vision.calibration import Calibration, empty_under
from vision.faces import SHAPED
from vision.params import PARAMS, Params
from vision.reader import inspect
from vision.reading import RerollReason, Roll
from vision.relight import evenly_lit
from vision.tray_faces import TrayFaces
from vision.tray_shift import FollowedCamera
from vision.types import DieVerdict
from vision.vote import same_dice

Measures = tuple[list[float], list[float]]  # flat dice's pip shapes (1-3, 6), layouts (4-6)


class TrayReader:
    """read_roll() as the kiosk runs it, frame after frame, on its calibrated tray.

    A calibration made from the empty tray alone gives no die size; the size is then learnt from the
    dice read (the median top face of the last `judge.learn_dice`; a die is read when both readings
    agree on it, also in a roll refused for another die) and fixes the finder's scale from then on.
    A calibration that gives a size keeps it; single photos learn nothing. Once the first
    `learn_dice` dice are read, each face is held to the median of the last `learn_dice` faces read
    (`JudgeParams.top_face`: a face not of a flat top's size is a leaning die), the window widened
    to `judge.top_face_spread` robust deviations of those first dice's faces where this camera and
    these dice measure faces less exactly than it allows (dark dice, whose sides merge with their
    top; a real lens). The window is learnt once, from dice read before it applied, so that it
    cannot narrow itself, and only from dice lit as most of the tray is (relight.evenly_lit: a face
    in a sunbeam or a visitor's shadow measures otherwise, and one such throw among the first would
    make the window too wide to show a lean). A die touching the wall, where dice lean, shows a tilt
    in its pips and is judged by them from the first throw (judge._leans): a 4, 5 or 6 by their
    layout, a 1, 2 or 3 by their shape (pip_shape.py). When the window is learnt, so are the
    limits past which those look long (`tilt_limits`, `_tilts_widened`): a real camera shows
    flat dice's pips less exactly than the simulated tray's pinhole camera, and held to its
    limits flat dice beside another or the wall were refused as leaning.

    A camera knocked since calibration is followed (tray_shift.FollowedCamera): for each new
    rest of the dice (and each refused read) the picture's shift is measured on the tray's
    rim, and where it has moved by a pixel or more the calibration is moved with it and the
    frame read again. Past `tray_shift.REACH` the camera is not followed, and every roll is
    refused as `bad_frame` (a warning in the log): staff calibrate again.

    faces: what an earlier run learnt on this calibration (tray_faces.py), taken as learnt;
    on_learnt: called once with what this one learns, when it has (the kiosk keeps it).
    """

    def __init__(
        self,
        calibration: Calibration | None,
        expect: int | None = 3,
        params: Params = PARAMS,
        faces: TrayFaces | None = None,
        on_learnt: Callable[[TrayFaces], None] | None = None,
    ) -> None:
        self.calibration = calibration
        self.expect = expect
        self.on_learnt = on_learnt
        of_tray = self._of_tray
        self._learn = of_tray and calibration is not None and calibration.die_size is None
        learn = params.judge.learn_dice
        self._sizes: deque[float] = deque(maxlen=learn)
        self._shapes: deque[float] = deque(maxlen=learn)  # pip shapes seen (pip_shape)
        self._layouts: deque[float] = deque(maxlen=learn)  # 4-6 layouts seen (tilt_limits)
        self._tilts: tuple[float, float] | None = None  # the leaning limits, once learnt
        self._first: list[float] | None = []  # faces read before the window applies
        self._last: Roll | None = None  # the roll last learnt from
        self.camera = FollowedCamera(calibration)  # the camera's moves since calibration
        self.params = params
        self.inspected: tuple[np.ndarray, list[DieVerdict]] | None = None  # the last frame
        # read and each candidate's verdict on it (`azar-kiosk watch --debug-dir` draws them)
        if of_tray and faces is not None:
            self._sizes.extend(faces.sizes)
            self._first = None
            self.params = _held_to(self.params, faces.window, faces.tilts)
            self._tilts = None if faces.tilts is None else self.tilt_limits
            self._learnt_size()

    @property
    def _of_tray(self) -> bool:
        """Is this reader's calibration a tray's (the kiosk's), not a single photo's?"""
        return self.calibration is not None and self.calibration.of_tray

    @property
    def faces(self) -> TrayFaces | None:
        """What this reader has learnt of the tray's faces (None while it is learning)."""
        if self._first is not None or not self._sizes:
            return None
        return TrayFaces(tuple(self._sizes), self.params.judge.top_face, self._tilts)

    @property
    def tilt_limits(self) -> tuple[float, float]:
        """How long a flat die's pips (a 1-3 or 6) and pip layout (a 4-6) may look on this
        camera before the die is taken to lean: `pips.cocked_pips` and `pips.cocked_stretch`,
        as widened once learnt (`_tilts_widened`)."""
        return self.params.pips.cocked_pips, self.params.pips.cocked_stretch

    def expecting(self, expect: int | None) -> TrayReader:
        """This reader, what it has learnt and is learning kept, asking for `expect` dice."""
        other = copy(self)
        other.expect = expect
        other._sizes = deque(self._sizes, maxlen=self._sizes.maxlen)
        other._shapes = deque(self._shapes, maxlen=self._shapes.maxlen)
        other._layouts = deque(self._layouts, maxlen=self._layouts.maxlen)
        other._first = None if self._first is None else list(self._first)
        return other

    def _seen(self, roll: Roll) -> bool:
        """Are these the dice last learnt from, still at rest (the kiosk reads each rest several
        times before its vote: the same dice measured again teach nothing new, and counted
        again would make the faces look more alike than they are)?"""
        last = self._last
        return (
            bool(roll.dice)
            and last is not None
            and same_dice(roll, last, self.params.judge.same_rest)
        )

    def _learnt_size(self) -> None:
        if self._learn and self._sizes:
            median = round(float(np.median(self._sizes)), 1)
            self.calibration = replace(self.calibration, die_size=median)

    @property
    def learning(self) -> tuple[int, int] | None:
        """While the top-face window is learnt on a calibrated tray: (dice read so far, dice it
        is learnt from), which staff see; None once it is learnt, and on what is no tray."""
        learning = self._of_tray and self._first is not None
        return (len(self._first), self.params.judge.learn_dice) if learning else None

    @property
    def face_size(self) -> float | None:
        """The top-face side faces are held to, once the window is learnt (else None)."""
        if self._first is not None or not self._sizes:
            return None
        return float(np.median(self._sizes))

    def peek(self, frame: np.ndarray) -> Roll:
        """The read __call__ makes of `frame`, learning nothing of the dice from it: what the
        kiosk would say of these dice now (the maintenance screen's test read). A camera
        moved since the calibration is followed here too (it is no learning: where the
        camera is now)."""
        return self._peek(frame)[0]

    def _peek(self, frame: np.ndarray) -> tuple[Roll, Measures]:
        """peek(), and the flat dice's pips and layouts the read measured (`_read`)."""
        roll, measures = self._read(frame)
        looked = roll.reason is not RerollReason.BAD_FRAME
        if self._of_tray and looked and (not roll.ok or not self._seen(roll)):
            followed = self.camera.follow(frame, self.calibration)
            if followed is not None:
                self.calibration = followed
                roll, measures = self._read(frame)
        if self.camera.too_far:
            why = "the camera has moved since the tray was calibrated: calibrate again"
            return Roll((), RerollReason.BAD_FRAME, why), ([], [])
        return roll, measures

    def _read(self, frame: np.ndarray) -> tuple[Roll, Measures]:
        """The roll, and what was measured of the dice the classifier surely sees showing a
        flat face, read or refused: the pips' shape of each 1-3 or 6 (pip_shape) and the
        layout's stretch of each 4-6 whose pips fit one (tilt_limits)."""
        roll, verdicts = inspect(
            frame,
            expect=self.expect,
            calibration=self.calibration,
            params=self.params,
            face_size=self.face_size,
        )
        self.inspected = (frame, verdicts)
        sure = self.params.classify.sure
        flat = [
            (v.guess.value, v.pips)
            for v in verdicts
            if v.pips is not None and v.guess is not None and v.guess.p >= sure
        ]
        shapes = [r.pip_stretch for value, r in flat if value in SHAPED and r.pip_stretch]
        layouts = [r.stretch for value, r in flat if value and value >= 4 and r.stretch]
        return roll, (shapes, layouts)

    @property
    def pip_shape(self) -> float | None:
        """How long the pips of the dice seen here look, the median of the last `learn_dice`
        dice the classifier surely sees showing a flat 1-3 or 6, read or refused (1: round); None
        before `judge.pip_shapes` of them are seen. Flat dice's
        pips look round to a camera square to the tray: a camera tilted by t shows them all
        1/cos t long, and past `pips.cocked_pips` refuses dice showing them as leaning."""
        if len(self._shapes) < self.params.judge.pip_shapes:
            return None
        return float(np.median(self._shapes))

    def __call__(self, frame: np.ndarray) -> Roll:
        roll, (shapes, layouts) = self._peek(frame)
        if not self._of_tray or self._seen(roll):
            return roll
        self._last = roll
        self._shapes.extend(shapes)  # (none from a frame refused whole)
        self._layouts.extend(layouts)
        sizes = [die.size for die in roll.dice]  # read by both, if not all the roll's
        self._sizes.extend(sizes)
        self._learnt_size()
        if self._first is not None:
            empty = empty_under(self.calibration, frame)
            if empty is not None:
                even = evenly_lit(frame, empty, [(*die.center, die.size) for die in roll.dice])
                sizes = [size for size, ok in zip(sizes, even, strict=True) if ok]
            self._first.extend(sizes)
            if len(self._first) >= self.params.judge.learn_dice:
                first = np.asarray(self._first)
                self.params = _widened(self.params, first / np.median(first))
                self.params = _tilts_widened(self.params, self._shapes, self._layouts)
                self._tilts = self.tilt_limits
                self._first = None
                learnt = self.faces
                if self.on_learnt is not None and learnt is not None:
                    self.on_learnt(learnt)
        return roll


def _widened(params: Params, ratios: np.ndarray) -> Params:
    """params with the top-face window widened to `judge.top_face_spread` robust deviations of
    the measured faces over their median (`ratios`), where that is wider."""
    deviation = params.judge.top_face_spread * _deviation(ratios, 1.0)
    low, high = params.judge.top_face
    window = (min(low, 1.0 - deviation), max(high, 1.0 + deviation))
    return replace(params, judge=replace(params.judge, top_face=window))


def _deviation(values: Sequence[float] | np.ndarray, centre: float) -> float:
    """The robust deviation of `values` about `centre`: their median distance from it, scaled
    to a normal distribution's standard deviation (1.4826), so one stray die moves it little."""
    return 1.4826 * float(np.median(np.abs(np.asarray(values, dtype=float) - centre)))


def _tilts_widened(params: Params, shapes: Sequence[float], layouts: Sequence[float]) -> Params:
    """params with the leaning limits (`pips.cocked_pips`, `pips.cocked_stretch`) widened to
    `judge.lean_spread` robust deviations of flat dice's measured pips (`shapes`) and layouts
    over their median, where that is wider, up to `judge.lean_ceiling`; a limit measured on
    fewer than `judge.pip_shapes` dice stays as it is."""
    judge, pips = params.judge, params.pips

    def limit(measures: Sequence[float], floor: float) -> float:
        if len(measures) < judge.pip_shapes:
            return floor
        median = float(np.median(measures))
        wide = median + judge.lean_spread * _deviation(measures, median)
        return max(floor, min(wide, judge.lean_ceiling))

    widened = replace(
        pips,
        cocked_pips=limit(shapes, pips.cocked_pips),
        cocked_stretch=limit(layouts, pips.cocked_stretch),
    )
    return replace(params, pips=widened)


def _held_to(
    params: Params, window: tuple[float, float], tilts: tuple[float, float] | None
) -> Params:
    """params holding faces to a window learnt before (times the faces' median), and dice to
    the leaning limits learnt with it (None: those of params)."""
    params = replace(params, judge=replace(params.judge, top_face=window))
    if tilts is None:
        return params
    pips, ceiling = params.pips, params.judge.lean_ceiling
    own = (pips.cocked_pips, pips.cocked_stretch)
    held = [min(max(kept, low), max(low, ceiling)) for kept, low in zip(tilts, own, strict=True)]
    return replace(params, pips=replace(pips, cocked_pips=held[0], cocked_stretch=held[1]))
