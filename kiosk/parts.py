"""What the table needs from its parts, as small Protocols.

`kiosk.app` builds the real parts from the config (the vision worker, the keyboard and touch
keys, the LEDs, the demo's simulated tray); a test hands in stand-ins that have only what it
exercises, which is why the table asks `hasattr` before the optional ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from hardware.lights import Lights

if TYPE_CHECKING:
    import numpy as np

    from hardware.buttons import ButtonEvent
    from kiosk.worker import Preview, Watcher

__all__ = ["Closer", "Keys", "Lights", "Tray", "Worker"]


class Worker(Protocol):
    """The vision worker (kiosk.worker.VisionWorker) as the table and its scenes drive it."""

    watcher: Watcher  # rebuilt when the calibration or the number of dice changes
    read_now: Callable[[np.ndarray], Any]  # the maintenance screen's one-frame read
    preview_width: int  # the live picture is shrunk to this width (optional)
    camera: Any  # the camera or simulated tray, once the worker thread opened it (optional)

    def preview(self) -> Preview | None: ...

    def request(self, name: str) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


class Keys(Protocol):
    """The keyboard or touch zones standing in for the buttons (hardware.keys.KeyButtons)."""

    def handle(self, event: Any, now: float) -> list[ButtonEvent]: ...

    def poll(self, now: float) -> list[ButtonEvent]: ...


class Tray(Protocol):
    """The demo's simulated dice tray: a throw of its three dice."""

    def throw(self) -> None: ...


class Closer(Protocol):
    """Hardware closed on the way out (the GPIO buttons, the LEDs)."""

    def close(self) -> None: ...
