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
`--why` adds, for the dice of refused clean scenes that were not read, what lost each
(`why_lost`): no candidate, the pip reading's refusal (its check, numbers left out), the two
readings disagreeing, or both right with the classifier under `classify.sure`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import render_dice  # noqa: E402

from benchmarks.diagnose_dice import nearest  # noqa: E402
from vision.params import PARAMS  # noqa: E402
from vision.reader import inspect  # noqa: E402


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


def _check(detail: str) -> str:
    """A refusal's detail without its numbers: which check refused it."""
    return re.sub(r"\d+(\.\d+)?", "#", detail)


def why_lost(die, verdicts) -> str | None:
    """What lost a flat die of a refused scene: None where it was read right."""
    (x, y), half = die.centre, die.size / 2
    v = nearest(verdicts, (die.value, x - half, y - half, x + half, y + half))
    if v is None:
        return "no candidate"
    if v.die is not None:
        return None if v.die.value == die.value else f"read wrong ({v.die.value})"
    pips = v.pips.value if v.pips is not None else None
    guess = v.guess.value if v.guess is not None else None
    if not v.counts:
        return "left out as no die"
    if pips is None:
        return f"pip reading refused: {_check(v.detail)}"
    if pips == guess and v.guess.p < PARAMS.classify.sure:
        right = "right" if pips == die.value else "wrong"
        return f"both read it {right}, the classifier unsure"
    if pips != guess:
        which = "pips" if pips == die.value else "classifier" if guess == die.value else "neither"
        return f"the readings disagree ({which} right)"
    return f"refused: {v.reason} ({_check(v.detail)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150, help="scenes per seed")
    parser.add_argument("--seed", type=int, action="append", help="default: 901-905")
    parser.add_argument("--expect", choices=("count", "any"), default="count")
    parser.add_argument("--save", type=Path, help="write the scenes answered wrongly here")
    parser.add_argument("--why", action="store_true", help="what lost refused clean dice")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = args.seed or [901, 902, 903, 904, 905]
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    kinds: dict[str, Counter] = defaultdict(Counter)
    surfaces: dict[str, Counter] = defaultdict(Counter)
    wrong = []
    lost: Counter = Counter()
    for seed in seeds:
        for i, (image, dice, surface, body) in enumerate(recorded(seed, args.scenes)):
            truth = sorted(d.value for d in dice)  # 0: a cocked die
            clean = all(d.flat and whole(d, image.shape) for d in dice)
            expect = len(dice) if args.expect == "count" else None
            roll, verdicts = inspect(image, expect=expect)
            result = (
                "refused" if not roll.ok else "right" if sorted(roll.values) == truth else "wrong"
            )
            kind = "clean" if clean else "hard"
            kinds[kind][result] += 1
            if args.why and clean and result == "refused":
                lost.update(w for w in (why_lost(d, verdicts) for d in dice) if w is not None)
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
    if args.why:
        print(f"\ndice of refused clean scenes not read ({sum(lost.values())}), what lost them:")
        for why, count in lost.most_common():
            print(f"{count:4d}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
