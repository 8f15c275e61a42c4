"""The face the pips lay out (layout.py) and pips no die accounts for (strays.py)."""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.synth import EVEN_SIX, RED_ON_LIGHT, DrawnDie, Style, marbled, scene
from vision.face import read_pips
from vision.layout import box_spots, laid_out
from vision.params import PARAMS
from vision.reader import inspect, read_roll
from vision.strays import _grouped, missed_dice
from vision.types import Candidate

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-photos"
needs_photos = pytest.mark.skipif(not DATA.is_dir(), reason=f"real photos not found at {DATA}")


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0.0, 27.0, 45.0])
def test_pips_lay_out_the_face_off_the_box_centre(value, angle):
    """A die off its box's centre (the box takes in a side): the face is centred on its pips."""
    frame = scene([DrawnDie(value, (300.0, 240.0), 48.0, angle)], RED_ON_LIGHT)
    candidate = Candidate(centre=(291.0, 247.0), size=64.0, p_die=0.9)
    found = laid_out(frame, candidate, PARAMS.pips)
    assert found is not None
    (x, y), turn = found
    assert np.hypot(x - 300.0, y - 240.0) < 3.0
    assert min((turn - angle) % 90, (angle - turn) % 90) < 6.0


def test_no_face_is_laid_out_on_plain_table():
    frame = scene([], RED_ON_LIGHT)
    assert laid_out(frame, Candidate((300.0, 240.0), 60.0, 0.5), PARAMS.pips) is None
    assert len(box_spots(frame, Candidate((300.0, 240.0), 60.0, 0.5), PARAMS.pips)[0]) == 0


@needs_photos
def test_a_die_whose_sides_take_the_top_colour_is_read_from_its_pips():
    """A red 4 turned 45 degrees with its red sides in view (a development photo): the face
    found by colour runs into the sides; the pips' layout frames it and it reads 4."""
    path = DATA / "byler-d6-topdown/images/train/IMG_20191208_111228.jpg"
    frame = cv2.imread(str(path))
    candidate = Candidate(centre=(509.7, 338.7), size=50.8, p_die=0.82)
    reading = read_pips(frame, candidate, PARAMS.pips)
    assert reading.value == 4, reading.detail
    no_layout = replace(
        PARAMS.pips, laid_out_spots=0, pip_axes=(), learned=False, blobs=False, perspective=0.0
    )
    assert read_pips(frame, candidate, no_layout).value is None  # the colour face alone fails


@needs_photos
def test_a_die_the_finder_missed_is_seen_by_its_pips():
    """Leave one read die out of the verdicts, as if the finder had missed it: its pips are
    strays that the classifier takes for a face, and the box given lies on that die."""
    path = DATA / "skovy-two-dice/images/train/WIN_20221210_14_49_12_Pro.jpg"
    frame = cv2.imread(str(path))
    roll, verdicts = inspect(frame, expect=None)
    assert roll.ok and len(roll.dice) == 2
    dropped = next(v for v in verdicts if v.die is not None)
    rest = [v for v in verdicts if v is not dropped]
    boxes = missed_dice(frame, rest, PARAMS)
    (x, y), side = dropped.die.center, dropped.die.size
    assert any(np.hypot(bx - x, by - y) < 0.5 * side for bx, by, _, _ in boxes)


@needs_photos
def test_a_shoe_and_wood_grain_are_no_missed_die():
    """The photo's stray spots (a patterned shoe, knots) are not taken for a face: read ok."""
    path = DATA / "skovy-two-dice/images/train/WIN_20221210_14_49_12_Pro.jpg"
    frame = cv2.imread(str(path))
    _, verdicts = inspect(frame, expect=None)
    assert missed_dice(frame, verdicts, PARAMS)  # there are stray spots...
    assert read_roll(frame, expect=None).ok  # ...and none is a die's face


def _with_fleck(value: int, angle: float, at: tuple[float, float]) -> np.ndarray:
    """A die with a dark fleck on its face (a speck of marbling, a chip) at `at`, in die sides
    from its centre along its own axes."""
    centre, side = (300.0, 240.0), 48.0
    frame = scene([DrawnDie(value, centre, side, angle)])
    a = np.radians(angle)
    ux, uy = at[0] * side, at[1] * side
    x = centre[0] + np.cos(a) * ux - np.sin(a) * uy
    y = centre[1] + np.sin(a) * ux + np.cos(a) * uy
    cv2.circle(frame, (round(x), round(y)), round(0.045 * side), (25, 25, 25), -1, cv2.LINE_AA)
    return frame


@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_a_fleck_beside_the_middle_place_is_no_middle_pip(angle):
    """A 2 with a fleck half a pip spacing from its middle: the three spots lie near enough to
    a 3's layout, but the 3's middle place holds no pip, and the 2 is not read as a 3."""
    frame = _with_fleck(2, angle, (0.0, 0.135))
    candidate = Candidate((300.0, 240.0), 52.0, 0.9)
    assert read_pips(frame, candidate, PARAMS.pips).value in (None, 2)
    any_size = replace(PARAMS.pips, pip_ratio=2.6)  # the fleck passes for a pip by its size
    assert read_pips(frame, candidate, any_size).value in (None, 2)
    loose = replace(
        any_size, grid_on=0.0, face_of_box=(1.25,), laid_out_spots=0, unexplained_reach=0.0
    )
    assert read_pips(frame, candidate, loose).value == 3  # what the place check prevents


@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_a_fleck_beside_a_lone_pip_is_no_second_pip(angle):
    """Any two spots lie like the pips of a 2; a 1 with a fleck half its size is not a 2,
    because the pips of one die are of one size."""
    frame = _with_fleck(1, angle, (0.27, 0.135))
    candidate = Candidate((300.0, 240.0), 52.0, 0.9)
    assert read_pips(frame, candidate, PARAMS.pips).value in (None, 1)
    assert read_pips(frame, candidate, replace(PARAMS.pips, pip_ratio=2.6)).value == 2


MARBLED_BLUE = Style(body=(150, 70, 20), pip=(40, 40, 210), tray=(200, 205, 210))


@functools.lru_cache(maxsize=4)
def _marbled_readings(p):
    """(value, read) for marbled blue dice with red pips: every value, three turns, two sizes,
    four marblings (read once per parameter set: two tests share them)."""
    out = []
    for value, angle, side, seed in itertools.product(
        range(1, 7), (0.0, 20.0, 45.0), (40.0, 60.0), range(4)
    ):
        frame = scene([DrawnDie(value, (320.0, 240.0), side, angle)], MARBLED_BLUE)
        frame = marbled(frame, MARBLED_BLUE, side, seed=10 * seed + value)
        reading = read_pips(frame, Candidate((320.0, 240.0), side, 0.9), p)
        out.append((value, reading.value))
    return tuple(out)


def test_pips_on_a_marbled_face_are_found_along_their_own_colour_axis():
    """Marbling varies a face's lightness; red pips differ from it in redness. Sought along
    each colour axis, more of these dice are read than by any colour difference alone."""
    along_axes = _marbled_readings(PARAMS.pips)
    any_difference = _marbled_readings(replace(PARAMS.pips, pip_axes=()))
    right = sum(v == r for v, r in along_axes)
    assert right > sum(v == r for v, r in any_difference)
    assert right >= 0.7 * len(along_axes)


def test_a_marbled_die_is_never_read_as_a_part_of_its_pips():
    """A layout fitted to some of a face's pips (a 2 on the middle and a corner of a 3 whose
    third pip the marbling hid from the spots) leaves a pip off its places: refused."""
    readings = _marbled_readings(PARAMS.pips)
    assert [(v, r) for v, r in readings if r is not None and r != v] == []
    unchecked = _marbled_readings(replace(PARAMS.pips, unexplained_reach=0.0))
    assert any(r is not None and r != v for v, r in unchecked)  # what the check prevents


@pytest.mark.parametrize("angle", [0.0, 30.0, 60.0])
def test_a_six_of_the_even_grid_design_is_read_as_six(angle, monkeypatch):
    """A 6 with its pips on an even grid of two by three (damiantab-phone's dice are so): read
    6. Knowing only the standard 6, the pip reading reads no 6 there (at 30 and 60 degrees, a
    4 from a two-by-two block of the six, which the classifier then has to refuse)."""
    frame = scene([DrawnDie(6, (320.0, 240.0), 60.0, angle, pips=EVEN_SIX)])
    candidate = Candidate((320.0, 240.0), 64.0, 0.9)
    assert read_pips(frame, candidate, PARAMS.pips).value == 6
    monkeypatch.setattr("vision.pip_fit.SIX_LINES", (1.0,))
    assert read_pips(frame, candidate, PARAMS.pips).value != 6


def _grouped_by_pairs(points, reach):
    """The groups as chains of pairs closer than reach, found the slow way: every pair."""
    groups = [{i} for i in range(len(points))]
    for i, j in itertools.combinations(range(len(points)), 2):
        if np.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]) < reach:
            a = next(g for g in groups if i in g)
            b = next(g for g in groups if j in g)
            if a is not b:
                groups.remove(b)
                a |= b
    return groups


def test_stray_pips_group_in_chains_largest_first():
    """Pips of one face are grouped through their neighbours (a 6's far corners are more than
    `reach` apart), and every pair closer than reach is in one group, however many points the
    scan found: the grouping bins points into cells, the check is against every pair."""
    six = [(100.0 + 10 * dx, 100.0 + 10 * dy) for dx in (0, 1) for dy in (0, 1, 2)]
    lone = [(300.0, 40.0)]
    two = [(200.0, 300.0), (208.0, 306.0)]
    assert _grouped(lone + two + six, 12.0) == [(105.0, 110.0), (204.0, 303.0), (300.0, 40.0)]
    rng = np.random.default_rng(3)
    for _ in range(200):
        points = [tuple(map(float, p)) for p in rng.uniform(0, 200, (rng.integers(1, 60), 2))]
        reach = float(rng.uniform(2, 40))
        sizes = sorted(len(g) for g in _grouped_by_pairs(points, reach))
        centres = _grouped(points, reach)
        assert len(centres) == len(sizes)
        expected = sorted(
            (np.mean([points[i] for i in g], axis=0) for g in _grouped_by_pairs(points, reach)),
            key=lambda c: (c[0], c[1]),
        )
        assert np.allclose(sorted(centres), [tuple(c) for c in expected])
