"""Train the die-face classifier (vision/face_classifier.py) and export it to ONNX.

Reproduce (dev time only; torch is not a runtime dependency of the kiosk):

    python3 -m venv /work/ml-venv
    /work/ml-venv/bin/pip install torch==2.13.0 numpy opencv-python-headless==4.11.0.86 onnx
    (the renders: see tools/train_dice_net.py, and seed 19 alike)
    git show d997fdb:vision/models/face_classifier.onnx > /tmp/face_classifier_before.onnx
    nice -n 10 /work/ml-venv/bin/python tools/train_face_classifier.py \
        --renders /tmp/renders-17.pkl /tmp/renders-18.pkl /tmp/renders-19.pkl \
        --init /tmp/face_classifier_before.onnx --seed 3 --steps 600 --lr 5e-4 --threads 2
    .venv/bin/python tools/calibrate_face_classifier.py --views 4

The shipped network is that run: 65,978 crops (about 220 s to cut), 600 steps of 256 (2.3
passes, 14 minutes on two cores), started from the network before it, itself 100 steps of 256
from the previous seed-3 network (their batch norm folded into the convolutions, so this net
has none). What it added: a third of the simulated tray's throws leave two dice touching, so a
crop shows a strip of its neighbour's face as the kiosk's crops of touching dice do, with
crops between the two as negatives (`between`); a third leave a die leaning on the rim.

`--glints` adds a lamp's glint, a soft bright spot, to the middle of a share of the 2s, 4s and
6s (`glinted`), which both readings take for a pip (benchmarks/eval_glints.py). Tried from the
shipped network (`--init` it, `--seed 4 --glints --steps 700 --lr 5e-4`), it vetoed most
glints but learnt to doubt real middle pips: at half size it read a byler 5 as a 4 as the pip
reading did, two photos answered wrongly (docs/vision.md, Glints). Not shipped.

Data (labels in each set's annotations.csv; images sorted by path, the held-out part is every
fourth image, `i % 4 == 3`, exactly as benchmarks/eval_photos.py splits them, and the calibration
part every eighth from the second, `i % 8 == 1`: neither is used here, not even as negatives):
- byler-d6-topdown, skovy-two-dice, damiantab-phone: the rest (the training part). Positives:
  each labelled die cut by `crop_die` PER_DIE times at random rotations with scale (0.85-1.2),
  offset and blur jitter; a die's size is the square root of its box's area, as the die finder
  (vision/dice_net.py) measures it. Negatives ("not a die face"): patches of table away from the
  dice, crops centred half a die off a die (half dice), between two neighbouring dice, far too
  small (a piece of a face, down to one pip of a large die) or far too large (a cluster).
- matteop65-webcam-oblique: not used for positives (oblique views: the labelled top face is often
  a sliver while a side face shows another value). Its training part gives negatives only.
- rendered tables (tools/render_dice.py --cache): every die wholly in the picture; flat dice are
  positives, cocked dice negatives, plus the same kinds of negatives around them.
- dice drawn flat by tests/vision/synth.py and thrown on the simulated tray (hardware/sim),
  100 trays of 12 throws, a third with two dice touching, a third with a die leaning on the rim.
Photometric augmentation while training: channel permutation (new colours), inversion (light
pips on dark dice and the reverse), contrast, noise.

The seed fixes everything (numpy and torch); `--steps` fixes the length (else `--minutes`
chooses it from the speed of the first batches). Network: a strided 3x3 convolution then five
3x3 blocks (24 to 128 channels), global average pooling, 7 outputs. After training, the
temperature (vision/models/face_classifier.json) is fitted on the calibration part by
tools/calibrate_face_classifier.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "vision"))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tools"))

import synth  # noqa: E402
from eval_face_classifier import calibration_split  # noqa: E402  (the evaluation's split)
from render_dice import read_cache  # noqa: E402

from vision.face_classifier import INPUT, MODELS, crop_die, normalise  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
TRAIN_SETS = ("byler-d6-topdown", "skovy-two-dice", "damiantab-phone")
PER_DIE = {"byler-d6-topdown": 24, "skovy-two-dice": 60, "damiantab-phone": 80}
NEGATIVE_ONLY_SETS = ("matteop65-webcam-oblique",)


def jittered(frame, cx, cy, size, rng, offset=0.07, scale=(0.85, 1.2)) -> np.ndarray:
    """A crop of the die at (cx, cy) at a random rotation, with scale and offset jitter."""
    s = size * rng.uniform(*scale)
    dx, dy = rng.normal(0, offset * size, 2)
    crop = crop_die(frame, (cx + dx, cy + dy), s, rng.uniform(0, 360))
    if rng.random() < 0.25:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.4, 1.1))
    return crop


def negatives_around(frame, dice, rng, count: int, with_dice: bool = True) -> list[np.ndarray]:
    """Crops that are not one whole die: bare tray, half dice, two dice, wrong scale."""
    h, w = frame.shape[:2]
    size = float(np.median([d[3] for d in dice]))
    centres = np.array([(d[1], d[2]) for d in dice])
    out = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        kind = rng.integers(4) if with_dice else 0
        s = size * rng.uniform(0.85, 1.2)
        if kind == 0:  # bare tray, or a piece of a die at a crop's edge
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if np.min(np.hypot(*(centres - (x, y)).T)) < 0.6 * size:
                continue
        elif kind == 1:  # half a die: centre half to one die off a die's centre
            _, cx, cy, ds = dice[rng.integers(len(dice))]
            a = rng.uniform(0, 2 * np.pi)
            r = rng.uniform(0.5, 0.9) * ds
            x, y = cx + r * np.cos(a), cy + r * np.sin(a)
            if np.min(np.hypot(*(centres - (x, y)).T)) < 0.45 * size:
                continue
        elif kind == 2:  # two neighbouring dice
            if len(dice) < 2:
                continue
            i, j = rng.choice(len(dice), 2, replace=False)
            d = np.hypot(dice[i][1] - dice[j][1], dice[i][2] - dice[j][2])
            if d > 1.6 * size:
                continue
            x, y = (dice[i][1] + dice[j][1]) / 2, (dice[i][2] + dice[j][2]) / 2
            s = max(s, d)
        else:  # a die at the wrong scale: a piece of its face, or a cluster around it
            _, x, y, ds = dice[rng.integers(len(dice))]
            s = ds * (rng.uniform(0.15, 0.5) if rng.random() < 0.5 else rng.uniform(2.4, 3.5))
        out.append(crop_die(frame, (x, y), s, rng.uniform(0, 360)))
    return out


def photo_data(data: Path, rng) -> tuple[list, list]:
    """Crops and labels (0 = not a face, 1..6) from the development part of the photo sets."""
    crops, labels = [], []
    for name in TRAIN_SETS + NEGATIVE_ONLY_SETS:
        train, _ = calibration_split(data / name)
        per_die = PER_DIE.get(name, 0)
        for path, dice in train.items():
            frame = cv2.imread(str(path))
            if name in NEGATIVE_ONLY_SETS:
                negs = negatives_around(frame, dice, rng, 12, with_dice=False)
            else:
                for value, cx, cy, size in dice:
                    for _ in range(per_die):
                        crops.append(jittered(frame, cx, cy, size, rng))
                        labels.append(value)
                negs = negatives_around(frame, dice, rng, len(dice) * per_die // 4 + 6)
            crops += negs
            labels += [0] * len(negs)
    return crops, labels


def render_data(paths: list[Path], rng) -> tuple[list, list]:
    """Crops of rendered dice wholly in the picture (flat: values; cocked: 0) and negatives."""
    crops, labels = [], []
    for frame, dice in (scene for path in paths for scene in read_cache(path)):
        h, w = frame.shape[:2]
        whole = [
            d
            for d in dice
            if d.size / 2 <= d.centre[0] <= w - d.size / 2
            and d.size / 2 <= d.centre[1] <= h - d.size / 2
        ]
        for d in whole:
            for _ in range(3 if d.flat else 2):
                crops.append(jittered(frame, *d.centre, d.size, rng))
                labels.append(d.value if d.flat else 0)
        if dice:
            rows = [(d.value, *d.centre, d.size) for d in dice]
            negs = negatives_around(frame, rows, rng, 3)
            crops += negs
            labels += [0] * len(negs)
    return crops, labels


def random_colour(rng) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(0, 256, 3))


def luma(bgr) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def synth_data(rng, count: int) -> tuple[list, list]:
    """Single dice drawn by tests/vision/synth.py in random colours; a fifth cocked (negative)."""
    crops, labels = [], []
    for _ in range(count):
        body = random_colour(rng)
        pip = random_colour(rng)
        while abs(luma(body) - luma(pip)) < 70:
            pip = random_colour(rng)
        style = synth.Style(body=body, pip=pip, tray=random_colour(rng))
        side = rng.uniform(28, 90)
        n = int(side * 4)
        frame = synth.tray(n, n, style, uneven=rng.uniform(0, 0.5), seed=int(rng.integers(1 << 30)))
        value = int(rng.integers(1, 7))
        tilt = rng.uniform(40, 70) if rng.random() < 0.2 else 0.0
        centre = (n / 2 + rng.normal(0, 2), n / 2 + rng.normal(0, 2))
        for _ in range(int(rng.integers(0, 3))):  # neighbours in the margin
            a = rng.uniform(0, 2 * np.pi)
            other = (centre[0] + 1.25 * side * np.cos(a), centre[1] + 1.25 * side * np.sin(a))
            synth.draw_die(
                frame,
                synth.DrawnDie(int(rng.integers(1, 7)), other, side, rng.uniform(0, 90)),
                style,
            )
        synth.draw_die(frame, synth.DrawnDie(value, centre, side, rng.uniform(0, 90), tilt), style)
        crops.append(jittered(frame, n / 2, n / 2, side, rng))
        labels.append(0 if tilt else value)
        if rng.random() < 0.3:
            negs = negatives_around(frame, [(value, *centre, side)], rng, 1)
            crops += negs
            labels += [0] * len(negs)
    return crops, labels


def sim_data(rng, trays: int, throws: int) -> tuple[list, list]:
    """Dice thrown on the simulated tray (perspective, shading, shadows) in random colours.
    A third of the throws leave two dice touching (`Hazard.TOUCHING`), so the crop of each
    shows a strip of its neighbour's face, as a kiosk's crops of touching dice do; a third
    leave a die leaning on the rim (`Hazard.COCKED`, "not a flat top face"), so a face with
    more beside it is not taken for a flat one."""
    from hardware.sim import Hazard, SimulatedTray
    from hardware.sim.dice import AXES, up_axis

    hazards = (None, Hazard.TOUCHING, Hazard.COCKED)

    crops, labels = [], []
    for _ in range(trays):
        die = float(rng.uniform(30, 70))
        body = random_colour(rng)
        pip = random_colour(rng)
        while abs(luma(body) - luma(pip)) < 70:
            pip = random_colour(rng)
        hexes = ["#{:02x}{:02x}{:02x}".format(*c[::-1]) for c in (body, pip, random_colour(rng))]
        tray = SimulatedTray(
            (640, 480),
            die_size=int(die),
            die_colour=hexes[0],
            pip_colour=hexes[1],
            felt_colour=hexes[2],
            surface="felt" if rng.random() < 0.5 else "wood",
            seed=int(rng.integers(1 << 30)),
            clock=lambda: 0.0,
        )
        for k in range(throws):
            tray.throw(hazard=hazards[k % 3])
            poses = tray._throw.final
            frame = tray.render(poses)
            dice = []
            for pose in poses:
                corners = tray.geometry.project(pose.corners(tray.geometry.die))
                (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
                up = pose.rotation @ AXES[up_axis(pose.rotation)]
                value = pose.top_value() if up[2] > 0.99 else 0  # 0: leaning (8+ degrees)
                dice.append((value, (x0 + x1) / 2, (y0 + y1) / 2, ((x1 - x0) * (y1 - y0)) ** 0.5))
            for value, cx, cy, size in dice:
                crops.append(jittered(frame, cx, cy, size, rng))
                labels.append(value)
            negs = negatives_around(frame, dice, rng, 1)
            if hazards[k % 3] is Hazard.TOUCHING:
                negs += between(frame, dice, rng, 2)
            crops += negs
            labels += [0] * len(negs)
    return crops, labels


def between(frame, dice, rng, count: int) -> list[np.ndarray]:
    """Crops of about a die's size centred between the two nearest dice (0.3-0.7 of the way):
    taught that a die with a strip of its neighbour is a face, the net must not take a box
    drawn across two touching dice for one."""
    centres = np.array([(d[1], d[2]) for d in dice])
    gaps = np.hypot(*(centres[:, None] - centres[None, :]).transpose(2, 0, 1))
    gaps[np.diag_indices(len(dice))] = np.inf
    i, j = np.unravel_index(np.argmin(gaps), gaps.shape)
    size = float(np.median([d[3] for d in dice]))
    out = []
    for _ in range(count):
        x, y = centres[i] + rng.uniform(0.3, 0.7) * (centres[j] - centres[i])
        out.append(crop_die(frame, (x, y), size * rng.uniform(0.9, 1.4), rng.uniform(0, 360)))
    return out


def build_net():
    import torch.nn as nn

    def block(cin, cout):
        # no batch norm: the shipped network's (folded into its convolutions) is the start
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU()]

    return nn.Sequential(
        nn.Conv2d(3, 24, 3, stride=2, padding=1),  # 32
        nn.ReLU(),
        *block(24, 32),
        nn.MaxPool2d(2),  # 16
        *block(32, 64),
        *block(64, 64),
        nn.MaxPool2d(2),  # 8
        *block(64, 128),
        *block(128, 128),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(128, 7),
    )


GLINT = 0.35  # share of the crops of a 2, 4 or 6 given a glint on the middle of the face


def glinted(crops: np.ndarray, labels: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """The crops (n, H, W, 3) uint8 with a specular glint, a soft round spot of the lamp's
    light, added at the middle of a GLINT share of the faces of 2, 4 and 6, and which ones.
    Their middle pip place is plain: a glint there is what turns a 2 into a 3 or a 4 into a 5
    for a reader that takes every round spot for a pip (a glint on the middle of a real 2 or 4
    was read as a pip by both readings). The label stays the face's value. Odd faces are left
    alone: a glint over their middle pip can hide it, and no label says what is then seen."""
    out = crops.copy()
    chosen = (labels > 0) & (labels % 2 == 0) & (rng.random(len(labels)) < GLINT)
    face = INPUT / 1.3  # the crop is 1.3 die sides
    for i in np.nonzero(chosen)[0]:
        spot = np.zeros(out.shape[1:3], np.float32)
        centre = np.array(out.shape[1:3][::-1]) / 2 + rng.normal(0, 1.5, 2)
        radius = rng.uniform(0.04, 0.1) * face
        cv2.circle(spot, tuple(int(v * 16) for v in centre), int(radius * 16), 1.0, -1,
                   cv2.LINE_AA, 4)  # fmt: skip
        # soft, as a reflection of the lamp is, where a drilled pip has an edge: a sharp white
        # disc on a 2 would be a 3 with white pips, and teach the net to doubt real 3s
        spot = cv2.GaussianBlur(spot, (0, 0), rng.uniform(0.5, 1.0) * radius)
        spot /= max(float(spot.max()), 1e-6)
        light = rng.uniform(180, 255) * rng.uniform(0.85, 1.0, 3)
        out[i] = np.clip(out[i] + spot[..., None] * light, 0, 255).astype(np.uint8)
    return out, chosen


def augment(x, rng, keep_light=None):
    """Photometric augmentation of a normalised batch (n, 3, H, W), in numpy; the crops in
    `keep_light` are not inverted (an inverted glint is a dark spot, like a blurred pip)."""
    n = len(x)
    perm = np.array([rng.permutation(3) for _ in range(n)])
    x = np.take_along_axis(x, perm[:, :, None, None], axis=1)
    flip = rng.random(n) < 0.3
    if keep_light is not None:
        flip &= ~keep_light
    x[flip] = -x[flip]
    x *= rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32)
    x += rng.normal(0, 0.08, x.shape).astype(np.float32) * (rng.random((n, 1, 1, 1)) < 0.5)
    return x


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--renders", type=Path, nargs="+", required=True, help="tools/render_dice.py --cache"
    )
    parser.add_argument("--steps", type=int, help="batches of 256 (default: from --minutes)")
    parser.add_argument("--minutes", type=float, default=25.0, help="time box of the training")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    parser.add_argument("--cache", type=Path, help="crops saved here once, reused next time")
    parser.add_argument("--out", type=Path, default=MODELS[0])
    parser.add_argument("--init", type=Path, help="start from this model (ONNX, same layers)")
    parser.add_argument("--glints", action="store_true", help="glints on even faces (glinted)")
    args = parser.parse_args()

    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    start = time.time()
    if args.cache and args.cache.exists():
        saved = np.load(args.cache)
        crops, labels = saved["crops"], saved["labels"]
    else:
        parts = [
            photo_data(args.data, rng),
            render_data(args.renders, rng),
            synth_data(rng, 3000),
            sim_data(rng, 100, 12),
        ]
        crops = np.array([c for p in parts for c in p[0]], np.uint8)
        labels = np.array([v for p in parts for v in p[1]], np.int64)
        if args.cache:
            np.savez(args.cache, crops=crops, labels=labels)
    print(
        f"{len(crops)} crops ({np.bincount(labels, minlength=7).tolist()} per class) "
        f"in {time.time() - start:.0f} s",
        flush=True,
    )
    x_all = crops  # normalised a batch at a time (all at once: 4 bytes a value)
    rng = np.random.default_rng(args.seed)  # training draws the same with or without a cache

    net = build_net()
    if args.init:
        from train_dice_net import load_onnx_weights

        load_onnx_weights(net, args.init)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)

    def batch_of(step: int):
        idx = order[(step * 256) % (len(order) - 256) :][:256]
        crops, lit = glinted(x_all[idx], labels[idx], rng) if args.glints else (x_all[idx], None)
        x = augment(normalise(crops), rng, lit)
        return torch.from_numpy(x), torch.from_numpy(labels[idx])

    order = rng.permutation(len(x_all))
    steps = args.steps
    if steps is None:  # time a few batches (their updates are thrown away with this net)
        trial = build_net()
        trial_opt = torch.optim.AdamW(trial.parameters(), lr=1e-4)
        t0 = time.time()
        for k in range(8):
            xb, yb = batch_of(k)
            loss = loss_fn(trial(xb), yb)
            trial_opt.zero_grad()
            loss.backward()
            trial_opt.step()
        per_step = (time.time() - t0) / 8
        steps = max(100, int((args.minutes * 60 - (time.time() - start)) / per_step * 0.92))
        rng = np.random.default_rng(args.seed)
        order = rng.permutation(len(x_all))
    print(f"{steps} steps of 256 crops ({steps * 256 / len(x_all):.1f} epochs)", flush=True)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr, total_steps=steps)
    net.train()
    total, right, seen = 0.0, 0, 0
    for step in range(steps):
        if step and step % (len(x_all) // 256) == 0:
            order = rng.permutation(len(x_all))
        xb, yb = batch_of(step)
        out = net(xb)
        loss = loss_fn(out, yb)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += float(loss.detach()) * len(yb)
        right += int((out.argmax(1) == yb).sum())
        seen += len(yb)
        if (step + 1) % 200 == 0 or step + 1 == steps:
            print(
                f"step {step + 1}: loss {total / seen:.3f}, train accuracy {right / seen:.3f} "
                f"({time.time() - start:.0f} s)",
                flush=True,
            )
            total, right, seen = 0.0, 0, 0

    from train_dice_net import export_batched

    export_batched(net, INPUT, args.out, ("crop", "logits"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
