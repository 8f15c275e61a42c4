"""Where dice may be (vision/candidates.py): on a calibrated tray the calibration fixes the
size of every candidate, whatever size the die finder guessed."""

from __future__ import annotations

import synth

from vision.calibration import Calibration
from vision.candidates import find_candidates, free_standing
from vision.params import PARAMS
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


def test_a_die_clear_of_the_wall_and_of_every_other_candidate_stands_free() -> None:
    """A cube on a flat floor rests on a face: it leans only on the wall or on another die."""
    alone = Candidate((100.0, 100.0), 50.0, 0.9)
    assert free_standing(alone, [alone])
    assert not free_standing(Candidate((100.0, 100.0), 50.0, 0.9, at_wall=True), [alone])
    reach = PARAMS.candidates.support * 50.0
    near = Candidate((100.0 + 0.9 * reach, 100.0), 50.0, 0.2)  # anything beside it counts
    far = Candidate((100.0, 100.0 + 1.1 * reach), 50.0, 0.9)
    assert not free_standing(alone, [alone, near, far])
    assert free_standing(alone, [alone, far])
