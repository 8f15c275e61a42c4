"""The kiosk application's wiring: camera, reader, buttons, lights, log and screen, from the config.

`build` makes the parts the config asks for (the simulated tray in the demo) and hands them to
the table (`kiosk.table.Kiosk`), whose frame loop (`kiosk.loop`) runs until the kiosk stops;
`shutdown` closes them again. Hardware that is missing (a laptop, a loose cable) is logged and
done without: it never stops the kiosk.
"""

from __future__ import annotations

import logging
import os
import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pygame

from kiosk.clock import ScaledClock
from kiosk.config import Config
from kiosk.gamelog import GameLog
from kiosk.parts import Lights
from kiosk.reading import build_watcher, calibrate_and_judge, learn_faces, maintenance_reader
from kiosk.table import Kiosk

if TYPE_CHECKING:
    from hardware.buttons import GpioButtons
    from hardware.camera import Camera
    from kiosk.config import CameraConfig
    from vision.tray_faces import TrayFaces

# `azar-kiosk watch` reads a recording through the same watcher as the camera: build_watcher.
__all__ = ["build", "build_watcher", "open_screen", "shutdown"]

log = logging.getLogger(__name__)

STOP_SECONDS = 6.0  # wait at most this long for the vision worker (systemd allows 10 s)
TWIN_SEED = 1283  # the demo's twin tray (_twin_faces) throws its own dice, the same each start
T = TypeVar("T")
F = TypeVar("F")


def open_screen(size: tuple[int, int] | None, windowed: bool) -> pygame.Surface:
    """The display: a window of `size`, or full screen at `size` or the display's own size."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("Azar")
    pygame.mouse.set_visible(windowed)
    headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"  # no screen: keep the size asked
    if windowed:
        want = size or (1280, 720)
        desktop = None if headless else _desktop_size()
        if not fits(want, desktop):
            log.info("a %dx%d window does not fit the %dx%d screen: full screen", *want, *desktop)
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(want)
    return pygame.display.set_mode(size or (0, 0), 0 if headless else pygame.FULLSCREEN)


def fits(window: tuple[int, int], desktop: tuple[int, int] | None) -> bool:
    """Whether a window of this size fits on the desktop (an unknown desktop: yes). A demo
    opened on a 7-inch 800x480 screen at the usual 1280x720 would show a third of the table."""
    return desktop is None or (window[0] <= desktop[0] and window[1] <= desktop[1])


def _desktop_size() -> tuple[int, int] | None:
    """The first screen's size, or None where SDL cannot tell."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return tuple(sizes[0]) if sizes else None


def build(
    config: Config,
    *,
    demo: bool,
    size: tuple[int, int] | None = None,
    windowed: bool | None = None,
    language: str | None = None,
    screenshots: Path | None = None,
    speed: float = 1.0,
    data_dir: str | Path | None = None,
) -> Kiosk:
    """Everything the kiosk needs, from the config: camera, worker, buttons, lights, log."""
    from hardware.camera import open_camera as hardware_open_camera
    from hardware.keys import KeyButtons
    from hardware.lights import NullLights, open_lights
    from kiosk.logfile import data_dir as find_data_dir
    from kiosk.worker import VisionWorker
    from vision.calibration import Calibration

    clock = ScaledClock(speed) if speed != 1.0 else time.monotonic
    cfg = config.kiosk
    if windowed is None:  # the demo runs on someone's computer: a window they can close
        windowed = cfg.windowed or demo
    screen = open_screen(size or (cfg.window_size if windowed else cfg.fullscreen_size), windowed)
    folder = find_data_dir(data_dir or cfg.data_dir)
    gamelog = GameLog.in_dir(folder)
    gamelog.start_writer()  # a slow card or another process's lock never holds the screen
    events: queue.Queue = queue.Queue()

    camera_cfg = config.camera
    if demo:
        from dataclasses import replace

        camera_cfg = replace(config.camera, kind="simulated")
    simulated = camera_cfg.kind == "simulated"
    calibration = None
    if not demo:
        calibration = _quietly(lambda: Calibration.load(folder), None, "saved calibration")
    worker = VisionWorker(
        None,
        events,
        build_watcher(config, calibration, folder=None if calibration is None else folder),
        calibrate=calibrate_and_judge,
        make_camera=lambda: open_simulated_tray() if simulated else open_camera(camera_cfg),
    )
    worker.read_now = maintenance_reader(worker)

    def open_camera(section: CameraConfig) -> Camera:
        return hardware_open_camera(section, config.simulated, clock=clock)

    def open_simulated_tray() -> Camera:
        """The simulated tray, read as a calibrated kiosk reads its tray.

        Staff calibrate a real tray from the maintenance screen; the simulated tray knows its
        own floor and can show itself empty, so the demo starts calibrated (unless a saved
        calibration was loaded), and with what a kiosk learns of its tray's faces in its first
        throws, learnt on a twin tray (`learn_faces`). Runs on the worker thread, the one that
        uses the watcher and the test reader.
        """
        if calibration is not None:
            return open_camera(camera_cfg)
        faces = _twin_faces(config, camera_cfg)  # first: the twin's memory is free again
        tray = open_camera(camera_cfg)  # for the tray's (the demo's peak memory)
        demo_calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
        kiosk.calibration = demo_calibration
        worker.watcher = build_watcher(config, demo_calibration, kiosk.dice, faces=faces)
        return tray

    lights: Lights = NullLights()
    buttons: GpioButtons | None = None
    if not demo:
        lights = _quietly(lambda: open_lights(config.lights), NullLights(), "lights")
        buttons = _quietly(lambda: _gpio_buttons(config, events), None, "GPIO buttons")
    keys = KeyButtons(config.buttons.hold_seconds, screen.get_width(), shortcuts=demo)
    kiosk = Kiosk(
        config,
        screen,
        gamelog,
        worker=worker,
        lights=lights,
        keys=keys,
        events=events,
        clock=clock,
        language=language,
        demo=demo,
        screenshots=screenshots,
        calibration=calibration,
    )
    kiosk.data_dir = folder
    kiosk.uncalibrated = not simulated and calibration is None
    if kiosk.uncalibrated:
        log.warning("the tray is not calibrated: calibrate it from the maintenance screen")
    kiosk.closers = [c for c in (buttons, lights) if c is not None and hasattr(c, "close")]
    if not simulated:  # a real tray may still hold the last throw's dice (a simulated one never)
        from kiosk.resume import logged_dice

        worker.resume(logged_dice(*gamelog.last_seen()))
    worker.start()
    return kiosk


def _gpio_buttons(config: Config, events: queue.Queue) -> GpioButtons:
    from hardware.buttons import GpioButtons

    return GpioButtons(config.buttons, events, key_pin=config.staff.key_pin)


def _twin_faces(config: Config, camera: CameraConfig) -> TrayFaces | None:
    """The demo tray's flat faces as a kiosk learns them in its first throws, learnt on a twin
    of the simulated tray (same camera, dice and floor; other throws). A failure is logged and
    the demo learns them as it plays."""
    from dataclasses import replace

    from hardware.sim import SimulatedTray

    start = time.monotonic()
    try:
        look = replace(config.simulated, seed=TWIN_SEED)
        faces = learn_faces(SimulatedTray.from_config(look, resolution=camera.resolution))
    except Exception as error:  # the demo plays on: it learns the faces as a kiosk does
        log.warning("demo: the twin tray failed (%s); the tray's faces are learnt in play", error)
        return None
    took = time.monotonic() - start
    if faces is None:
        log.warning("demo: the tray's faces were not learnt in %.1f s; learnt in play", took)
    else:
        log.info("demo: the tray's faces learnt on a twin tray in %.1f s", took)
    return faces


def _quietly(make: Callable[[], T], fallback: F, what: str) -> T | F:
    """Hardware that is missing (a laptop, a loose cable) must not stop the kiosk."""
    try:
        return make()
    except Exception as error:
        log.warning("%s unavailable, going on without: %s", what, error)
        return fallback


def shutdown(kiosk: Kiosk) -> None:
    """The worker stopped, the hardware closed, the log closed: nothing is lost on the way out."""
    if kiosk.worker is not None:
        # The worker may be inside a long OpenCV call (the first read loads the models): the
        # process must not exit under it, which aborts in C++ ("terminate called ...").
        kiosk.worker.stop(timeout=STOP_SECONDS)
    for closer in getattr(kiosk, "closers", []):
        _quietly(closer.close, None, "closing hardware")
    kiosk.log.close()
    pygame.quit()
