"""Recorded frames served as a camera: a folder of images or a video file, played in time.

A museum that reports a misread sends its recording; the kiosk, `azar-kiosk` with `kind =
"replay"`, and the tests play it through the same protocol as a live camera (camera.py).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera import IMAGE_SUFFIXES, CameraBase, CameraError, Clock, Frame, as_bgr

log = logging.getLogger(__name__)


class ReplayCamera(CameraBase):
    """Recorded frames served as if live: a folder of images (in name order) or a video file.

    The frame shown is chosen from the time since `open()` and `fps`, so a slow reader skips
    frames as it would with a real camera. The clock is injected: tests step it by hand.
    """

    def __init__(
        self,
        path: str | Path,
        fps: float = 30,
        loop: bool = True,
        clock: Clock = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.name = f"replay {self.path.name}"
        self.fps = fps
        self.loop = loop
        self._clock = clock
        self._files: list[Path] | None = None
        self._video: Any = None
        self._video_index = -1
        self._start = 0.0
        self._cached: tuple[int, np.ndarray] | None = None
        self._bad: set[Path] = set()

    def open(self) -> None:
        self.close()
        if self.path.is_dir():
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not files:
                raise CameraError(f"no images in the replay folder {self.path}")
            self._files = files
        elif self.path.is_file():
            video = cv2.VideoCapture(str(self.path))
            if not video.isOpened():
                video.release()
                raise CameraError(f"cannot play the replay file {self.path}")
            self._video = video
            self._video_index = -1
        else:
            raise CameraError(f"the replay path {self.path} does not exist")
        self._start = self._clock()

    @property
    def frame_count(self) -> int | None:
        """How many images the folder holds (None for a video file)."""
        return None if self._files is None else len(self._files)

    def read(self) -> Frame:
        if self._files is None and self._video is None:
            raise CameraError(f"{self.name} is not open")
        now = self._clock()
        index = max(0, int((now - self._start) * self.fps))
        image = self._read_file(index) if self._files is not None else self._read_video(index)
        return Frame(image, now)

    def _read_file(self, index: int) -> np.ndarray:
        assert self._files is not None
        if index >= len(self._files):
            if not self.loop:
                raise CameraError(f"{self.name} has ended")
            index %= len(self._files)
        if self._cached is not None and self._cached[0] == index:
            return self._cached[1]
        path = self._files[index]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            if not path.exists():
                self.close()
                raise CameraError(f"cannot read the replay image {path} (removed?)")
            # A bad file in a recording is a dropped frame, not a lost camera: the last good
            # picture stays (said once per file, not once per frame).
            if path not in self._bad:
                self._bad.add(path)
                log.warning("replay: %s is not a readable image; skipped", path.name)
            if self._cached is None:
                raise CameraError(f"the replay image {path} cannot be read")
            return self._cached[1]
        self._cached = (index, image)
        return image

    def _read_video(self, index: int) -> np.ndarray:
        if self._cached is not None and self._cached[0] == index:
            return self._cached[1]
        image = None
        while self._video_index < index:
            ok = self._video.grab()
            if not ok:
                if not self.loop or self._video_index < 0:
                    self.close()
                    raise CameraError(f"{self.name} has ended")
                # Back to the start; the clock restarts so the frame index does too.
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._video_index = -1
                self._start = self._clock()
                index = 0
                continue
            self._video_index += 1
        ok, image = self._video.retrieve()
        if not ok or image is None:
            self.close()
            raise CameraError(f"cannot decode {self.name}")
        image = as_bgr(image, self.name)
        self._cached = (self._video_index, image)
        return image

    def close(self) -> None:
        video, self._video = self._video, None
        if video is not None:
            video.release()
        self._files = None
        self._cached = None
