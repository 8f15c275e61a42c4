"""How often the pip reading names a wrong value for a die with a fleck on its face.

    .venv/bin/python benchmarks/eval_flecks.py [--dice N] [--seed S] [stage.field=value ...]

A fleck of marbling, a chip or a speck of dirt on a face is a spot like a pip. Each synthetic
die (tests/vision/synth.py: a 48 px die of a random value at a random turn) gets one dark fleck
0.06-0.12 die sides wide at a random place on its face; the geometric reading alone
(vision.face.read_pips) is asked for its value. Prints how many it read right, refused, and
read wrong, with the shipped parameters or with `pips.FIELD=VALUE` changes. The judge
announces a die only when the classifier agrees, so a wrong value here is a refusal there;
fewer wrong values mean fewer chances for both readings to be wrong alike.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.tune_reader import parse  # noqa: E402
from tests.vision.synth import DrawnDie, scene  # noqa: E402
from vision.face import read_pips  # noqa: E402
from vision.params import PARAMS, PipParams  # noqa: E402
from vision.types import Candidate  # noqa: E402

SIDE = 48.0
CENTRE = (300.0, 240.0)


def flecked(rng: np.random.Generator) -> tuple[int, np.ndarray]:
    """A die of a random value and turn with one dark fleck on its face."""
    value, angle = int(rng.integers(1, 7)), float(rng.uniform(0, 90))
    ux, uy = rng.uniform(-0.45, 0.45, 2) * SIDE
    radius = rng.uniform(0.03, 0.06) * SIDE
    frame = scene([DrawnDie(value, CENTRE, SIDE, angle)])
    a = np.radians(angle)
    x = CENTRE[0] + np.cos(a) * ux - np.sin(a) * uy
    y = CENTRE[1] + np.sin(a) * ux + np.cos(a) * uy
    cv2.circle(frame, (round(x), round(y)), round(radius), (25, 25, 25), -1, cv2.LINE_AA)
    return value, frame


def count(dice: int, seed: int, p: PipParams) -> tuple[int, int, int]:
    """(read right, refused, read wrong) over `dice` flecked dice."""
    rng = np.random.default_rng(seed)
    candidate = Candidate(CENTRE, 1.08 * SIDE, 0.9)
    right = refused = wrong = 0
    for _ in range(dice):
        value, frame = flecked(rng)
        read = read_pips(frame, candidate, p).value
        if read == value:
            right += 1
        elif read is None:
            refused += 1
        else:
            wrong += 1
    return right, refused, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("change", nargs="*", help="pips.field=value")
    args = parser.parse_args()
    p = PARAMS.pips
    for item in args.change:
        key, _, value = item.partition("=")
        stage, name = key.split(".")
        if stage != "pips":
            parser.error(f"only pips.* fields change the pip reading, not {key}")
        p = replace(p, **{name: parse(value)})
    right, refused, wrong = count(args.dice, args.seed, p)
    print(f"{args.dice} dice with a fleck: read right {right}, refused {refused}, wrong {wrong}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
