"""Cameras behind one small protocol: open, newest frame (BGR, monotonic timestamp), close.

The kiosk runs with a Pi camera, a USB webcam at a fair, recorded files when a museum reports a
problem, or the simulated tray on a machine with nothing attached; nothing above this layer
knows which. Every failure (no device, cable pulled, file gone) surfaces as `CameraError`, and
`open()` again works once the device is back.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")  # read by OpenCV when first imported
import cv2  # noqa: E402
import numpy as np  # noqa: E402

# OpenCV's own warnings (a missing /dev/video0 every reconnect) stay out of the journal, even
# when cv2 was imported before this module: the kiosk says what is wrong in its own words.
cv2.setLogLevel(2)  # 2 = errors only (cv2.utils.logging.LOG_LEVEL_ERROR)

Clock = Callable[[], float]
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class CameraError(Exception):
    """The camera cannot give a frame: missing, unplugged, failed, or its recording ended."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture: `image` is BGR uint8 of shape (h, w, 3); `timestamp` is monotonic seconds."""

    image: np.ndarray
    timestamp: float


@runtime_checkable
class Camera(Protocol):
    """What the vision worker needs from any camera."""

    name: str

    def open(self) -> None: ...

    def read(self) -> Frame:
        """The newest frame. Raises CameraError when the camera fails or is not open."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Camera: ...

    def __exit__(self, *exc: object) -> None: ...


class CameraBase:
    """Context manager and open/closed bookkeeping shared by the implementations."""

    name = "camera"

    def open(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self) -> CameraBase:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def as_bgr(image: Any, source: str) -> np.ndarray:
    """Check a captured image and give it the frame contract's shape: BGR uint8 (h, w, 3)."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise CameraError(f"{source} gave no image")
    if image.dtype != np.uint8:
        raise CameraError(f"{source} gave {image.dtype} pixels, not 8-bit")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise CameraError(f"{source} gave an image of shape {image.shape}")


class PiCamera(CameraBase):
    """A Raspberry Pi camera (Camera Module 3) through picamera2, with fixed exposure.

    Auto-exposure and auto white balance drift between frames and make pip contrast vary, so
    both are fixed from the configuration. "RGB888" is BGR in memory, which is what OpenCV and
    the reader want. A small "lores" YUV stream gives a cheap grey image for motion checks.
    """

    def __init__(
        self,
        resolution: tuple[int, int] = (1280, 720),
        fps: int = 30,
        exposure_us: int = 8000,
        analogue_gain: float = 2.0,
        colour_gains: tuple[float, float] | None = (1.8, 1.6),
        lores: tuple[int, int] = (320, 240),
        clock: Clock = time.monotonic,
    ) -> None:
        self.name = "Raspberry Pi camera"
        self.resolution = resolution
        self.fps = fps
        self.controls = pi_controls(fps, exposure_us, analogue_gain, colour_gains)
        self.lores = lores
        self._clock = clock
        self._camera: Any = None

    def open(self) -> None:
        self.close()
        try:
            from picamera2 import Picamera2  # only on a Pi (apt: python3-picamera2)
        except ImportError as error:
            raise CameraError(
                "picamera2 is not installed (on a Raspberry Pi: apt install python3-picamera2)"
            ) from error
        try:
            camera = Picamera2()
        except Exception as error:  # IndexError/RuntimeError when no camera is connected
            raise CameraError(f"no Raspberry Pi camera found ({error})") from error
        try:
            config = camera.create_video_configuration(
                main={"size": tuple(self.resolution), "format": "RGB888"},
                lores={"size": tuple(self.lores), "format": "YUV420"},
                controls=self.controls,
                buffer_count=4,
            )
            camera.configure(config)
            camera.start()
        except Exception as error:
            camera.close()
            raise CameraError(f"the Raspberry Pi camera did not start ({error})") from error
        self._camera = camera

    def read(self) -> Frame:
        if self._camera is None:
            raise CameraError("the Raspberry Pi camera is not open")
        try:
            image = self._camera.capture_array("main")
        except Exception as error:
            self.close()
            raise CameraError(f"the Raspberry Pi camera stopped ({error})") from error
        return Frame(as_bgr(image, self.name), self._clock())

    def read_lores_grey(self) -> np.ndarray:
        """The small analysis stream as a grey image (h, w) uint8: the Y plane of YUV420."""
        if self._camera is None:
            raise CameraError("the Raspberry Pi camera is not open")
        try:
            yuv = self._camera.capture_array("lores")
        except Exception as error:
            self.close()
            raise CameraError(f"the Raspberry Pi camera stopped ({error})") from error
        return np.ascontiguousarray(yuv[: self.lores[1], : self.lores[0]])

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
                camera.close()
            except Exception:  # already gone (ribbon pulled); nothing more to release
                pass


def pi_controls(
    fps: int,
    exposure_us: int,
    analogue_gain: float,
    colour_gains: tuple[float, float] | None,
) -> dict[str, Any]:
    """picamera2 controls for a fixed exposure: plain data, so it is tested off the Pi."""
    controls: dict[str, Any] = {"FrameRate": float(fps)}
    if exposure_us or analogue_gain:
        controls["AeEnable"] = False
    if exposure_us:
        controls["ExposureTime"] = int(exposure_us)
    if analogue_gain:
        controls["AnalogueGain"] = float(analogue_gain)
    if colour_gains is not None:
        controls["AwbEnable"] = False
        controls["ColourGains"] = (float(colour_gains[0]), float(colour_gains[1]))
    return controls


class UsbCamera(CameraBase):
    """A USB webcam through OpenCV's VideoCapture (an index or a device path).

    `capture_factory` builds the VideoCapture; tests inject a fake to unplug the camera.
    Manual exposure is asked for and silently left automatic when the driver refuses.
    """

    def __init__(
        self,
        device: int | str = 0,
        resolution: tuple[int, int] = (1280, 720),
        fps: int = 30,
        exposure_us: int = 0,
        clock: Clock = time.monotonic,
        capture_factory: Callable[[int | str], Any] = cv2.VideoCapture,
    ) -> None:
        self.name = f"USB camera {device}"
        self.device = device
        self.resolution = resolution
        self.fps = fps
        self.exposure_us = exposure_us
        self._clock = clock
        self._factory = capture_factory
        self._capture: Any = None

    def open(self) -> None:
        self.close()
        try:
            capture = self._factory(self.device)
        except Exception as error:
            raise CameraError(f"cannot open {self.name} ({error})") from error
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"{self.name} is not connected or is used by another program")
        width, height = self.resolution
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        capture.set(cv2.CAP_PROP_FPS, self.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        if self.exposure_us:
            # V4L2: auto-exposure 1 = manual; exposure in units of 100 microseconds.
            capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            capture.set(cv2.CAP_PROP_EXPOSURE, max(1, round(self.exposure_us / 100)))
        self._capture = capture

    def read(self) -> Frame:
        if self._capture is None:
            raise CameraError(f"{self.name} is not open")
        try:
            ok, image = self._capture.read()
        except Exception as error:
            ok, image = False, error
        if not ok or image is None:
            self.close()
            raise CameraError(f"{self.name} stopped sending frames (unplugged?)")
        return Frame(as_bgr(image, self.name), self._clock())

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


def open_camera(camera: Any, simulated: Any = None, clock: Clock = time.monotonic) -> Camera:
    """Build the camera a [camera] config section asks for (not yet opened).

    `camera` needs the fields of kiosk.config.CameraConfig and `simulated` those of
    SimulatedConfig (any object with those attributes will do: hardware never imports kiosk).
    """
    kind = camera.kind
    if kind == "pi":
        return PiCamera(
            camera.resolution,
            camera.fps,
            camera.exposure_us,
            camera.analogue_gain,
            camera.colour_gains,
            clock=clock,
        )
    if kind == "usb":
        return UsbCamera(camera.device, camera.resolution, camera.fps, camera.exposure_us, clock)
    if kind == "replay":
        from hardware.replay import ReplayCamera

        return ReplayCamera(camera.replay_path, camera.fps, camera.loop, clock)
    if kind == "simulated":
        from hardware.sim import SimulatedTray

        return SimulatedTray.from_config(simulated, resolution=camera.resolution, clock=clock)
    raise CameraError(f"unknown camera kind {kind!r}")
