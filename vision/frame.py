"""Is this a frame the reader can look at at all? Checks done before any dice are sought."""

from __future__ import annotations

import numpy as np

from vision.colour import percentile_u8

MIN_SIDE = 32  # pixels; smaller frames cannot hold a readable die
MIN_CONTRAST = 12  # grey levels between the 2nd and 98th percentiles


def frame_problem(frame: object) -> str | None:
    """A short explanation of why `frame` cannot be read, or None when it can be examined.

    A readable frame is a BGR uint8 array of shape (h, w, 3), not black, not saturated and not
    flat (a lens cap, a dead camera, a blown exposure all end here, not in the dice finder).
    """
    if not isinstance(frame, np.ndarray):
        return f"not an image array ({type(frame).__name__})"
    if frame.dtype != np.uint8:
        return f"pixels are {frame.dtype}, expected uint8"
    if frame.ndim != 3 or frame.shape[2] != 3:
        return f"shape {frame.shape}, expected (height, width, 3) BGR"
    if min(frame.shape[:2]) < MIN_SIDE:
        return f"frame too small ({frame.shape[1]}x{frame.shape[0]})"
    grey = frame[::8, ::8].max(axis=2)
    low, high = percentile_u8(grey, 2), percentile_u8(grey, 98)
    if high < 25:
        return "frame is black"
    if low > 245:
        return "frame is saturated"
    if high - low < MIN_CONTRAST:
        return "frame is flat (no contrast)"
    return None
