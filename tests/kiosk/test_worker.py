"""The vision worker: garbage frames become a reroll, a lost camera is reported and retried."""

from __future__ import annotations

import queue
import time

import numpy as np

from hardware.camera import CameraError, Frame
from kiosk.config import load_config
from kiosk.reading import build_watcher
from kiosk.worker import CameraStatus, RollRead, VisionWorker
from vision.reading import RerollReason


def test_garbage_frames_give_one_reroll_and_no_crash() -> None:
    events: queue.Queue = queue.Queue()
    worker = VisionWorker(None, events, build_watcher(load_config(None)))
    for t, frame in enumerate(
        [np.zeros((5,), np.uint8), "not an image", np.zeros((48, 64, 3), np.float64)]
    ):
        worker.step(frame, float(t))
    reads = [e for e in list(events.queue) if isinstance(e, RollRead)]
    assert reads and reads[0].roll.reason is RerollReason.BAD_FRAME
    assert len(reads) == 1  # a run of bad frames is reported once


class FlakyCamera:
    """Fails to open once (cable pulled), then serves grey frames."""

    def __init__(self) -> None:
        self.opens = 0

    def open(self) -> None:
        self.opens += 1
        if self.opens == 1:
            raise CameraError("no camera")

    def read(self) -> Frame:
        time.sleep(0.01)
        return Frame(np.full((120, 160, 3), 90, np.uint8), time.monotonic())

    def close(self) -> None:
        pass


def test_lost_camera_is_reported_then_reconnected() -> None:
    events: queue.Queue = queue.Queue()
    worker = VisionWorker(
        FlakyCamera(), events, build_watcher(load_config(None)), reconnect_seconds=0.05
    )
    worker.start()
    deadline = time.monotonic() + 5
    statuses = []
    while time.monotonic() < deadline and len(statuses) < 2:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if isinstance(event, CameraStatus):
            statuses.append(event.ok)
    worker.stop()
    assert statuses == [False, True]
    assert worker.preview() is not None


class BrokenWatcher:
    state = "moving"

    def update(self, frame, t):
        raise RuntimeError("a bug in the reader")


class SteadyCamera(FlakyCamera):
    def open(self) -> None:
        self.opens += 1


def test_a_reader_bug_does_not_pass_for_a_lost_camera() -> None:
    events: queue.Queue = queue.Queue()
    camera = SteadyCamera()
    worker = VisionWorker(camera, events, BrokenWatcher())
    worker.start()
    deadline = time.monotonic() + 5
    while worker.failures < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.stop()
    assert worker.failures >= 3
    assert camera.opens == 1  # never closed and reopened
    statuses = [e.ok for e in list(events.queue) if isinstance(e, CameraStatus)]
    assert statuses == [True]


def test_a_camera_that_stays_away_is_tried_less_and_less_often() -> None:
    import queue as queue_
    import time as time_

    from hardware.camera import CameraError
    from kiosk.worker import CameraStatus, VisionWorker

    class Gone:
        name = "gone"
        opens = 0

        def open(self) -> None:
            Gone.opens += 1
            raise CameraError("no camera")

        def read(self):  # pragma: no cover - never opened
            raise CameraError("no camera")

        def close(self) -> None:
            pass

    events: queue_.Queue = queue_.Queue()
    worker = VisionWorker(Gone(), events, watcher=None, reconnect_seconds=0.05)
    worker.start()
    time_.sleep(1.0)
    worker.stop()
    # 0.05, 0.1, 0.2, 0.4 s apart: at most 5 tries in a second (20 without the back-off),
    # and one "camera lost", not one per try.
    assert 2 <= Gone.opens <= 5, Gone.opens
    statuses = []
    while not events.empty():
        statuses.append(events.get())
    assert [s.ok for s in statuses if isinstance(s, CameraStatus)] == [False]


def test_the_start_guard_waits_for_motion_and_knows_the_logged_dice() -> None:
    from kiosk.resume import StartGuard
    from vision.reading import Die, RerollReason, Roll

    lying = (Die(2, (10.0, 10.0), 8.0, 1.0), Die(3, (40.0, 10.0), 8.0, 1.0))
    roll = Roll(lying)
    guard = StartGuard(lying)
    assert guard.filter(None, "moving", 0.0) is None  # the watcher starting up
    assert guard.filter(roll, "settled", 0.1) is None  # the view it woke up to: no throw
    assert guard.filter(None, "moving", 2.0) is None  # a stall (a gap of 1.9 s): no motion
    assert not guard.stirred
    assert guard.filter(None, "settled", 2.1) is None
    assert guard.filter(None, "moving", 2.2) is None  # real motion (a hand)
    assert guard.stirred
    again = guard.filter(roll, "settled", 3.0)  # ...and the dice where the log had them
    assert again is not None and again.reason is RerollReason.NOT_MOVED
    moved = Roll((Die(5, (90.0, 50.0), 8.0, 1.0), Die(3, (40.0, 10.0), 8.0, 1.0)))
    assert guard.filter(moved, "settled", 4.0) == moved  # a real throw is read


def test_a_tray_that_never_looks_still_is_told_to_the_screen_and_logged_once(caplog) -> None:
    """A shaking table (here a picture that changes every frame) keeps the watcher "moving":
    after RESTLESS_SECONDS the preview says how long, the log says so once, and a still tray
    ends the spell."""
    from kiosk.ui.scenes.play_view import RESTLESS, ROLLING, tray_notice
    from kiosk.worker import RESTLESS_SECONDS

    events: queue.Queue = queue.Queue()
    worker = VisionWorker(None, events, build_watcher(load_config(None)))
    rng = np.random.default_rng(3)
    fps, seconds = 10, RESTLESS_SECONDS + 2
    with caplog.at_level("WARNING", logger="kiosk.worker"):
        for i in range(int(seconds * fps)):
            worker.step(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), i / fps)
            preview = worker.preview()
            assert preview.motion == "moving"
            expected = RESTLESS if i / fps >= RESTLESS_SECONDS else ROLLING
            assert tray_notice(preview) == expected
    warned = [r for r in caplog.records if "looked as if moving" in r.getMessage()]
    assert len(warned) == 1
    still = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    for i in range(fps):
        worker.step(still, seconds + i / fps)
    assert worker.preview().motion != "moving" and worker.preview().moving_for == 0.0
    assert tray_notice(worker.preview()) is None


def test_dice_moved_before_their_reads_agreed_are_logged_for_staff(caplog) -> None:
    """Staff asking why a throw had no ruling find it in the log: dice at rest, read once
    (a glint), then taken away before the vote could agree."""
    from vision.reading import Roll
    from vision.settle import SettleConfig
    from vision.watcher import ThrowWatcher

    reads = []

    def glinting(frame: np.ndarray) -> Roll:
        reads.append(frame)
        return Roll((), RerollReason.GLARE, "a glint")

    watcher = ThrowWatcher(glinting, SettleConfig(still_for=0.2, votes=3), None)
    worker = VisionWorker(None, queue.Queue(), watcher)
    rng = np.random.default_rng(5)
    still, other = (rng.integers(0, 255, (120, 160, 3), dtype=np.uint8) for _ in range(2))
    t = 0.0
    with caplog.at_level("INFO", logger="kiosk.worker"):
        while not reads:  # the still frame settles and is read once
            worker.step(still, t)
            t += 0.1
        worker.step(other, t)  # the dice are taken away
    told = [r for r in caplog.records if "had no ruling" in r.getMessage()]
    assert len(told) == 1 and "(1 taken)" in told[0].getMessage()
