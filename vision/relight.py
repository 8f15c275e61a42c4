"""What a change of light does not explain between two small images of the tray.

A visitor leaning over the tray to look at the dice, or the sun coming out through a window,
changes many pixels of the tray and nothing on it: no throw was made and the last answer
stands. Light multiplies each channel by a factor that varies slowly over the tray (a shadow's
edge may be sharp, but it is one edge among many pixels of one factor); a hand, a die moved,
anything that came or went, changes its own patch otherwise. `unexplained` matches the light
around each pixel, each channel's factor the median over `span` pixels, and returns what still
differs: an object keeps its edge band unexplained however large it is (the median there is
the floor's), a change of light leaves nothing.

`evenly_lit` tells which dice lie in light other than most of the tray's (against the empty
tray): the kiosk's reader learns what flat faces measure only from dice in the tray's own
light (tray_reader.TrayReader).

Contract of `unexplained`: a and b are small float32 images (h, w) or (h, w, 3) of one shape
(settle.py's work copies, motion.shrink), mask uint8 (h, w) 0/255, level in grey levels, span
in work pixels. Pure; about 1 ms at 160x90.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.motion import beyond

_NEAR = np.ones((3, 3), np.uint8)
CLIPPED = 250.0  # a work copy's value at which the camera clipped (averaged down, nearly 255)
LIGHT_ERROR = 0.1  # how far off the light's factor may be where it is matched: the median over
# `span` of a soft shadow's edge lies up to 7% off the factor on a die there (a white die half
# in a visitor's shadow, 103 -> 214 under a field of 1.9-2.0: 14 levels beyond, which took a
# visitor leaning in and out for a hand), and a relit value is as far off as its factor


def unexplained(
    a: np.ndarray, b: np.ndarray, mask: np.ndarray, level: float, span: float
) -> np.ndarray:
    """uint8 mask (255) of the pixels inside `mask` where `a` differs from `b` by more than
    `level` once the light is matched around each pixel: `b` relit by the least and the most
    factor found within a pixel (the field's edge is known to a pixel), each give or take
    LIGHT_ERROR, and a pixel of `a` differs only outside the range of relit `b` over its 3x3
    neighbourhood (a fixed camera still shakes by a fraction of a work pixel when the table is
    knocked). The camera clips: relit values over 255 are 255, and what `b` shows clipped
    (CLIPPED or more) may have been any brighter value (a white die in the sun, then in the
    shade). A lone pixel is dropped (motion.beyond)."""
    ratio = np.log2((a + 1.0) / (b + 1.0))
    coded = np.clip(128 + 32 * ratio, 0, 255).astype(np.uint8)  # in 1/32 stops
    least, most = light_field(coded, max(3, 2 * int(span // 2) + 1))
    brightest = np.float32(255)  # the camera clips: a white die in the sun shows 255
    low = np.minimum(cv2.min(b * least, b * most) * (1 - LIGHT_ERROR), brightest)
    high = cv2.max(b * least, b * most) * (1 + LIGHT_ERROR)
    high = np.where(b >= CLIPPED, brightest, np.minimum(high, brightest))
    low, high = cv2.erode(low, _NEAR), cv2.dilate(high, _NEAR)
    outside = cv2.max(cv2.subtract(a, high), cv2.subtract(low, a))
    return cv2.bitwise_and(beyond(outside, level), mask)


def light_field(stops: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The light around each pixel from how each pixel changed: `stops` uint8 (h, w) or
    (h, w, 3), each channel's change coded in 1/32 stops about 128 (samples to be passed over
    coded alternately 0 and 255); each channel's median over k pixels (k odd), as factors
    (float32), then the least and the most within a pixel (a median keeps a sharp edge of the
    light to within a pixel)."""
    planes = cv2.split(stops) if stops.ndim == 3 else [stops]
    medians = [cv2.medianBlur(np.ascontiguousarray(plane), k) for plane in planes]
    field = cv2.merge(medians) if stops.ndim == 3 else medians[0]
    light = np.exp2((field.astype(np.float32) - 128) / 32)
    return cv2.erode(light, _NEAR), cv2.dilate(light, _NEAR)


EVEN = 0.2  # stops: light around a die differing from the tray's own change by more is uneven
# (a sunbeam is 0.4-1 stops, a visitor's shadow 0.3-1.3; a camera's noise a few hundredths)
AROUND = 1.5  # die sides: the light around a die is taken within this of its centre


def evenly_lit(
    frame: np.ndarray, empty: np.ndarray, dice: list[tuple[float, float, float]]
) -> list[bool]:
    """For each die (x, y, side in px), whether the light around it changed since the empty
    tray as most of the picture's did (each channel's median change within AROUND die sides
    against the whole picture's, in stops, within EVEN): a face measured in a sunbeam or a
    visitor's shadow has edges of another contrast, and is no measure of what flat faces
    measure in the tray's own light; a change over the whole tray (the lamp dimmed) is that
    light. frame and empty: BGR uint8 of one shape."""

    def stops(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ratio = np.log2((a.reshape(-1, 3).astype(np.float32) + 1) / (b.reshape(-1, 3) + 1.0))
        return np.median(ratio, axis=0)

    whole = stops(frame[::8, ::8], empty[::8, ::8])
    h, w = frame.shape[:2]
    even = []
    for x, y, side in dice:
        r = AROUND * side
        x0, x1 = max(0, int(x - r)), min(w, int(x + r) + 1)
        y0, y1 = max(0, int(y - r)), min(h, int(y + r) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            even.append(False)
            continue
        here = stops(frame[y0:y1:2, x0:x1:2], empty[y0:y1:2, x0:x1:2])
        even.append(bool(np.max(np.abs(here - whole)) <= EVEN))
    return even
