"""What the reader is told about the tray: its region, the expected die size, an empty frame.

Produced by the calibration helpers from an empty-tray frame (maintenance screen) and stored in
the kiosk's data directory; every field is optional so single photos can be read without one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Calibration:
    """Known facts about the camera's view of the tray.

    tray: polygon of the tray floor in frame pixels, shape (N, 2) int32, or None for the whole
        frame.
    die_size: expected side of a die's top face in pixels, or None if unknown.
    empty: an empty-tray frame, BGR uint8 (h, w, 3), same shape as the frames read, or None.
    """

    tray: np.ndarray | None = None
    die_size: float | None = None
    empty: np.ndarray | None = None
