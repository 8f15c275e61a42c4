"""The learned reading of each candidate: a face classifier on a crop centred on the die.

Contract: `guess_faces(frame, boxes) -> list[FaceGuess]`, frame BGR uint8 (h, w, 3), boxes
(centre x, centre y, die side) in its pixels, one answer per box, all in one batch. The
networks (vision/face_classifier.py, ONNX run by OpenCV's DNN module) see each crop in several
turns and mirror images, since every face looks like a face of the same value so; their mean
probability, calibrated on real photos held apart from training, is the answer's probability.
Class 0, "not a flat top face", covers clutter, a pip seen close up, a side face and a leaning
die. `ClassifierMissing` is raised when no model can be loaded: the reader then refuses every
roll rather than announce on one reading alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.params import PARAMS, ClassifyParams
from vision.types import FaceGuess


class ClassifierMissing(RuntimeError):
    """The face classifier's model cannot be loaded (a file missing or damaged)."""


def _classifier():
    from vision.face_classifier import FaceClassifier

    try:
        return FaceClassifier.load()
    except Exception as error:  # a missing file, or cv2.error for a damaged one
        raise ClassifierMissing(str(error)) from error


def guess_faces(
    frame: np.ndarray,
    boxes: Sequence[tuple[float, float, float]],
    one_look: float | None = None,
) -> list[FaceGuess]:
    """The classifier's reading of each box (centre x, centre y, die side in px); one_look: a
    face read this surely in the first view is not seen the other ways (FaceClassifier.views)."""
    if not boxes:
        return []
    from vision.face_classifier import INPUT, crop_die

    classifier = _classifier()
    crops = np.array([crop_die(frame, (x, y), s) for x, y, s in boxes], np.uint8)
    probabilities, _ = classifier.views(crops.reshape(-1, INPUT, INPUT, 3), one_look)
    return [_guess(p) for p in probabilities]


def _guess(p: np.ndarray) -> FaceGuess:
    best = int(np.argmax(p))
    p_face = float(1.0 - p[0])
    return FaceGuess(None if best == 0 else best, float(p[best]), p_face)


Box = tuple[float, float, float]


class Looks:
    """The classifier's answers on one frame, each box looked at once. The die finder asks
    about the large marks with small ones on them and the small ones (dice_net._merge), the
    judge about every candidate kept: in a photo many are the same boxes, and a look costs a
    pass of every network over the crop."""

    def __init__(self, frame: np.ndarray, params: ClassifyParams = PARAMS.classify) -> None:
        self.frame = frame
        self.params = params
        self._seen: dict[Box, FaceGuess] = {}

    def __call__(self, boxes: Sequence[Box]) -> list[FaceGuess]:
        """guess_faces() of each box, those not yet looked at in one batch."""
        keys = [(float(x), float(y), float(s)) for x, y, s in boxes]
        new = [b for b in dict.fromkeys(keys) if b not in self._seen]
        looked = guess_faces(self.frame, new, self.params.one_look)
        self._seen.update(zip(new, looked, strict=True))
        return [self._seen[b] for b in keys]

    def sure_faces(self, boxes: Sequence[Box]) -> list[tuple[float, int | None]]:
        """sure_faces() of these boxes' answers, at this frame's `sure` level."""
        return sure_faces(self(boxes), self.params.sure)


def sure_faces(guesses: Sequence[FaceGuess], sure: float) -> list[tuple[float, int | None]]:
    """The classifier's probability of a face in each box, and the value it is sure of (None
    when it is not): a pip seen close, in a noisy photo, is a face of some value to it, but
    of no value surely."""
    return [(g.p_face, g.value if g.p >= sure else None) for g in guesses]
