"""Seams the fault tests share: what the screen said, and a kiosk built headless."""

from __future__ import annotations

import queue

import pygame

from kiosk.config import load_config
from kiosk.gamelog import GameLog
from kiosk.table import Kiosk

from .fakes import Clock


class PictureClock(Clock):
    """Game time that moves on with the camera's pictures, `step` seconds each: the settle
    watcher then sees the same game however slow the machine is."""

    def __init__(self, step: float = 1 / 15) -> None:
        super().__init__()
        self.step = step

    def tick(self) -> None:
        self.t += self.step


def calibrated(tray):
    """The tray's calibration, as staff make it from the maintenance screen (and the demo from
    the simulated tray, which knows its floor and can show itself empty)."""
    from vision.calibration import Calibration

    return Calibration(tray.tray_polygon, None, tray.empty_frame())


def learn_faces(size: tuple[int, int], die_size: float, folder) -> None:
    """Keep in `folder`, as the kiosk keeps it beside its calibration, what a kiosk that has
    run a while on this tray has learnt of its dice's faces (vision/tray_faces.py): learnt on a
    twin of the tray, as the demo learns them, so that the tray under test keeps its own
    throws."""
    from hardware.sim import SimulatedTray
    from kiosk.reading import learn_faces as learn_on_twin
    from vision.tray_faces import save_faces

    faces = learn_on_twin(SimulatedTray(size, die_size=die_size, seed=1283))
    assert faces is not None, "the twin tray's faces were not learnt"
    save_faces(folder, faces)


def headless_kiosk(
    folder, worker, clock=None, events: queue.Queue | None = None, wall_clock=None
) -> Kiosk:
    """The real kiosk on an off-screen 800x480 surface, its log in `folder`; `wall_clock`
    (real time by default) is what the frozen-screen rule measures frames with."""
    pygame.display.init()
    pygame.font.init()
    kiosk = Kiosk(
        load_config(None),
        pygame.Surface((800, 480)),
        GameLog.in_dir(folder),
        worker=worker,
        events=events if events is not None else queue.Queue(),
        clock=clock or Clock(),
        **({"wall_clock": wall_clock} if wall_clock is not None else {}),
    )
    kiosk.data_dir = folder
    return kiosk
