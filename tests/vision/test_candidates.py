"""Where dice may be (vision/candidates.py): on a calibrated tray the calibration fixes the
size of every candidate, whatever size the die finder guessed; the tray difference finds a die
the finder missed beside another; a face is sought on a die's own side of its neighbours."""

from __future__ import annotations

import numpy as np
import pytest
import synth
from synth import DrawnDie

from vision.calibration import Calibration
from vision.candidates import _missed, apart, find_candidates, free_standing
from vision.face import box_outline
from vision.params import PARAMS
from vision.tray_difference import tray_blobs
from vision.types import Candidate


def test_on_a_tray_of_known_die_size_every_candidate_is_of_that_size() -> None:
    """A mark's own size is the finder's guess; on a black die in a shadow it may be one
    pip's. Both readings look at the candidate's box: the calibration's die size (a top
    face's side times `body_of_face`) frames the whole die."""
    frame = synth.three_dice((2, 4, 6), synth.IVORY_ON_GREEN)
    empty = synth.tray(frame.shape[1], frame.shape[0], synth.IVORY_ON_GREEN, seed=8)
    found, _ = find_candidates(frame, Calibration(empty=empty, die_size=40.0))
    die = 40.0 * PARAMS.candidates.body_of_face
    assert len(found) >= 3 and all(c.size == die for c in found)
    bare, _ = find_candidates(frame)  # no calibration: the finder's own sizes
    assert len({round(c.size, 1) for c in bare}) > 1


def test_a_die_seen_alone_clear_of_the_wall_and_of_every_other_candidate_stands_free() -> None:
    """A cube on a flat floor rests on a face: it leans only on the wall, on another die, or on
    what the tray difference shows beside it. Without its own outline (a sunbeam across the
    dice makes one blob of them) nothing shows it clear of the wall."""
    own = box_outline((100.0, 100.0), 50.0)  # as the tray difference outlines a die alone
    alone = Candidate((100.0, 100.0), 50.0, 0.9, True, own)
    assert free_standing(alone, [alone])
    assert not free_standing(Candidate((100.0, 100.0), 50.0, 0.9), [alone])  # no outline
    assert not free_standing(Candidate((100.0, 100.0), 50.0, 0.9, True, own, at_wall=True), [alone])
    reach = PARAMS.candidates.support * 50.0
    near = Candidate((100.0 + 0.9 * reach, 100.0), 50.0, 0.2)  # anything beside it counts
    far = Candidate((100.0, 100.0 + 1.1 * reach), 50.0, 0.9)
    assert not free_standing(alone, [alone, near, far])
    assert free_standing(alone, [alone, far])


@pytest.mark.parametrize("style", [synth.IVORY_ON_GREEN, synth.STYLES[1]], ids=["ivory", "other"])
@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_a_die_the_finder_missed_beside_a_marked_one_is_found_in_the_tray_difference(
    style, angle
) -> None:
    """Two dice face against face, the finder marking one: the blob of the tray difference
    holds both, and the missed die's middle is the deepest point of the blob once a disc about
    the mark is cut out. A blob of one die more, not more."""
    turn = np.exp(1j * np.radians(angle))
    marked, missed = (300.0, 240.0), (300.0 + 48 * turn.real, 240.0 + 48 * turn.imag)
    frame = synth.scene([DrawnDie(3, marked, angle=angle), DrawnDie(5, missed, angle=angle)], style)
    empty = synth.tray(frame.shape[1], frame.shape[0], style, seed=8)
    die = 48.0 * PARAMS.candidates.body_of_face
    difference = tray_blobs(frame, empty, die)
    (outline,) = difference.outlines
    found = _missed(difference, outline, [marked], die, PARAMS.candidates)
    assert found is not None and found.p_die == 0.0 and found.on_tray
    # near enough that a box of the die's size about it holds its face (a shadow's rim left
    # in the blob moves it a little)
    assert np.hypot(found.centre[0] - missed[0], found.centre[1] - missed[1]) < 0.2 * 48
    # with both marked the blob holds no die more; a lone die's blob holds none either
    assert _missed(difference, outline, [marked, missed], die, PARAMS.candidates) is None
    lone = synth.scene([DrawnDie(3, marked, angle=angle)], style)
    (alone,) = tray_blobs(lone, empty, die).outlines
    assert _missed(tray_blobs(lone, empty, die), alone, [marked], die, PARAMS.candidates) is None


def test_a_missed_die_is_found_at_its_own_middle_whatever_the_size_of_its_neighbours() -> None:
    """A die seen larger than its set (one nearer the camera, or showing a side) shares the
    blob: the missed die is still found on its own square. (The blob's centroid, weighted by
    the larger die, would put it 25 px, half a face, towards the marks.)"""
    big, beside, missed = (300.0, 240.0), (354.0, 240.0), (402.0, 240.0)
    dice = [DrawnDie(3, big, side=60.0), DrawnDie(4, beside), DrawnDie(5, missed)]
    frame = synth.scene(dice, synth.IVORY_ON_GREEN)
    empty = synth.tray(frame.shape[1], frame.shape[0], synth.IVORY_ON_GREEN, seed=8)
    die = 48.0 * PARAMS.candidates.body_of_face
    difference = tray_blobs(frame, empty, die)
    (outline,) = difference.outlines
    found = _missed(difference, outline, [big, beside], die, PARAMS.candidates)
    assert found is not None
    assert np.hypot(found.centre[0] - missed[0], found.centre[1] - missed[1]) < 0.2 * 48


def test_a_box_is_cut_at_the_midline_to_a_die_beside_it_only() -> None:
    """A face is sought on this die's side of the midline to another die's middle; a mark on
    its own face (nearer than `beside`) or one far away cuts nothing."""
    c = Candidate((100.0, 100.0), 60.0, 0.9)
    cut = apart(c, c.centre, [(154.0, 100.0)], 60.0)
    xs = np.asarray(cut.outline).reshape(-1, 2)[:, 0]
    assert xs.min() == pytest.approx(70.0) and xs.max() == pytest.approx(127.0)
    assert apart(c, c.centre, [(110.0, 100.0), (250.0, 100.0)], 60.0) is c
