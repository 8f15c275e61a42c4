"""Where a photo's read goes: the networks' passes against everything else.

    .venv/bin/python benchmarks/photo_costs.py [--photos N]

Reads N damiantab-phone photos (907x1209, default 30) as `azar-kiosk read` does, on one
thread, after one photo read to load the models, and times each pass of the die finder
(`dice_net.maps`), the face classifier (`FaceClassifier._run`) and the pip finder
(`PipNet.pip_map`) by wrapping them. Prints each one's milliseconds a photo and the rest of
the read's: what no cheaper network can save (benchmarks/bench_vision.py --photos compares the
whole read with the blob + DBSCAN reader).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_vision import PHOTO_SET  # noqa: E402
from kiosk.cli import main as cli  # noqa: E402
from vision import dice_net, face_classifier, pip_net  # noqa: E402

PASSES = (
    (dice_net, "maps", "die finder"),
    (face_classifier.FaceClassifier, "_run", "face classifier"),
    (pip_net.PipNet, "pip_map", "pip finder"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=30)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    paths = sorted(str(p) for p in (PHOTO_SET / "images").rglob("*.jpg"))[: args.photos]
    if not paths:
        print(f"no photos at {PHOTO_SET}", file=sys.stderr)
        return 2
    spent: Counter = Counter()
    for owner, name, label in PASSES:
        original = getattr(owner, name)

        def timed(*a, _original=original, _label=label, **k):
            start = time.perf_counter()
            try:
                return _original(*a, **k)
            finally:
                spent[_label] += time.perf_counter() - start

        setattr(owner, name, timed)
    with contextlib.redirect_stdout(io.StringIO()):
        cli(["read", "--json", paths[0]])  # the models load
        spent.clear()
        start = time.perf_counter()
        cli(["read", "--json", *paths])
        total = time.perf_counter() - start
    n = len(paths)
    print(f"{n} phone photos, one thread: {1000 * total / n:.0f} ms a photo")
    for _, _, label in PASSES:
        print(f"  {label:16s} {1000 * spent[label] / n:6.1f} ms")
    rest = total - sum(spent.values())
    print(f"  {'everything else':16s} {1000 * rest / n:6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
