"""The frame checks (image.frame_problem): a camera fault is a bad frame, a few small dice on a
plain dark or blown-white surface are not."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.synth import Style, three_dice
from vision.image import frame_problem
from vision.reader import read_roll
from vision.reading import RerollReason

REPO = Path(__file__).resolve().parents[2]
BYLER = REPO.parent / "shared" / "data" / "dice-photos" / "byler-d6-topdown" / "images" / "train"

# white dice on black felt: the felt is all but black to the camera
WHITE_ON_BLACK_FELT = Style(body=(225, 225, 220), pip=(20, 20, 20), tray=(8, 8, 10))
# red dice on plain white paper: one grey level wherever the dice are not
RED_ON_PAPER = Style(body=(40, 40, 200), pip=(245, 245, 245), tray=(226, 228, 230))


def sensor(frame: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, sigma, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("style", [WHITE_ON_BLACK_FELT, RED_ON_PAPER], ids=["felt", "paper"])
def test_three_small_dice_on_a_plain_surface_are_read_not_refused_as_a_bad_frame(style):
    """Three 30 px dice are 0.3% of a 1280x720 frame: its 2nd and 98th percentiles are the
    surface's, black or one grey, yet the dice are there to read."""
    frame = sensor(three_dice((2, 4, 6), style, side=30.0, width=1280, height=720), 1.5)
    assert frame_problem(frame) is None
    roll = read_roll(frame, expect=3)
    assert roll.ok and sorted(roll.values) == [2, 4, 6], roll


def test_one_die_of_the_smallest_size_keeps_a_black_frame_readable():
    frame = sensor(np.full((720, 1280, 3), 6, np.uint8), 2.0)
    cv2.rectangle(frame, (600, 300), (614, 314), (180, 180, 180), -1)  # a 15 px die
    assert frame_problem(frame) is None


@pytest.mark.parametrize(
    ("fault", "level", "message"),
    [
        ("lens cap", 8, "frame is black"),
        ("blown exposure", 252, "frame is saturated"),
        ("grey card", 128, "frame is flat (no contrast)"),
    ],
)
def test_a_camera_fault_with_sensor_noise_and_stuck_pixels_is_a_bad_frame(fault, level, message):
    """Noise and a few stuck pixels (hot on a dark frame, dead on a bright one) are no dice:
    the check looks at spots of half the smallest die's side, not at lone pixels."""
    frame = sensor(np.full((720, 1280, 3), level, np.uint8), 3.0)
    rng = np.random.default_rng(1)
    ys, xs = rng.integers(0, 720, 40), rng.integers(0, 1280, 40)
    frame[ys, xs] = 0 if level > 128 else 255
    assert frame_problem(frame) == message, fault
    assert read_roll(frame).reason is RerollReason.BAD_FRAME


@pytest.mark.skipif(not BYLER.is_dir(), reason="real photo sets not present")
@pytest.mark.parametrize(
    ("photo", "gain", "message"),
    [
        ("IMG_20191209_100722.jpg", 0.15, "frame is flat (no contrast)"),
        ("IMG_20191208_111710.jpg", 2.0, "frame is saturated"),
    ],
    ids=["dim", "blown"],
)
def test_a_real_photo_exposed_too_far_to_read_safely_is_a_bad_frame(photo, gain, message):
    """byler's light box at 0.15 of the light: its dice span 38 grey levels or less, and let
    through, the first photo was read with a 6 as a 5. Twice as bright: the box clips white
    around the dice, and white dice there show only their pips (let through, the second photo
    was answered a die short)."""
    frame = cv2.convertScaleAbs(cv2.imread(str(BYLER / photo)), alpha=gain)
    assert frame_problem(frame) == message
    assert read_roll(frame, expect=None).reason is RerollReason.BAD_FRAME
