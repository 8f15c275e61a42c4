"""Frame rate under an input storm: the demo kiosk (real worker thread, real reader, simulated
tray) while keys and touches arrive far faster than any hand, and ok presses throw the dice.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_storm.py [--seconds 20] [--rate 1700]

The kiosk runs its own main loop (`Kiosk.run`, 30 frames a second at most); a callback after
each frame posts `rate` pygame events a second (arrows, Enter, Space, touches) for the time
since the last frame. It prints the frames a second over the run and the slowest second,
beside the same run with no storm. The target is at least 25 frames a second.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def measure(seconds: float, rate: float, size=(1280, 720)) -> tuple[float, float]:
    import pygame

    from kiosk import app
    from kiosk.config import load_config
    from kiosk.rules import find_variant
    from kiosk.ui import draw

    draw.font.cache_clear()  # the last run's pygame.quit() killed its fonts
    draw.rendered.cache_clear()
    with tempfile.TemporaryDirectory() as data:
        kiosk = app.build(load_config(None), demo=True, size=size, data_dir=data)
        try:
            kiosk.new_match(find_variant("azar"))
            rng = random.Random(1283)
            keys = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE]
            stamps: list[float] = []
            last = time.monotonic()
            owed = 0.0

            def storm() -> None:
                nonlocal last, owed
                now = time.monotonic()
                stamps.append(now)
                owed += (now - last) * rate
                last = now
                while owed >= 1:
                    owed -= 1
                    if rng.random() < 0.7:
                        key = rng.choice(keys)
                        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
                        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
                    else:
                        x = rng.random()
                        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x, y=0.5))
                        pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=x, y=0.5))
                if kiosk.match is None or kiosk.match.is_over:
                    kiosk.new_match(find_variant("azar"))

            kiosk.run(seconds, storm)
        finally:
            app.shutdown(kiosk)
    start = stamps[0]
    per_second: dict[int, int] = {}
    for t in stamps:
        per_second[int(t - start)] = per_second.get(int(t - start), 0) + 1
    whole = [n for second, n in per_second.items() if second < int(stamps[-1] - start)]
    return len(stamps) / (stamps[-1] - start), min(whole) if whole else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=1700.0, help="input events a second")
    args = parser.parse_args()
    quiet = measure(args.seconds, 0.0)
    stormy = measure(args.seconds, args.rate)
    print(f"demo kiosk 1280x720, {args.seconds:.0f} s each, target >= 25 frames a second")
    print(f"no input:            {quiet[0]:5.1f} frames/s (slowest second {quiet[1]})")
    print(f"{args.rate:.0f} events/s storm: {stormy[0]:5.1f} frames/s (slowest second {stormy[1]})")


if __name__ == "__main__":
    main()
