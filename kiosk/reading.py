"""The dice reader as the kiosk builds it: one recipe for the camera, the recordings and the
maintenance screen, so a recording is read exactly as the camera is."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from hardware.sim import SimulatedTray
    from kiosk.config import Config
    from kiosk.parts import Worker
    from vision.calibrate import ImageQuality
    from vision.calibration import Calibration
    from vision.reading import Roll
    from vision.tray_faces import TrayFaces
    from vision.tray_reader import TrayReader
    from vision.watcher import ThrowWatcher

log = logging.getLogger(__name__)


def build_watcher(
    config: Config,
    calibration: Calibration | None = None,
    expect: int | None = 3,
    *,
    reader: TrayReader | None = None,
    folder: Path | None = None,
    keep: bool = True,
    faces: TrayFaces | None = None,
) -> ThrowWatcher:
    """The settle watcher over the real dice reader (which learns the die size from the dice it
    reads when the calibration gives none), asking for `expect` dice (the game in play's:
    Hazard throws two), tuned by the [vision] section. `azar-kiosk watch` builds the same, so
    a recording is read exactly as the camera is.

    reader: the reader in use on this calibration (a new game asks for another number of dice:
    what it has learnt of the tray is kept). folder: the calibration's directory, where what the
    reader learns of the tray's faces is kept across restarts (vision/tray_faces.py); with
    `keep` False it is only read from there (`watch` reads as the kiosk would, and writes
    nothing into its data). faces: what is already known of the tray's faces, where no folder
    keeps it (the demo's, learnt on a twin of its simulated tray: `learn_faces`)."""
    from vision.settle import SettleConfig
    from vision.tray_reader import TrayReader
    from vision.watcher import ThrowWatcher

    settle = SettleConfig(still_for=config.vision.settle_seconds, votes=config.vision.votes)
    if reader is not None and reader.calibration is not None and calibration is not None:
        return ThrowWatcher(reader.expecting(expect), settle, calibration)
    if folder is None or calibration is None:
        return ThrowWatcher(TrayReader(calibration, expect, faces=faces), settle, calibration)
    from vision.tray_faces import load_faces, save_faces

    def save(learnt: TrayFaces) -> None:
        try:
            save_faces(folder, learnt)
            log.info("the tray's flat faces are learnt and kept in %s", folder)
        except OSError as error:  # a full or read-only card: learnt again after a restart
            log.warning("cannot keep what was learnt of the tray's faces: %s", error)

    kept = load_faces(folder)
    reader = TrayReader(calibration, expect, faces=kept, on_learnt=save if keep else None)
    return ThrowWatcher(reader, settle, calibration)


def learn_faces(twin: SimulatedTray, throws: int = 80) -> TrayFaces | None:
    """What a kiosk learns of its tray's flat faces from the first dice it reads (the size it
    then holds every face to: vision/tray_reader.py, TrayReader), learnt on a twin of a simulated
    tray, thrown and read at rest up to `throws` times; None if not learnt by then. The demo
    starts from it, as a kiosk that has run a while on its tray does."""
    from vision.calibration import Calibration
    from vision.tray_reader import TrayReader

    twin.open()
    try:
        reader = TrayReader(Calibration(twin.tray_polygon, None, twin.empty_frame()))
        for _ in range(throws):
            twin.throw()
            reader(twin.at_rest())
            if reader.faces is not None:
                return reader.faces
    finally:
        twin.close()
    return None


def maintenance_reader(worker: Worker) -> Callable[[np.ndarray], Roll]:
    """The maintenance screen's test read: the frame read by the worker's watcher's reader as
    it stands when asked (its calibration, the dice the game asks for, what it has learnt of
    the tray's faces), learning nothing from it: what the kiosk would say of these dice now,
    a 1, 2 or 3 at the wall refused while the tray's faces are being learnt."""
    return lambda frame: worker.watcher.reader.peek(frame)


def calibrate_and_judge(empty: np.ndarray) -> tuple[Calibration, ImageQuality]:
    """The maintenance tool: the tray's calibration from an empty-tray frame, and how good the
    picture is (exposure, focus)."""
    from vision.calibrate import assess_image, calibrate

    calibration = calibrate(empty)
    return calibration, assess_image(empty, calibration.tray)
