"""A face's pips measured round when it lies flat, 1/cos(tilt) long when it leans."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.synth import DrawnDie, scene
from vision.face import kiosk_leaning, read_pips
from vision.params import PARAMS
from vision.pip_shape import pip_stretch
from vision.reading import RerollReason
from vision.types import Candidate

UP = 8  # the face is drawn this many times larger, then averaged down (as a lens does)
STYLES = {  # face, pip (BGR)
    "ivory, black pips": ((216, 232, 239), (20, 24, 28)),
    "black, white pips": ((26, 26, 26), (242, 242, 242)),
    "red, white pips": ((32, 32, 176), (240, 240, 240)),
}


def _face(value: int, tilt: float, turn: float, face: tuple, pip: tuple, side: float, seed: int):
    """A die's face `side` px wide, tilted by `tilt` degrees about an axis `turn` degrees from
    the picture's x axis (the face foreshortened across that axis), on a 3-side frame, with
    a little blur and sensor noise; and where its pips lie (frame px)."""
    rng = np.random.default_rng(seed)
    size = round(3 * side)
    big = np.zeros((size * UP, size * UP, 3), np.uint8)  # drawn large, then averaged down
    big[:] = face
    shrink = math.cos(math.radians(tilt))
    a = math.radians(turn)
    across = np.array([-math.sin(a), math.cos(a)])  # foreshortened along this direction
    along = np.array([math.cos(a), math.sin(a)])
    places = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)]}[value]
    radius = (0.11 if value == 1 else 0.09) * side
    centre = np.array([size / 2, size / 2])
    pips = []
    for u, v in places:
        x, y = centre + 0.27 * side * (u * along + v * across * shrink)
        pips.append((float(x), float(y)))
        where = (round((x + 0.5) * UP - 0.5), round((y + 0.5) * UP - 0.5))
        axes = (round(radius * UP), round(radius * shrink * UP))
        cv2.ellipse(big, where, axes, turn, 0, 360, pip, -1, cv2.LINE_AA)
    image = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    image += rng.normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8), tuple(pips), radius


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("value", [1, 2, 3])
def test_a_flat_face_shows_its_pips_round(style, value):
    for seed, (side, turn) in enumerate([(50, 0), (64, 30), (90, 55), (70, 80)]):
        frame, pips, radius = _face(value, 0, turn, *STYLES[style], side, seed)
        stretch = pip_stretch(frame, pips, radius)
        assert stretch is not None and stretch < 1.03, (side, turn, stretch)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("tilt", [20, 27, 34])
def test_a_leaning_face_shows_its_pips_one_over_cos_tilt_long(style, tilt):
    """A die leaning on the wall by 20-34 degrees (the simulated tray's range)."""
    expected = 1 / math.cos(math.radians(tilt))
    for seed, (value, side, turn) in enumerate([(1, 50, 10), (2, 64, 45), (3, 80, 100)]):
        frame, pips, radius = _face(value, tilt, turn, *STYLES[style], side, seed)
        stretch = pip_stretch(frame, pips, radius)
        assert stretch is not None
        assert abs(stretch - expected) < 0.03, (value, side, turn, stretch, expected)
        assert stretch > PARAMS.pips.cocked_pips


def test_pips_that_do_not_stand_out_are_not_measured():
    frame, pips, radius = _face(2, 0, 0, (120, 120, 120), (124, 124, 124), 60, 0)
    assert pip_stretch(frame, pips, radius) is None
    assert pip_stretch(frame, (), radius) is None
    assert pip_stretch(frame, pips, 0.5) is None  # no pip is half a pixel wide


@pytest.mark.parametrize("value", [1, 2, 3, 5])
def test_the_pip_reading_measures_them_on_a_1_2_or_3(value):
    """read_pips measures the pips of a 1, 2 or 3, where no layout shows a tilt; a flat one's
    are round, wherever it lies on the kiosk's tray. A 4-6's layout shows it."""
    frame = scene([DrawnDie(value, (320.0, 240.0), 60.0, 20.0)])
    for at_wall in (True, False):
        reading = read_pips(frame, Candidate((320.0, 240.0), 60.0, 0.9, at_wall=at_wall))
        assert reading.value == value
        if value <= 3:
            assert reading.pip_stretch is not None and reading.pip_stretch < 1.03
        else:
            assert reading.pip_stretch is None


@pytest.mark.parametrize("tilt", [20.0, 30.0])
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_a_die_leaning_20_degrees_or_more_is_refused_by_its_pips(value, tilt):
    """On the kiosk's tray (face.kiosk_leaning) a die leaning on the wall or on another die is
    refused by its pips whatever its face measures: a 1-3's look 1/cos(tilt) long, a 4-6's
    layout too. Without those limits, a die leaning 20 degrees is read (its face found by
    colour is not long enough to show it)."""
    frame = scene([DrawnDie(value, (320.0, 240.0), 60.0, 20.0, tilt=tilt)])
    for at_wall in (True, False):
        candidate = Candidate((320.0, 240.0), 60.0, 0.9, at_wall=at_wall)
        reading = read_pips(frame, candidate, PARAMS.pips, kiosk_leaning())
        assert reading.value is None and reading.reason is RerollReason.COCKED, reading
        assert "long" in reading.detail
    loose = kiosk_leaning()._replace(stretch=1.2, round=1.0, square=1.0)
    if tilt == 20.0:
        assert read_pips(frame, candidate, PARAMS.pips, loose).value == value


def test_pips_read_a_pixel_off_their_centres_still_measure_round():
    """The reading's pip centres are good to about a pixel; the outline is measured again
    centred on itself, so the ring around it keeps clear of its rim."""
    frame, pips, radius = _face(2, 0, 30, *STYLES["black, white pips"], 48, 0)
    off = tuple((x + 0.9, y + 0.9) for x, y in pips)
    stretch = pip_stretch(frame, off, radius * 0.9)
    assert stretch is not None and stretch < 1.03


def test_a_fleck_beside_one_pip_does_not_make_the_face_lean():
    """A tilt stretches every pip of a face alike; a fleck beside one pip stretches that one:
    the roundest pip is the face's answer."""
    frame, pips, radius = _face(2, 0, 0, *STYLES["ivory, black pips"], 60, 0)
    x, y = pips[0]
    cv2.circle(frame, (round(x + radius), round(y)), round(0.6 * radius), (20, 24, 28), -1)
    assert pip_stretch(frame, pips[:1], radius) > PARAMS.pips.cocked_pips  # the fleck's pip
    assert pip_stretch(frame, pips, radius) < 1.03


@pytest.mark.parametrize("value", [2, 5])
def test_a_die_with_nothing_to_lean_on_leans_only_where_face_and_pips_both_show_it(value):
    """A die clear of the wall and of other dice (candidates.free_standing) rests on a face:
    real drilled pips and lenses make flat dice's pips look 1.05-1.3 long on square faces.
    Drawn tilted 25 degrees, its pips look 1.10 long on a face found nearly square: refused
    where it could lean, read where it stands free. Tilted 45 degrees, its face is found long
    too: refused either way."""
    candidate = Candidate((320.0, 240.0), 60.0, 0.9)
    slight = scene([DrawnDie(value, (320.0, 240.0), 60.0, 20.0, tilt=25.0)])
    leaning = read_pips(slight, candidate, PARAMS.pips, kiosk_leaning())
    assert leaning.value is None and leaning.reason is RerollReason.COCKED
    free = read_pips(slight, candidate, PARAMS.pips, kiosk_leaning(free=True))
    assert free.value == value
    if value <= 3:
        assert free.pip_stretch is not None and free.pip_stretch > PARAMS.pips.cocked_pips
    steep = scene([DrawnDie(value, (320.0, 240.0), 60.0, 20.0, tilt=45.0)])
    reading = read_pips(steep, candidate, PARAMS.pips, kiosk_leaning(free=True))
    assert reading.value is None and reading.reason is RerollReason.COCKED
