"""Train the die finder (vision/dice_net.py) and export it to ONNX.

The shipped model (vision/models/dice_net.onnx) is **not** this script's: it is the run of
commit 39c34d2's version of it, `--seed 5 --minutes 35` (11,039 steps of 16 crops of 256 px on
two cores, from scratch): development photos of byler-d6-topdown (60% of the crops) and
skovy-two-dice (10%) scaled to a long side of 640 px, and dice thrown on the simulated tray in
random colours (30%), every crop scaled so that its dice are 18-60 px. Reproduce it (dev time
only; torch is not a runtime dependency of the kiosk; the run is time-boxed, so a faster
machine takes more steps):

    python3 -m venv /work/ml-venv
    /work/ml-venv/bin/pip install torch==2.13.0 numpy opencv-python-headless==4.11.0.86 onnx
    git show 39c34d2:tools/train_dice_net.py > tools/train_dice_net_39c34d2.py
    /work/ml-venv/bin/python tools/train_dice_net_39c34d2.py --seed 5 --minutes 35 \
        --out /tmp/dice_net_shipped.onnx

This script trains the finder for one band of die sizes (below). Its run, 534 steps of 16
crops from the model before (commit 6c6f32e), found damiantab's large dice far better but, read
by the whole reader, read only 12 of 30 ordinary throws of black dice on the simulated tray
and announced two leaning dice, so it is not shipped (docs/vision-models.md). Its command:

    .venv/bin/python tools/render_dice.py --cache /tmp/renders-17.pkl --scenes 500 --seed 17
    .venv/bin/python tools/render_dice.py --cache /tmp/renders-18.pkl --scenes 500 --seed 18
    git show 9e7546f:vision/models/dice_net.onnx > /tmp/dice_net_before.onnx
    nice -n 10 /work/ml-venv/bin/python tools/train_dice_net.py \
        --renders /tmp/renders-17.pkl /tmp/renders-18.pkl --init /tmp/dice_net_before.onnx \
        --seed 5 --steps 534 --threads 2 --out /tmp/dice_net_band.onnx

`--steps` runs so many steps on any machine, the learning rate's schedule by step rather than
by the clock; `--minutes` is a time box, and a faster machine takes more steps (this one,
unloaded, about 15,000 in 25 minutes). The seed fixes the data and the order of the crops.
`--init` starts from a model (its batch norm folded into the convolutions, so this net has
none).

`--negatives FILE` (tools/finder_negatives.py) cuts `--negative-share` of the crops around
places the shipped finder marks on development photos where no die lies; not in the shipped
model (docs/vision-models.md, Known weaknesses).

The net is fully convolutional: for every 4x4 cell of its input it says how likely a die's top
face is centred there (a heat map) and how large the die is. It is trained for one band of die
sizes only, `dice_net.BAND` (10-64 px as the net sees them); vision/dice_net.py runs it on a
pyramid of the frame so that every die falls in the band at one level. So that a level never
takes a pip of a die too large for it for a small die, every crop shows dice either in the band
(they are positives), well above it (up to 420 px: their pips, faces and edges are negatives) or
well below it (2.5-7 px: specks where a finer level finds dice, negatives too); dice just
outside the band are neither (their cells do not count in the loss).

Data (images sorted by path, the held-out part is every fourth image, `i % 4 == 3`, exactly as
benchmarks/eval_photos.py splits them; nothing of the held-out part is used here):
- the development part of all four photo sets (byler-d6-topdown, damiantab-phone,
  matteop65-webcam-oblique, skovy-two-dice), at full resolution;
- rendered tables (tools/render_dice.py): textured surfaces, 3-D dice in every colour, cocked
  dice (still dice for the finder), shadows, glare, clutter, blur, noise, JPEG.
Augmentation: die size (log-uniform in the band, or 96-420 px), any rotation, mirror, channel
permutation, inversion, exposure (x0.45-1.5), white balance, contrast, gamma, blur, noise.
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
sys.path.insert(0, str(REPO / "tools"))

from render_dice import read_cache  # noqa: E402

from vision.dice_net import BAND, STRIDE  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "dice-photos"
MODEL = REPO / "vision" / "models" / "dice_net.onnx"
CROP = 160
TRAIN_BAND = (BAND[0] * 0.9, BAND[1] * 1.12)  # positives: a little past the trusted band
LARGE = (BAND[1] * 1.5, 420.0)  # negatives: dice this large show only pips and edges
TINY = (2.5, BAND[0] * 0.7)  # negatives too: specks a coarser level sees where a finer finds dice
SETS = {  # set -> share of the training crops
    "byler-d6-topdown": 0.2,
    "damiantab-phone": 0.13,
    "skovy-two-dice": 0.07,
    "matteop65-webcam-oblique": 0.07,
}
RENDERS = 0.53


def load_set(
    set_dir: Path, held_out: bool = False, paths: list[Path] | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """[(image, dice)] of one set's development (or held-out) part; dice rows (value, cx, cy,
    size), size the square root of the box's area. paths: filled with each image's path."""
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
        out.append((cv2.imread(str(path)), np.array(dice, np.float32)))
        if paths is not None:
            paths.append(path)
    return out


def negative_pool(
    csv_path: Path, data: Path, sets: dict[str, tuple[list, list[Path]]]
) -> list[list[tuple[np.ndarray, np.ndarray, tuple[float, float, float]]]]:
    """Per set, [(image, dice, (x, y, size))]: each mark of tools/finder_negatives.py on a
    development image loaded here, with that image's dice (still positives in its crops)."""
    by_path = {
        path: source
        for frames, paths in sets.values()
        for source, path in zip(frames, paths, strict=True)
    }
    pools: dict[str, list] = defaultdict(list)
    with open(csv_path, newline="") as handle:
        for row in csv.DictReader(handle):
            source = by_path.get(data / row["image"])
            if source is None:  # not a development image of this run: never a held-out one
                continue
            mark = (float(row["x"]), float(row["y"]), float(row["size"]))
            pools[row["set"]].append((*source, mark))
    return [pool for pool in pools.values() if pool]


def render_set(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for image, dice in read_cache(path):
        if dice:
            rows = np.array([(d.value, *d.centre, d.size) for d in dice], np.float32)
            out.append((image, rows))
    return out


def photometric(image: np.ndarray, rng) -> np.ndarray:
    x = image.astype(np.float32) / 255.0
    if rng.random() < 0.5:
        x = x[:, :, rng.permutation(3)]
    if rng.random() < 0.2:
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


def sample(
    source: tuple[np.ndarray, np.ndarray], rng, mark: tuple[float, float, float] | None = None
) -> tuple[np.ndarray, ...]:
    """One training crop and its targets: heat (1, h, w), log die size (h, w), where the size
    is known (h, w), and the weight of each cell in the heat loss (1, h, w). mark: a place the
    finder marked where no die lies (x, y, size): the crop is cut around it, at a scale that
    puts its size in the band, as the finder saw it."""
    image, dice = source
    if mark is not None:
        scale = float(np.exp(rng.uniform(*np.log(TRAIN_BAND)))) / mark[2]
        angle = rng.uniform(0, 360)
        cx, cy = np.array(mark[:2]) + rng.normal(0, 0.25 * mark[2], 2)
    else:
        ref = float(dice[rng.integers(len(dice)), 3])
        pick = rng.random()
        lo, hi = TRAIN_BAND if pick < 0.7 else LARGE if pick < 0.9 else TINY
        scale = float(np.exp(rng.uniform(np.log(lo), np.log(hi)))) / ref
        angle = rng.uniform(0, 360)
        if rng.random() < 0.7:
            cx, cy = dice[rng.integers(len(dice)), 1:3] + rng.normal(0, 50 / scale, 2)
        else:
            cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    # shrink the whole picture by area first (no aliasing), then turn and cut the crop
    fill = tuple(float(c) for c in np.median(image[::4, ::4].reshape(-1, 3), axis=0))
    k = 1.0
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        k = image.shape[1] / source[0].shape[1]
    matrix = cv2.getRotationMatrix2D((float(cx * k), float(cy * k)), angle, scale / k)
    matrix[:, 2] += (CROP / 2 - cx * k, CROP / 2 - cy * k)
    if rng.random() < 0.5:
        matrix[0] = -matrix[0]
        matrix[0, 2] += CROP
    region = image
    crop = cv2.warpAffine(region, matrix, (CROP, CROP), borderValue=fill)
    x = photometric(crop, rng)
    cells = CROP // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    weight = np.ones((cells, cells), np.float32)
    sized = np.zeros((cells, cells), bool)
    logsize = np.zeros((cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    points = np.c_[dice[:, 1:3] * k, np.ones(len(dice))] @ matrix.T
    for s, (px, py) in zip(dice[:, 3] * scale, points, strict=True):
        u, v = px / STRIDE, py / STRIDE
        d2 = (gx - u) ** 2 + (gy - v) ** 2
        if not (TRAIN_BAND[0] <= s <= TRAIN_BAND[1]):
            if TINY[1] < s < LARGE[0]:  # just too small or too large for the band: neither
                weight[d2 <= max(1.0, (s / STRIDE * 0.4) ** 2)] = 0.0
            continue
        if not (-s / 8 <= px < CROP + s / 8 and -s / 8 <= py < CROP + s / 8):
            continue
        sigma = max(0.6, s / STRIDE * 0.12)
        heat = np.maximum(heat, np.exp(-d2 / (2 * sigma**2)))
        inside = s / 2 <= px < CROP - s / 2 and s / 2 <= py < CROP - s / 2
        near = d2 <= max(1.0, (s / STRIDE * 0.22) ** 2)
        sized[near] = inside
        logsize[near] = math.log(s)
    return (x.transpose(2, 0, 1).astype(np.float32), heat[None], logsize, sized, weight[None])


class DiceNet(nn.Module):
    """Stride-4 heat map of die centres and the die size there, from a BGR frame."""

    def __init__(self) -> None:
        super().__init__()

        def conv(cin, cout, stride=1, dilation=1):
            # no batch norm: the shipped net's (folded into its convolutions) is the start
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, dilation, dilation), nn.ReLU(inplace=True)
            )

        self.stem = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), conv(24, 24))
        self.deep = nn.Sequential(
            conv(24, 48, 2),
            conv(48, 48),
            conv(48, 48, dilation=2),
            conv(48, 48, dilation=4),
        )
        self.fuse = nn.Sequential(nn.Conv2d(72, 32, 1), nn.ReLU(inplace=True), conv(32, 32))
        self.head = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        shallow = self.stem(x)
        deep = F.interpolate(self.deep(shallow), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([shallow, deep], 1)))


def export_batched(net: nn.Module, side: int, out: Path, names: tuple[str, str]) -> None:
    """Write `net` to ONNX for OpenCV's DNN module: one input of (n, 3, side, side), the batch
    size free, named `names` (input, output)."""
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        torch.zeros(1, 3, side, side),
        str(out),
        input_names=[names[0]],
        output_names=[names[1]],
        dynamic_axes={names[0]: {0: "n"}, names[1]: {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")


def load_onnx_weights(net: nn.Module, path: Path) -> None:
    """Start from a shipped model: its convolutions (batch norm folded in), in graph order."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d | nn.Linear)]
    if len(nodes) != len(layers):
        raise SystemExit(f"{path}: {len(nodes)} layers, the net has {len(layers)}")
    with torch.no_grad():
        for node, layer in zip(nodes, layers, strict=True):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            layer.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))


def loss_of(out, heat, logsize, sized, weight):
    """CenterNet's focal loss on the heat map (cells by each centre are positives; cells of
    weight 0 do not count) plus the size error where the size is known."""
    pred = torch.sigmoid(out[:, :1]).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.85).float() * weight
    neg = (1 - (heat > 0.85).float()) * weight
    pos_loss = -(torch.log(pred) * (1 - pred) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - pred) * pred**2 * (1 - heat) ** 4 * neg).sum()
    focal = (pos_loss + neg_loss) / pos.sum().clamp(min=1)
    size = F.l1_loss(out[:, 1][sized], logsize[sized]) if sized.any() else out.sum() * 0
    return focal + 0.5 * size, focal, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--renders", type=Path, nargs="+", required=True, help="tools/render_dice.py --cache"
    )
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument(
        "--steps", type=int, help="run this many steps, however long (else --minutes)"
    )
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--init", type=Path, help="start from this model (ONNX, same layers)")
    parser.add_argument("--resume", type=Path, help="start from this state (.pt of a run)")
    parser.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    parser.add_argument(
        "--negatives", type=Path, help="tools/finder_negatives.py's marks: crops around them"
    )
    parser.add_argument(
        "--negative-share", type=float, default=0.15, help="share of crops cut around them"
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    loaded: dict[str, tuple[list, list[Path]]] = {}
    for name in SETS:
        paths: list[Path] = []
        loaded[name] = (load_set(args.data / name, paths=paths), paths)
    pools = [(loaded[name][0], share) for name, share in SETS.items()]
    pools.append(([f for path in args.renders for f in render_set(path)], RENDERS))
    print(f"frames: {' '.join(str(len(pool)) for pool, _ in pools)}", flush=True)
    negatives = negative_pool(args.negatives, args.data, loaded) if args.negatives else []
    if negatives:
        print(f"marks clear of dice: {' '.join(str(len(n)) for n in negatives)}", flush=True)
    net = DiceNet()
    if args.init:
        load_onnx_weights(net, args.init)
    if args.resume:
        net.load_state_dict(torch.load(args.resume))
    args.out.parent.mkdir(parents=True, exist_ok=True)  # the run's state is saved as it goes
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    start = time.monotonic()
    budget = args.minutes * 60
    step = 0
    shares = np.array([p for _, p in pools]) / sum(p for _, p in pools)

    def progress(elapsed: float) -> float:
        """How far the run is, 0..1: by steps where they are given (the same run on any
        machine), else by the time box."""
        return step / args.steps if args.steps else elapsed / budget

    while (done := progress(elapsed := time.monotonic() - start)) < 1.0:
        warm = min(1.0, step / 100)  # a short warm-up, then a cosine to the run's end
        lr = warm * args.lr * 0.5 * (1 + math.cos(math.pi * done))
        for group in optimiser.param_groups:
            group["lr"] = max(lr, 2e-5)
        batch = []
        for _ in range(args.batch):
            if negatives and rng.random() < args.negative_share:  # each set's marks alike
                pool = negatives[rng.integers(len(negatives))]
                image, dice, mark = pool[rng.integers(len(pool))]
                batch.append(sample((image, dice), rng, mark))
                continue
            pool = pools[rng.choice(len(pools), p=shares)][0]
            batch.append(sample(pool[rng.integers(len(pool))], rng))
        tensors = (torch.from_numpy(np.stack(t)) for t in zip(*batch, strict=True))
        x, heat, logsize, sized, weight = tensors
        net.train()
        loss, focal, size = loss_of(net(x), heat, logsize, sized, weight)
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
            if step % 500 == 0:
                torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    net.eval()
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
