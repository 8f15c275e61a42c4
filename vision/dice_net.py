"""The die finder: a small convolutional net that points at dice a classical outline misses.

Die bodies found by colour (bodies.py) fail where dice crowd, touch or match the tray; the net,
trained on labelled photos and simulated trays (tools/train_dice_net.py), marks where top faces
are centred, which face each shows and how large the die is. It runs with OpenCV's DNN module
(no other runtime). Its answers are candidates: the reader still decides what is announced.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).resolve().parent / "models" / "dice_net.onnx"
STRIDE = 4  # frame pixels per cell of the net's maps
ALIGN = 8  # the net's input sides must be multiples of this
LONG_SIDE = 640  # the net sees frames scaled to this long side...
DIE_SIDE = 38.0  # ...or, when the die size is known, scaled so a die is this wide
_LOCK = threading.Lock()  # one cv2.dnn.Net is shared; it is not safe to run from two threads
MIN_HEAT = 0.2  # weaker peaks are not candidates at all
SMALL_DIE = 30.0  # dice narrower than this (pixels seen by the net) are read again, larger
ECHO = 0.6  # a weaker peak nearer than this (die sizes) to a stronger one is the same die
SURE_FOR_SIZE = 0.3  # the peaks whose sizes decide that


@dataclass(frozen=True, slots=True)
class Candidate:
    """A die the net points at: its centre and size (side of a square of the die's area) in
    frame pixels, and how sure the net is that a die is there. `value` and `p_value` are the
    face read there and its probability, once the face classifier has looked (0 and 0.0 before,
    and 0 when it sees no die face); `p_value` is 0 unless all its views agree, `p_mean` is the
    probability whether they agree or not. `pips` is the face the pip reader reads in a square
    of a die's top face there, when the classifier's likeliest face is not sure, or, in a single
    photo, when the die lies at the picture's edge with all its pip places in view (0: none
    read; see second_look.read_pips and read_at_edge). `wide`: the face was seen in a crop at
    the dice's size, the finder's mark being much smaller (see second_look.reframe)."""

    centre: tuple[float, float]
    size: float
    p_die: float
    value: int = 0
    p_value: float = 0.0
    p_mean: float = 0.0
    pips: int = 0
    wide: bool = False


def _net() -> cv2.dnn.Net:
    return _load(str(MODEL))


@lru_cache(maxsize=2)
def _load(path: str) -> cv2.dnn.Net:
    if not Path(path).is_file():
        raise FileNotFoundError(f"die finder model missing: {path}")
    return cv2.dnn.readNetFromONNX(path)


def _scale(shape: tuple[int, ...], die: float | None) -> float:
    if die:
        return DIE_SIDE / die
    return LONG_SIDE / max(shape[:2])


def maps(frame: np.ndarray, scale: float) -> np.ndarray:
    """The net's maps (2, h/4, w/4) for the frame scaled by `scale`: heat logit, log die size."""
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = image.shape[:2]
    ph, pw = -h % ALIGN, -w % ALIGN
    fill = tuple(float(c) for c in np.median(image.reshape(-1, 3), axis=0))
    image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=fill)
    blob = cv2.dnn.blobFromImage(image, 1 / 255.0)
    with _LOCK:
        net = _net()
        net.setInput(blob)
        return net.forward()[0].copy()


def find_dice(frame: np.ndarray, die: float | None = None) -> list[Candidate]:
    """Every die the net points at, surest first (peaks of the heat map, one per die).

    die: the expected die size in frame pixels (a calibration's). Without it the frame is first
    read at a long side of 640 px, the scale of the photos the net learnt from; if the dice it
    finds there are small (pips of two or three pixels), it is read again, scaled so they are
    DIE_SIDE wide.
    """
    scale = _scale(frame.shape, die)
    found = _peaks(maps(frame, scale), scale)
    sure = [c.size * scale for c in found if c.p_die >= SURE_FOR_SIZE]
    if die is None and sure and np.median(sure) < SMALL_DIE:
        scale *= DIE_SIDE / float(np.median(sure))
        found = _peaks(maps(frame, scale), scale)
    return found


def _peaks(out: np.ndarray, scale: float) -> list[Candidate]:
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > MIN_HEAT)
    found = []
    rows, cols = heat.shape
    for y, x in zip(*np.nonzero(peaks), strict=True):
        y0, y1, x0, x1 = max(0, y - 1), min(rows, y + 2), max(0, x - 1), min(cols, x + 2)
        weights = heat[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cy = float((weights * gy).sum() / weights.sum())
        cx = float((weights * gx).sum() / weights.sum())
        found.append(
            Candidate(
                centre=((cx + 0.5) * STRIDE / scale, (cy + 0.5) * STRIDE / scale),
                size=float(np.exp(out[-1, y, x])) / scale,
                p_die=float(heat[y, x]),
            )
        )
    kept: list[Candidate] = []
    for candidate in sorted(found, key=lambda c: -c.p_die):
        # one die, one candidate: weaker peaks on a stronger one's die are its echoes
        if all(np.hypot(*np.subtract(candidate.centre, k.centre)) > ECHO * k.size for k in kept):
            kept.append(candidate)
    return kept
