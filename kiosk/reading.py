"""The dice reader as the kiosk builds it: one recipe for the camera, the recordings and the
maintenance screen, so a recording is read exactly as the camera is."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from kiosk.config import Config
    from vision.calibrate import ImageQuality
    from vision.calibration import Calibration
    from vision.reading import Roll
    from vision.settle import ThrowWatcher


def build_watcher(
    config: Config, calibration: Calibration | None = None, expect: int | None = 3
) -> ThrowWatcher:
    """The settle watcher over the real dice reader (which learns the die size from the dice it
    reads when the calibration gives none), asking for `expect` dice (the game in play's:
    Hazard throws two), tuned by the [vision] section. `azar-kiosk watch` builds the same, so
    a recording is read exactly as the camera is."""
    from vision.reader import TrayReader
    from vision.settle import SettleConfig, ThrowWatcher

    settle = SettleConfig(still_for=config.vision.settle_seconds, votes=config.vision.votes)
    return ThrowWatcher(TrayReader(calibration, expect), settle, calibration)


def one_frame_reader(calibration: Calibration | None) -> Callable[[np.ndarray], Roll]:
    """The maintenance screen's one-frame test read, with the current calibration."""
    from vision.reader import read_roll

    return lambda frame: read_roll(frame, calibration=calibration)


def calibrate_and_judge(empty: np.ndarray) -> tuple[Calibration, ImageQuality]:
    """The maintenance tool: the tray's calibration from an empty-tray frame, and how good the
    picture is (exposure, focus)."""
    from vision.calibrate import assess_image, calibrate

    calibration = calibrate(empty)
    return calibration, assess_image(empty, calibration.tray)
