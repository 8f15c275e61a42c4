"""The event types the scenes receive, in one place.

The worker's events (a throw read, the camera's status, the live picture) are defined beside the
worker thread that makes them and named here, so a scene never imports the worker; a touch on
something drawn is the kiosk's own event.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.worker import CameraStatus, Preview, RollRead

__all__ = ["CameraStatus", "Preview", "RollRead", "Touched"]


@dataclass(frozen=True)
class Touched:
    """A finger or click let go on a target the scene drew (its `key`), at monotonic `t`.

    `kind` is "hold" when a target standing for a button was held down as the button can be.
    """

    key: str
    t: float
    kind: str = "press"
