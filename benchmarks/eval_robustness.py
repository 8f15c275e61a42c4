"""How the dice reader does on the real photo sets changed as other cameras would change them.

    .venv/bin/python benchmarks/eval_robustness.py [--set NAME] [--change NAME] [--list]
        [--part dev|held-out|all]

The reader will meet photos it never saw: other resolutions, turned, darker or brighter, noisier,
softer, other white balance, harder JPEG. Each change is applied to every labelled photo (and
its label boxes); the table gives, per set and change, the dice read right and the images
answered wrongly, the figure that must stay at 0. Labels corrected by the errata
(benchmarks/label_errata.csv), so the wrong answers are the reader's own.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_photos import (  # noqa: E402
    DEFAULT_DATA,
    evaluate,
    load_labels,
    photo_sets,
    print_header,
    row,
    split,
)

Boxes = list[tuple[int, float, float, float, float]]
Change = Callable[[np.ndarray, Boxes], tuple[np.ndarray, Boxes]]


def _scaled(factor: float) -> Change:
    def change(frame: np.ndarray, boxes: Boxes) -> tuple[np.ndarray, Boxes]:
        interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        out = cv2.resize(frame, None, fx=factor, fy=factor, interpolation=interpolation)
        return out, [(v, *(c * factor for c in box)) for v, *box in boxes]

    return change


def _turned(frame: np.ndarray, boxes: Boxes) -> tuple[np.ndarray, Boxes]:
    """A quarter turn clockwise: (x, y) goes to (height - 1 - y, x)."""
    height = frame.shape[0]
    turned = [(v, height - 1 - y1, x0, height - 1 - y0, x1) for v, x0, y0, x1, y1 in boxes]
    return cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE), turned


def _pixels(function: Callable[[np.ndarray], np.ndarray]) -> Change:
    def change(frame: np.ndarray, boxes: Boxes) -> tuple[np.ndarray, Boxes]:
        return function(frame), boxes

    return change


def _gain(gain: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda f: np.clip(f.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _cast(f: np.ndarray) -> np.ndarray:
    """Warm white balance: less blue, more red (tungsten light in a museum)."""
    return np.clip(f.astype(np.float32) * np.array([0.8, 1.0, 1.12]), 0, 255).astype(np.uint8)


def _noisy(f: np.ndarray) -> np.ndarray:
    noise = np.random.default_rng(7).normal(0.0, 6.0, f.shape)
    return np.clip(f + noise, 0, 255).astype(np.uint8)


def _jpeg(f: np.ndarray) -> np.ndarray:
    _, data = cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 35])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


CHANGES: dict[str, Change] = {
    "as taken": lambda f, b: (f, b),
    "half size": _scaled(0.5),
    "1.5x size": _scaled(1.5),
    "turned 90": _turned,
    "darker x0.6": _pixels(_gain(0.6)),
    "brighter x1.3": _pixels(_gain(1.3)),
    "warm light": _pixels(_cast),
    "noise sd 6": _pixels(_noisy),
    "soft focus": _pixels(lambda f: cv2.GaussianBlur(f, (0, 0), 1.2)),
    "jpeg q35": _pixels(_jpeg),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of photo sets")
    parser.add_argument("--set", action="append", help="only this set (repeatable)")
    parser.add_argument("--change", action="append", choices=CHANGES, help="only this change")
    parser.add_argument("--list", action="store_true", help="list the images answered wrongly")
    parser.add_argument(
        "--part", choices=("dev", "held-out", "all"), default="all", help="which part of each set"
    )
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no photo sets at {args.data} (use --data)", file=sys.stderr)
        return 2
    print_header("set, change")
    for set_dir in photo_sets(args.data, args.set):
        labels = load_labels(set_dir, errata=True)
        if args.part != "all":
            labels = split(labels)[args.part == "held-out"]
        for name in args.change or CHANGES:
            change = CHANGES[name]

            def changed(path: Path, boxes: Boxes, change: Change = change) -> tuple:
                return change(cv2.imread(str(path)), boxes)

            counts, _ = evaluate(labels, args.list, load=changed)
            print(row(f"{set_dir.name}, {name}", counts), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
