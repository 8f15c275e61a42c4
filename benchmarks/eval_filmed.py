"""Real photos filmed as a phone films dice on a table, read by `azar-kiosk watch` (prints
figures).

    .venv/bin/python benchmarks/eval_filmed.py [--set NAME ...] [--part dev|held-out|all]
        [--codec mp4v|MJPG] [--seed N] [--keep DIR]

The recordings of `bench_watch.py` show the simulated tray; these show real dice. Each labelled
photo of a set's part becomes one rest of the dice in a recording of the set (its frames at most
1280 px wide), in path order (a photo showing the values of the one before is put off: the same
values at the same place are dice that did not move). Before each rest a hand sweeps across the
picture (0.8 s; under it the dice change to the next photo's), as a visitor's hand takes the dice
and throws them; then the dice lie still for 2.5 s. All the while the camera is held in a hand:
it shakes by up to 1 px each way every frame and wanders and turns slowly (the walk of
`hardware.sim.recording.film(hand=0.3)`), the sensor adds noise (sigma 2 levels) and the
exposure drifts by up to 3% over 8 s. The file is MPEG-4 with predicted frames, as phones
record (`--codec MJPG`: a JPEG a frame).

It is read by `azar-kiosk watch --json --expect any` without a calibration, as a phone's video
of dice on a table is read. Per set: rests; each rest's first ruling ok with the labelled
values, ok with others (must be 0), refused; rests with no answer; extra rulings; and, for
comparison, the same photos read still (`read_roll` on the rest's frame as scaled, before the
camera's effects): what filming loses is the difference.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_watch import tally, watch  # noqa: E402
from benchmarks.eval_photos import DEFAULT_DATA, load_labels, photo_sets, split  # noqa: E402
from vision.reader import read_roll  # noqa: E402

FPS = 30.0
WIDEST = 1280  # px: a phone's video, not its photos
SWEEP = 0.8  # s a hand takes to cross the picture
REST = 2.5  # s the dice lie still
SKIN = (120, 150, 205)  # BGR of the hand


def frame_size(photo: np.ndarray, widest: int = WIDEST) -> tuple[int, int]:
    """(width, height) of the recording: the photo's, even, scaled to at most `widest` px."""
    h, w = photo.shape[:2]
    k = min(1.0, widest / max(h, w))
    return int(w * k) // 2 * 2, int(h * k) // 2 * 2


def scaled(photo: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The photo at the recording's size: shrunk by area, or only cut to an even size (a
    resampling to almost the same size would blur every frame)."""
    h, w = photo.shape[:2]
    if w - size[0] <= 1 and h - size[1] <= 1:
        return np.ascontiguousarray(photo[: size[1], : size[0]])
    return cv2.resize(photo, size, interpolation=cv2.INTER_AREA)


def in_order(labels: list[tuple[int, ...]]) -> list[int]:
    """The photos' order in the recording: path order, except that a rest showing the values
    of the one before is put off while another can come first. The same dice at the same place
    with the same values are, by the kiosk's rule, dice that did not move (`not_moved`), and
    the photos of one large 6 in the middle of the picture would be just that."""
    left, order = list(range(len(labels))), []
    while left:
        pick = next((i for i in left if not order or labels[i] != labels[order[-1]]), left[0])
        order.append(pick)
        left.remove(pick)
    return order


def hand_over(frame: np.ndarray, progress: float, rng_side: int) -> np.ndarray:
    """The frame with a hand and forearm crossing it, `progress` 0..1 of the way."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.float32)
    x = int((-0.3 + 1.6 * progress) * w)
    if rng_side:
        x = w - x
    cy = h // 2
    cv2.ellipse(mask, (x, cy), (int(0.18 * w), int(0.22 * h)), 20, 0, 360, 1.0, -1)
    arm = x - (-1 if rng_side else 1) * 2 * w  # the forearm, trailing out of the picture
    cv2.rectangle(mask, (x, cy - int(0.12 * h)), (arm, cy + int(0.06 * h)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.008 * w)[..., None]  # a hand moving is blurred
    shaded = np.full_like(frame, SKIN, dtype=np.float32) * (0.8 + 0.2 * mask)
    return (frame * (1 - mask) + shaded * mask).astype(np.uint8)


class Camera:
    """A hand-held phone: shake, a slow wander and turn, sensor noise, exposure drift."""

    def __init__(self, size: tuple[int, int], seed: int, hand: float = 0.3) -> None:
        self.size, self.hand = size, hand
        self.rng = np.random.default_rng(seed)
        self.held = np.zeros(3)  # x, y (px), turn (degrees)
        self.frame = 0

    def __call__(self, scene: np.ndarray) -> np.ndarray:
        dx, dy = self.rng.uniform(-1.0, 1.0, 2)
        self.held[:] = 0.98 * self.held + self.rng.normal(0, [self.hand, self.hand, self.hand / 10])
        w, h = self.size
        move = cv2.getRotationMatrix2D((w / 2, h / 2), self.held[2], 1.0)
        move[:, 2] += (dx + self.held[0], dy + self.held[1])
        seen = cv2.warpAffine(scene, move, self.size, borderMode=cv2.BORDER_REFLECT)
        gain = 1.0 + 0.03 * np.sin(2 * np.pi * self.frame / (8 * FPS))
        noisy = seen.astype(np.float32) * gain + self.rng.normal(0, 2.0, seen.shape)
        self.frame += 1
        return np.clip(noisy, 0, 255).astype(np.uint8)


def film(
    photos: list[np.ndarray], path: Path, codec: str, seed: int, widest: int = WIDEST
) -> list[int]:
    """Write the recording; return the frame each rest's sweep starts at."""
    size = frame_size(photos[0], widest)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), FPS, size)
    if not writer.isOpened():
        raise OSError(f"cannot write a video at {path}")
    camera = Camera(size, seed)
    starts: list[int] = []
    scenes = [scaled(p, size) for p in photos]
    try:
        for i, scene in enumerate(scenes):
            before = scenes[i - 1] if i else scene
            starts.append(camera.frame)
            steps = int(SWEEP * FPS)
            for k in range(steps):
                under = before if k < steps // 2 else scene
                writer.write(camera(hand_over(under, k / (steps - 1), i % 2)))
            for _ in range(int(REST * FPS)):
                writer.write(camera(scene))
    finally:
        writer.release()
    return starts


def still(photos: list[np.ndarray], labels: list[tuple[int, ...]]) -> Counter:
    """The same photos read still, at the recording's size."""
    size = frame_size(photos[0])
    counts: Counter = Counter()
    for photo, values in zip(photos, labels, strict=True):
        roll = read_roll(scaled(photo, size), expect=None)
        read = tuple(sorted(d.value for d in roll.dice))
        right = "ok right" if read == values else "ok WRONG"
        counts[right if roll.status == "ok" else "refused"] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", action="append", help="default: every set")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="held-out")
    parser.add_argument("--codec", choices=("mp4v", "MJPG"), default="mp4v")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep the recordings in this folder")
    args = parser.parse_args()
    cv2.setNumThreads(1)  # one order of the networks' sums: the same figures run to run
    columns = [
        "throws", "answers", "ok right", "ok WRONG", "refused", "not moved", "no answer", "extra"
    ]  # fmt: skip
    print(f"{args.part} part, {args.codec}, seed {args.seed}, hand-held, uncalibrated")
    names = ["rests", *columns[1:]]  # a rest of the dice is what bench_watch calls a throw
    print("| set | " + " | ".join(names) + " | still: ok right / ok WRONG / refused |")
    print("|---" * (len(columns) + 2) + "|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for set_dir in photo_sets(args.data, args.set):
            images = load_labels(set_dir, True)
            dev, held = split(images)
            part = {"dev": dev, "held-out": held, "all": images}[args.part]
            paths = sorted(part)
            labels = [tuple(sorted(box[0] for box in part[p])) for p in paths]
            order = in_order(labels)
            labels = [labels[i] for i in order]
            photos = [cv2.imread(str(paths[i])) for i in order]
            video = folder / f"{set_dir.name}{'.mp4' if args.codec == 'mp4v' else '.avi'}"
            starts = film(photos, video, args.codec, args.seed)
            counts = tally(watch(video, None, "any"), labels, starts)
            seen = still(photos, labels)
            alone = f"{seen['ok right']} / {seen['ok WRONG']} / {seen['refused']}"
            row = " | ".join(str(counts[c]) for c in columns)
            print(f"| {set_dir.name} | {row} | {alone} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
