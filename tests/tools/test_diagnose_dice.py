"""benchmarks/diagnose_dice.py: the refusal counts, how often the searches find a die's pips,
and the montage of refused dice."""

from __future__ import annotations

import cv2
import numpy as np

from benchmarks.diagnose_dice import ROW, TILE, montage, refusal, right_counts, tile
from vision.types import Candidate


def test_refusal_keeps_the_check_and_drops_its_numbers() -> None:
    assert refusal("blurred (pips off centre by 0.31)") == "pips off centre by #"
    assert refusal("a 4 on a face 1.31 long") == "a # on a face # long"
    assert refusal("glare on the face may hide a pip") == "glare on the face may hide a pip"


def test_tile_centres_the_labelled_die() -> None:
    frame = np.zeros((300, 400, 3), np.uint8)
    frame[100:140, 250:290] = 255  # a white die 40 px wide, boxed exactly
    crop = tile(frame, (3, 250, 100, 290, 140))
    assert crop.shape == (TILE, TILE, 3)
    white = np.argwhere(crop[..., 1] > 128)  # green: the value drawn in red stays out
    middle = white.mean(axis=0)
    assert np.allclose(middle, (TILE / 2 - 0.5, TILE / 2 - 0.5), atol=1.5)
    # the crop spans 1.6 boxes: the die is 1/1.6 of the tile wide
    assert abs((white[:, 1].max() - white[:, 1].min() + 1) - TILE / 1.6) <= 2


def test_montage_fills_rows_and_caps_them() -> None:
    tiles = [np.full((TILE, TILE, 3), i, np.uint8) for i in range(ROW + 1)]
    image = montage(tiles)
    assert image.shape == (2 * TILE, ROW * TILE, 3)
    assert image[TILE, TILE].sum() == 0  # the second row's blank
    assert montage(tiles * 40, rows=2).shape[0] == 2 * TILE
    assert montage([]).shape == (TILE, TILE * ROW, 3)


def test_right_counts_finds_a_drawn_faces_pips_and_none_on_a_plain_table() -> None:
    frame = np.full((240, 240, 3), (60, 110, 40), np.uint8)  # green felt
    cv2.rectangle(frame, (90, 90), (150, 150), (225, 232, 239), -1)  # an ivory die, 60 px
    for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):  # a 5
        cv2.circle(frame, (120 + 17 * dx, 120 + 17 * dy), 6, (20, 24, 28), -1, cv2.LINE_AA)
    die = Candidate((120.0, 120.0), 66.0, 0.9)
    right, tried = right_counts(frame, die, 5)
    assert tried > 20
    assert right >= tried // 4  # a clean face's five pips are found often
    assert right_counts(frame, die, 4)[0] <= right // 4  # four, where a framing cuts one off
    plain = np.full_like(frame, (60, 110, 40))
    assert right_counts(plain, die, 5)[0] == 0
