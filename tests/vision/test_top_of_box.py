"""Where a camera above sees a die's top face in its box (reframe.top_of_box): beyond the box's
middle, away from the picture's, as the side facing the middle is in view."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.face import read_pips
from vision.params import PARAMS
from vision.photo import leaning_limits
from vision.reframe import top_of_box
from vision.types import Candidate

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-photos"
needs_photos = pytest.mark.skipif(not DATA.is_dir(), reason=f"real photos not found at {DATA}")


def test_the_top_lies_away_from_the_pictures_middle_more_so_farther_out():
    """At the picture's middle the top is the box's middle; off it, the top moves outwards, in
    proportion to the distance and the box's size, `perspective` box sides at a corner."""
    shape = (480, 640, 3)
    p = PARAMS.pips
    assert top_of_box(shape, Candidate((320.0, 240.0), 40.0, 0.9), p) == (320.0, 240.0)
    x, y = top_of_box(shape, Candidate((0.0, 0.0), 40.0, 0.9), p)
    assert np.hypot(x, y) == pytest.approx(p.perspective * 40.0)
    assert x < 0 and y < 0
    near = top_of_box(shape, Candidate((400.0, 240.0), 40.0, 0.9), p)
    far = top_of_box(shape, Candidate((560.0, 240.0), 40.0, 0.9), p)
    assert near[0] > 400.0 and far[0] - 560.0 == pytest.approx(3 * (near[0] - 400.0))
    big = top_of_box(shape, Candidate((560.0, 240.0), 80.0, 0.9), p)
    assert big[0] - 560.0 == pytest.approx(2 * (far[0] - 560.0))


@needs_photos
def test_a_one_near_the_pictures_corner_is_read_on_the_top_beyond_its_box():
    """A 1 near a corner of a development photo (a dark die, its sides in view, its face found
    by colour taking them in): framed at its box's middle its pip lies off the face's middle
    and it is refused; framed where a camera above sees its top, it reads 1."""
    path = DATA / "byler-d6-topdown/images/train/IMG_20191209_100553.jpg"
    frame = cv2.imread(str(path))
    candidate = Candidate(centre=(105.2, 497.8), size=54.1, p_die=0.88)
    lean = leaning_limits(None)
    assert read_pips(frame, candidate, PARAMS.pips, lean).value == 1
    flat = replace(PARAMS.pips, perspective=0.0)
    reading = read_pips(frame, candidate, flat, lean)
    assert reading.value is None and "off centre" in reading.detail
