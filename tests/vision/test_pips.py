"""Pip-like spots counted inside a body of any shape (the heap test)."""

from __future__ import annotations

import numpy as np
import synth
from synth import DrawnDie

from vision.pips import pip_like_spots


def _box(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    return np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.int32)


def test_pips_are_counted_in_an_outline_reaching_past_the_picture():
    """A box drawn round a die at the picture's corner reaches past it: the spots inside the
    picture are counted (the crop was empty, and OpenCV raised), none when it lies all outside."""
    frame = synth.scene([DrawnDie(5, (34, 34), angle=0)], synth.STYLES[-1])
    inside = pip_like_spots(frame, _box(0, 0, 64, 64), 40.0)
    assert inside > 0
    assert pip_like_spots(frame, _box(-40, -40, 64, 64), 40.0) == inside
    assert pip_like_spots(frame, _box(-90, -90, -10, -10), 40.0) == 0
