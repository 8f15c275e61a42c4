"""A recording of throws on the simulated tray, made as an exhibit builder films their own tray:
a camera over the tray, a video file (MJPEG in AVI, which every OpenCV build writes), the tray's
outline and the empty tray, which staff calibrate from (no die size). The table shakes the camera
a little all the time and the sensor adds noise, as a real one does.

`film(path, throws, seed, ...) -> Recording` (values thrown, the tray's outline and empty frame,
the frame each throw starts at). `azar-kiosk watch` reads such a file with the calibration made
from them as the kiosk reads its camera (tests/vision/test_watch_cli.py,
benchmarks/bench_watch.py). Hardware knows no vision: the callers make the Calibration.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from hardware.sim.scene import visitor_shadow
from hardware.sim.tray import SimulatedTray

FPS = 30.0
SIZE = (640, 480)


class Recording(NamedTuple):
    """What was filmed: the values of each throw (sorted); the felt's outline ((4, 2) int32)
    and the empty tray (BGR uint8) in the recording's pixels, what staff calibrate from; and
    the frame each throw starts at (its answer lies before the next one's)."""

    thrown: list[tuple[int, ...]]
    tray: np.ndarray
    empty: np.ndarray
    starts: list[int]


def film(
    path: Path,
    throws: int,
    seed: int,
    shadows: bool = False,
    knock: tuple[float, float] = (0.0, 0.0),
    lean: bool = False,
    codec: str = "MJPG",
    shake: float = 1.0,
    hand: float = 0.0,
) -> Recording:
    """Film `throws` throws into `path`. Each throw is filmed until 1.5 s after the dice stop,
    then the tray is cleared. The camera moves by up to `shake` px each way at every frame (the
    table shakes: 1 px, up to 2 px from one frame to the next; a hand-held phone more).

    shadows: a visitor leans over the tray as each throw is made (the same dice fall);
    knock: the camera was knocked by (dx, dy) px after it was calibrated; lean: a visitor
    leans over the tray after each throw has come to rest, looks, and leaves; codec: the
    video's FOURCC (MJPG: each frame a JPEG; mp4v: MPEG-4 with frames predicted from others,
    as phones and webcams record, in an .mp4 `path`); hand: the camera is held in a hand,
    which wanders slowly as well as shaking: its place (px) and turn (hand / 10 degrees) drift
    by a random walk of this step a frame, drawn back towards where it was held."""
    now = [0.0]
    tray = SimulatedTray(resolution=SIZE, seed=seed, clock=lambda: now[0])
    tray.open()
    outline, empty = tray.tray_polygon, tray.empty_frame()
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), FPS, SIZE)
    if not writer.isOpened():
        raise OSError(f"cannot write a video at {path}")
    rng = np.random.default_rng(seed)
    thrown, starts, frames = [], [], [0]

    held = np.zeros(3)  # the hand's drift: x, y (px), turn (degrees)
    centre = (SIZE[0] / 2, SIZE[1] / 2)

    def roll(seconds: float) -> None:
        for _ in range(int(seconds * FPS)):
            frame = tray.read().image
            dx, dy = rng.uniform(-shake, shake, 2) + knock  # the table shakes a little
            if hand:
                held[:] = 0.98 * held + rng.normal(0, [hand, hand, hand / 10])
            move = cv2.getRotationMatrix2D(centre, held[2], 1.0).astype(np.float32)
            move[:, 2] += (dx + held[0], dy + held[1])
            writer.write(cv2.warpAffine(frame, move, SIZE, borderMode=cv2.BORDER_REFLECT))
            now[0] += 1 / FPS
            frames[0] += 1

    try:
        roll(1.0)
        shade = np.random.default_rng(seed + 1)
        for _ in range(throws):
            tray.shadow = visitor_shadow(tray.geometry, shade) if shadows else None
            tray.throw()
            starts.append(frames[0])
            roll(tray.settle_time + 1.5)
            thrown.append(tuple(sorted(tray.last_values)))
            if lean:
                shadow = visitor_shadow(tray.geometry, shade)
                for cover in (*np.linspace(0, 1, 15), *[1.0] * 30, *np.linspace(1, 0, 15)):
                    tray.shadow = 1 - cover * (1 - shadow)  # leaning in over half a second
                    roll(1 / FPS)
                tray.shadow = None
                roll(1.5)
            tray.clear()
            roll(0.5)
    finally:
        writer.release()
    return Recording(thrown, outline, empty, starts)
