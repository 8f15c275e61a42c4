"""photo.pipless: in a single photo, a candidate the classifier surely takes for no face is
clutter where the finder is unsure of it too, whatever spots the pip reading fitted, or where no
pip lies on it or near it; anything else stays a die to be refused."""

from __future__ import annotations

import numpy as np

from tests.vision.synth import DrawnDie, scene
from vision.params import PARAMS
from vision.photo import pipless
from vision.reading import RerollReason
from vision.types import Candidate, DieVerdict, FaceGuess, PipReading


def _refused(centre, guess: FaceGuess, spots: int = 0) -> DieVerdict:
    pips = PipReading(None, 0.0, None, RerollReason.UNREADABLE, "no pips", spots)
    return DieVerdict(Candidate(centre, 50.0, 0.9), pips, guess, None, RerollReason.COCKED, "")


NO_FACE = FaceGuess(None, 0.97, 0.03)


def _plain_block() -> np.ndarray:
    """A pipless dark block the size of a die (a shoe's heel, a box) on a light floor."""
    frame = np.full((240, 320, 3), 190, np.uint8)
    frame[95:145, 135:185] = (40, 45, 50)
    return frame


def test_a_pipless_block_with_no_face_is_left_out():
    (verdict,) = pipless(_plain_block(), [_refused((160.0, 120.0), NO_FACE)], PARAMS)
    assert not verdict.counts and verdict.reason is None


def test_a_die_with_pips_in_its_box_is_kept_as_refused():
    """A die whose face was not found (no spots on it) still has its pips in its box."""
    frame = scene([DrawnDie(5, (160.0, 120.0), 46.0, 20.0)], width=320, height=240)
    (verdict,) = pipless(frame, [_refused((160.0, 120.0), NO_FACE)], PARAMS)
    assert verdict.counts and verdict.reason is RerollReason.COCKED


def test_a_face_the_classifier_sees_is_kept():
    unsure = FaceGuess(None, 0.5, 0.5)  # not surely "no face"
    (verdict,) = pipless(_plain_block(), [_refused((160.0, 120.0), unsure)], PARAMS)
    assert verdict.counts
    (verdict,) = pipless(_plain_block(), [_refused((160.0, 120.0), FaceGuess(4, 0.9, 0.9))])
    assert verdict.counts


def test_spots_found_on_the_face_keep_it():
    (verdict,) = pipless(_plain_block(), [_refused((160.0, 120.0), NO_FACE, spots=3)], PARAMS)
    assert verdict.counts


def _spots_read(p_die: float, guess: FaceGuess) -> DieVerdict:
    """Two spots that fit a 2 (a shoe's eyelets), the classifier seeing no flat face."""
    pips = PipReading(2, 0.9, None, None, "", 2, ((150.0, 110.0), (170.0, 130.0)))
    why = "pips read 2; not a flat top face"
    return DieVerdict(
        Candidate((160.0, 120.0), 50.0, p_die), pips, guess, None, RerollReason.COCKED, why
    )


def test_spots_only_the_pip_reading_takes_for_a_die_are_left_out():
    (verdict,) = pipless(_plain_block(), [_spots_read(0.38, NO_FACE)], PARAMS)
    assert not verdict.counts and verdict.reason is None


def test_spots_the_finder_or_the_classifier_takes_for_a_die_stay_refused():
    for p_die, guess in ((0.9, NO_FACE), (0.38, FaceGuess(None, 0.6, 0.4))):
        (verdict,) = pipless(_plain_block(), [_spots_read(p_die, guess)], PARAMS)
        assert verdict.counts and verdict.reason is RerollReason.COCKED
