"""The maintenance screen's test read reads as the kiosk would, now: the watcher's own reader
(its calibration, the game's number of dice, what it has learnt of the tray's faces), and it
learns nothing from the frames staff test."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from hardware.sim import SimulatedTray
from kiosk.config import load_config
from kiosk.reading import build_watcher, learn_faces, maintenance_reader
from vision.calibration import Calibration
from vision.reading import RerollReason

pytestmark = pytest.mark.slow

SIZE, DIE = (640, 360), 45


def _wall_throw(tray: SimulatedTray, reader) -> tuple:
    """A throw at rest that the fresh reader refuses for a die at the wall."""
    for _ in range(20):
        tray.throw()
        frame = tray.at_rest()
        roll = reader.peek(frame)
        if roll.reason is RerollReason.COCKED and "wall" in roll.detail:
            return frame, tuple(sorted(tray.last_values))
    raise AssertionError("no die rolled to the wall in 20 throws")


def test_the_test_read_is_the_kiosks_read_and_teaches_it_nothing() -> None:
    tray = SimulatedTray(SIZE, die_size=DIE, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    config = load_config(None)
    worker = SimpleNamespace(watcher=build_watcher(config, calibration, 3))
    read = maintenance_reader(worker)
    frame, values = _wall_throw(tray, worker.watcher.reader)

    for _ in range(12):  # staff test the same dice again and again: nothing is learnt
        roll = read(frame)
        assert not roll.ok and roll.reason is RerollReason.COCKED  # as the kiosk would
    assert worker.watcher.reader.faces is None and worker.watcher.reader.face_size is None

    # The kiosk has learnt the tray's faces: the test read now reads the die at the wall.
    faces = learn_faces(SimulatedTray(SIZE, die_size=DIE, seed=1283))
    worker.watcher = build_watcher(config, calibration, 3, faces=faces)
    roll = read(frame)
    assert roll.ok and tuple(sorted(roll.values)) == values, roll

    # A game of two dice: the test read asks for two, as the kiosk does.
    worker.watcher = build_watcher(config, calibration, 2, reader=worker.watcher.reader)
    roll = read(frame)
    assert roll.reason is RerollReason.WRONG_COUNT and len(roll.dice) == 3
