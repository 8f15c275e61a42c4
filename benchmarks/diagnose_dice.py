"""Per labelled die, which stage of the reader lost it (development photos only).

Usage: .venv/bin/python benchmarks/diagnose_dice.py [--set NAME] [--part dev|held-out|all]

For each labelled die: the candidate whose centre lies in its box (nearest first), then what
each reading said of it. Prints one table per set:
- not found: no candidate in the label's box;
- classifier: right/wrong/none (not a face), and how many right ones were sure;
- pips: right/wrong/refused (by reason);
- both right (the die can be announced), and the verdict's outcome.
Use it to see where recall is lost before changing anything; tune on `dev` only.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, photo_sets, split  # noqa: E402
from vision.params import PARAMS  # noqa: E402
from vision.reader import inspect  # noqa: E402


def nearest(verdicts, box):
    """The verdict whose candidate centre lies in the box, nearest to its centre."""
    _, x0, y0, x1, y1 = box
    inside = [
        v
        for v in verdicts
        if x0 <= v.candidate.centre[0] <= x1 and y0 <= v.candidate.centre[1] <= y1
    ]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return min(
        inside,
        key=lambda v: np.hypot(v.candidate.centre[0] - cx, v.candidate.centre[1] - cy),
        default=None,
    )


def diagnose(images: dict) -> Counter:
    c: Counter = Counter()
    for path, labels in images.items():
        frame = cv2.imread(str(path))
        _, verdicts = inspect(frame, expect=None)
        for box in labels:
            value = box[0]
            c["labelled"] += 1
            v = nearest(verdicts, box)
            if v is None:
                c["not found"] += 1
                continue
            g, r = v.guess, v.pips
            cls = "none" if g.value is None else ("right" if g.value == value else "wrong")
            c[f"classifier {cls}"] += 1
            if cls == "right" and g.p >= PARAMS.classify.sure:
                c["classifier right & sure"] += 1
            pip = (
                f"refused:{r.reason}"
                if r.value is None
                else ("right" if r.value == value else "wrong")
            )
            c[f"pips {pip}"] += 1
            if cls == "right" and pip == "right":
                c["both right"] += 1
            c[f"verdict {'read' if v.die else v.reason}"] += 1
            if cls == "right" and g.p >= PARAMS.classify.sure and r.value is None:
                c[f"  classifier-sure but pips {r.reason}"] += 1
    return c


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", action="append")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="dev")
    args = parser.parse_args()
    for set_dir in photo_sets(args.data, args.set):
        images = load_labels(set_dir)
        dev, held = split(images)
        part = {"dev": dev, "held-out": held, "all": images}[args.part]
        c = diagnose(part)
        print(f"## {set_dir.name} ({args.part})")
        for key in sorted(c):
            print(f"  {key}: {c[key]} ({100 * c[key] / max(c['labelled'], 1):.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
