"""A frame shrunk once for both candidate sources (image.Halvings): each pixel the mean of the
frame's under it, made once where the die finder and the tray difference ask for the same."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice_net
from vision.image import Halvings, halve
from vision.params import PARAMS
from vision.tray_difference import tray_blobs


def _frame(height: int = 720, width: int = 1280) -> np.ndarray:
    rng = np.random.default_rng(7)
    smooth = cv2.GaussianBlur(rng.normal(128, 40, (height, width, 3)), (0, 0), 3)
    return np.clip(smooth, 0, 255).astype(np.uint8)


def test_a_halving_is_each_two_by_two_squares_mean() -> None:
    image = np.array([[0, 4, 8, 8, 1], [4, 8, 0, 0, 1], [9, 9, 9, 9, 9]], np.uint8)
    assert halve(image).tolist() == [[4, 4]]


@pytest.mark.parametrize("scale", [0.9, 0.5, 0.31, 0.2, 0.07])
def test_a_shrink_keeps_the_frames_mean_and_its_size_by_the_factor(scale: float) -> None:
    frame = _frame()
    small = Halvings(frame).scaled(scale)
    assert small.shape[:2] == (round(720 * scale), round(1280 * scale))
    assert small.mean() == pytest.approx(frame.mean(), abs=0.5)


def test_no_shrink_is_the_frame_itself() -> None:
    frame = _frame(64, 96)
    assert Halvings(frame).scaled(1.0) is frame
    assert Halvings(frame).scaled(1.5) is frame


def test_the_finder_and_the_tray_difference_share_one_shrink() -> None:
    """On a calibrated tray both scale the frame to a die `work_die` px wide: the area average,
    slow by a factor that is no whole fraction, is made once."""
    frame, empty = _frame(), _frame()
    die = 96.0
    halvings = Halvings(frame)
    scale = PARAMS.candidates.work_die / die
    assert dice_net.levels(frame.shape, die) == [scale]
    seen = dice_net.shrink(frame, scale, halvings)
    difference = tray_blobs(frame, empty, die, halvings=halvings)
    assert difference._now is seen  # the working copy it compared
    assert halvings.scaled(scale) is seen
