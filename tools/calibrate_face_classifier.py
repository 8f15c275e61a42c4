"""Fit the face classifier's temperature on real photos it never trained on, and write it down.

    .venv/bin/python tools/calibrate_face_classifier.py [--views 4] [--model FILE...] [--out FILE]

Temperature scaling (Guo et al., 2017): one number T divides every logit before the softmax, so
the answers keep their order (accuracy is unchanged) and only their sureness moves. T is chosen
to minimise the negative log-likelihood of the calibration crops' labels under the probability
the reader uses: the mean over `--views` views (vision.face_classifier.VIEWS) of the calibrated
softmax. Calibration crops: every labelled die of the calibration part of byler-d6-topdown,
skovy-two-dice and damiantab-phone (development images, `i % 8 == 1`, never trained on) at its
box, and three bare-table crops an image (class 0). It prints, for 1, 2, 4 and 8 views, the fitted
T, the likelihood and the accuracy, then the reliability table of the chosen number of views,
and writes {"temperature", "views", ...} to vision/models/face_classifier.json (--out).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from eval_face_classifier import background_centres, calibration_split  # noqa: E402

from vision.face_classifier import CALIBRATION, MODELS, FaceClassifier, crop_die  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
SETS = ("byler-d6-topdown", "skovy-two-dice", "damiantab-phone")
TEMPERATURES = np.exp(np.linspace(np.log(0.25), np.log(6.0), 121))
BINS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 1.0001)


def calibration_crops(data: Path, rng) -> tuple[np.ndarray, np.ndarray]:
    """(crops, labels) of the calibration part: labelled dice and bare table (0)."""
    crops, labels = [], []
    for name in SETS:
        _, part = calibration_split(data / name)
        for path, dice in part.items():
            frame = cv2.imread(str(path))
            for value, x, y, s in dice:
                crops.append(crop_die(frame, (x, y), s))
                labels.append(value)
            for x, y, s in background_centres(frame.shape, dice, rng, 3):
                crops.append(crop_die(frame, (x, y), s))
                labels.append(0)
    return np.array(crops, np.uint8), np.array(labels)


def mean_probabilities(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    z = np.exp(z - z.max(axis=2, keepdims=True))
    return (z / z.sum(axis=2, keepdims=True)).mean(axis=0)


def fit(logits: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(temperature, mean negative log-likelihood) minimising the likelihood over the grid."""
    nll = [
        -np.log(mean_probabilities(logits, t)[np.arange(len(labels)), labels] + 1e-9).mean()
        for t in TEMPERATURES
    ]
    best = int(np.argmin(nll))
    return float(TEMPERATURES[best]), float(nll[best])


def reliability(probs: np.ndarray, labels: np.ndarray) -> list[tuple[str, int, float, float]]:
    """Rows (bin, answers, mean p, share right) by the likeliest class's probability."""
    p = probs.max(axis=1)
    right = probs.argmax(axis=1) == labels
    rows = []
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        inside = (p >= lo) & (p < hi)
        if inside.any():
            name = f"{lo:.2f}-{min(hi, 1.0):.2f}"
            rows.append((name, int(inside.sum()), p[inside].mean(), right[inside].mean()))
    return rows


def print_reliability(probs: np.ndarray, labels: np.ndarray) -> None:
    print("| p of the answer | answers | mean p | right |")
    print("|---|---|---|---|")
    for name, n, mean_p, share in reliability(probs, labels):
        print(f"| {name} | {n} | {mean_p:.3f} | {100 * share:.1f}% |")
    for t in (0.9, 0.99):
        sure = probs.max(axis=1) >= t
        right = (probs.argmax(axis=1) == labels)[sure]
        print(f"p >= {t}: {int(sure.sum())} answers, {100 * right.mean():.1f}% right")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--model", type=Path, nargs="+", default=list(MODELS))
    parser.add_argument("--views", type=int, default=4, help="views the reader takes a crop")
    parser.add_argument("--out", type=Path, default=CALIBRATION)
    args = parser.parse_args()
    classifier = FaceClassifier.load(tuple(args.model), None)
    crops, labels = calibration_crops(args.data, np.random.default_rng(7))
    print(f"{len(crops)} calibration crops ({int((labels > 0).sum())} dice)")
    logits = classifier.view_logits(crops, 8)
    nets = len(args.model)
    print("| views | temperature | NLL at T | NLL at 1 | accuracy |")
    print("|---|---|---|---|---|")
    chosen = None
    for views in (1, 2, 4, 8):
        part = logits[: views * nets]
        t, nll = fit(part, labels)
        raw = -np.log(mean_probabilities(part, 1.0)[np.arange(len(labels)), labels] + 1e-9)
        accuracy = (mean_probabilities(part, t).argmax(axis=1) == labels).mean()
        print(f"| {views} | {t:.3f} | {nll:.4f} | {raw.mean():.4f} | {100 * accuracy:.1f}% |")
        if views == args.views:
            chosen = t
    if chosen is None:
        chosen, _ = fit(logits[: args.views * nets], labels)
    print(f"\nreliability on the calibration part, {args.views} views, T = {chosen:.3f}:")
    print_reliability(mean_probabilities(logits[: args.views * nets], chosen), labels)
    record = {
        "temperature": round(chosen, 4),
        "views": args.views,
        "models": [p.name for p in args.model],
        "fitted_on": f"{len(crops)} crops of the calibration part (i % 8 == 1) of "
        + ", ".join(SETS),
    }
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
