"""Choose the reader's tuned parameters on the development photos, for a stated operating point.

    .venv/bin/python benchmarks/tune_reader.py [--set NAME ...] [--limit N] [--errata] PARAM=V1,...

PARAM is `stage.field` of vision.params.Params (e.g. `pips.outline=1.0,1.2`,
`classify.sure=0.7,0.8,0.9`; a pair as `pips.spacing=0.15:0.31,0.17:0.31`). Every
combination is read on the development part of each set (never the held-out part: see
benchmarks/eval_photos.py), and one line per combination gives the figures the operating
point is chosen by: images answered wrongly first (it must be 0), then dice read right. The
chosen values go into vision/params.py with "(tuned)" beside them, and the run's output
into docs/vision.md.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, match, photo_sets, split  # noqa: E402
from vision.params import PARAMS, Params  # noqa: E402
from vision.reader import read_roll  # noqa: E402


def with_values(params: Params, values: dict[str, float]) -> Params:
    """`params` with `stage.field` values replaced."""
    for key, value in values.items():
        stage, name = key.split(".")
        part = getattr(params, stage)
        if isinstance(getattr(part, name), int):
            value = int(value)
        params = replace(params, **{stage: replace(part, **{name: value})})
    return params


def parse(value: str) -> float | tuple[float, ...]:
    """A float, or a tuple written `a:b`."""
    parts = [float(v) for v in value.split(":")]
    return parts[0] if len(parts) == 1 else tuple(parts)


def score(frames: list, params: Params) -> Counter:
    counts: Counter = Counter()
    for frame, labels in frames:
        roll = read_roll(frame, expect=None, params=params)
        right, wrong = match(roll.dice, labels)
        counts["right"] += right
        counts["misread"] += wrong
        counts["labelled"] += len(labels)
        truth = Counter(v for v, *_ in labels)
        if roll.ok:
            counts["exact" if Counter(roll.values) == truth else "wrong"] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid", nargs="+", help="stage.field=v1,v2,...")
    parser.add_argument("--set", action="append", help="only this set (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N images a set")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--errata", action="store_true", help="apply benchmarks/label_errata.csv first"
    )
    args = parser.parse_args()
    grid = {}
    for item in args.grid:
        key, _, values = item.partition("=")
        grid[key] = [parse(v) for v in values.split(",")]
    frames = []
    for set_dir in photo_sets(args.data, args.set):
        dev, _ = split(load_labels(set_dir, errata=args.errata))
        items = list(dev.items())[: args.limit or None]
        frames += [(cv2.imread(str(path)), labels) for path, labels in items]
    print(f"{len(frames)} development images; " + ", ".join(grid))
    for combo in itertools.product(*grid.values()):
        values = dict(zip(grid, combo, strict=True))
        c = score(frames, with_values(PARAMS, values))
        print(
            f"{values}: wrong images {c['wrong']}, exact {c['exact']}, dice right "
            f"{c['right']}/{c['labelled']}, misread {c['misread']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
