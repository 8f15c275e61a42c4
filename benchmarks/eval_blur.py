"""How wide a die's edges look on sharp photos and on the same photos blurred: where the
geometric reading may call a face it cannot read `blur` (PipParams.blurred, blurred_px).

Usage: .venv/bin/python benchmarks/eval_blur.py [--set NAME] [--every K]

For every K-th development image of each set (default 3) and each labelled die, the top face
is found in the label's box (top_face.find_face) and its steepest edge's width measured
(pips.Spots.sharpness), in face sides and in frame pixels, on the photo as taken and blurred by
a Gaussian of 1, 1.5 and 2.5 px. Per set and blur it prints the face size, the edge width's
percentiles in pixels, and the share of dice each rule would call blurred: the face-units
limit alone, and with the pixel limit as well. A sharp photo's share is the rate of false
`blur` reasons; a blurred one's the rate of true ones. Development images only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, photo_sets, split  # noqa: E402
from vision.face import box_outline  # noqa: E402
from vision.params import PARAMS  # noqa: E402
from vision.pips import find_spots  # noqa: E402
from vision.top_face import find_face  # noqa: E402

SIGMAS = (0.0, 1.0, 1.5, 2.5)  # px: the photo as taken, then blurred


def edge_widths(frame: np.ndarray, labels: list) -> list[tuple[float, float]]:
    """(edge width in face sides, in frame px) of each labelled die whose face is found."""
    p = PARAMS.pips
    out = []
    for _, x0, y0, x1, y1 in labels:
        centre, side = ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0)
        face = find_face(frame, box_outline(centre, side), centre, side, 0.0, p)
        if face is None:
            continue
        width = find_spots(frame, face, p).sharpness(p)
        out.append((width, width * face.side))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", action="append")
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args()
    p = PARAMS.pips
    print(f"limits: {p.blurred} face sides, and {p.blurred_px} px")
    print(f"{'set':28} {'blur px':>7} {'dice':>5} {'px p50/p95':>11}  face only  with px")
    for set_dir in photo_sets(args.data, args.set):
        dev, _ = split(load_labels(set_dir))
        images = [cv2.imread(str(path)) for path in list(dev)[:: args.every]]
        labels = list(dev.values())[:: args.every]
        for sigma in SIGMAS:
            rows = []
            for frame, boxes in zip(images, labels, strict=True):
                blurred = frame if sigma == 0 else cv2.GaussianBlur(frame, (0, 0), sigma)
                rows += edge_widths(blurred, boxes)
            a = np.array(rows).reshape(-1, 2)
            face_only = a[:, 0] > p.blurred
            both = face_only & (a[:, 1] > p.blurred_px)
            p50, p95 = np.percentile(a[:, 1], [50, 95]) if len(a) else (0, 0)
            print(
                f"{set_dir.name:28} {sigma:7.1f} {len(a):5d} {p50:5.2f}/{p95:5.2f}"
                f"  {face_only.mean():9.0%}  {both.mean():7.0%}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
