"""Train the die finder (vision/dice_net.py) and export it to ONNX.

Reproduce (dev time only; torch is not a runtime dependency of the kiosk):

    python3 -m venv /work/ml-venv
    /work/ml-venv/bin/pip install torch==2.13.0 numpy opencv-python-headless==4.11.0.86 onnx
    /work/ml-venv/bin/python tools/train_dice_net.py [--data DIR] [--seed 5] [--minutes 35]

The shipped model (vision/models/dice_net.onnx) is `--seed 5 --minutes 35` (11,039 steps of 16
crops on two cores; the run is time-boxed, so another machine stops at another step).

The net is fully convolutional: for every 4x4 cell of the frame it says how likely a die's top
face is centred there (a heat map) and how large the die is. Which face a die shows is the face
classifier's job (tools/train_face_classifier.py): a value head trained in this net along with
the heat map did not learn (its loss stayed at ln 6 over 2,400 steps), crops did. It is
trained on:
- byler-d6-topdown and skovy-two-dice, development images only: images sorted by path, the
  held-out part is every fourth image (`i % 4 == 3`) exactly as benchmarks/eval_photos.py splits
  them; nothing of the held-out part is used here. Skovy frames are first scaled to a long side
  of 640 px, as the reader's working copy.
- dice thrown on the simulated tray (hardware/sim) in random colours and sizes, for dice and trays
  no photo shows; with `--drawn N` also N frames of dice drawn flat by tests/vision/synth.py.
- matteop65-webcam-oblique is not used: its labelled top faces are often slivers of oblique views.
Augmentation: die size 18-60 px, any rotation, mirror (every pip layout is its own mirror image up
to rotation), channel permutation (new colours), inversion (light pips on dark dice), exposure
(x0.45-1.5: the net reads raw pixels, and the model trained without it left out dice in photos
0.6 times as bright), white balance (x0.8-1.2 a channel), contrast, gamma, blur, noise. The seed
fixes the data and the initial weights.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
MODEL = REPO / "vision" / "models" / "dice_net.onnx"
STRIDE = 4
CROP = 256
LONG_SIDE = 640


def load_set(set_dir: Path, held_out: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """[(image, dice)] of one set's development (or held-out) part; dice rows (value, cx, cy,
    size), the image scaled to a long side of at most 640 px."""
    labels: dict[Path, list] = defaultdict(list)
    with open(set_dir / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = set_dir / "images" / row["split"] / row["image"]
            x0, y0, x1, y1 = (float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            size = math.sqrt((x1 - x0) * (y1 - y0))
            labels[path].append((int(row["value"]), (x0 + x1) / 2, (y0 + y1) / 2, size))
    out = []
    for i, (path, dice) in enumerate(sorted(labels.items())):
        if (i % 4 == 3) != held_out:
            continue
        image = cv2.imread(str(path))
        scale = min(1.0, LONG_SIDE / max(image.shape[:2]))
        if scale < 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        rows = np.array(dice, np.float32)
        rows[:, 1:] *= scale
        out.append((image, rows))
    return out


def random_colour(rng) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(0, 256, 3))


def luma(bgr) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def dice_colours(rng) -> tuple[tuple[int, int, int], ...]:
    """Random BGR colours of a die body, its pips (at least 70 apart in luma) and the tray."""
    body = random_colour(rng)
    pip = random_colour(rng)
    while abs(luma(body) - luma(pip)) < 70:
        pip = random_colour(rng)
    return body, pip, random_colour(rng)


def sim_frames(rng, trays: int, throws: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Frames of dice at rest on the simulated tray, with their values, centres and sizes."""
    from hardware.sim import SimulatedTray

    out = []
    for _ in range(trays):
        hexes = ["#{:02x}{:02x}{:02x}".format(*c[::-1]) for c in dice_colours(rng)]
        tray = SimulatedTray(
            (640, 480),
            die_size=int(rng.uniform(30, 60)),
            die_colour=hexes[0],
            pip_colour=hexes[1],
            felt_colour=hexes[2],
            surface="felt" if rng.random() < 0.5 else "wood",
            seed=int(rng.integers(1 << 30)),
            clock=lambda: 0.0,
        )
        for _ in range(throws):
            tray.throw()
            poses = tray._throw.final
            frame = tray.render(poses)
            dice = []
            for pose in poses:
                corners = tray.geometry.project(pose.corners(tray.geometry.die))
                (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
                top = pose.centre + np.array([0.0, 0.0, tray.geometry.die / 2])
                cx, cy = tray.geometry.project(top)
                dice.append((pose.top_value(), cx, cy, math.sqrt((x1 - x0) * (y1 - y0))))
            out.append((frame, np.array(dice, np.float32)))
    return out


def synth_frames(rng, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Dice drawn by tests/vision/synth.py: flat colours, random styles, sizes and places, some
    touching; a look neither the photos nor the simulated tray have."""
    sys.path.insert(0, str(REPO / "tests" / "vision"))
    import synth

    out = []
    for _ in range(count):
        body, pip, tray = dice_colours(rng)
        style = synth.Style(body=body, pip=pip, tray=tray)
        side = float(rng.uniform(24, 64))
        dice: list = []
        for _ in range(int(rng.integers(1, 7))):
            for _ in range(30):
                x, y = rng.uniform(side, 640 - side), rng.uniform(side, 480 - side)
                gaps = [np.hypot(x - d.centre[0], y - d.centre[1]) for d in dice]
                if all(gap > 1.25 * side for gap in gaps):
                    value = int(rng.integers(1, 7))
                    dice.append(synth.DrawnDie(value, (x, y), side, float(rng.uniform(0, 90))))
                    break
        frame = synth.scene(dice, style, uneven=float(rng.uniform(0, 0.5)))
        # sized as the photos' labels are: the side of the die's axis-aligned box
        rows = [
            (
                d.value,
                *d.centre,
                side
                * (abs(math.cos(math.radians(d.angle))) + abs(math.sin(math.radians(d.angle)))),
            )
            for d in dice
        ]
        out.append((frame, np.array(rows, np.float32)))
    return out


def photometric(image: np.ndarray, rng) -> np.ndarray:
    x = image.astype(np.float32) / 255.0
    if rng.random() < 0.5:
        x = x[:, :, rng.permutation(3)]
    if rng.random() < 0.25:
        x = 1.0 - x
    if rng.random() < 0.5:
        x = x * rng.uniform(0.45, 1.5)  # exposure: another camera's gain, a darker room
    if rng.random() < 0.3:
        x = x * rng.uniform(0.8, 1.2, 3).astype(np.float32)  # white balance
    if rng.random() < 0.3:
        grey = x.mean(axis=2, keepdims=True)
        x = grey + (x - grey) * rng.uniform(0.0, 1.5)
    x = np.clip(x, 0, 1) ** rng.uniform(0.7, 1.4)
    x = (x - 0.5) * rng.uniform(0.6, 1.4) + 0.5 + rng.uniform(-0.15, 0.15)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.3))
    x = x + rng.normal(0, rng.uniform(0, 0.04), x.shape).astype(np.float32)
    return np.clip(x, 0, 1)


def sample(source: tuple[np.ndarray, np.ndarray], rng) -> tuple[np.ndarray, ...]:
    """One training crop and its targets: heat (1, h, w), log die size (h, w), and where the
    size is known (h, w): the cells by a die's centre, die whole in the crop."""
    image, dice = source
    size = float(np.median(dice[:, 3]))
    scale = rng.uniform(18, 60) / size
    angle = rng.uniform(0, 360)
    if rng.random() < 0.7:
        cx, cy = dice[rng.integers(len(dice)), 1:3] + rng.normal(0, 60 / scale, 2)
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    matrix = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, scale)
    matrix[:, 2] += (CROP / 2 - cx, CROP / 2 - cy)
    if rng.random() < 0.5:
        matrix[0] = -matrix[0]
        matrix[0, 2] += CROP
    # A plain border: a mirrored border would show dice without labels.
    fill = tuple(float(c) for c in np.median(image.reshape(-1, 3), axis=0))
    crop = cv2.warpAffine(image, matrix, (CROP, CROP), borderValue=fill)
    x = photometric(crop, rng)
    cells = CROP // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    sized = np.zeros((cells, cells), bool)
    logsize = np.zeros((cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    points = np.c_[dice[:, 1:3], np.ones(len(dice))] @ matrix.T
    for (_, _, _, s), (px, py) in zip(dice, points, strict=True):
        s *= scale
        u, w = px / STRIDE, py / STRIDE
        if not (-s / 8 <= px < CROP + s / 8 and -s / 8 <= py < CROP + s / 8):
            continue
        sigma = max(0.6, s / STRIDE * 0.12)
        d2 = (gx - u) ** 2 + (gy - w) ** 2
        heat = np.maximum(heat, np.exp(-d2 / (2 * sigma**2)))
        inside = s / 2 <= px < CROP - s / 2 and s / 2 <= py < CROP - s / 2
        near = d2 <= max(1.0, (s / STRIDE * 0.22) ** 2)
        sized[near] = inside
        logsize[near] = math.log(s)
    return x.transpose(2, 0, 1).astype(np.float32), heat[None].astype(np.float32), logsize, sized


class DiceNet(nn.Module):
    """Stride-4 heat map of die centres and the die size there, from a BGR frame."""

    def __init__(self) -> None:
        super().__init__()

        def conv(cin, cout, stride=1, dilation=1):
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True),
            )

        self.stem = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), conv(24, 24))
        self.deep = nn.Sequential(
            conv(24, 48, 2), conv(48, 48), conv(48, 48, dilation=2), conv(48, 48, dilation=4)
        )
        self.fuse = nn.Sequential(
            nn.Conv2d(72, 32, 1, bias=False),
            nn.BatchNorm2d(32),
            nn.ReLU(inplace=True),
            conv(32, 32),
        )
        self.head = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        shallow = self.stem(x)
        deep = F.interpolate(self.deep(shallow), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([shallow, deep], 1)))


def loss_of(out, heat, logsize, sized):
    """CenterNet's focal loss on the heat map (cells by each centre are positives) plus the
    size error where the size is known."""
    pred = torch.sigmoid(out[:, :1]).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.85).float()
    neg = 1 - pos
    pos_loss = -(torch.log(pred) * (1 - pred) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - pred) * pred**2 * (1 - heat) ** 4 * neg).sum()
    focal = (pos_loss + neg_loss) / pos.sum().clamp(min=1)
    size = F.l1_loss(out[:, 1][sized], logsize[sized]) if sized.any() else out.sum() * 0
    return focal + 0.5 * size, focal, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--drawn", type=int, default=0, help="also this many drawn frames")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    byler = load_set(args.data / "byler-d6-topdown")
    skovy = load_set(args.data / "skovy-two-dice")
    sim = sim_frames(rng, 40, 8)
    pools = [(byler, 0.6), (skovy, 0.1), (sim, 0.3)]
    if args.drawn:
        pools = [(byler, 0.5), (skovy, 0.12), (sim, 0.23), (synth_frames(rng, args.drawn), 0.15)]
    print(f"frames: {' '.join(str(len(pool)) for pool, _ in pools)}", flush=True)
    net = DiceNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    start = time.monotonic()
    budget = args.minutes * 60
    step = 0
    while (elapsed := time.monotonic() - start) < budget:
        lr = 3e-3 * 0.5 * (1 + math.cos(math.pi * min(1.0, elapsed / budget)))
        for group in optimiser.param_groups:
            group["lr"] = max(lr, 5e-5)
        batch = []
        for _ in range(args.batch):
            pool = pools[rng.choice(len(pools), p=[p for _, p in pools])][0]
            batch.append(sample(pool[rng.integers(len(pool))], rng))
        x, heat, logsize, sized = (torch.from_numpy(np.stack(t)) for t in zip(*batch, strict=True))
        net.train()
        loss, focal, size = loss_of(net(x), heat, logsize, sized)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        if step % 50 == 0:
            print(
                f"{elapsed:6.0f}s step {step} loss {loss.item():.3f} heat {focal.item():.3f} "
                f"size {size.item():.3f} lr {lr:.5f}",
                flush=True,
            )
    net.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, 480, 640)
    torch.onnx.export(
        net,
        dummy,
        str(args.out),
        input_names=["frame"],
        output_names=["maps"],
        opset_version=13,
        dynamo=False,
    )
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    print(f"saved {args.out} after {step} steps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
