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
BAND = (10.0, 64.0)  # die sizes (pixels the net sees) it was trained to find, and trusted for
LONG_SIDE = 1024  # the finest level sees at most this long a side (cost: about 0.7 Mpx)
LEVEL_STEP = BAND[1] / BAND[0]  # each coarser level is this much smaller: the bands meet
DIE_SIDE = 28.0  # with a known die size, the frame is scaled so a die is this wide (in BAND)
MAX_CANDIDATES = 24  # at most this many answers a frame, whatever it shows
_LOCK = threading.Lock()  # one cv2.dnn.Net is shared; it is not safe to run from two threads
MIN_HEAT = 0.2  # weaker peaks are not candidates at all
ECHO = 0.6  # a weaker peak nearer than this (die sizes) to a stronger one is the same die
PIP_OF = 2.5  # a peak this many times smaller than a sure die it lies on is one of its pips
SURE_FOR_PIPS = 0.3  # how sure that larger die must be
CLUSTER_SURE = 0.6  # dice of a cluster are this sure (pips of one die seldom are)
PIP_ALWAYS = 4.0  # a peak this many times smaller than a sure die on it is a pip, however sure
TOLERANCE = 1.25  # a level's answers are kept for sizes this much past its band


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


def levels(shape: tuple[int, ...], die: float | None) -> list[float]:
    """The scales the net reads the frame at: one with a known die size, else a pyramid whose
    bands (BAND / scale, in frame pixels) reach from 15 px to past 400 px."""
    if die:
        return [DIE_SIDE / die]
    fine = min(1.0, LONG_SIDE / max(shape[:2]))
    return [fine, fine / LEVEL_STEP]


def maps(frame: np.ndarray, scale: float) -> np.ndarray:
    """The net's maps (2, h/4, w/4) for the frame scaled by `scale`: heat logit, log die size."""
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=interpolation)
    h, w = image.shape[:2]
    ph, pw = -h % ALIGN + max(0, 4 * ALIGN - h), -w % ALIGN + max(0, 4 * ALIGN - w)
    fill = tuple(float(c) for c in np.median(image[::4, ::4].reshape(-1, 3), axis=0))
    image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=fill)
    blob = cv2.dnn.blobFromImage(image, 1 / 255.0)
    with _LOCK:
        net = _net()
        net.setInput(blob)
        return net.forward()[0].copy()


def find_dice(frame: np.ndarray, die: float | None = None) -> list[Candidate]:
    """Every die the net points at, surest first, one per die, at most MAX_CANDIDATES.

    frame: BGR uint8 (h, w, 3). die: the expected die size in frame pixels (a calibration's):
    the frame is read once, scaled so dice are DIE_SIDE wide. Without it the frame is read at
    two levels (`levels`), each trusted only for the die sizes of its band; a small die found
    on a sure larger one is its pip and is dropped. Cost: the net on at most about 1.1 times
    LONG_SIDE squared pixels, whatever the frame shows.
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"a frame must be BGR uint8 (h, w, 3), not {frame.dtype} {frame.shape}")
    scales = levels(frame.shape, die)
    found: list[Candidate] = []
    inside: set[int] = set()  # ids of the finest level's sure candidates well inside its band
    for k, scale in enumerate(scales):
        lo = BAND[0] / TOLERANCE if k else 0.0  # the finest level answers for the smallest
        hi = BAND[1] * TOLERANCE if k < len(scales) - 1 else np.inf
        for c in _peaks(maps(frame, scale), scale):
            if lo <= c.size * scale <= hi:
                found.append(c)
                if k == 0 and c.size * scale <= BAND[1] and c.p_die >= SURE_FOR_PIPS:
                    inside.add(id(c))
    return _merge(found, inside)


def _merge(found: list[Candidate], first: set[int] = frozenset()) -> list[Candidate]:
    """One candidate per die: a large candidate over two or more surer small ones (and sure:
    CLUSTER_SURE) is a cluster of dice and is dropped; a small candidate on a sure large
    one (p_die >= SURE_FOR_PIPS), under a quarter its size or less sure, is its pip and is
    dropped; then weaker echoes of the same die."""

    def on(small: Candidate, big: Candidate) -> bool:
        near = np.hypot(*np.subtract(small.centre, big.centre)) < 0.6 * big.size
        return near and big.size >= PIP_OF * small.size

    clusters = {
        i
        for i, big in enumerate(found)
        if sum(on(c, big) and c.p_die > max(big.p_die, CLUSTER_SURE) for c in found) >= 2
    }
    found = [c for i, c in enumerate(found) if i not in clusters]
    sure = [c for c in found if c.p_die >= SURE_FOR_PIPS]
    found = [
        c
        for c in found
        if not any(
            on(c, big) and (big.p_die > c.p_die or c.size * PIP_ALWAYS < big.size) for big in sure
        )
    ]
    kept: list[Candidate] = []
    for candidate in sorted(found, key=lambda c: (id(c) not in first, -c.p_die)):
        # one die, one candidate: the other peaks on its die are its echoes
        near = [np.hypot(*np.subtract(candidate.centre, k.centre)) for k in kept]
        if all(d > ECHO * max(k.size, candidate.size) for d, k in zip(near, kept, strict=True)):
            kept.append(candidate)
            if len(kept) == MAX_CANDIDATES:
                break
    return sorted(kept, key=lambda c: -c.p_die)


def _peaks(out: np.ndarray, scale: float) -> list[Candidate]:
    """The local maxima of the heat map, strongest first, at most 4 x MAX_CANDIDATES."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > MIN_HEAT)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[: 4 * MAX_CANDIDATES]
    found = []
    rows, cols = heat.shape
    for y, x in zip(ys[order], xs[order], strict=True):
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
    return found
