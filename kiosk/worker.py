"""The camera and the dice reader, on one worker thread, so the screen never waits for them.

The worker reads the newest frame, feeds it to the settle watcher (which says when the dice have
come to rest and votes one `Roll` per throw), and posts what the main loop needs on the one
event queue: a `RollRead` per throw and a `CameraStatus` when the camera is lost or back. The
live picture is not queued: it sits in a one-frame slot (`preview()`), newest wins, so a slow
screen never builds up a backlog of frames.

Anything that goes wrong in here is logged and turned into a status event; the thread keeps
running, and reconnects to a lost camera by itself.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from kiosk.resume import StartGuard
from vision.reading import Die, RerollReason, Roll

if TYPE_CHECKING:
    from vision.tray_reader import TrayReader

log = logging.getLogger(__name__)
MAX_RECONNECT_SECONDS = 30.0  # the longest pause between tries to reopen a lost camera
STEADY_SECONDS = 10.0  # a camera working this long has its back-off reset


class Watcher(Protocol):
    """What the worker needs from `vision.watcher.ThrowWatcher`: frames in, one roll per throw."""

    @property
    def state(self) -> str: ...

    @property
    def reader(self) -> TrayReader: ...  # its reader, which the test read asks (peek)

    def update(self, frame: np.ndarray, t: float) -> Roll | None: ...


RESTLESS_SECONDS = 10.0  # the tray has looked as if moving this long: thrown dice stop within
# a few seconds, so the table or camera shakes, or something keeps moving in view (the screen
# asks visitors to call staff, and the log says so once)


class Restless:
    """How long the tray has looked as if moving, with no still frame; a spell is told once
    when it passes RESTLESS_SECONDS (the kiosk's log, `watch`'s stderr)."""

    def __init__(self) -> None:
        self.since: float | None = None  # the first frame of this spell of motion
        self._told = False

    def update(self, motion: str, t: float) -> tuple[float, bool]:
        """(seconds this spell has lasted, whether it is to be told now) for a frame at `t`
        whose watcher state is `motion`."""
        if motion != "moving":
            self.since, self._told = None, False
            return 0.0, False
        if self.since is None:
            self.since = t
        lasted = t - self.since
        tell = lasted >= RESTLESS_SECONDS and not self._told
        self._told |= tell
        return lasted, tell


@dataclass(frozen=True)
class Preview:
    """The newest picture for the screen, already shrunk, with the dice the reader saw."""

    image: np.ndarray  # BGR uint8 (h, w, 3), at most `preview_width` wide
    scale: float  # preview pixels per camera pixel
    motion: str  # the watcher's state: "empty", "moving", "settled"
    dice: tuple[Die, ...]  # in preview pixels
    t: float
    moving_for: float = 0.0  # seconds the tray has looked as if moving, without a still frame

    @property
    def restless(self) -> bool:
        """The tray has looked as if moving for longer than dice roll (RESTLESS_SECONDS)."""
        return self.motion == "moving" and self.moving_for >= RESTLESS_SECONDS


@dataclass(frozen=True)
class RollRead:
    """One throw as the reader decided it (a roll to announce, or a reroll with its reason)."""

    roll: Roll
    t: float


@dataclass(frozen=True)
class CameraStatus:
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class ToolResult:
    """The answer to a maintenance request (a test read, a calibration)."""

    name: str
    ok: bool
    value: Any = None
    detail: str = ""


class VisionWorker:
    """Owns the camera; `start()` runs the loop on a daemon thread, `stop()` ends it."""

    def __init__(
        self,
        camera,
        events: queue.Queue,
        watcher: Watcher,
        read_now: Callable[[np.ndarray], Roll] | None = None,
        calibrate: Callable[[np.ndarray], Any] | None = None,
        preview_width: int = 640,
        reconnect_seconds: float = 2.0,
        make_camera: Callable[[], Any] | None = None,
    ) -> None:
        self.camera = camera  # or None, built on the worker thread by `make_camera`
        self.make_camera = make_camera
        self.events = events
        self.watcher = watcher
        self.read_now = read_now
        self.calibrate = calibrate
        self.preview_width = preview_width
        self.reconnect_seconds = reconnect_seconds
        self._wait = reconnect_seconds  # the next pause before reconnecting (backs off)
        self._good_since: float | None = None
        self._preview: Preview | None = None
        self._lock = threading.Lock()
        self._requests: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.camera_ok: bool | None = None  # None until the first frame or failure
        self.frames = 0
        self.failures = 0  # frames the reader raised on
        self._bad_frame = False  # the last frame could not be looked at
        self._restless = Restless()
        self.guard: StartGuard | None = None  # set by `resume()` for a camera kiosk

    def resume(self, last: tuple[Die, ...]) -> None:
        """No answer until the dice found at start have moved, and none for the dice of the last
        logged camera throw (`last`) lying where they were. Call before `start()`."""
        self.guard = StartGuard(last)

    # -- main-thread side ------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="vision", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self.camera is None:
            return
        try:
            self.camera.close()
        except Exception:  # closing a broken camera must not stop the kiosk from exiting
            log.exception("closing the camera")

    def preview(self) -> Preview | None:
        with self._lock:
            return self._preview

    def request(self, name: str) -> None:
        """Ask for a maintenance tool on the next frame: "test_read" or "calibrate"."""
        self._requests.put(name)

    # -- worker-thread side ----------------------------------------------------------------------
    def _run(self) -> None:
        opened = False
        while not self._stop.is_set():
            try:
                if self.camera is None and self.make_camera is not None:
                    self.camera = self.make_camera()  # slow ones must not delay the screen
                if not opened:
                    self.camera.open()
                    opened = True
                frame = self.camera.read()
            except Exception as error:  # unplugged, stalled, or a driver fault: report, retry
                if self._wait == self.reconnect_seconds:  # the first failure of a spell
                    log.warning("camera: %s", error, exc_info=not _is_camera_error(error))
                else:
                    log.debug("camera still failing: %s", error)
                self._set_camera(False, str(error))
                opened = False
                try:
                    if self.camera is not None:
                        self.camera.close()
                except Exception:
                    log.debug("closing a failed camera", exc_info=True)
                self._stop.wait(self._wait)
                # Back off: 2, 4, 8 ... 30 s between tries while the camera stays away.
                self._wait = min(MAX_RECONNECT_SECONDS, self._wait * 2)
                self._good_since = None
                continue
            self._good_frame(frame.timestamp)
            try:
                self.step(frame.image, frame.timestamp)
            except Exception:  # a bug in the reader: the camera is fine, keep going
                self.failures += 1
                if self.failures == 1 or self.failures % 100 == 0:
                    log.exception("reading a frame failed (%d times so far)", self.failures)

    def _good_frame(self, t: float) -> None:
        """A frame came: the camera works; the back-off resets once it has worked a while, so
        a camera that fails every few frames is not retried at full speed."""
        self._set_camera(True)
        if self._good_since is None:
            self._good_since = t
        elif t - self._good_since >= STEADY_SECONDS:
            self._wait = self.reconnect_seconds

    def _set_camera(self, ok: bool, detail: str = "") -> None:
        if ok != self.camera_ok:
            self.camera_ok = ok
            self.events.put(CameraStatus(ok, detail))

    def step(self, image: np.ndarray, t: float) -> None:
        """Handle one frame: watch it, post a throw if one settled, refresh the preview."""
        self.frames += 1
        try:
            roll = self.watcher.update(image, t)
            motion = str(getattr(self.watcher, "state", ""))
        except ValueError as error:  # a garbage frame (vision.motion.FrameError): ask to rethrow
            if not self._bad_frame:
                log.warning("unusable frame: %s", error)
                self.events.put(RollRead(Roll((), RerollReason.BAD_FRAME, str(error)), t))
            self._bad_frame = True
            return
        self._bad_frame = False
        cut = getattr(self.watcher, "cut_short", None)
        if cut is not None:  # staff asking why a throw had no ruling find it here
            log.info(
                "dice at rest for %.1f s were moved again before their reads agreed (%d "
                "taken): that throw had no ruling",
                t - cut[0],
                cut[1],
            )
        if self.guard is not None:
            roll = self.guard.filter(roll, motion, t)
        if roll is not None:
            self.events.put(RollRead(roll, t))
        self._serve_requests(image)
        self._set_preview(image, motion, roll, t, self._restless_for(motion, t))

    def _restless_for(self, motion: str, t: float) -> float:
        """Seconds the tray has looked as if moving; the log says so once a spell passes
        RESTLESS_SECONDS."""
        lasted, tell = self._restless.update(motion, t)
        if tell:
            log.warning(
                "the tray has looked as if moving for %.0f s: is the table or the camera "
                "shaking, or something moving in view?",
                lasted,
            )
        return lasted

    def _serve_requests(self, image: np.ndarray) -> None:
        while True:
            try:
                name = self._requests.get_nowait()
            except queue.Empty:
                return
            tool = {"test_read": self.read_now, "calibrate": self.calibrate}.get(name)
            if tool is None:
                self.events.put(ToolResult(name, False, detail="not available"))
                continue
            try:
                self.events.put(ToolResult(name, True, tool(image)))
            except Exception as error:  # "the tray is not empty" is expected: one line
                log.warning(
                    "%s failed: %s", name, error, exc_info=not isinstance(error, ValueError)
                )
                self.events.put(ToolResult(name, False, detail=str(error)))

    def _set_preview(
        self, image: np.ndarray, motion: str, roll: Roll | None, t: float, moving_for: float
    ) -> None:
        import cv2

        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            return
        h, w = image.shape[:2]
        scale = min(1.0, self.preview_width / max(1, w))
        small = (
            image
            if scale == 1.0
            else cv2.resize(
                image,
                (max(1, round(w * scale)), max(1, round(h * scale))),
                interpolation=cv2.INTER_AREA,
            )
        )
        if small.dtype != np.uint8:
            small = np.clip(small, 0, 255).astype(np.uint8)
        old = self.preview()
        dice = old.dice if old is not None and roll is None and motion == "settled" else ()
        if roll is not None:
            dice = tuple(
                Die(
                    d.value,
                    (d.center[0] * scale, d.center[1] * scale),
                    d.size * scale,
                    d.confidence,
                )
                for d in roll.dice
            )
        with self._lock:
            self._preview = Preview(np.ascontiguousarray(small), scale, motion, dice, t, moving_for)


def _is_camera_error(error: Exception) -> bool:
    return type(error).__name__ == "CameraError"
