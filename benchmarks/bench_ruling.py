"""From dice at rest to the ruling on screen, in the real app (prints figures).

    .venv/bin/python benchmarks/bench_ruling.py [--seconds 90] [--size 800x480]

Runs the demo as `azar-kiosk` does (its frame loop, the vision worker reading the simulated
tray on its own thread, the screen at 30 frames a second through SDL's dummy driver), with the
autoplay throwing the dice and pressing the buttons, at real speed (game clock = wall clock).
For each throw the reader answers, it measures the time from the moment the simulated dice
came to rest (`SimulatedTray.rests_at`) to the end of the frame flipped after the answer
reached the screen: the ruling (or the request to throw again) a visitor sees. Target: at most
0.7 s median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk import app  # noqa: E402
from kiosk.config import load_config  # noqa: E402
from kiosk.events import RollRead  # noqa: E402
from kiosk.ui.autoplay import Autoplay  # noqa: E402


def measure(seconds: float, size: tuple[int, int]) -> tuple[list[float], list[str]]:
    """The delays (s) from rest to the screen, and each answer's status, over `seconds`."""
    delays: list[float] = []
    answers: list[str] = []
    with tempfile.TemporaryDirectory() as data:
        kiosk = app.build(load_config(None), demo=True, size=size, data_dir=data)
        autoplay = Autoplay(kiosk)
        pending: list[tuple[float, str]] = []
        dispatch = kiosk.dispatch

        def watched(event: object) -> None:
            tray = kiosk.tray
            rest = tray.rests_at if tray is not None else None
            if isinstance(event, RollRead) and kiosk.scene.name == "play" and rest is not None:
                pending.append((rest, "ok" if event.roll.ok else f"reroll {event.roll.reason}"))
            dispatch(event)

        def on_frame() -> None:
            shown = time.monotonic()
            for rest, status in pending:
                delays.append(shown - rest)
                answers.append(status)
            pending.clear()
            autoplay.step()

        kiosk.dispatch = watched
        try:
            kiosk.run(seconds, on_frame)
        finally:
            app.shutdown(kiosk)
    return delays, answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=90.0, help="how long to play")
    parser.add_argument("--size", default="800x480", help="screen size WxH")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.1f} on {os.cpu_count()} cores")
    delays, answers = measure(args.seconds, (width, height))
    if not delays:
        print("no throw was answered")
        return 1
    ms = sorted(1000 * d for d in delays)
    print(f"{len(delays)} answers in {args.seconds:.0f} s ({answers.count('ok')} ok)")
    print(
        f"dice at rest -> ruling on screen: median {statistics.median(ms) / 1000:.2f} s, "
        f"min {ms[0] / 1000:.2f} s, max {ms[-1] / 1000:.2f} s (target: median at most 0.7 s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
