"""Read a roll: find die candidates, read each twice independently, judge the roll.

    frame --image.frame_problem--> candidates.find_candidates --> face.read_pips (geometry)
                                                              \\-> classify.guess_faces (learned)
          --> judge.judge_dice (the two must agree) --> judge.judge_roll --> Roll

`read_roll(frame, expect=3, calibration=None) -> Roll` never raises on a bad frame; `inspect`
also returns each candidate's verdict (the debug view, `azar-kiosk read --debug-dir`);
`tray_reader.TrayReader` is read_roll as the kiosk runs it on its calibrated tray, learning the
die size from the dice it reads. The calibrated-tray path and the single-photo path run the
same stages; photo.py holds the only difference.
"""

from __future__ import annotations

import logging
from functools import lru_cache

import cv2
import numpy as np

from vision import photo
from vision.calibration import Calibration, empty_under
from vision.candidates import apart, find_candidates, free_standing
from vision.classify import ClassifierMissing, Looks
from vision.face import kiosk_leaning, read_pips
from vision.image import frame_problem
from vision.judge import judge_dice, judge_roll
from vision.params import PARAMS, Params
from vision.reading import RerollReason, Roll
from vision.strays import missed_dice
from vision.types import Candidate, DieVerdict, Leaning, PipReading

log = logging.getLogger(__name__)


def inspect(
    frame: np.ndarray,
    *,
    expect: int | None = 3,
    calibration: Calibration | None = None,
    params: Params = PARAMS,
    face_size: float | None = None,
) -> tuple[Roll, list[DieVerdict]]:
    """read_roll() plus every candidate's verdict (for the debug view and the evaluations)."""
    problem = frame_problem(frame, params.frame)
    if problem is not None:
        return Roll((), RerollReason.BAD_FRAME, problem), []
    single_photo = photo.is_photo(calibration)  # no tray: no face size to hold faces to
    try:
        looks = Looks(frame, params.classify)
        candidates, unexplained = find_candidates(frame, calibration, params.candidates, looks)
        if single_photo:  # every candidate is the finder's: boxed where marked
            leaning = photo.leaning_limits(calibration, params)
            guesses = looks([(*c.centre, c.size) for c in candidates])
            pips = [
                photo.UNSOUGHT
                if photo.clutter(c, g, params)
                else read_pips(frame, c, params.pips, leaning)
                for c, g in zip(candidates, guesses, strict=True)
            ]
            candidates = [
                photo.uncut(c, r, frame.shape, params)
                for c, r in zip(candidates, pips, strict=True)
            ]
        else:
            floor = empty_under(calibration, frame)
            pips = [
                read_pips(frame, c, params.pips, _leaning(c, candidates, params), floor)
                for c in candidates
            ]
            if face_size:
                candidates, pips = _apart(frame, candidates, pips, params, face_size, floor)
            boxes = [  # a mark of the tray difference alone is boxed on the face found
                (*(c.centre if c.p_die > 0 or r.face is None else r.face.centre), c.size)
                for c, r in zip(candidates, pips, strict=True)
            ]
            guesses = looks(boxes)
    except (ClassifierMissing, FileNotFoundError) as error:
        _unavailable(str(error))
        return Roll((), RerollReason.UNREADABLE, f"the reader's models are missing: {error}"), []
    except cv2.error as error:  # a frame OpenCV cannot digest is a bad frame, not a crash
        return Roll((), RerollReason.BAD_FRAME, f"OpenCV: {error.err}"), []
    verdicts = judge_dice(candidates, pips, guesses, params, None if single_photo else face_size)
    if single_photo:
        verdicts = photo.one_die_twice(photo.pipless(frame, verdicts, params), params)
        missed = _missed_die(frame, verdicts, params, looks)
        if missed is not None:
            roll = judge_roll(verdicts, [], expect, params)
            why = f"pips of a die not found at ({missed[0]:.0f}, {missed[1]:.0f})"
            return Roll(roll.dice, RerollReason.WRONG_COUNT, why), verdicts
    return judge_roll(verdicts, unexplained, expect, params), verdicts


def _leaning(c: Candidate, candidates: list[Candidate], params: Params) -> Leaning:
    """Where a die on the kiosk's tray leans: by its pips where it has something to lean on."""
    return kiosk_leaning(params.pips, free_standing(c, candidates, params.candidates))


def _middle(c: Candidate, r: PipReading) -> tuple[float, float]:
    """Where a die's top face has its middle: its pips' (every layout is symmetric about it),
    else the mark's."""
    if r.value is None or not r.pips:
        return c.centre
    x, y = np.mean(r.pips, axis=0)
    return float(x), float(y)


def _apart(
    frame: np.ndarray,
    candidates: list[Candidate],
    pips: list[PipReading],
    params: Params,
    face_size: float,
    floor: np.ndarray | None,
) -> tuple[list[Candidate], list[PipReading]]:
    """On the kiosk's tray, a die read on a face found larger than the top-face window allows
    read again on its own side of the midline to each die beside it (candidates.apart): where
    two dice of one colour touch, a box of a die's size about one takes in a strip of the
    other's face, found 1.10-1.14 of a top, and the die was refused as leaning with a side in
    view. A die leaning against another shows its side away from that one, beyond the cut;
    one propped on another's edge tilts by 45 degrees or so, which its pips or layout show."""
    middles = [_middle(c, r) for c, r in zip(candidates, pips, strict=True)]
    candidates, pips = list(candidates), list(pips)
    for i, (c, r) in enumerate(zip(candidates, pips, strict=True)):
        if r.value is None or r.face is None or r.face.side <= params.judge.top_face[1] * face_size:
            continue
        others = middles[:i] + middles[i + 1 :]
        cut = apart(c, middles[i], others, params.pips.outline * c.size, params.candidates)
        if cut is c:
            continue
        again = read_pips(frame, cut, params.pips, _leaning(c, candidates, params), floor)
        if again.value is not None:
            candidates[i], pips[i] = cut, again
    return candidates, pips


def _missed_die(
    frame: np.ndarray, verdicts: list[DieVerdict], params: Params, looks: Looks
) -> tuple[float, float] | None:
    """Where stray pips (strays.py) show what the face classifier takes for a die face, in a
    single photo: a die the finder missed. None when there is none."""
    found = missed_dice(frame, verdicts, params)
    guesses = looks([(x, y, side) for x, y, side, _ in found])
    for (x, y, _, sure), guess in zip(found, guesses, strict=True):
        if guess.p_face >= sure:
            return x, y
    return None


@lru_cache(maxsize=8)
def _unavailable(why: str) -> None:
    """Say once (per cause) that the reader cannot run, not on every frame."""
    log.error("dice reader unavailable, every roll is refused: %s", why)


def read_roll(
    frame: np.ndarray,
    *,
    expect: int | None = 3,
    calibration: Calibration | None = None,
    params: Params = PARAMS,
    face_size: float | None = None,
) -> Roll:
    """Read the dice in a BGR uint8 frame (h, w, 3). Never raises on a bad frame.

    expect: the number of dice the game needs (None: any number). The Roll is `ok` only when
    exactly that many dice were found and every one was read by both readings alike.
    face_size: the side (px) of the top faces this tray's flat dice show, as measured on it
    (TrayReader's), which the judge holds each face to (`judge.top_face`); None: not judged.
    """
    return inspect(
        frame, expect=expect, calibration=calibration, params=params, face_size=face_size
    )[0]
