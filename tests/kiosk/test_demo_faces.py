"""The demo starts as a kiosk that has run a while on its tray: the tray's flat faces learnt on a
twin of the simulated tray (kiosk.reading.learn_faces), so every face is held to their size
from the first throw instead of after thirty dice have been read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.sim import SimulatedTray
from kiosk.reading import learn_faces
from vision.calibration import Calibration
from vision.tray_reader import TrayReader

pytestmark = pytest.mark.slow

SIZE, DIE = (640, 360), 45


class HandClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_at_rest_shows_the_throw_as_the_camera_sees_it_once_the_dice_stop() -> None:
    clock = HandClock()
    tray = SimulatedTray(SIZE, die_size=DIE, seed=5, clock=clock)
    tray.open()
    tray.throw((2, 4, 6))
    clock.now += 0.1
    flying = tray.read().image
    clock.now += tray.settle_time + 1.0
    landed = tray.read().image

    def differs(a: np.ndarray, b: np.ndarray) -> int:
        """Pixels that differ by more than sensor noise does."""
        a, b = (cv2.GaussianBlur(x, (0, 0), 2).astype(np.int16) for x in (a, b))
        return int((np.abs(a - b).max(axis=2) > 30).sum())

    rest = tray.at_rest()
    assert differs(rest, landed) == 0
    assert differs(rest, flying) > DIE * DIE  # a die's area at least


def test_a_twin_tray_teaches_the_faces_and_a_new_tray_holds_faces_to_them_at_once() -> None:
    faces = learn_faces(SimulatedTray(SIZE, die_size=DIE, seed=1283))
    assert faces is not None
    assert len(faces.sizes) == 30
    assert np.median(faces.sizes) == pytest.approx(DIE, rel=0.15)  # a top face's side
    assert faces.window[0] < 1.0 < faces.window[1]

    # Another tray like it (other throws, other felt): its first throws, read fresh and read
    # from what the twin taught; the taught reader holds every face to the twin's size at once.
    tray = SimulatedTray(SIZE, die_size=DIE, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    fresh, taught = TrayReader(calibration), TrayReader(calibration, faces=faces)
    assert fresh.face_size is None
    assert taught.face_size == pytest.approx(float(np.median(faces.sizes)))
    read = {"fresh": 0, "taught": 0}
    for _ in range(8):
        tray.throw()
        frame, truth = tray.at_rest(), sorted(tray.last_values)
        for name, reader in (("fresh", fresh), ("taught", taught)):
            roll = reader(frame)
            assert not roll.ok or sorted(roll.values) == truth
            read[name] += roll.ok
    assert read["taught"] >= 6, read  # the twin's faces fit this tray's dice


def test_too_few_throws_to_read_thirty_dice_teach_nothing() -> None:
    """Not learnt in the throws allowed: None (the demo then learns in play)."""
    assert learn_faces(SimulatedTray(SIZE, die_size=DIE, seed=1283), throws=2) is None


def test_a_twin_tray_that_fails_is_logged_and_the_demo_learns_in_play(monkeypatch, caplog):
    """Whatever goes wrong on the twin (here the reader raising), the demo starts: its reader
    then learns the faces from the throws it reads, as a new kiosk does. The log says so once,
    with the cause."""
    from kiosk import app
    from kiosk.config import load_config

    def broken(twin):
        raise RuntimeError("no models")

    monkeypatch.setattr(app, "learn_faces", broken)
    config = load_config(None)
    assert app._twin_faces(config, config.camera) is None
    said = [r.getMessage() for r in caplog.records if "no models" in r.getMessage()]
    assert len(said) == 1 and "learnt in play" in said[0], said  # one line: cause and outcome
