"""The changes eval_robustness.py makes to a photo keep its label boxes on its dice."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from eval_robustness import CHANGES  # noqa: E402


def photo_with_a_die() -> tuple[np.ndarray, list]:
    """A dark 'die' square at x 50-69, y 20-29 of a grey 80 x 120 frame, boxed as a 4."""
    frame = np.full((80, 120, 3), 128, np.uint8)
    frame[20:30, 50:70] = 10
    return frame, [(4, 50.0, 20.0, 69.0, 29.0)]


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_change_keeps_the_box_on_the_die(name):
    frame, boxes = photo_with_a_die()
    changed, moved = CHANGES[name](frame.copy(), boxes)
    (value, x0, y0, x1, y1) = moved[0]
    assert value == 4
    inside = changed[round(y0) : round(y1) + 1, round(x0) : round(x1) + 1].mean()
    assert inside < changed.mean() - 30  # the box still holds the dark square


def test_the_quarter_turn_and_the_sizes_change_the_frame_as_they_say():
    frame, boxes = photo_with_a_die()
    turned, _ = CHANGES["turned 90"](frame, boxes)
    half, _ = CHANGES["half size"](frame, boxes)
    assert turned.shape[:2] == (120, 80) and half.shape[:2] == (40, 60)
