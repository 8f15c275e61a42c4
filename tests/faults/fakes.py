"""Stand-ins the fault tests and the kill -9 player (killplay.py, run as a script) share.

Kept free of pytest and of the kiosk's imports, so the player can load it before it forks.
"""

from __future__ import annotations


class Clock:
    """Game time the test moves by hand."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Camera:
    """The worker as the scenes see it: a camera that works; reads arrive as queued events."""

    camera_ok = True

    def preview(self):
        return None

    def request(self, name: str) -> None:
        pass
