"""Where the die finder marks a die on a development photo and none lies: hard negatives.

A photo's labelled boxes teach the finder what a die is; the rest of the photo should teach
it what is none, but a crop is cut around a die most of the time and the finder rarely sees
the shoe at the picture's corner or the box on the desk at the scale it marks them. This lists
the marks of the shipped finder (`vision.dice_net.find_dice`, no die size, as a single photo
is read) with heat at least `--p` that lie clear of every labelled die: their centre outside
every labelled box grown by half its side, and not overlapping one, and no face to the face
classifier (`vision.classify.guess_faces`: probability of a face under `--face`; a die the
labels missed, held in a hand or at the picture's edge, is no negative). tools/train_dice_net.py
(`--negatives FILE`) then cuts a share of its crops around them, at the scale they were
marked, with every labelled die in the crop a positive as usual.

Development images only (every fourth image in name order is held out, as
benchmarks/eval_photos.py splits them); held-out images are never read.

    .venv/bin/python tools/finder_negatives.py --out /tmp/finder-negatives.csv
        [--p 0.3] [--montage /tmp/negatives.png]
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.eval_finder import DEFAULT_DATA, load_boxes  # noqa: E402
from vision.classify import guess_faces  # noqa: E402
from vision.dice_net import find_dice  # noqa: E402
from vision.top_face import resample  # noqa: E402

SETS = ("byler-d6-topdown", "damiantab-phone", "skovy-two-dice", "matteop65-webcam-oblique")
CLEAR = 0.5  # a mark this many box sides outside a labelled box (grown on every side) is clear


def clear_of(centre: tuple[float, float], size: float, boxes: list) -> bool:
    """Does a mark (centre, side) lie clear of every labelled box: its centre outside the box
    grown by CLEAR of its side, and its own square not overlapping the box?"""
    x, y = centre
    for x0, y0, x1, y1 in boxes:
        grow = CLEAR * max(x1 - x0, y1 - y0)
        if x0 - grow <= x <= x1 + grow and y0 - grow <= y <= y1 + grow:
            return False
        h = size / 2
        if x - h < x1 and x + h > x0 and y - h < y1 and y + h > y0:
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, required=True, help="CSV of the marks")
    parser.add_argument("--p", type=float, default=0.3, help="least heat of a mark listed")
    parser.add_argument("--face", type=float, default=0.2, help="most face probability")
    parser.add_argument("--montage", type=Path, help="draw the marks (96 px tiles) to this PNG")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rows, tiles = [], []
    for name in SETS:
        dev, _ = load_boxes(args.data / name)
        count = 0
        for path, boxes in sorted(dev.items()):
            frame = cv2.imread(str(path))
            marks = [
                c
                for c in find_dice(frame)
                if c.p_die >= args.p and clear_of(c.centre, c.size, boxes)
            ]
            guesses = guess_faces(frame, [(*c.centre, c.size) for c in marks])
            for c, guess in zip(marks, guesses, strict=True):
                if guess.p_face < args.face:
                    rows.append(
                        (name, str(path.relative_to(args.data)), *c.centre, c.size, c.p_die)
                    )
                    count += 1
                    if args.montage is not None:
                        crop, _ = resample(frame, c.centre, 0.0, 96 / (2 * c.size), 96)
                        tiles.append(crop)
        print(f"{name}: {count} marks clear of the dice in {len(dev)} development images")
    with open(args.out, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(("set", "image", "x", "y", "size", "p_die"))
        out.writerows(
            (s, i, f"{x:.1f}", f"{y:.1f}", f"{z:.1f}", f"{p:.3f}") for s, i, x, y, z, p in rows
        )
    if args.montage is not None and tiles:
        tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % 12)
        sheet = np.vstack([np.hstack(tiles[i : i + 12]) for i in range(0, len(tiles), 12)])
        cv2.imwrite(str(args.montage), sheet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
