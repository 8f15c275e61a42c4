"""Frames in: the checks before any dice are sought, and image files opened within a budget.

`frame_problem` says in words why an array cannot be read (wrong type, shape, black, blown,
flat); `load_image` opens a photo file without ever decoding more pixels than it is allowed:
its size is read from the header first (Pillow reads headers only until asked for pixels), and a
large JPEG is decoded at 1/2, 1/4 or 1/8 scale by the decoder itself, so a 20000 x 20000 file
costs a header read and a message, never gigabytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.colour import most_channel, percentile_u8
from vision.params import PARAMS, FrameParams

_REDUCED = (
    (2, cv2.IMREAD_REDUCED_COLOR_2),
    (4, cv2.IMREAD_REDUCED_COLOR_4),
    (8, cv2.IMREAD_REDUCED_COLOR_8),
)


class ImageFileError(ValueError):
    """A photo file that cannot be read; the message says why, for the person who gave it."""


@dataclass(frozen=True, slots=True)
class Photo:
    """A decoded photo: the BGR uint8 (h, w, 3) pixels, and the factor from them to the file's
    pixels (1, 2, 4 or 8: positions read on `frame` times `scale` are positions in the file)."""

    frame: np.ndarray
    scale: int = 1


def halve(image: np.ndarray) -> np.ndarray:
    """Each 2x2 square's mean: half the size (an odd side loses its last row or column)."""
    h, w = image.shape[:2]
    even = image[: h - h % 2, : w - w % 2]
    return cv2.resize(even, (w // 2, h // 2), interpolation=cv2.INTER_AREA)


class Halvings:
    """A frame, its halvings (`halve`) and its area averages (`scaled`), each made once when
    first asked for: the die finder and the tray difference both shrink the frame a reader is
    given, on a calibrated tray by the same scale (to a die 24 px wide). The first halvings
    are most of what a shrink costs, and OpenCV's area average by a factor that is no whole
    fraction is slow (1280x720, one core: 0.8 ms for both stages' halvings, against 0.55 ms for
    the finder's and 1.07 ms for the Gaussian pyramid the tray difference took alone; the last
    step to a die of 24 px 0.65 ms, made once for both)."""

    def __init__(self, frame: np.ndarray) -> None:
        self._levels = [frame]
        self._scaled: dict[tuple[int, float], np.ndarray] = {}

    def __getitem__(self, k: int) -> np.ndarray:
        """The frame halved k times."""
        while len(self._levels) <= k:
            self._levels.append(halve(self._levels[-1]))
        return self._levels[k]

    def scaled(self, scale: float) -> np.ndarray:
        """The frame shrunk by `scale` (at most 1), each pixel the mean of the frame's under
        it: halved while the scale left is under a half (the mean of each 2x2 square is the
        area average's fast case, and the area average of their means is that of the pixels, to
        within the last row or column of an odd side), then area-averaged by what is left, as
        cv2.resize does by a factor. Callers do not write into it."""
        k = 0
        while scale < 0.5 and min(self[k].shape[:2]) >= 4:
            k += 1
            scale *= 2
        if scale >= 1.0:
            return self[k]
        key = (k, scale)
        if key not in self._scaled:
            level = self[k]
            self._scaled[key] = cv2.resize(
                level, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
            )
        return self._scaled[key]


def downsize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` averaged down to `size` (width, height): halved by the Gaussian pyramid while it
    is at least twice as large, then area-averaged the rest of the way. Both average over what
    they drop (no aliasing of pips), and the pyramid costs a fraction of an area resize by an
    odd factor (6 ms for 1280x720 to a third, single-threaded; 1.6 ms so)."""
    width, height = max(1, size[0]), max(1, size[1])
    while image.shape[1] >= 2 * width and image.shape[0] >= 2 * height:
        image = cv2.pyrDown(image)
    if image.shape[1] == width and image.shape[0] == height:
        return image
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)


def frame_problem(frame: object, p: FrameParams = PARAMS.frame) -> str | None:
    """A short explanation of why `frame` cannot be read, or None when it can be examined.

    A readable frame is a BGR uint8 array of shape (h, w, 3), not black, not saturated and not
    flat (a lens cap, a dead camera, a blown exposure all end here, not in the dice finder).
    Most frames show it at a glance (a sparse sample's 2nd and 98th percentiles). One that
    looks black or flat so is looked at whole (`_span`): a die is a small part of a frame,
    and a few dice on black felt or plain paper are dice to read, not a camera fault, where
    they stand out by `die_contrast`. A frame whose every part but a few dice is clipped white
    stays a blown one: a white die there shows nothing but its pips.
    """
    if not isinstance(frame, np.ndarray):
        return f"not an image array ({type(frame).__name__})"
    if frame.dtype != np.uint8:
        return f"pixels are {frame.dtype}, expected uint8"
    if frame.ndim != 3 or frame.shape[2] != 3:
        return f"shape {frame.shape}, expected (height, width, 3) BGR"
    if min(frame.shape[:2]) < p.min_side:
        return f"frame too small ({frame.shape[1]}x{frame.shape[0]})"
    grey = most_channel(frame[::8, ::8])
    low, high = percentile_u8(grey, 2), percentile_u8(grey, 98)
    if low > p.saturated:
        return "frame is saturated"
    if high >= p.black and high - low >= p.min_contrast:
        return None
    if _span(frame, p.least_die) >= p.die_contrast:
        return None  # a few dice, well lit, on a plain surface
    return "frame is black" if high < p.black else "frame is flat (no contrast)"


_CELL = 4  # px a side of the squares _span averages (the frame halved, each pixel then the
# median of its neighbours, halved again, `halve`): sensor noise fades, a stuck pixel is gone,
# a die of `least_die` fills a few


def _span(frame: np.ndarray, least_die: int) -> int:
    """How far apart the darkest and brightest spots of half the smallest die's side are, in
    the channel where they lie furthest apart, on the frame's means over squares of _CELL px:
    what one small die shows against a plain surface (a red die on white paper differs in
    blue and green), and no lone pixel. About 2.5 ms at 1280x720 on one core, so only for
    frames the sparse look doubts."""
    small = halve(cv2.medianBlur(halve(frame), 3))  # _CELL px squares; a stuck pixel is gone
    spot = min(max(int((least_die / (2 * _CELL)) ** 2), 1), small.shape[0] * small.shape[1])
    spans = []
    for channel in cv2.split(small):
        below = np.cumsum(np.bincount(channel.ravel(), minlength=256))  # cells at or under
        darkest = int(np.searchsorted(below, spot))  # the level `spot` cells reach down to
        brightest = int(np.searchsorted(below, below[-1] - spot + 1))  # ...and up to
        spans.append(brightest - darkest)
    return max(spans)


def image_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image file from its header alone. Raises ImageFileError."""
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # the cap is load_image's own, with its own message
    try:
        with Image.open(path) as image:
            return image.size
    except FileNotFoundError:
        raise ImageFileError("no such file") from None
    except IsADirectoryError:
        raise ImageFileError("a folder, not an image") from None
    except UnidentifiedImageError:
        raise ImageFileError("not an image file") from None
    except OSError as error:
        raise ImageFileError(f"cannot open ({error.strerror or error})") from None


def load_image(path: str | Path, p: FrameParams = PARAMS.frame) -> Photo:
    """The photo at `path`, decoded within budget. Raises ImageFileError with the reason."""
    path = Path(path)
    width, height = image_size(path)
    pixels = width * height
    if pixels > p.max_pixels:
        raise ImageFileError(
            f"{width}x{height} is {pixels / 1e6:.0f} megapixels, more than the "
            f"{p.max_pixels / 1e6:.0f} this reader opens"
        )
    scale, flag = 1, cv2.IMREAD_COLOR
    for factor, reduced in _REDUCED:
        if pixels / (scale * scale) <= p.decode_pixels:
            break
        scale, flag = factor, reduced
    frame = cv2.imread(str(path), flag)
    if frame is None:
        raise ImageFileError("not an image OpenCV can decode")
    return Photo(frame, scale)
