"""Fault: the camera delivers garbage (a dying sensor, a driver bug, a wrong configuration).

Each kind of bad picture is fed through the real vision worker thread and settle watcher into
the real kiosk during a game: black, saturated, noise, too small, too big, the wrong shape,
grey, colour with alpha, float, 16-bit, NaN, empty, not an array at all, None. The kiosk must
ask for a throw again or wait, never announce a throw from garbage, never take garbage for a
lost camera, never log a reader exception, and read the next real throw normally.
"""

from __future__ import annotations

import collections
import time

import numpy as np

from hardware.camera import Frame
from hardware.sim import SimulatedTray
from kiosk.config import load_config
from kiosk.reading import build_watcher
from kiosk.rules.variants import find_variant
from kiosk.worker import CameraStatus, RollRead, VisionWorker
from vision.reading import RerollReason

from .conftest import PictureClock, calibrated, headless_kiosk, learn_faces
from .test_camera_unplugged import camera_throw, run_until

H, W = 360, 640
GARBAGE = {
    "black": lambda rng: np.zeros((H, W, 3), np.uint8),
    "saturated": lambda rng: np.full((H, W, 3), 255, np.uint8),
    "noise": lambda rng: rng.integers(0, 256, (H, W, 3), dtype=np.uint8),
    "tiny": lambda rng: np.zeros((2, 2, 3), np.uint8),
    "a strip": lambda rng: np.zeros((1, 4000, 3), np.uint8),
    "bigger than the camera": lambda rng: np.full((2 * H, 2 * W, 3), 80, np.uint8),
    "grey (2-D)": lambda rng: np.full((H, W), 90, np.uint8),
    "with alpha": lambda rng: np.zeros((H, W, 4), np.uint8),
    "five channels": lambda rng: np.zeros((H, W, 5), np.uint8),
    "float 0..1": lambda rng: rng.random((H, W, 3)),
    "float NaN": lambda rng: np.full((H, W, 3), np.nan),
    "16-bit": lambda rng: np.full((H, W, 3), 4000, np.uint16),
    "empty": lambda rng: np.zeros((0, 0, 3), np.uint8),
    "a string": lambda rng: "not an image",
    "a list": lambda rng: [[1, 2], [3, 4]],
    "None": lambda rng: None,
}


class BadCamera:
    """The simulated tray, except when garbage is queued: then the garbage, one per read."""

    name = "camera with garbage"

    def __init__(self, tray: SimulatedTray, clock: PictureClock) -> None:
        self.tray = tray
        self.clock = clock
        self.garbage: collections.deque = collections.deque()
        self.rng = np.random.default_rng(5)

    def open(self) -> None:
        self.tray.open()

    def read(self) -> Frame:
        time.sleep(0.005)
        self.clock.tick()
        if self.garbage:
            return Frame(self.garbage.popleft()(self.rng), self.tray.read().timestamp)
        return self.tray.read()

    def close(self) -> None:
        self.tray.close()


def test_garbage_frames_mean_throw_again_never_a_crash_or_a_throw(tmp_path) -> None:
    clock = PictureClock()
    tray = SimulatedTray((W, H), die_size=45, seed=3, clock=clock)
    camera = BadCamera(tray, clock)
    learnt = tmp_path / "calibration"  # a kiosk that has run a while: the wall is read
    learnt.mkdir()
    learn_faces((W, H), 45, learnt)
    kiosk = headless_kiosk(tmp_path, None, clock)
    watcher = build_watcher(load_config(None), calibrated(tray), folder=learnt)
    worker = VisionWorker(camera, kiosk.events, watcher)
    kiosk.worker, kiosk.camera_ok = worker, True
    seen: list = []
    dispatch = kiosk.dispatch

    def record(event) -> None:
        seen.append((kind, event))
        dispatch(event)
        rerolls_shown.add(kiosk.scene.reroll)  # what the play screen asks for now

    kiosk.dispatch = record
    rerolls_shown = set()
    kind = "start"
    worker.start()
    try:
        kiosk.new_match(find_variant("azar"))
        run_until(kiosk, lambda: worker.preview() is not None, "the first picture")
        for kind, make in GARBAGE.items():
            camera.garbage.extend([make] * 12)
            run_until(kiosk, lambda: not camera.garbage, f"{kind} frames read")
            frames = worker.frames
            run_until(kiosk, lambda f=frames: worker.frames > f + 10, "good frames again")
            assert kiosk.match.throws == [], kind  # nothing announced from garbage
        kind = "a real throw"
        camera_throw(kiosk, tray, (2, 3, 4))
    finally:
        worker.stop()
    assert worker._thread is not None and not worker._thread.is_alive()  # stopped, not died
    assert worker.failures == 0  # every kind was recognised, none raised in the reader
    assert [e for _, e in seen if isinstance(e, CameraStatus)] == [CameraStatus(True)]
    reads = [(k, e.roll) for k, e in seen if isinstance(e, RollRead)]
    assert all(not roll.ok for k, roll in reads if k != "a real throw")
    assert any(roll.reason is RerollReason.BAD_FRAME for _, roll in reads)
    assert "bad_frame" in rerolls_shown  # the visitors were asked to throw again
    assert sorted(kiosk.match.throws[0]) == [2, 3, 4]
    assert kiosk.notice is None  # no scene ever failed
    kiosk.log.close()
