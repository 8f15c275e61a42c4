"""Evaluate the die-face classifier on the labelled boxes of the real photo sets.

Usage: .venv/bin/python benchmarks/eval_face_classifier.py [--data DIR] [--model FILE...] [--dev]
       [--calibration FILE | --uncalibrated]

Oracle boxes: every labelled die of the held-out part (every fourth image in name order, as
benchmarks/eval_photos.py splits them; the classifier never trained on it) is cropped by
`crop_die` at its box centre with the square root of its box's area as size. Per set it prints the
accuracy, the confusion matrix (rows: label, columns: answer, "-" = not a die face), the
coverage/error trade-off (at p >= t: the share of dice answered with a value, and how many of
those are wrong), and how often bare-tray / half-die crops of the same images (centres at least
0.6 die from every label) are taken for a face. matteop65 never trained positives: all of its
images are reported too. Then the reliability table of the probability the reader uses (the mean
over the calibrated views, vision.face_classifier.FaceClassifier.views) on the held-out dice and
bare-table crops of all sets but matteop65 together: per bin of the answer's probability, how
many answers and how many right. Also prints the classification time for 25 crops on one thread
(one view, and the reader's views).
Its effect on the reader (the second look) is measured by benchmarks/eval_photos.py.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.face_classifier import CALIBRATION, MODELS, FaceClassifier, crop_die  # noqa: E402

SURE_VALUE = 0.8  # the reader's rule: every view agrees and the mean probability is this high

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
THRESHOLDS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99)


def load_split(set_dir: Path) -> tuple[dict, dict]:
    """(development, held-out): image path -> [(value, cx, cy, size)], split as eval_photos."""
    labels: dict[Path, list] = defaultdict(list)
    with open(set_dir / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = set_dir / "images" / row["split"] / row["image"]
            x0, y0, x1, y1 = (float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            labels[path].append(
                (int(row["value"]), (x0 + x1) / 2, (y0 + y1) / 2, ((x1 - x0) * (y1 - y0)) ** 0.5)
            )
    paths = sorted(labels)
    dev = {p: labels[p] for i, p in enumerate(paths) if i % 4 != 3}
    held = {p: labels[p] for i, p in enumerate(paths) if i % 4 == 3}
    return dev, held


def calibration_split(set_dir: Path) -> tuple[dict, dict]:
    """(training, calibration) parts of the development images: calibration is every eighth
    image from the second (`i % 8 == 1`, by path): the classifier never trains on it, its
    temperature is fitted there (tools/calibrate_face_classifier.py)."""
    dev, held = load_split(set_dir)
    index = {p: i for i, p in enumerate(sorted({**dev, **held}))}
    train = {p: d for p, d in dev.items() if index[p] % 8 != 1}
    calibration = {p: d for p, d in dev.items() if index[p] % 8 == 1}
    return train, calibration


def background_centres(shape, dice, rng, count: int) -> list[tuple[float, float, float]]:
    """Crop boxes at least 0.6 die from every labelled die (tray, rims, half dice)."""
    h, w = shape[:2]
    size = float(np.median([d[3] for d in dice]))
    centres = np.array([(d[1], d[2]) for d in dice])
    out = []
    for _ in range(50 * count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if np.min(np.hypot(*(centres - (x, y)).T)) >= 0.6 * size:
            out.append((x, y, size))
            if len(out) == count:
                break
    return out


def evaluate(classifier: FaceClassifier, images: dict, rng) -> tuple[list, list]:
    """[(label, answer or 0, p, the reader's answer or 0)] for the dice, [(answer or 0, p)]
    for background crops. The reader's answer: all views of all networks agree and their mean
    probability is at least SURE_VALUE (vision/second_look.py)."""
    dice, background = [], []
    for path, labels in images.items():
        frame = cv2.imread(str(path))
        answers = classifier.classify_boxes(frame, [(x, y, s) for _, x, y, s in labels])
        crops = np.array([crop_die(frame, (x, y), s) for _, x, y, s in labels], np.uint8)
        mean, agree = classifier.views(crops)
        sure = [
            int(p.argmax()) if ok and p.max() >= SURE_VALUE else 0
            for p, ok in zip(mean, agree, strict=True)
        ]
        dice += [
            (v, a or 0, p, r) for (v, *_), (a, p), r in zip(labels, answers, sure, strict=True)
        ]
        boxes = background_centres(frame.shape, labels, rng, 5)
        background += [(a or 0, p) for a, p in classifier.classify_boxes(frame, boxes)]
    return dice, background


def view_answers(classifier: FaceClassifier, images: dict, rng) -> tuple[np.ndarray, np.ndarray]:
    """(mean view probabilities (n, 7), labels (n,)) of the labelled dice and of three
    bare-table crops an image (label 0)."""
    crops, labels = [], []
    for path, dice in images.items():
        frame = cv2.imread(str(path))
        for value, x, y, s in dice:
            crops.append(crop_die(frame, (x, y), s))
            labels.append(value)
        for x, y, s in background_centres(frame.shape, dice, rng, 3):
            crops.append(crop_die(frame, (x, y), s))
            labels.append(0)
    probs, _ = classifier.views(np.array(crops, np.uint8))
    return probs, np.array(labels)


def print_reliability(probs: np.ndarray, labels: np.ndarray) -> None:
    p = probs.max(axis=1)
    right = probs.argmax(axis=1) == labels
    print("| p of the answer | answers | mean p | right |")
    print("|---|---|---|---|")
    bins = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 1.0001)
    for lo, hi in zip(bins, bins[1:], strict=False):
        inside = (p >= lo) & (p < hi)
        if inside.any():
            print(
                f"| {lo:.2f}-{min(hi, 1.0):.2f} | {int(inside.sum())} | {p[inside].mean():.3f} "
                f"| {int(right[inside].sum())} ({100 * right[inside].mean():.1f}%) |"
            )
    for t in (0.9, 0.99):
        sure = p >= t
        print(
            f"p >= {t}: {int(sure.sum())} of {len(p)} answered, "
            f"{int(right[sure].sum())} right ({100 * right[sure].mean():.1f}%)"
        )


def report(name: str, dice: list, background: list) -> None:
    n = len(dice)
    right = sum(v == a for v, a, *_ in dice)
    print(f"\n### {name}: {n} dice, {right} right ({100 * right / max(n, 1):.1f}%)")
    confusion = np.zeros((7, 7), int)
    for v, a, *_ in dice:
        confusion[v, a] += 1
    print("label \\ answer    -    1    2    3    4    5    6")
    for v in range(1, 7):
        print(f"      {v}      " + "".join(f"{c:5d}" for c in confusion[v]))
    print("| p >= | dice answered | answered wrongly | background taken for a face |")
    print("|---|---|---|---|")
    for t in THRESHOLDS:
        answered = [(v, a) for v, a, p, _ in dice if a and p >= t]
        wrong = sum(v != a for v, a in answered)
        fooled = sum(1 for a, p in background if a and p >= t)
        print(
            f"| {t:.2f} | {len(answered)} ({100 * len(answered) / max(n, 1):.1f}%) "
            f"| {wrong} ({100 * wrong / max(len(answered), 1):.1f}%) "
            f"| {fooled}/{len(background)} |"
        )
    sure = [(v, r) for v, _, _, r in dice if r]
    wrong = sum(v != r for v, r in sure)
    print(
        f"The reader's rule (eight views of every network agree, mean p >= {SURE_VALUE}): "
        f"{len(sure)} answered ({100 * len(sure) / max(n, 1):.1f}%), {wrong} wrong"
    )


def speed(classifier: FaceClassifier, views: bool = False) -> float:
    """Median ms to classify 25 crops (cropping included) on one thread, once or in views."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 255, (480, 640, 3), np.uint8)
    boxes = [(rng.uniform(50, 590), rng.uniform(50, 430), 40.0) for _ in range(25)]
    times = []
    for _ in range(30):
        start = time.perf_counter()
        if views:
            classifier.views(np.array([crop_die(frame, (x, y), s) for x, y, s in boxes]))
        else:
            classifier.classify_boxes(frame, boxes)
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of photo sets")
    parser.add_argument(
        "--model", type=Path, nargs="+", default=list(MODELS), help="ONNX model(s), averaged"
    )
    parser.add_argument("--dev", action="store_true", help="also the development part")
    parser.add_argument("--calibration", type=Path, default=CALIBRATION, help="temperature JSON")
    parser.add_argument("--uncalibrated", action="store_true", help="temperature 1, 8 views")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no photo sets at {args.data} (use --data)", file=sys.stderr)
        return 2
    classifier = FaceClassifier.load(
        tuple(args.model), None if args.uncalibrated else args.calibration
    )
    print(f"temperature {classifier.temperature:.3f}, {classifier.n_views} views a crop")
    rng = np.random.default_rng(1)
    held_probs, held_labels = [], []
    for set_dir in sorted(p for p in args.data.iterdir() if (p / "annotations.csv").exists()):
        dev, held = load_split(set_dir)
        if not set_dir.name.startswith("matteop65"):
            probs, labels = view_answers(classifier, held, np.random.default_rng(2))
            held_probs.append(probs)
            held_labels.append(labels)
        report(f"{set_dir.name} (held-out)", *evaluate(classifier, held, rng))
        if args.dev or set_dir.name.startswith("matteop65"):
            label = "all" if set_dir.name.startswith("matteop65") else "dev"
            parts = {**dev, **held} if label == "all" else dev
            report(f"{set_dir.name} ({label})", *evaluate(classifier, parts, rng))
    print("\n### Reliability, held-out dice and bare-table crops (all sets but matteop65)")
    print_reliability(np.concatenate(held_probs), np.concatenate(held_labels))
    print(f"\n25 crops cut and classified, one thread: median {speed(classifier):.2f} ms")
    print(
        f"the same 25 crops in {classifier.n_views} views: median {speed(classifier, True):.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
