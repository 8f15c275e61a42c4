"""The kiosk's calibrated path on real photos of fixed cameras, as if they were a tray's throws.

    .venv/bin/python benchmarks/eval_kiosk_photos.py [--set NAME ...] [--part dev|held-out|all]
        [--lean SPREAD CEILING]

Three photo sets were taken by a camera that stayed put over one surface: byler-d6-topdown (a
light box seen from above, two sessions, one per day), skovy-two-dice and
matteop65-webcam-oblique (oblique cameras over a floor and a desk). The dice lie elsewhere in
each photo, so the per-pixel median of a session's development photos is its empty tray. A
calibration is made from it as staff make one (`calibrate.find_tray`, no die size), and one
`TrayReader`, the kiosk's reader, reads the session's photos in path order, told how many dice
lie there, as a kiosk reads a day's throws: it learns the die size and the top-face window from
them. Prints, per session and part: ok and right, refused (by reason), answered wrongly; and what
the reader learnt, with the median pip shape of the flat 1-3 it saw (TrayReader.pip_shape), and
how many flat dice (read right and surely by the classifier) it took to lean by their pips,
standing free and beside a die or the wall (candidates.free_standing). The
single-photo reading of the same photos is beside it for comparison. The oblique cameras are not
what the kiosk is built for (a camera square over the tray: docs/deploy.md). `--lean SPREAD
CEILING` has the reader learn its leaning limits with those values of `judge.lean_spread` and
`judge.lean_ceiling` (how they were chosen: docs/vision.md, Where the tuned values came from).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.diagnose_dice import nearest  # noqa: E402
from benchmarks.eval_photos import DEFAULT_DATA, load_labels, split  # noqa: E402
from vision.calibrate import find_tray  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.candidates import free_standing  # noqa: E402
from vision.params import PARAMS  # noqa: E402
from vision.reader import read_roll  # noqa: E402
from vision.reading import RerollReason  # noqa: E402
from vision.tray_reader import TrayReader  # noqa: E402

SETS = ("byler-d6-topdown", "skovy-two-dice", "matteop65-webcam-oblique")


def session(name: str, path: Path) -> str:
    """Which fixed camera took the photo: byler's light box was set up once a day."""
    return path.name[:12] if name.startswith("byler") else "all"


def empty_tray(paths: list[Path]) -> np.ndarray:
    """The per-pixel median of a session's photos: the tray with no dice on it."""
    frames = [cv2.imread(str(p)) for p in paths]
    return np.median(np.stack([f for f in frames if f.shape == frames[0].shape]), axis=0).astype(
        np.uint8
    )


def outcome(roll, labels) -> str:
    if not roll.ok:
        return "refused"
    return "right" if sorted(roll.values) == sorted(v for v, *_ in labels) else "wrong"


def taken_to_lean(verdicts, labels) -> Counter:
    """Of the labelled dice the classifier reads right and surely (flat dice, seen from above):
    how many stand free and how many beside a die or the wall (candidates.free_standing), and
    how many of each the pip reading takes to lean by its pips' shape or layout."""
    counts: Counter = Counter()
    candidates = [v.candidate for v in verdicts]
    for box in labels:
        v = nearest(verdicts, box)
        if v is None or v.guess is None or v.guess.value != box[0]:
            continue
        if v.guess.p < PARAMS.classify.sure:
            continue
        where = "free" if free_standing(v.candidate, candidates) else "beside"
        counts[where] += 1
        leans = v.pips.reason is RerollReason.COCKED and " long" in v.pips.detail
        counts[f"{where} leans"] += leans
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", choices=SETS, help="default: all three")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="all")
    parser.add_argument(
        "--lean",
        nargs=2,
        type=float,
        metavar=("SPREAD", "CEILING"),
        help="learn the leaning limits with these judge.lean_spread and judge.lean_ceiling",
    )
    args = parser.parse_args()
    params = PARAMS
    if args.lean:
        spread, ceiling = args.lean
        judge = replace(PARAMS.judge, lean_spread=spread, lean_ceiling=ceiling)
        params = replace(PARAMS, judge=judge)
    cv2.setNumThreads(1)
    print("| set, session | part | photos | kiosk: right | refused | wrong | photo read: right |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    for name in args.set or SETS:
        dev, held = split(load_labels(DEFAULT_DATA / name, True))
        sessions: dict[str, list[Path]] = defaultdict(list)
        for path in dev:
            sessions[session(name, path)].append(path)
        for key, paths in sorted(sessions.items()):
            empty = empty_tray(paths)
            reader = TrayReader(Calibration(tray=find_tray(empty), empty=empty), params=params)
            parts = {"dev": dev, "held-out": held}
            chosen = ["dev", "held-out"] if args.part == "all" else [args.part]
            for part in chosen:
                kiosk, photo, why, flat = Counter(), Counter(), Counter(), Counter()
                for path in sorted(p for p in parts[part] if session(name, p) == key):
                    frame, labels = cv2.imread(str(path)), parts[part][path]
                    if frame.shape != empty.shape:
                        continue
                    reader.expect = len(labels)
                    roll = reader(frame)
                    kiosk[outcome(roll, labels)] += 1
                    if reader.inspected is not None:
                        flat.update(taken_to_lean(reader.inspected[1], labels))
                    if not roll.ok:
                        why[f"{roll.reason}: {re.sub(r'[-0-9.]+', '#', roll.detail)[:50]}"] += 1
                    photo[outcome(read_roll(frame, expect=len(labels)), labels)] += 1
                total = sum(kiosk.values())
                print(
                    f"| {name}, {key} | {part} | {total} | {kiosk['right']} | "
                    f"{kiosk['refused']} | {kiosk['wrong']} | {photo['right']} |"
                )
                notes.append(
                    f"{name}, {key}, {part}: refused "
                    + "; ".join(f"{n} {w}" for w, n in why.most_common(4))
                )
                notes.append(
                    f"{name}, {key}, {part}: flat dice taken to lean, standing free "
                    f"{flat['free leans']} of {flat['free']}, beside a die or the wall "
                    f"{flat['beside leans']} of {flat['beside']}"
                )
            faces = reader.faces
            learnt = (
                "nothing yet"
                if faces is None
                else (
                    f"face {np.median(faces.sizes):.1f} px, window {faces.window[0]:.2f}-"
                    f"{faces.window[1]:.2f}"
                )
            )
            shape = "not yet" if reader.pip_shape is None else f"{reader.pip_shape:.3f}"
            pips, layout = reader.tilt_limits
            notes.append(
                f"{name}, {key}: learnt {learnt}; pip shape {shape}; "
                f"taken to lean past pips {pips:.3f} long, layouts {layout:.3f}"
            )
    print(*notes, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
