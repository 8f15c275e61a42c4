"""Recordings of the simulated tray read by `azar-kiosk watch`, as an exhibit builder would
check their own tray (prints figures).

    .venv/bin/python benchmarks/bench_watch.py [--seeds 5-10] [--throws 8]
        [--scenario plain|shadows|lean|knock|shaky|hand ...] [--codec MJPG|mp4v]
        [--uncalibrated]

Each seed films `--throws` throws (hardware/sim/recording.py: 640x480 MJPEG, the camera moving
by up to 1 px each way every frame, 1.5 s of rest after each throw), saves the tray's
calibration as staff make it, and reads the file with `azar-kiosk watch --json --calibration`,
exactly as the kiosk reads its camera. Scenarios: `plain`; `shadows`, a visitor leaning over
the tray as each throw is made; `lean`, a visitor leaning in and out again after each throw has
its answer (no throw: nothing is to be said); `knock`, the camera knocked by (2, -1) px since
calibration; `shaky`, the camera moving by up to 2 px each way every frame (up to 4 px from one
frame to the next, twice what a throw gives a table); `hand`, a camera held in a hand, which
also wanders and turns slowly (`film(hand=0.3)`). `--codec mp4v` films MPEG-4 with predicted
frames (as phones and webcams record) instead of a JPEG a frame; `--uncalibrated` reads
without the calibration, as a phone's video of dice on a table is read. Per scenario:
throws, answers, throws answered ok with the values thrown, ok but wrong (must be 0), refused,
"the dice did not move" (a stir taken for a throw that wasn't), a second ruling for one throw,
and throws with no answer at all; each throw's answers are those from its first frame to the
next throw's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.sim.recording import film  # noqa: E402
from kiosk.cli import main as cli  # noqa: E402
from vision.calibration import Calibration  # noqa: E402

SCENARIOS = {
    "plain": {},
    "shadows": {"shadows": True},
    "lean": {"lean": True},
    "knock": {"knock": (2.0, -1.0)},
    "shaky": {"shake": 2.0},
    "hand": {"hand": 0.3},
}


def seeds(text: str) -> list[int]:
    """`5-10` or `5,7,9`."""
    if "-" in text:
        first, last = text.split("-")
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def watch(video: Path, calibration: Path | None, expect: str | None = None) -> list[dict]:
    """The answers `azar-kiosk watch --json` prints for the recording (without a calibration
    as single photos are read; expect: its `--expect`, by default the kiosk's)."""
    out = io.StringIO()
    given = [] if calibration is None else ["--calibration", str(calibration)]
    given += [] if expect is None else ["--expect", expect]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli(["watch", str(video), "--json", *given])
    if code != 0:
        raise RuntimeError(f"watch exited with {code} on {video}")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def tally(answers: list[dict], thrown: list[tuple[int, ...]], starts: list[int]) -> Counter:
    """Each throw's answers: those given from its first frame to the next throw's. A throw
    answered twice counts its first ruling, and the second as `extra`."""
    counts: Counter = Counter(throws=len(thrown), answers=len(answers))
    ends = [*starts[1:], 1 << 62]
    for values, start, end in zip(thrown, starts, ends, strict=True):
        own = [a for a in answers if start <= a["frame"] < end]
        counts["not moved"] += sum(a["reason"] == "not_moved" for a in own)
        rulings = [a for a in own if a["reason"] != "not_moved"]
        counts["extra"] += max(0, len(rulings) - 1)
        if not rulings:
            counts["no answer"] += 1
        elif rulings[0]["status"] != "ok":
            counts["refused"] += 1
        elif tuple(sorted(d["value"] for d in rulings[0]["dice"])) == values:
            counts["ok right"] += 1
        else:
            counts["ok WRONG"] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seeds, default=seeds("5-10"))
    parser.add_argument("--throws", type=int, default=8)
    parser.add_argument(
        "--scenario", action="append", choices=sorted(SCENARIOS), help="default: all"
    )
    parser.add_argument("--codec", choices=("MJPG", "mp4v"), default="MJPG")
    parser.add_argument("--uncalibrated", action="store_true", help="watch without the calibration")
    args = parser.parse_args()
    suffix = ".avi" if args.codec == "MJPG" else ".mp4"
    columns = [
        "throws", "answers", "ok right", "ok WRONG", "refused", "not moved", "extra", "no answer"
    ]  # fmt: skip
    read = "uncalibrated" if args.uncalibrated else "calibrated"
    first, last = args.seeds[0], args.seeds[-1]
    print(f"seeds {first}-{last}, {args.throws} throws each, {args.codec}, {read}")
    print("| scenario | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.scenario or list(SCENARIOS):
            total: Counter = Counter()
            for seed in args.seeds:
                video = Path(folder) / f"{name}-{seed}{suffix}"
                scenario = SCENARIOS[name]
                recording = film(video, args.throws, seed, codec=args.codec, **scenario)
                kept = Path(folder) / f"calibration-{name}-{seed}"
                Calibration(recording.tray, None, recording.empty).save(kept)  # as staff make it
                answers = watch(video, None if args.uncalibrated else kept)
                counts = tally(answers, recording.thrown, recording.starts)
                total += counts
                if any(counts[k] for k in ("ok WRONG", "no answer", "not moved", "extra")):
                    print(f"  seed {seed}: {dict(counts)}", file=sys.stderr)
            print(f"| {name} | " + " | ".join(str(total[c]) for c in columns) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
