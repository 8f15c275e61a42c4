"""Evaluate the die finder (vision/dice_net.py) against the labelled boxes of the real photo sets.

Usage: .venv/bin/python benchmarks/eval_finder.py [--data DIR] [--part dev|held|both]
       [--p 0.5] [--model FILE] [--finder FILE]

Every image is read by `find_dice(frame)` without a die size (the single-photo case: the finder
must find the scale itself). Candidates with p_die >= --p are matched one-to-one to labels,
greedily by distance: a candidate matches a label when its centre lies in the label's box and
its size is half to twice the label's (a pip at a die's centre does not find the die). Per
set and part (development, held-out: every fourth image in name order, `i % 4 == 3`, as
benchmarks/eval_photos.py splits them) it prints:
- recall: labelled dice matched; precision: candidates matched;
- pips: unmatched candidates inside a labelled box and under half its size (a pip or a piece
  of a die taken for a die: the failure that announced six dice on one large 6);
- the median ratio of the candidate's size to the label's (square root of the box's area);
- for damiantab-phone, recall and pips by die size (box side).
`--model` runs another ONNX file, `--finder` another finder module (a .py file defining
find_dice, e.g. the shipped one from git: `git show HEAD~1:vision/dice_net.py > /tmp/old.py`).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
SIZE_BINS = (0, 100, 150, 200, 10_000)  # damiantab die sides (px)


def load_boxes(set_dir: Path) -> tuple[dict, dict]:
    """(development, held-out): image path -> [(x0, y0, x1, y1)], split as eval_photos."""
    labels: dict[Path, list] = defaultdict(list)
    with open(set_dir / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = set_dir / "images" / row["split"] / row["image"]
            labels[path].append(tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    paths = sorted(labels)
    dev = {p: labels[p] for i, p in enumerate(paths) if i % 4 != 3}
    held = {p: labels[p] for i, p in enumerate(paths) if i % 4 == 3}
    return dev, held


def match(candidates: list, boxes: list) -> tuple[dict[int, int], list[int]]:
    """Label index -> candidate index (one-to-one, nearest first), and unmatched candidates."""
    pairs = []
    for j, c in enumerate(candidates):
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            size = np.sqrt((x1 - x0) * (y1 - y0))
            if x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1 and 0.5 <= c.size / size <= 2:
                d = np.hypot(c.centre[0] - (x0 + x1) / 2, c.centre[1] - (y0 + y1) / 2)
                pairs.append((d, i, j))
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in matched and j not in used:
            matched[i] = j
            used.add(j)
    return matched, [j for j in range(len(candidates)) if j not in used]


def is_pip(candidate, boxes: list) -> bool:
    """An unmatched candidate inside a labelled box and under half its size."""
    for x0, y0, x1, y1 in boxes:
        inside = x0 <= candidate.centre[0] <= x1 and y0 <= candidate.centre[1] <= y1
        if inside and candidate.size < 0.5 * np.sqrt((x1 - x0) * (y1 - y0)):
            return True
    return False


def evaluate(find_dice, images: dict, p: float) -> dict:
    """Counts for one part of one set."""
    out = defaultdict(int)
    out["ratios"] = []
    out["by_size"] = defaultdict(lambda: [0, 0, 0])  # labels, found, pips
    times = []
    for path, boxes in images.items():
        frame = cv2.imread(str(path))
        start = time.perf_counter()
        candidates = [c for c in find_dice(frame) if c.p_die >= p]
        times.append(time.perf_counter() - start)
        matched, extra = match(candidates, boxes)
        pips = [j for j in extra if is_pip(candidates[j], boxes)]
        out["labels"] += len(boxes)
        out["found"] += len(matched)
        out["candidates"] += len(candidates)
        out["pips"] += len(pips)
        for i, j in matched.items():
            x0, y0, x1, y1 = boxes[i]
            out["ratios"].append(candidates[j].size / np.sqrt((x1 - x0) * (y1 - y0)))
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            side = max(x1 - x0, y1 - y0)
            k = int(np.searchsorted(SIZE_BINS, side, side="right")) - 1
            row = out["by_size"][k]
            row[0] += 1
            row[1] += i in matched
            row[2] += sum(
                1
                for j in pips
                if x0 <= candidates[j].centre[0] <= x1 and y0 <= candidates[j].centre[1] <= y1
            )
        out["images"] += 1
    out["ms"] = 1000 * float(np.median(times)) if times else 0.0
    return out


def report(name: str, r: dict, by_size: bool) -> None:
    recall = r["found"] / max(r["labels"], 1)
    precision = r["found"] / max(r["candidates"], 1)
    ratio = float(np.median(r["ratios"])) if r["ratios"] else float("nan")
    print(
        f"| {name} | {r['images']} | {r['labels']} | {r['found']} ({100 * recall:.1f}%) "
        f"| {r['candidates'] - r['found']} ({100 * precision:.1f}%) | {r['pips']} "
        f"| {ratio:.2f} | {r['ms']:.0f} |"
    )
    if by_size:
        for k in sorted(r["by_size"]):
            n, found, pips = r["by_size"][k]
            print(
                f"|   side {SIZE_BINS[k]}-{SIZE_BINS[k + 1]} px | | {n} | {found} "
                f"({100 * found / max(n, 1):.1f}%) | | {pips} | | |"
            )


def load_finder(finder: Path | None, model: Path | None):
    """find_dice of vision.dice_net or of another module file, with another model if asked."""
    if finder:
        spec = importlib.util.spec_from_file_location("finder_under_test", finder)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    else:
        from vision import dice_net as module
    if model:
        module.MODEL = model
    return module.find_dice


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", choices=("dev", "held", "both"), default="both")
    parser.add_argument("--p", type=float, default=0.5, help="p_die a candidate needs")
    parser.add_argument("--model", type=Path, help="another ONNX model")
    parser.add_argument("--finder", type=Path, help="another finder module (.py)")
    parser.add_argument("--set", help="only this set")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no photo sets at {args.data} (use --data)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    find_dice = load_finder(args.finder, args.model)
    print(f"p_die >= {args.p}; model {args.model or 'shipped'}; finder {args.finder or 'shipped'}")
    print(
        "| set (part) | images | dice | found (recall) | extra (precision) | pips "
        "| size ratio | ms/image |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for set_dir in sorted(p for p in args.data.iterdir() if (p / "annotations.csv").exists()):
        if args.set and set_dir.name != args.set:
            continue
        dev, held = load_boxes(set_dir)
        parts = {"dev": dev, "held": held}
        for part in ("dev", "held") if args.part == "both" else (args.part,):
            r = evaluate(find_dice, parts[part], args.p)
            report(f"{set_dir.name} ({part})", r, set_dir.name.startswith("damiantab"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
