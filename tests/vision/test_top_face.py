"""The die-aligned resampling every geometric stage reads through (top_face.resample)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.top_face import resample


def smooth_frame(width: int = 900, height: int = 800) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    planes = (
        128 + 100 * np.sin(x / 40) * np.cos(y / 55),
        128 + 90 * np.cos(x / 33),
        128 + 80 * np.sin(y / 47),
    )
    return np.dstack(planes).clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("centre", "angle", "scale"),
    [
        ((431.3, 377.8), 0.0, 0.3),
        ((431.3, 377.8), 37.0, 0.3),
        ((200.6, 610.2), -12.0, 0.7),
        ((450.0, 400.0), 80.0, 0.95),
        ((6.0, 5.0), 30.0, 0.4),
        ((300.0, 300.0), 20.0, 1.7),
    ],
)
def test_the_patch_is_the_frame_where_the_map_says(centre, angle, scale):
    """On a smooth frame the patch matches a plain bilinear warp by the map it returns, at
    every scale, turn and at the frame's edge: shrinking first does not move the patch."""
    frame = smooth_frame()
    patch, matrix = resample(frame, centre, angle, scale, 64)
    plain = cv2.warpAffine(
        frame, matrix, (64, 64), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    assert np.abs(patch.astype(int) - plain).mean() < 0.6


def test_a_large_die_is_seen_as_its_mean_colours_not_its_noise():
    """Shrunk four times, a noisy frame's patch keeps about a quarter of the noise (area
    averaging), not all of it (a sparse bilinear sample)."""
    frame = smooth_frame()
    noise = np.random.default_rng(1).normal(0.0, 20.0, frame.shape)
    noisy = np.clip(frame + noise, 0, 255).astype(np.uint8)
    clean, _ = resample(frame, (431.3, 377.8), 20.0, 0.25, 64)
    patch, _ = resample(noisy, (431.3, 377.8), 20.0, 0.25, 64)
    assert (patch.astype(float) - clean).std() < 8.0
