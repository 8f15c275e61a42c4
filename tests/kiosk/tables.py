"""A table to test the screens on: the real Kiosk on an 800x480 surface, with no display, no
camera and no pins, and a clock the test moves (frames take no time, however slow the
machine)."""

from __future__ import annotations

import queue
from pathlib import Path

import pygame

from kiosk.config import Config, load_config
from kiosk.gamelog import GameLog
from kiosk.table import Kiosk


class Clock:
    """Seconds that pass only when the test says: `clock.t += 30`."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def headless_table(
    folder: Path,
    config: Config | None = None,
    size: tuple[int, int] = (800, 480),
    **parts,
) -> Kiosk:
    """The kiosk with its log in `folder`, on a surface of `size`, timed by a test clock
    (`kiosk.test_clock`); `parts` (worker, tray...) go to Kiosk as they are."""
    pygame.display.init()
    pygame.font.init()
    clock = Clock()
    kiosk = Kiosk(
        config or load_config(None),
        pygame.Surface(size),
        GameLog.in_dir(folder),
        events=queue.Queue(),
        clock=clock,
        wall_clock=clock,
        **parts,
    )
    kiosk.data_dir = folder
    kiosk.test_clock = clock
    return kiosk
