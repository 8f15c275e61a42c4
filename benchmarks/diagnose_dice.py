"""Per labelled die, which stage of the reader lost it (development photos only).

Usage: .venv/bin/python benchmarks/diagnose_dice.py [--set NAME] [--part dev|held-out|all]
       [--why] [--searches] [--montage PNG]

For each labelled die: the candidate whose centre lies in its box (nearest first), then what
each reading said of it. Prints one table per set:
- not found: no candidate in the label's box;
- classifier: right/wrong/none (not a face), and how many right ones were sure;
- pips: right/wrong/refused (by reason);
- both right (the die can be announced), and the verdict's outcome.
Use it to see where recall is lost before changing anything; tune on `dev` only.

`--why` adds, for the dice the classifier reads right and surely but the pip reading refuses,
how often each refusal was given (its detail, numbers left out): the reason of the first search,
on the face found by colour. `--searches` adds, for the same dice, in what share of all the
searches the reading tries (vision/reframe.py: every framing, colour axis, blob and learned map)
the labelled number of pip-like spots was found: whether their pips are found at all.
`--montage PNG` draws those dice (a crop of 1.6 label boxes each, the label's value in its
corner, at most 16 rows of 12) so the failures can be looked at, not only counted.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, photo_sets, split  # noqa: E402
from vision.face import top_face_of  # noqa: E402
from vision.params import PARAMS  # noqa: E402
from vision.reader import inspect  # noqa: E402
from vision.reframe import Splits, searches  # noqa: E402
from vision.top_face import resample  # noqa: E402


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


TILE = 96  # px a side of a montage tile
ROW = 12  # tiles a montage row


def refusal(detail: str) -> str:
    """A pip reading's refusal detail without its numbers: the check that refused it."""
    inner = detail.rsplit("(", 1)[-1].rstrip(")") if "(" in detail else detail
    return re.sub(r"\d+(\.\d+)?", "#", inner)


def tile(frame: np.ndarray, box: tuple) -> np.ndarray:
    """A TILE x TILE crop of 1.6 label boxes around a labelled die, its value in the corner."""
    value, x0, y0, x1, y1 = box
    span = 1.6 * max(x1 - x0, y1 - y0)
    crop, _ = resample(frame, ((x0 + x1) / 2, (y0 + y1) / 2), 0.0, TILE / span, TILE)
    cv2.putText(crop, str(value), (3, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1)
    return crop


def montage(tiles: list[np.ndarray], rows: int = 16) -> np.ndarray:
    """Tiles in rows of ROW, at most `rows` rows, blank where a row runs short."""
    tiles = tiles[: rows * ROW] or [np.zeros((TILE, TILE, 3), np.uint8)]
    blank = np.zeros_like(tiles[0])
    tiles = tiles + [blank] * (-len(tiles) % ROW)
    return np.vstack([np.hstack(tiles[i : i + ROW]) for i in range(0, len(tiles), ROW)])


def right_counts(frame: np.ndarray, candidate, value: int) -> tuple[int, int]:
    """(searches that split the labelled number of pip-like spots, searches tried) on the
    candidate, over reframe.searches (the map's own framing left out)."""
    p = PARAMS.pips
    face = top_face_of(frame, candidate, p)
    if face is None:
        return 0, 0
    split = Splits(frame, candidate, p)
    tries = searches(frame, candidate, face, p)
    right = sum(len(split.spots(again, search).centres) == value for again, search in tries)
    return right, len(tries)


def diagnose(images: dict, tiles: list[np.ndarray] | None = None, counts: bool = False) -> Counter:
    """Per-die counts of what each stage said (keys as printed); refused dice the classifier
    read surely are also counted by refusal ("why: ...") and drawn into `tiles` if given."""
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
                c[f"why: {r.reason}: {refusal(r.detail)}"] += 1
                if tiles is not None:
                    tiles.append(tile(frame, box))
                if counts:
                    right, tried = right_counts(frame, v.candidate, value)
                    share = right / max(tried, 1)
                    band = "none" if right == 0 else "under 1/10" if share < 0.1 else "1/10 or more"
                    c[f"count: the labelled count in {band} of the searches"] += 1
    return c


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", action="append")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="dev")
    parser.add_argument("--why", action="store_true", help="count the pip reading's refusals")
    parser.add_argument("--montage", type=Path, help="draw the dice it refused into this PNG")
    parser.add_argument(
        "--searches", action="store_true", help="how often any search finds their pip count"
    )
    args = parser.parse_args()
    tiles: list[np.ndarray] | None = [] if args.montage else None
    for set_dir in photo_sets(args.data, args.set):
        images = load_labels(set_dir)
        dev, held = split(images)
        part = {"dev": dev, "held-out": held, "all": images}[args.part]
        c = diagnose(part, tiles, args.searches)
        print(f"## {set_dir.name} ({args.part})")
        for key in sorted(k for k in c if not k.startswith(("why: ", "count: "))):
            print(f"  {key}: {c[key]} ({100 * c[key] / max(c['labelled'], 1):.1f}%)")
        if args.why:
            print("  refused by the pip reading, the classifier right and sure:")
            for key, n in sorted(
                ((k, n) for k, n in c.items() if k.startswith("why: ")), key=lambda kn: -kn[1]
            ):
                print(f"    {n:4d}  {key[5:]}")
        if args.searches:
            print("  the same dice, by how often a search splits their labelled number of spots:")
            for key in sorted(k for k in c if k.startswith("count: ")):
                print(f"    {c[key]:4d}  {key[7:]}")
    if args.montage:
        cv2.imwrite(str(args.montage), montage(tiles or []))
        print(f"{len(tiles or [])} refused dice drawn into {args.montage}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
