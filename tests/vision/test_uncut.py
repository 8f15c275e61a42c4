"""photo.uncut: in a single photo a die is cut by the picture's edge where the face its pips
lay out reaches past it, not where the finder's box does (a box near the edge takes in a
shadow or a side). A lone pip lays out no face, and a die with none read stays as found."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.params import PARAMS
from vision.photo import uncut
from vision.reading import RerollReason
from vision.types import Candidate, PipReading

SHAPE = (480, 640, 3)


def _four(x: float, y: float, half: float = 12.0) -> PipReading:
    """A 4 read with its pips `half` px from its middle along each axis."""
    pips = tuple((x + dx * half, y + dy * half) for dx in (-1, 1) for dy in (-1, 1))
    return PipReading(4, 0.9, None, None, "", 4, pips)


def _boxed(x: float, y: float, size: float) -> Candidate:
    return Candidate((x, y), size, 0.9, cut=True)


def test_pips_laying_out_a_face_inside_the_picture_uncut_it():
    """A 4 whose face (corners 2 x 12 px from its middle) lies 10 px inside the top edge; the
    finder's box, 120 px, runs past it."""
    assert not uncut(_boxed(320.0, 34.0, 120.0), _four(320.0, 34.0), SHAPE, PARAMS).cut


@pytest.mark.parametrize("y", [20.0, 460.0])
def test_a_face_reaching_past_the_edge_stays_cut(y):
    assert uncut(_boxed(320.0, y, 80.0), _four(320.0, y), SHAPE, PARAMS).cut


def test_a_turned_face_is_judged_by_its_corners():
    """A 4 turned 45 degrees reaches further along the axes: its corners lie on them."""
    turned = PipReading(4, 0.9, None, None, "", 4, ((320, 16), (338, 34), (320, 52), (302, 34)))
    assert uncut(_boxed(320.0, 34.0, 120.0), turned, SHAPE, PARAMS).cut  # 34 - 2 x 18 < 0
    turned = PipReading(4, 0.9, None, None, "", 4, ((320, 27), (327, 34), (320, 41), (313, 34)))
    assert not uncut(_boxed(320.0, 34.0, 120.0), turned, SHAPE, PARAMS).cut


def test_a_lone_pip_or_no_reading_leaves_it_cut():
    box = _boxed(320.0, 40.0, 120.0)
    one = PipReading(1, 0.9, None, None, "", 1, ((320.0, 40.0),))
    refused = replace(_four(320.0, 40.0), value=None, reason=RerollReason.UNREADABLE)
    assert uncut(box, one, SHAPE, PARAMS).cut
    assert uncut(box, refused, SHAPE, PARAMS).cut


def test_a_die_not_cut_is_left_as_it_is():
    box = replace(_boxed(320.0, 240.0, 60.0), cut=False)
    assert uncut(box, _four(320.0, 240.0), SHAPE, PARAMS) is box
