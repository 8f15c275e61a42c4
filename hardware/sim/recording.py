"""A recording of throws on the simulated tray, made as an exhibit builder films their own tray:
a camera over the tray, a video file (MJPEG in AVI, which every OpenCV build writes), the tray's
calibration as staff make it (its outline and empty frame, no die size). The table shakes the
camera a little all the time and the sensor adds noise, as a real one does.

`film_throws(path, throws, seed, ...) -> (values thrown, Calibration)`. `azar-kiosk watch`
reads such a file as the kiosk reads its camera (tests/vision/test_watch_cli.py,
benchmarks/bench_watch.py).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from hardware.sim.scene import visitor_shadow
from hardware.sim.tray import SimulatedTray
from vision.calibration import Calibration

FPS = 30.0
SIZE = (640, 480)


def film_throws(
    path: Path,
    throws: int,
    seed: int,
    shadows: bool = False,
    knock: tuple[float, float] = (0.0, 0.0),
    lean: bool = False,
) -> tuple[list[tuple[int, ...]], Calibration]:
    """Film `throws` throws into `path`; the values thrown (sorted, a throw each) and the
    tray's calibration. Each throw is filmed until 1.5 s after the dice stop, then the tray is
    cleared. The camera moves by up to 1 px each way at every frame (the table shakes).

    shadows: a visitor leans over the tray as each throw is made (the same dice fall);
    knock: the camera was knocked by (dx, dy) px after it was calibrated; lean: a visitor
    leans over the tray after each throw has come to rest, looks, and leaves."""
    now = [0.0]
    tray = SimulatedTray(resolution=SIZE, seed=seed, clock=lambda: now[0])
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    if not writer.isOpened():
        raise OSError(f"cannot write a video at {path}")
    rng = np.random.default_rng(seed)
    thrown = []

    def film(seconds: float) -> None:
        for _ in range(int(seconds * FPS)):
            frame = tray.read().image
            dx, dy = rng.uniform(-1.0, 1.0, 2) + knock  # the table shakes a little
            move = np.float32([[1, 0, dx], [0, 1, dy]])
            writer.write(cv2.warpAffine(frame, move, SIZE, borderMode=cv2.BORDER_REFLECT))
            now[0] += 1 / FPS

    try:
        film(1.0)
        shade = np.random.default_rng(seed + 1)
        for _ in range(throws):
            tray.shadow = visitor_shadow(tray.geometry, shade) if shadows else None
            tray.throw()
            film(tray.settle_time + 1.5)
            thrown.append(tuple(sorted(tray.last_values)))
            if lean:
                shadow = visitor_shadow(tray.geometry, shade)
                for cover in (*np.linspace(0, 1, 15), *[1.0] * 30, *np.linspace(1, 0, 15)):
                    tray.shadow = 1 - cover * (1 - shadow)  # leaning in over half a second
                    film(1 / FPS)
                tray.shadow = None
                film(1.5)
            tray.clear()
            film(0.5)
    finally:
        writer.release()
    return thrown, calibration
