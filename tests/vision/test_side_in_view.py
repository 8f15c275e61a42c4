"""A flat die off the middle of the picture shows a side beside its top, of the die's own colour:
the face found by colour takes it in and runs long. A 4, 5 or 6 whose pips lie square
(types.Leaning.square) is judged by its layout alone; on the kiosk's tray, whose camera looks
straight down, a 1, 2 or 3 whose pips look round (types.Leaning.round, pip_shape.py) too. In a
single photo a hand-held camera's slant stretches every pip: there a long face on a 1, 2 or 3
still means a leaning die."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.synth import IVORY_ON_GREEN, DrawnDie, _face, _to_frame, draw_die, scene
from vision.calibration import Calibration
from vision.face import read_pips
from vision.params import PARAMS
from vision.photo import leaning_limits
from vision.reading import RerollReason
from vision.types import Candidate

PHOTO = leaning_limits(None)
KIOSK = leaning_limits(Calibration(np.array([[0, 0], [639, 0], [639, 479], [0, 479]]), 48.0, None))
SIDE = 48.0


def _with_side(value: int, angle: float, depth: float = 0.7) -> tuple[np.ndarray, Candidate]:
    """A flat die and, beside it, its side seen in perspective (`depth` die sides deep, a
    little darker than the top), and the candidate a finder boxes them by."""
    centre = (320.0, 240.0)
    frame = scene([], IVORY_ON_GREEN)
    side = tuple(int(0.92 * c) for c in IVORY_ON_GREEN.body)
    _face(
        frame,
        _to_frame(centre, angle, 0, (1 + depth) * SIDE / 2),
        angle,
        SIDE,
        depth * SIDE,
        side,
        [],
        IVORY_ON_GREEN.pip,
        SIDE,
    )
    draw_die(frame, DrawnDie(value, centre, SIDE, angle), IVORY_ON_GREEN, shadow=False)
    middle = _to_frame(centre, angle, 0, depth * SIDE / 2)
    return frame, Candidate(middle, SIDE * (1 + depth), 0.9)


@pytest.mark.parametrize("limits", [KIOSK, PHOTO], ids=["kiosk", "photo"])
@pytest.mark.parametrize("angle", [0.0, 20.0])
@pytest.mark.parametrize("value", [4, 5, 6])
def test_a_square_layout_on_a_long_face_is_read(value, angle, limits):
    frame, candidate = _with_side(value, angle)
    reading = read_pips(frame, candidate, PARAMS.pips, limits)
    assert reading.face is not None and reading.face.aspect > PHOTO.face  # the side taken in
    assert reading.value == value


@pytest.mark.parametrize("angle", [0.0, 20.0])
@pytest.mark.parametrize("value", [2, 3])
def test_on_the_kiosks_tray_round_pips_on_a_long_face_are_read(value, angle):
    """(A 1's lone pip lies off the middle of a face found with a side in it, and fits no face
    there: it is refused whatever its pip looks like.)"""
    frame, candidate = _with_side(value, angle)
    reading = read_pips(frame, candidate, PARAMS.pips, KIOSK)
    assert reading.face is not None and reading.face.aspect > KIOSK.face  # the side taken in
    assert reading.value == value
    assert reading.pip_stretch is not None and reading.pip_stretch < KIOSK.round


@pytest.mark.parametrize("value", [1, 2, 3])
def test_in_a_photo_a_face_with_no_layout_to_vouch_for_it_still_leans(value):
    """A 1, 2 or 3 lays its pips out in one direction, and a hand-held camera's slant
    stretches its pips: nothing shows its face is square."""
    frame, candidate = _with_side(value, 0.0)
    reading = read_pips(frame, candidate, PARAMS.pips, PHOTO)
    assert reading.value is None and reading.reason is RerollReason.COCKED


@pytest.mark.parametrize("tilt", [20.0, 30.0, 45.0])
@pytest.mark.parametrize("limits", [KIOSK, PHOTO], ids=["kiosk", "photo"])
def test_a_leaning_die_lays_its_pips_out_too_long_to_count_as_square(tilt, limits):
    """A die leaning 20 degrees or more squashes its layout by 1/cos 20 = 1.064 or more, beyond
    `square`: the square rule changes nothing of how it is read or refused."""
    frame = scene([DrawnDie(5, (320.0, 240.0), SIDE, 10.0, tilt)])
    candidate = Candidate((320.0, 240.0), SIDE * 1.4, 0.9)
    square = read_pips(frame, candidate, PARAMS.pips, limits._replace(square=PHOTO.square))
    never = read_pips(frame, candidate, PARAMS.pips, limits._replace(square=1.0))
    assert square.stretch > PHOTO.square or square.value is None
    assert (square.value, square.reason, square.detail) == (never.value, never.reason, never.detail)
