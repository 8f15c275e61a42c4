"""Kiosk benchmark: startup to the attract screen, and the time to render one frame.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_kiosk.py

Startup is measured in a fresh process (imports, fonts, catalogs, the game log, the camera
worker, the first attract frame) from `python -c` to the first flip. Frame times are the
median over many frames of each main screen, at 800x480 and 1920x1080, with the play screen
showing a new tray picture every frame (as from a live camera) and a game in progress.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = str(Path(__file__).resolve().parent.parent)  # the child runs this checkout's code
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

STARTUP = """
import time, sys
t0 = float(sys.argv[1])
from kiosk import app
from kiosk.config import load_config
kiosk = app.build(load_config(None), demo=True, size=(800, 480))
kiosk.frame(0.0)
import pygame; pygame.display.flip()
print(time.time() - t0)
app.shutdown(kiosk)
"""


def startup_seconds(runs: int = 3) -> list[float]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as data:
            env = dict(os.environ, KIOSK_DATA_DIR=data, PYTHONPATH=REPO)
            out = subprocess.run(
                [sys.executable, "-c", STARTUP, str(time.time())],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return times


class LiveWorker:
    """Hands the screen a new camera picture every frame, as a live camera does, shrunk on the
    worker side to the width the kiosk asks for (what `VisionWorker` does on its thread)."""

    def __init__(self, frame, roll) -> None:
        self.frame, self.roll = frame, roll
        self.preview_width = 640
        self.t = 0.0
        self.camera_ok = True

    def preview(self):
        import cv2

        from kiosk.worker import Preview

        self.t += 1 / 30
        h, w = self.frame.shape[:2]
        scale = self.preview_width / w
        if not hasattr(self, "_small") or self._small.shape[1] != self.preview_width:
            self._small = cv2.resize(
                self.frame, (self.preview_width, round(h * scale)), interpolation=cv2.INTER_AREA
            )
        dice = tuple(d for d in self.roll.dice)
        return Preview(self._small, scale, "settled", dice, self.t)


def frame_ms(size: tuple[int, int], scene: str, frames: int = 300) -> float:
    import pygame

    pygame.display.init()
    pygame.font.init()
    from kiosk.ui.screenshots import make_kiosk, tray_frame

    frame, roll = tray_frame()
    worker = LiveWorker(frame, roll)
    kiosk = make_kiosk(size, "fr", worker)
    from kiosk.rules.variants import find_variant

    kiosk.new_match(find_variant("medio-azar"))
    for dice in [(5, 4, 3), (2, 2, 3), (6, 5, 6), (3, 3, 3), (2, 4, 5)]:
        kiosk.match.throw(dice)
    kiosk.goto(scene)
    pygame.display.init()
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        kiosk.frame(1 / 30)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[10:])


def main() -> int:
    starts = startup_seconds()
    print(
        f"startup to attract screen: median {statistics.median(starts):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in starts)}; target < 3 s)"
    )
    for size in ((800, 480), (1920, 1080)):
        for scene in ("attract", "play", "rules", "choose"):
            print(
                f"frame render {size[0]}x{size[1]} {scene:8s}: median "
                f"{frame_ms(size, scene):.2f} ms (target < 5 ms)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
