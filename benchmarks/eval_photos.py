"""Evaluate the dice reader on the labelled real photo sets (../shared/data/dice-photos/*).

Usage: .venv/bin/python benchmarks/eval_photos.py [--data DIR] [--set NAME] [--list]
       [--part dev|held-out|all] [--errata] [--reasons]

Each image is read with `expect=None` (any number of dice). Per set it prints:
- images; dice labelled;
- dice read right: labelled dice matched to a reported die with the same value. Matching is
  one-to-one and greedy by distance: a reported die matches a label when its centre lies in the
  label's box (nearest box centre first). Dice reported in a `reroll` answer count too (the
  reader reports the dice it did read with the reason it abstained), so this is the per-die
  reading quality;
- dice read wrong: labelled dice matched (as above) to a reported die of another value;
- images exactly right: answered `ok` with exactly the labelled multiset of values;
- images answered wrongly: answered `ok` with a multiset of values that differs from the labels
  (a wrong announcement: the figure that must stay near zero);
- images abstained: answered `reroll`.
Figures are given for a development part (used to tune the reader) and a held-out part (every
fourth image in name order, never looked at while tuning), then for the whole set.

`--errata` applies benchmarks/label_errata.csv first: labels found wrong by looking at the photo
(a die labelled with another value than it shows, a die left without a label), each with what
it shows. Without it the labels are taken as they are.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.reader import read_roll  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
ERRATA = Path(__file__).with_name("label_errata.csv")


def load_labels(
    set_dir: Path, errata: bool = False
) -> dict[Path, list[tuple[int, float, float, float, float]]]:
    """image path -> [(value, xmin, ymin, xmax, ymax)] from the set's annotations.csv, with the
    label errata applied when asked."""
    labels: dict[Path, list] = defaultdict(list)
    with open(set_dir / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = set_dir / "images" / row["split"] / row["image"]
            box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            labels[path].append((int(row["value"]), *box))
    if errata:
        for path in labels:
            labels[path] = corrected(set_dir.name, path.name, labels[path])
    return dict(sorted(labels.items()))


@cache
def _errata() -> tuple[dict[str, str], ...]:
    """The rows of benchmarks/label_errata.csv, read once."""
    with open(ERRATA, newline="") as handle:
        return tuple(csv.DictReader(handle))


def corrected(set_name: str, image: str, labels: list[tuple]) -> list[tuple]:
    """The labels of one image with the errata applied: a labelled box holding an erratum's
    point takes the value the die shows; an erratum for a die left without a label adds a box of
    the image's median size around its point."""
    labels = list(labels)
    rows = [r for r in _errata() if (r["set"], r["image"]) == (set_name, image)]
    for row in rows:
        x, y, seen = float(row["x"]), float(row["y"]), int(row["seen"])
        inside = [
            i for i, (_, x0, y0, x1, y1) in enumerate(labels) if x0 <= x <= x1 and y0 <= y <= y1
        ]
        if row["labelled"]:
            found = [i for i in inside if labels[i][0] == int(row["labelled"])]
            if not found:
                raise ValueError(f"label erratum matches no label: {row}")
            labels[found[0]] = (seen, *labels[found[0]][1:])
        else:
            half = float(np.median([max(x1 - x0, y1 - y0) for _, x0, y0, x1, y1 in labels])) / 2
            labels.append((seen, x - half, y - half, x + half, y + half))
    return labels


def match(dice, labels) -> tuple[int, int]:
    """Labels matched one-to-one to a reported die: how many with the same value, how many
    with another value."""
    pairs = []
    for i, die in enumerate(dice):
        x, y = die.center
        for j, (_, x0, y0, x1, y1) in enumerate(labels):
            if x0 <= x <= x1 and y0 <= y <= y1:
                pairs.append((np.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2), i, j))
    used_dice, used_labels, right, wrong = set(), set(), 0, 0
    for _, i, j in sorted(pairs):
        if i in used_dice or j in used_labels:
            continue
        used_dice.add(i)
        used_labels.add(j)
        right += dice[i].value == labels[j][0]
        wrong += dice[i].value != labels[j][0]
    return right, wrong


def _as_taken(path: Path, labels: list) -> tuple[np.ndarray, list]:
    return cv2.imread(str(path)), labels


def evaluate(
    images: dict[Path, list], show: bool, load=_as_taken, reasons: Counter | None = None
) -> tuple[Counter, list[float]]:
    """Counts over the images (see row()) and the read times; load(path, labels) gives the
    frame and its labels (eval_robustness.py changes both)."""
    counts: Counter = Counter()
    times = []
    for path, labels in images.items():
        frame, labels = load(path, labels)
        start = time.perf_counter()
        roll = read_roll(frame, expect=None)
        times.append(time.perf_counter() - start)
        counts["images"] += 1
        counts["labelled"] += len(labels)
        right, wrong = match(roll.dice, labels)
        counts["right"] += right
        counts["misread"] += wrong
        truth = Counter(value for value, *_ in labels)
        if not roll.ok:
            counts["abstained"] += 1
            if reasons is not None:
                reasons[str(roll.reason)] += 1
        elif Counter(roll.values) == truth:
            counts["exact"] += 1
        else:
            counts["wrong"] += 1
        if show and roll.ok and Counter(roll.values) != truth:
            print(
                f"  WRONG {path.name}: read {sorted(roll.values)} labels {sorted(truth.elements())}"
            )
    return counts, times


def split(images: dict[Path, list]) -> tuple[dict[Path, list], dict[Path, list]]:
    """(development, held-out) parts of a set: images sorted by path, every fourth held out
    (`i % 4 == 3`), exactly as the training scripts split them."""
    paths = sorted(images)
    dev = {p: images[p] for i, p in enumerate(paths) if i % 4 != 3}
    held = {p: images[p] for i, p in enumerate(paths) if i % 4 == 3}
    return dev, held


def photo_sets(data: Path, names: list[str] | None) -> list[Path]:
    """The labelled photo sets in `data` (folders with an annotations.csv), only `names` if
    given."""
    sets = sorted(p for p in data.iterdir() if (p / "annotations.csv").exists())
    return [p for p in sets if p.name in names] if names else sets


def print_header(first: str = "set") -> None:
    """The head of the table whose rows row() prints."""
    print(
        f"| {first} | images | dice labelled | dice read right | dice read wrong "
        "| images exactly right | images answered wrongly | images abstained |"
    )
    print("|---|---|---|---|---|---|---|---|")


def row(name: str, c: Counter) -> str:
    labelled = max(c["labelled"], 1)
    images = max(c["images"], 1)
    right = f"{c['right']} ({100 * c['right'] / labelled:.1f}%)"
    misread = f"{c['misread']} ({100 * c['misread'] / labelled:.1f}%)"
    wrong = f"{c['wrong']} ({100 * c['wrong'] / images:.1f}%)"
    return (
        f"| {name} | {c['images']} | {c['labelled']} | {right} | {misread} "
        f"| {c['exact']} | {wrong} | {c['abstained']} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of photo sets")
    parser.add_argument("--set", action="append", help="only this set (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the images answered wrongly")
    parser.add_argument(
        "--part",
        choices=("dev", "held-out", "all"),
        default="all",
        help="which part of each set to read (tune on dev only; default: all)",
    )
    parser.add_argument("--reasons", action="store_true", help="count the abstentions by reason")
    parser.add_argument(
        "--errata", action="store_true", help="correct the labels by benchmarks/label_errata.csv"
    )
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no photo sets at {args.data} (use --data)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)  # one order of the networks' sums: the same figures run to run
    sets = photo_sets(args.data, args.set)
    print_header()
    all_times: list[float] = []
    reasons: Counter = Counter()
    for set_dir in sets:
        images = load_labels(set_dir, args.errata)
        dev, held = split(images)
        parts = {"dev": [("dev", dev)], "held-out": [("held-out", held)]}
        totals: Counter = Counter()
        for name, part in parts.get(args.part, parts["dev"] + parts["held-out"]):
            counts, times = evaluate(part, args.list, reasons=reasons)
            print(row(f"{set_dir.name} ({name})", counts))
            totals += counts
            all_times += times
        if args.part == "all":
            print(row(f"**{set_dir.name} (all)**", totals))
    if all_times:
        print(f"\nread time per image: median {1000 * np.median(all_times):.1f} ms")
    if args.reasons:
        print("abstentions by reason: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
