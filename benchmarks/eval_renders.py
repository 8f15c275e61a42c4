"""The reader on rendered tables it never trained on (tools/render_dice.py, other seeds).

    .venv/bin/python benchmarks/eval_renders.py [--scenes N] [--seed S ...] [--expect count|any]

Each scene (640x640 or 640x480: wood, carpet, woven fabric, felt, leather, paper or a light
box; 1-6 dice of 18-260 px in one look; shadows, glints, clutter, blur, noise, JPEG) is read
as `azar-kiosk read` reads a photo, told how many dice lie there (`--expect count`, default)
or not (`any`). The models trained on seeds 17 and 18 only; the default seeds are 901-905.
A scene is `clean` when every die lies flat and wholly in the picture, else `hard` (a die
cocked 40-70 degrees, or cut by the picture's edge: to be refused). Prints, per kind of scene
and per surface: answered right, refused, answered wrongly; then each wrong answer, with what
the scene held, so that it can be looked at (`--save DIR` writes those scenes as PNG).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import render_dice  # noqa: E402

from vision.reader import read_roll  # noqa: E402


def recorded(seed: int, count: int):
    """(image, dice, surface, body) for each scene of `render_dice.scenes(count, seed)`."""
    for image, dice, about in render_dice.described_scenes(count, seed):
        body = np.array(about["look"].body)
        name = min(render_dice.BODIES, key=lambda k: np.abs(render_dice.BODIES[k] - body).sum())
        yield image, dice, about["surface"], name


def whole(die, shape: tuple[int, ...]) -> bool:
    """Is this die's box wholly in the picture?"""
    (x, y), half = die.centre, die.size / 2
    return half <= x <= shape[1] - half and half <= y <= shape[0] - half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150, help="scenes per seed")
    parser.add_argument("--seed", type=int, action="append", help="default: 901-905")
    parser.add_argument("--expect", choices=("count", "any"), default="count")
    parser.add_argument("--save", type=Path, help="write the scenes answered wrongly here")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = args.seed or [901, 902, 903, 904, 905]
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    kinds: dict[str, Counter] = defaultdict(Counter)
    surfaces: dict[str, Counter] = defaultdict(Counter)
    wrong = []
    for seed in seeds:
        for i, (image, dice, surface, body) in enumerate(recorded(seed, args.scenes)):
            truth = sorted(d.value for d in dice)  # 0: a cocked die
            clean = all(d.flat and whole(d, image.shape) for d in dice)
            roll = read_roll(image, expect=len(dice) if args.expect == "count" else None)
            result = (
                "refused" if not roll.ok else "right" if sorted(roll.values) == truth else "wrong"
            )
            kind = "clean" if clean else "hard"
            kinds[kind][result] += 1
            surfaces[surface][result] += 1
            if result == "wrong":
                size = float(np.median([d.size for d in dice]))
                wrong.append(
                    f"seed {seed} scene {i}: {kind}, {surface}, {body} dice of {size:.0f} px, "
                    f"held {truth} (0: cocked), read {sorted(roll.values)}"
                )
                if args.save:
                    cv2.imwrite(str(args.save / f"render-{seed}-{i}.png"), image)
    print(f"seeds {seeds}, {args.scenes} scenes each, expect {args.expect}")
    print("| scenes | right | refused | answered wrongly |")
    print("|---|---|---|---|")
    for name, c in [*sorted(kinds.items()), *sorted(surfaces.items())]:
        print(f"| {name} | {c['right']} | {c['refused']} | {c['wrong']} |")
    print(*wrong, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
