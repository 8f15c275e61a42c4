"""A learned second opinion on a die's top face: crop -> 1..6, or None (not a die face).

The pip reader (`pips.py`, `faces.py`) explains *why* it reads a value; this small
convolutional network only says *what* the crop looks like. The two fail differently, so the
reader can announce a die only when both agree (a veto, never a guess) and can let its
candidate search be more liberal (clutter is rejected here).

Input convention (the same function cuts the training crops, so keep to it):
`crop_die(frame, centre, size)` takes a square of `CROP_SCALE` x `size` pixels centred on the
die's centre, axis-aligned (the network was trained at every rotation), and resamples it to
`INPUT` x `INPUT` pixels. `size` is the die's side in pixels (for a labelled box, its longer
side). Each channel is then centred on its own mean and the patch scaled by its standard
deviation, so exposure and white balance do not matter.

The network runs in OpenCV's DNN module (no other runtime dependency); it was trained by
`tools/train_face_classifier.py` and is shipped as `MODELS`. Its probabilities are calibrated:
`CALIBRATION` (a JSON file beside it, written by tools/calibrate_face_classifier.py) holds the
temperature its logits are divided by, fitted on real development photos it never trained on,
and how many views `views` takes, so that a probability of 0.9 is right about nine times in
ten (the reliability table: benchmarks/eval_face_classifier.py).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

CROP_SCALE = 1.3  # crop side in die sides: the whole die with a little tray around it
INPUT = 64  # network input side in pixels (a 40 px die is enlarged a little, nothing is lost)
NOT_A_FACE = 0  # class index of "not a die face"; classes 1..6 are the values
MODELS = (Path(__file__).with_name("models") / "face_classifier.onnx",)  # averaged if several
CALIBRATION = Path(__file__).with_name("models") / "face_classifier.json"
# the views `views` takes, in this order: each a quarter turn (k) and whether mirrored; every
# die face looks like a face of the same value so
VIEWS = ((0, False), (2, True), (1, False), (3, True), (2, False), (0, True), (3, False), (1, True))


def crop_die(
    frame: np.ndarray, centre: tuple[float, float], size: float, angle: float = 0.0
) -> np.ndarray:
    """The INPUT x INPUT BGR crop of a die of side `size` at `centre` (pixels of `frame`).

    `angle` (degrees) turns the crop; training uses it, callers leave it at 0. Outside the
    frame the border pixels are repeated, as a camera would show more tray.
    """
    side = CROP_SCALE * max(float(size), 1.0)
    reach = int(np.ceil(side * (1.42 if angle else 1.0))) + 2  # room for the turned corners
    region = cv2.getRectSubPix(frame, (reach, reach), (float(centre[0]), float(centre[1])))
    n = max(round(reach * INPUT / side), INPUT)
    # area averaging when shrinking, so small pips are not lost between samples
    region = cv2.resize(region, (n, n), interpolation=cv2.INTER_AREA)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    m[:, 2] += INPUT / 2 - n / 2
    return cv2.warpAffine(region, m, (INPUT, INPUT), flags=cv2.INTER_LINEAR)


def normalise(crops: np.ndarray) -> np.ndarray:
    """(n, INPUT, INPUT, 3) uint8 BGR -> (n, 3, INPUT, INPUT) float32, per crop and channel
    centred, per crop scaled to unit deviation (the network's input)."""
    x = crops.astype(np.float32)
    x -= x.mean(axis=(1, 2), keepdims=True)
    x /= x.std(axis=(1, 2, 3), keepdims=True) + 4.0  # + 4: a flat patch stays near zero
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


class FaceClassifier:
    """The face network(s), loaded once (`FaceClassifier.load()`), answers calibrated."""

    def __init__(self, nets: list[cv2.dnn.Net], temperature: float = 1.0, views: int = 8) -> None:
        self._nets = nets
        self.temperature = temperature
        self.n_views = views
        self._lock = threading.Lock()  # a cv2.dnn.Net must not run in two threads at once

    @staticmethod
    @cache
    def load(
        paths: Path | tuple[Path, ...] = MODELS, calibration: Path | None = CALIBRATION
    ) -> FaceClassifier:
        """The classifier from its ONNX file(s) and calibration (None: temperature 1, eight
        views); loaded on first use and cached."""
        nets = []
        for path in (paths,) if isinstance(paths, Path) else paths:
            if not Path(path).is_file():
                raise FileNotFoundError(f"face classifier model missing: {path}")
            net = cv2.dnn.readNetFromONNX(str(path))
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            nets.append(net)
        if calibration is None:
            return FaceClassifier(nets)
        if not Path(calibration).is_file():
            raise FileNotFoundError(f"face classifier calibration missing: {calibration}")
        try:
            fitted = json.loads(Path(calibration).read_text())
            temperature, views = float(fitted["temperature"]), int(fitted["views"])
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"face classifier calibration unreadable: {calibration}") from error
        if not (temperature > 0 and 1 <= views <= len(VIEWS)):
            raise ValueError(f"face classifier calibration out of range: {calibration}")
        return FaceClassifier(nets, temperature, views)

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """(networks, n, 7) raw logits for (n, INPUT, INPUT, 3) crops, each network's."""
        if len(crops) == 0:
            return np.zeros((len(self._nets), 0, 7), np.float32)
        return self._run(normalise(np.asarray(crops)))

    def _run(self, x: np.ndarray) -> np.ndarray:
        """(networks, n, 7) raw logits for a normalised batch (n, 3, INPUT, INPUT)."""
        out = []
        with self._lock:
            for net in self._nets:
                net.setInput(x)
                out.append(net.forward().reshape(len(x), -1).copy())
        return np.array(out)

    def each(self, crops: np.ndarray) -> np.ndarray:
        """(networks, n, 7) calibrated class probabilities for (n, INPUT, INPUT, 3) crops,
        each network's: column 0 is "not a die face", column v the value v."""
        z = self.logits(crops) / self.temperature
        return np.array([softmax(net) for net in z]) if len(z[0]) else z

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(n, 7) class probabilities for (n, INPUT, INPUT, 3) crops, the networks' mean."""
        return self.each(crops).mean(axis=0)

    def view_logits(
        self, crops: np.ndarray, views: int | None = None, start: int = 0
    ) -> np.ndarray:
        """(views x networks, n, 7) raw logits of each crop seen in VIEWS[start:views]
        (`views`: the first so many, by default the calibrated number)."""
        chosen = VIEWS[start : views or self.n_views]
        x = normalise(np.asarray(crops))  # once: turning a crop changes neither mean nor spread
        seen = [np.rot90(x, k, axes=(2, 3))[:, :, :, :: -1 if m else 1] for k, m in chosen]
        # one batch for every view: one pass through the network, not one per view
        z = self._run(np.ascontiguousarray(np.concatenate(seen)))  # (networks, views x n, 7)
        z = z.reshape(len(z), len(chosen), len(crops), -1).swapaxes(0, 1)
        return z.reshape(-1, len(crops), z.shape[-1])

    def views(
        self, crops: np.ndarray, one_look: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each crop seen `n_views` ways (turned, mirrored: every die face looks like a face
        of the same value so) by every network: the mean (n, 7) calibrated probabilities, and
        whether all those answers agree. A face read the same however it is turned is read for
        its pips, not for a glint or a neighbour's edge.

        one_look: a crop whose first view every network reads as one face value (1-6) at this
        calibrated probability or more is answered from that view alone; the others are seen
        all `n_views` ways. Most dice on a tray are such faces, and a view costs as much as a
        crop (ClassifyParams.one_look says how the level was chosen)."""
        crops = np.asarray(crops)
        if len(crops) == 0:
            return np.zeros((0, 7), np.float32), np.zeros(0, bool)
        if one_look is None or self.n_views == 1:
            return _mean(self.view_logits(crops) / self.temperature)
        first = self.view_logits(crops, 1) / self.temperature  # (networks, n, 7)
        mean, agree = _mean(first)
        best = mean.argmax(axis=1)
        rest = ~(agree & (best != NOT_A_FACE) & (mean.max(axis=1) >= one_look))
        if rest.any():
            others = self.view_logits(crops[rest], start=1) / self.temperature
            mean[rest], agree[rest] = _mean(np.concatenate([first[:, rest], others]))
        return mean, agree

    def classify(self, patch: np.ndarray) -> tuple[int | None, float]:
        """(value 1..6 or None for "not a die face", its probability) for one crop.

        `patch` is a BGR crop as `crop_die` cuts it (any size: it is resized to INPUT).
        """
        if patch.ndim not in (2, 3) or patch.size == 0:
            raise ValueError(f"a die crop must be a BGR or grey image, not shape {patch.shape}")
        if patch.ndim == 2:
            patch = cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR)
        if patch.shape[:2] != (INPUT, INPUT):
            patch = cv2.resize(patch, (INPUT, INPUT), interpolation=cv2.INTER_AREA)
        return _answer(self.probabilities(patch[None])[0])

    def classify_boxes(
        self, frame: np.ndarray, boxes: Sequence[tuple[float, float, float]]
    ) -> list[tuple[int | None, float]]:
        """One answer per die given as (centre x, centre y, size) in `frame`, in one batch."""
        crops = np.array([crop_die(frame, (x, y), s) for x, y, s in boxes], np.uint8)
        return [_answer(p) for p in self.probabilities(crops.reshape(-1, INPUT, INPUT, 3))]


def _mean(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Calibrated logits (answers, n, 7) -> the mean (n, 7) probabilities, and whether every
    answer names the same class."""
    seen = np.array([softmax(v) for v in z])
    answers = seen.argmax(axis=2)
    return seen.mean(axis=0), (answers == answers[0]).all(axis=0)


def _answer(p: np.ndarray) -> tuple[int | None, float]:
    best = int(np.argmax(p))
    return (None if best == NOT_A_FACE else best), float(p[best])
