"""Train the pip finder (vision/pip_net.py) and export it to ONNX (dev time only).

Reproduce (torch is not a runtime dependency of the kiosk; the venv: see
tools/train_face_classifier.py):

    .venv/bin/python tools/pip_examples.py /tmp/pip_examples.pkl
    nice -n 10 /work/ml-venv/bin/python tools/train_pip_net.py /tmp/pip_examples.pkl \
        --seed 5 --steps 2400 --threads 2

Data: the development dice of all four photo sets with their pips, and crops anywhere in the
same images at any size (tools/pip_examples.py),
each cut afresh every time it is drawn: any turn, the finder's size error (0.8-1.25), an
offset of up to 0.15 box sides; then channel permutation (new colours), inversion (light pips
on dark dice and the reverse), exposure, contrast, gamma, a colour cast, blur, noise, JPEG.
The target is each pip's disc, where the pip is of a size a die of the crop's box has (a crop
on one pip of a large die shows no pip); inside the box of a labelled die whose pips were not
found the loss is not counted (its pips are neither taught as pips nor as face).

Network: fully convolutional, input INPUT x INPUT BGR (0..255) at vision.pip_net.PX pixels per
die box side, output the pip logit at half that resolution: a strided 3x3 convolution, four
dilated 3x3 convolutions (dilation 1, 2, 4, 1) and a 1x1 convolution. The seed fixes
everything (numpy and torch).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_dice_net import export_batched  # noqa: E402

from tools.pip_examples import CROP_PX  # noqa: E402
from vision.pip_net import INPUT, PX  # noqa: E402

PIP_SIZE = (0.05, 0.3)  # pip diameters a die of the box's size has, box sides (geometry: a
# pip is 0.12-0.25 of a face, a face 0.7-0.9 of its box)
OUT = Path(__file__).resolve().parent.parent / "vision" / "models" / "pip_net.onnx"


class PipNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()

        def block(a: int, b: int, dilation: int = 1, stride: int = 1) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(a, b, 3, stride, padding=dilation, dilation=dilation),
                nn.BatchNorm2d(b),
                nn.ReLU(inplace=True),
            )

        self.body = nn.Sequential(
            block(3, 16),
            block(16, 24, stride=2),
            block(24, 32),
            block(32, 32, dilation=2),
            block(32, 32, dilation=4),
            block(32, 24),
            nn.Conv2d(24, 1, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x / 255.0 - 0.5)


def sample(example: dict, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(input INPUT x INPUT x 3 float32, target and weight at half resolution) of one draw."""
    crop = example["crop"]
    c = crop.shape[0] / 2
    scale = PX / CROP_PX * rng.uniform(0.8, 1.25)
    matrix = cv2.getRotationMatrix2D((c, c), rng.uniform(0, 360), scale)
    shift = rng.uniform(-0.15, 0.15, 2) * PX
    matrix[:, 2] += INPUT / 2 - c + shift
    image = cv2.warpAffine(
        crop, matrix, (INPUT, INPUT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    fine = np.zeros((INPUT * 2, INPUT * 2), np.uint8)  # drawn at 2x, then area-averaged
    for x, y, r in example["pips"]:
        if not PIP_SIZE[0] <= 2 * r * scale / PX <= PIP_SIZE[1]:
            continue  # no pip of a die this box holds: a die seen closer or farther
        q = matrix @ np.array([x, y, 1.0])
        centre = (round(q[0] * 4), round(q[1] * 4))  # 2x the input, 1 fractional bit
        cv2.circle(fine, centre, round(r * scale * 4), 255, -1, cv2.LINE_AA, 1)
    weight = np.ones((INPUT * 2, INPUT * 2), np.uint8)
    for x0, y0, x1, y1 in example["unknown"]:
        corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], float)
        q = (corners @ matrix.T) * 2
        cv2.fillConvexPoly(weight, np.round(q).astype(np.int32), 0)
    half = INPUT // 2
    target = cv2.resize(fine, (half, half), interpolation=cv2.INTER_AREA) / 255.0
    weight = cv2.resize(weight, (half, half), interpolation=cv2.INTER_NEAREST)
    return _photometric(image, rng), target.astype(np.float32), weight.astype(np.float32)


def _photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    image = image[:, :, rng.permutation(3)]
    if rng.random() < 0.3:
        image = 255 - image
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.4))
    x = image.astype(np.float32)
    x = (x - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-40, 40)
    x = x * rng.uniform(0.85, 1.15, 3)
    x = 255 * (np.clip(x, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.5:
        x = x + rng.normal(0, rng.uniform(1, 8), x.shape)
    x = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, jpeg = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        x = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    return x.astype(np.float32)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", type=Path)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--steps", type=int, default=2400)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    with open(args.examples, "rb") as handle:
        examples = pickle.load(handle)
    print(f"{len(examples)} crops, {sum(len(e['pips']) > 0 for e in examples)} with pips")

    net = PipNet()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=args.steps)
    loss_of = nn.BCEWithLogitsLoss(reduction="none", pos_weight=torch.tensor(3.0))
    start, total = time.time(), 0.0
    for step in range(args.steps):
        batch = [sample(examples[i], rng) for i in rng.integers(0, len(examples), args.batch)]
        x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).copy())
        y = torch.from_numpy(np.stack([b[1] for b in batch]))[:, None]
        w = torch.from_numpy(np.stack([b[2] for b in batch]))[:, None]
        loss = (loss_of(net(x), y) * w).sum() / w.sum().clamp(min=1)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += float(loss.detach())
        if (step + 1) % 100 == 0:
            took = time.time() - start
            print(f"step {step + 1}: loss {total / 100:.4f} ({took:.0f} s)", flush=True)
            total = 0.0

    export_batched(net, INPUT, args.out, ("crop", "logit"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
