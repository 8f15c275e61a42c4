"""A learned pip finder: where a die's top-face pips are, as a map the pip reading can split.

The geometric reading (pips.py) finds pips as spots that differ from the face colour. On a
marbled or translucent die the swirls differ too, and on a small die seen from above a side
face's pips lie beside the top's: the spots then are of different sizes or fit no face. This
network, trained on the development dice's pips (tools/pip_examples.py, tools/train_pip_net.py),
says where top-face pips are and nothing else: no value, no count. What it marks is read by the
same layout fit and checks as any other spots (pip_fit.py), so the geometric reading still says
why it reads a value, and the classifier (face_classifier.py) still has to agree.

Contract: `pip_map(frame, centre, size) -> PipMap`, frame BGR uint8 (h, w, 3), the candidate's
centre and box side in its pixels; the map is float32 (INPUT, INPUT) in 0..1, PX pixels per box
side, its centre on `centre`, with the affine map from frame to map pixels. Cost: one network
pass of INPUT x INPUT pixels a candidate. A missing model raises FileNotFoundError naming it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

PX = 40  # network input: px per die box side
SPAN = 1.6  # box sides the input covers: the die and the rims of its neighbours
INPUT = round(PX * SPAN)  # 64
MODEL = Path(__file__).with_name("models") / "pip_net.onnx"


@dataclass(frozen=True, slots=True)
class PipMap:
    """Pip probability (float32, 0..1, INPUT x INPUT) and the 2x3 affine frame -> map px."""

    p: np.ndarray
    matrix: np.ndarray


def die_patch(
    frame: np.ndarray, centre: tuple[float, float], size: float, px: float, span: float
) -> tuple[np.ndarray, np.ndarray]:
    """A square BGR patch of `span` box sides about `centre`, `px` pixels a box side, area
    averaged where it shrinks (a large die's pips are not sampled sparsely), and the 2x3 affine
    map from frame to patch pixels. Training cuts its crops with this too."""
    out = round(px * span)
    reach = int(np.ceil(span * max(size, 1.0))) + 2
    region = cv2.getRectSubPix(frame, (reach, reach), (float(centre[0]), float(centre[1])))
    n = max(round(reach * px / max(size, 1.0)), out)
    flag = cv2.INTER_AREA if n < reach else cv2.INTER_LINEAR
    region = cv2.resize(region, (n, n), interpolation=flag)
    k = n / reach
    patch = cv2.getRectSubPix(region, (out, out), (n / 2 - 0.5, n / 2 - 0.5))
    matrix = np.array(
        [[k, 0, out / 2 - k * centre[0]], [0, k, out / 2 - k * centre[1]]], np.float64
    )
    return patch, matrix


class PipNet:
    """The pip network, loaded once (`PipNet.load()`); a lock, as OpenCV nets are not
    re-entrant."""

    def __init__(self, net: cv2.dnn.Net) -> None:
        self._net = net
        self._lock = threading.Lock()

    @staticmethod
    @cache
    def load(path: Path = MODEL) -> PipNet:
        if not path.exists():
            raise FileNotFoundError(f"pip finder model missing: {path}")
        return PipNet(cv2.dnn.readNetFromONNX(str(path)))

    def pip_map(self, frame: np.ndarray, centre: tuple[float, float], size: float) -> PipMap:
        patch, matrix = die_patch(frame, centre, size, PX, SPAN)
        blob = np.ascontiguousarray(patch.astype(np.float32).transpose(2, 0, 1)[None])
        with self._lock:
            self._net.setInput(blob)
            logit = self._net.forward()[0, 0]
        p = 1.0 / (1.0 + np.exp(-np.clip(logit, -30, 30)))
        p = cv2.resize(p.astype(np.float32), (INPUT, INPUT), interpolation=cv2.INTER_LINEAR)
        return PipMap(p, matrix)
