"""What only single photos need: rules applied when there is no calibrated tray, never in the kiosk.

A photo is taken by a hand-held camera at any slant, so flat dice away from the middle show
foreshortened faces; on the kiosk's tray the camera looks straight down and a foreshortened face
means a leaning die. This module is the one place that knows the difference: `is_photo` says
which case a read is in, and `leaning_limits` gives the face aspect and pip-layout stretch above
which a die leans. The kiosk's calibrated path never takes the photo limits.
"""

from __future__ import annotations

from vision.calibration import Calibration
from vision.params import PARAMS, Params


def is_photo(calibration: Calibration | None) -> bool:
    """Read as a single photo: no calibration of a tray (its floor and camera unknown)."""
    return calibration is None or not calibration.of_tray


def leaning_limits(calibration: Calibration | None, p: Params = PARAMS) -> tuple[float, float]:
    """(face aspect, layout stretch) above which a die is taken to lean."""
    if is_photo(calibration):
        return p.photo.cocked_face, p.photo.cocked_stretch
    return p.pips.cocked_face, p.pips.cocked_stretch
