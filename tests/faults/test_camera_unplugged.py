"""Fault: a visitor pulls the camera cable in the middle of a game, and later it goes back in.

The real kiosk, the real vision worker thread and the real dice reader watch a simulated tray
behind a cable that can be pulled: while it is out, opening and reading fail as a real
camera's do. The staff see a message, the game goes on by hand with the buttons, the worker
reconnects by itself when the cable is back, and the camera reads the next throw.
"""

from __future__ import annotations

import logging
import time

from hardware.camera import CameraError, Frame
from hardware.sim import SimulatedTray
from kiosk.config import load_config
from kiosk.reading import build_watcher
from kiosk.rules.variants import find_variant
from kiosk.worker import VisionWorker

from .conftest import PictureClock, calibrated, headless_kiosk, learn_faces

LOST = "Camera lost: enter the dice with the buttons."


class Cable:
    """A camera on a cable that can be pulled out and pushed back."""

    def __init__(self, camera: SimulatedTray, clock: PictureClock) -> None:
        self.camera = camera
        self.clock = clock
        self.name = camera.name
        self.pulled = False
        self.opens = 0

    def open(self) -> None:
        if self.pulled:
            raise CameraError("no camera found")
        self.opens += 1
        self.camera.open()

    def read(self) -> Frame:
        if self.pulled:
            raise CameraError("the camera stopped sending frames (unplugged?)")
        time.sleep(0.005)  # a camera waits for its next picture
        self.clock.tick()
        return self.camera.read()

    def close(self) -> None:
        self.camera.close()


def run_until(kiosk, condition, what: str, seconds: float = 90.0) -> None:
    """The main loop (without its sleep) until `condition()`; the deadline only catches a hang."""
    deadline = time.monotonic() + seconds
    last = kiosk.clock()
    while not condition():
        watcher = getattr(kiosk.worker, "watcher", None)
        state = getattr(watcher, "state", None)
        assert time.monotonic() < deadline, f"never happened: {what} (the tray: {state})"
        now = kiosk.clock()
        kiosk.frame(now - last)
        last = now
        time.sleep(0.01)


def camera_throw(kiosk, tray: SimulatedTray, values: tuple[int, int, int]) -> None:
    """Throw the dice in the tray until the reader announces them (a reroll means again).

    Every throw must get an answer: a throw left unanswered fails here.
    """
    before = len(kiosk.match.entries)
    for _ in range(8):
        reads = kiosk.reads
        tray.throw(values)
        run_until(kiosk, lambda r=reads: kiosk.reads > r, "the reader answers a throw")
        if len(kiosk.match.entries) > before:
            break
    assert len(kiosk.match.entries) == before + 1
    assert sorted(kiosk.match.last.dice) == sorted(values)
    assert kiosk.match.last.source == "camera"


def press(kiosk, *buttons: str) -> None:
    for button in buttons:
        kiosk.press(button)
        kiosk.frame(0.0)


def test_camera_pulled_mid_game_then_put_back(tmp_path, drawn, caplog) -> None:
    caplog.set_level(logging.INFO)
    clock = PictureClock()
    tray = SimulatedTray((640, 360), die_size=45, seed=7, clock=clock)
    cable = Cable(tray, clock)
    learnt = tmp_path / "calibration"  # a kiosk that has run a while: the wall is read
    learnt.mkdir()
    learn_faces((640, 360), 45, learnt)
    kiosk = headless_kiosk(tmp_path, None, clock)
    worker = VisionWorker(
        cable,
        kiosk.events,
        build_watcher(load_config(None), calibrated(tray), folder=learnt),
        reconnect_seconds=0.1,
    )
    kiosk.worker, kiosk.camera_ok = worker, True
    worker.start()
    try:
        kiosk.new_match(find_variant("azar"))
        run_until(kiosk, lambda: worker.preview() is not None, "the first picture")
        camera_throw(kiosk, tray, (1, 2, 4))  # 7: the opponent's chance

        cable.pulled = True
        run_until(kiosk, lambda: not kiosk.camera_ok, "the kiosk notices the camera is gone")
        kiosk.frame(1 / 30)
        assert kiosk.scene.name == "play" and kiosk.scene.entry is not None
        drawn.clear()
        kiosk.frame(1 / 30)
        assert LOST in drawn  # the staff are told, on the screen...
        assert any("camera lost" in r.getMessage() for r in caplog.records)  # ...and the journal
        press(kiosk, "right", "ok", "right", "ok", "right", "right", "right", "ok")  # 2, 2, 4
        assert kiosk.match.throws == [kiosk.match.entries[0].dice, (2, 2, 4)]
        assert kiosk.match.last.source == "manual"  # 8: the caster's chance, entered by hand

        cable.pulled = False
        run_until(kiosk, lambda: kiosk.camera_ok, "the worker reconnects by itself")
        kiosk.frame(1 / 30)
        assert kiosk.scene.entry is None  # nobody had started a new entry: the camera reads
        assert cable.opens >= 2
        camera_throw(kiosk, tray, (2, 3, 3))  # 8 again: the caster's chance wins
        assert kiosk.match.is_over
        drawn.clear()
        kiosk.frame(1 / 30)
        assert LOST not in drawn
    finally:
        worker.stop()
    logged = kiosk.log.game(kiosk.match.game_id)
    assert [e.source for e in logged.events] == ["camera", "manual", "camera"]
    assert logged.status == "over"
    kiosk.log.close()
