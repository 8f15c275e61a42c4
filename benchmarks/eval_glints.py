"""How often a lamp's glint on the middle of a real die's face is read as a pip.

    .venv/bin/python benchmarks/eval_glints.py [--part dev|held-out|all] [--shape round|streak]
        [--set NAME ...] [--seed S]

A glossy die under a lamp shows a specular glint: a soft bright spot of the lamp's light. On
the middle of a 2 or a 4, whose middle pip place is plain, a reader that takes any round spot
for a pip reads a 3 or a 5. Each labelled 2 and 4 of the photo sets gets one glint at the
middle of its box (`round`: a disc 0.05-0.09 box sides in radius, softened by 0.03 of a side;
`streak`: an ellipse twice as long as wide at any turn, a little off the middle), 150-255
grey levels of near-white light added, and the photo is read as `azar-kiosk read --expect any`
reads it. Prints, for those dice: read right, refused, read as another value; and the photos
announced with a wrong multiset of values (labels with benchmarks/label_errata.csv). A referee
may refuse a glinted die; it must not read it as another value.
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
from vision.reader import read_roll  # noqa: E402

SETS = ("byler-d6-topdown", "damiantab-phone", "skovy-two-dice")  # top-down: the box's middle
# is the face's (matteop65's oblique labels box slivers of top faces)


def glint(frame: np.ndarray, box: tuple[float, ...], shape: str, rng) -> None:
    """Add one glint to `frame` (float32 BGR, in place) on the middle of the die in `box`."""
    x0, y0, x1, y1 = box
    side = float(np.sqrt((x1 - x0) * (y1 - y0)))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    radius = rng.uniform(0.05, 0.09) * side
    spot = np.zeros(frame.shape[:2], np.float32)
    if shape == "round":
        cv2.circle(spot, (round(cx * 16), round(cy * 16)), round(radius * 16), 1.0, -1,
                   cv2.LINE_AA, 4)  # fmt: skip
    else:
        cx, cy = cx + rng.uniform(-0.06, 0.06) * side, cy + rng.uniform(-0.06, 0.06) * side
        axes = (radius * 1.4, radius * 0.7)
        cv2.ellipse(spot, ((cx, cy), (2 * axes[0], 2 * axes[1]), rng.uniform(0, 180)), 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(0.5, 0.03 * side))
    frame += spot[..., None] * rng.uniform(150, 255) * rng.uniform(0.9, 1.0, 3)


def evaluate(images: dict[Path, list], shape: str, rng) -> Counter:
    """Counts over the 2s and 4s of these images, each photo read once with all its glints."""
    counts: Counter = Counter()
    for path, labels in images.items():
        targets = [label for label in labels if label[0] in (2, 4)]
        if not targets:
            continue
        frame = cv2.imread(str(path)).astype(np.float32)
        for _, *box in targets:
            glint(frame, tuple(box), shape, rng)
        roll = read_roll(np.clip(frame, 0, 255).astype(np.uint8), expect=None)
        for value, x0, y0, x1, y1 in targets:
            read = [
                d.value for d in roll.dice if x0 <= d.center[0] <= x1 and y0 <= d.center[1] <= y1
            ]
            counts["dice"] += 1
            counts["right" if read == [value] else "refused" if not read else "wrong"] += 1
        counts["images"] += 1
        truth = Counter(label[0] for label in labels)
        counts["images wrong"] += roll.ok and Counter(roll.values) != truth
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", action="append", help="only this set (repeatable)")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="all")
    parser.add_argument("--shape", choices=("round", "streak"), default="round")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    print(f"glint: {args.shape}, part: {args.part}, seed {args.seed}")
    print("| set | 2s and 4s | read right | refused | read as another value | photos wrong |")
    print("|---|---|---|---|---|---|")
    for set_dir in photo_sets(args.data, args.set or list(SETS)):
        images = load_labels(set_dir, errata=True)
        dev, held = split(images)
        part = {"dev": dev, "held-out": held, "all": images}[args.part]
        c = evaluate(part, args.shape, rng)
        print(
            f"| {set_dir.name} | {c['dice']} | {c['right']} | {c['refused']} | {c['wrong']} "
            f"| {c['images wrong']} of {c['images']} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
