"""The per-pixel colour helpers equal the numpy reductions they replace."""

from __future__ import annotations

import numpy as np

from vision.colour import least_channel, most_channel, percentile_u8


def test_least_and_most_channel_are_the_per_pixel_min_and_max():
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (45, 61, 3), np.uint8)
    for view in (image, image[::4, ::3], image[3:, 5:]):  # whole, strided, offset
        assert np.array_equal(least_channel(view), view.min(axis=2))
        assert np.array_equal(most_channel(view), view.max(axis=2))
        assert least_channel(view).dtype == np.uint8


def test_percentile_of_uint8_values_matches_a_sorted_count():
    values = np.repeat(np.arange(100, dtype=np.uint8), 3)  # 300 values, 0..99 three times
    assert percentile_u8(values, 50) == 49
    assert percentile_u8(values, 2) == 1
    assert percentile_u8(np.zeros(0, np.uint8), 50) == 0.0
