"""Recordings of the simulated tray read by `azar-kiosk watch`, as an exhibit builder would
check their own tray (prints figures).

    .venv/bin/python benchmarks/bench_watch.py [--seeds 5-10] [--throws 8]
        [--scenario plain|shadows|lean|knock ...]

Each seed films `--throws` throws (hardware/sim/recording.py: 640x480 MJPEG, the camera moving
by up to 1 px each way every frame, 1.5 s of rest after each throw), saves the tray's
calibration as staff make it, and reads the file with `azar-kiosk watch --json --calibration`,
exactly as the kiosk reads its camera. Scenarios: `plain`; `shadows`, a visitor leaning over
the tray as each throw is made; `lean`, a visitor leaning in and out again after each throw has
its answer (no throw: nothing is to be said); `knock`, the camera knocked by (2, -1) px since
calibration. Per scenario: throws, answers, throws answered ok with the values thrown, ok but
wrong (must be 0), refused, "the dice did not move" (a stir taken for a throw that wasn't), and
throws with no answer at all.
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

from hardware.sim.recording import film_throws  # noqa: E402
from kiosk.cli import main as cli  # noqa: E402

SCENARIOS = {
    "plain": {},
    "shadows": {"shadows": True},
    "lean": {"lean": True},
    "knock": {"knock": (2.0, -1.0)},
}


def seeds(text: str) -> list[int]:
    """`5-10` or `5,7,9`."""
    if "-" in text:
        first, last = text.split("-")
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def watch(video: Path, calibration: Path) -> list[dict]:
    """The answers `azar-kiosk watch --json` prints for the recording."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli(["watch", str(video), "--json", "--calibration", str(calibration)])
    if code != 0:
        raise RuntimeError(f"watch exited with {code} on {video}")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def tally(answers: list[dict], thrown: list[tuple[int, ...]]) -> Counter:
    """Each throw matched to the answers given between its start and the next throw's:
    answers in order, a not_moved answer belonging to the throw it follows."""
    counts: Counter = Counter(throws=len(thrown), answers=len(answers))
    counts["not moved"] = sum(a["reason"] == "not_moved" for a in answers)
    rulings = [a for a in answers if a["reason"] != "not_moved"]
    counts["no answer"] = max(0, len(thrown) - len(rulings))
    for answer, values in zip(rulings, thrown, strict=False):
        if answer["status"] != "ok":
            counts["refused"] += 1
        elif tuple(sorted(d["value"] for d in answer["dice"])) == values:
            counts["ok right"] += 1
        else:
            counts["ok WRONG"] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seeds, default=seeds("5-10"))
    parser.add_argument("--throws", type=int, default=8)
    parser.add_argument(
        "--scenario", action="append", choices=sorted(SCENARIOS), help="default: all four"
    )
    args = parser.parse_args()
    columns = ["throws", "answers", "ok right", "ok WRONG", "refused", "not moved", "no answer"]
    print(f"seeds {args.seeds[0]}-{args.seeds[-1]}, {args.throws} throws each")
    print("| scenario | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.scenario or list(SCENARIOS):
            total: Counter = Counter()
            for seed in args.seeds:
                video = Path(folder) / f"{name}-{seed}.avi"
                thrown, calibration = film_throws(video, args.throws, seed, **SCENARIOS[name])
                calibration.save(Path(folder) / f"calibration-{name}-{seed}")
                answers = watch(video, Path(folder) / f"calibration-{name}-{seed}")
                counts = tally(answers, thrown)
                total += counts
                if counts["ok WRONG"] or counts["no answer"] or counts["not moved"]:
                    print(f"  seed {seed}: {dict(counts)}", file=sys.stderr)
            print(f"| {name} | " + " | ".join(str(total[c]) for c in columns) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
