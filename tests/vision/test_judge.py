"""The judge's top-face size check on a calibrated tray, and the window TrayReader learns."""

from __future__ import annotations

import numpy as np
import pytest

from vision.judge import judge_die, judge_roll
from vision.params import PARAMS
from vision.reading import Die, RerollReason
from vision.top_face import Face
from vision.tray_reader import _tilts_widened, _widened
from vision.types import Candidate, DieVerdict, FaceGuess, PipReading


def _verdict(face_side: float, face_size: float | None, value: int = 1):
    face = Face(centre=(100.0, 100.0), side=face_side, angle=0.0, aspect=1.0, share=0.8)
    pips = PipReading(value, 0.9, face, None, "", value, ((100.0, 100.0),))
    guess = FaceGuess(value, 0.99, 0.99)
    return judge_die(Candidate((100.0, 100.0), 64.0, 0.9), pips, guess, PARAMS, face_size)


@pytest.mark.parametrize("side", [48.5, 50.0, 53.0])
def test_a_face_of_a_dies_top_size_is_read(side):
    assert _verdict(side, 50.0).die is not None


@pytest.mark.parametrize("side", [43.5, 47.0, 56.0, 70.0])
def test_a_face_not_of_a_dies_top_size_is_refused_as_leaning(side):
    """Foreshortened (a leaning top) or with a side in it: not a flat top face."""
    verdict = _verdict(side, 50.0)
    assert verdict.die is None and verdict.reason is RerollReason.COCKED


def test_without_a_known_size_the_face_size_is_not_judged():
    assert _verdict(70.0, None).die is not None


def test_faces_measured_loosely_widen_the_window_and_exact_ones_keep_it():
    exact = _widened(PARAMS, np.array([0.99, 1.0, 1.0, 1.01, 1.0]))
    assert exact.judge.top_face == PARAMS.judge.top_face
    loose = _widened(PARAMS, np.array([0.9, 0.95, 1.0, 1.05, 1.12, 0.97]))
    low, high = loose.judge.top_face
    assert low < PARAMS.judge.top_face[0] and high > PARAMS.judge.top_face[1]


def test_flat_dice_measured_loosely_widen_the_leaning_limits_up_to_the_ceiling():
    pips, ceiling = PARAMS.pips, PARAMS.judge.lean_ceiling
    exact = [1.0, 1.01, 1.005, 1.02, 1.0, 1.01, 1.015, 1.0, 1.01, 1.02, 1.005]
    kept = _tilts_widened(PARAMS, exact, exact).pips
    assert (kept.cocked_pips, kept.cocked_stretch) == (pips.cocked_pips, pips.cocked_stretch)
    loose = [1.02, 1.04, 1.06, 1.03, 1.05, 1.08, 1.01, 1.04, 1.07, 1.03, 1.05]
    widened = _tilts_widened(PARAMS, loose, exact).pips
    assert pips.cocked_pips < widened.cocked_pips < ceiling
    assert widened.cocked_stretch == pips.cocked_stretch  # layouts measured exactly
    looser = _tilts_widened(PARAMS, [v * 1.1 for v in loose], loose[:5]).pips
    assert looser.cocked_pips == ceiling  # a tilt of 25 degrees is refused on any camera
    assert looser.cocked_stretch == pips.cocked_stretch  # five dice teach nothing


@pytest.mark.parametrize("value", [3, 6])
def test_a_die_at_the_wall_whose_pips_were_not_measured_is_refused(value):
    """A 1, 2 or 3 against the wall has no layout to show a tilt, a 6 none across its lines
    (faces.SIX_DESIGNS); where its pips' shape could not be measured either (pips too faint),
    nothing tells it does not lean there."""
    face = Face(centre=(100.0, 100.0), side=50.0, angle=0.0, aspect=1.0, share=0.8)
    pips = PipReading(value, 0.9, face, None, "", value, ((100.0, 100.0),))
    guess = FaceGuess(value, 0.99, 0.99)
    at_wall = judge_die(Candidate((100.0, 100.0), 64.0, 0.9, at_wall=True), pips, guess)
    assert at_wall.die is None and at_wall.reason is RerollReason.COCKED
    assert "could not be measured" in at_wall.detail
    away = judge_die(Candidate((100.0, 100.0), 64.0, 0.9), pips, guess, PARAMS, 50.0)
    assert away.die is not None  # only the wall's dice


def _laid_out(value: int, stretch: float, face_side: float, params, face_size=None):
    """A die at the wall whose pips lay out `stretch` long, on a face `face_side` px and 1.2
    long (a dark die's face found with a side in it); a 6's pips measured round, as the kiosk
    measures them (faces.SHAPED)."""
    face = Face(centre=(100.0, 100.0), side=face_side, angle=0.0, aspect=1.2, share=0.8)
    shape = 1.01 if value == 6 else None
    pips = PipReading(value, 0.9, face, None, "", value, ((100.0, 100.0),), stretch, shape)
    candidate = Candidate((100.0, 100.0), 64.0, 0.9, at_wall=True)
    return judge_die(candidate, pips, FaceGuess(value, 0.99, 0.99), params, face_size)


@pytest.mark.parametrize("value", [4, 5, 6])
def test_a_die_at_the_wall_read_flat_by_its_pips_is_announced(value):
    """Its pips read it flat (face.kiosk_leaning): announced at the wall before any face size
    is learnt, its face oblong and oversized (a dark die's face found with a side in it)."""
    assert _laid_out(value, 1.01, 60.0, PARAMS).die is not None
    assert _laid_out(value, 1.01, 51.0, PARAMS, face_size=50.0).die is not None


@pytest.mark.parametrize("value", [4, 5, 6])
def test_once_faces_are_held_to_a_size_a_square_layout_at_the_wall_is_held_to_it_too(value):
    """A die tipped far over on the wall turns a side nearly to the camera: its pips lay out
    almost square, but on a face smaller than a flat top's (seen on the simulated tray: a
    black die leaning at about 65 degrees, its side's 6 laid out 1.03 long on a face 0.80 of
    the tray's). Its layout alone would pass it; its size does not."""
    tipped = _laid_out(value, 1.03, 40.0, PARAMS, face_size=50.0)
    assert tipped.die is None and tipped.reason is RerollReason.COCKED
    assert "top face" in tipped.detail


def _pips_seen(value: int, pip_stretch: float | None, params, face_size=None, at_wall=True):
    """A 1, 2 or 3 whose pips look `pip_stretch` long, on a face 1.2 long (a dark die's face
    found with a side in it)."""
    face = Face(centre=(100.0, 100.0), side=50.0, angle=0.0, aspect=1.2, share=0.8)
    pips = PipReading(value, 0.9, face, None, "", value, ((100.0, 100.0),), 1.0, pip_stretch)
    candidate = Candidate((100.0, 100.0), 64.0, 0.9, at_wall=at_wall)
    return judge_die(candidate, pips, FaceGuess(value, 0.99, 0.99), params, face_size)


@pytest.mark.parametrize("value", [1, 2, 3])
def test_round_pips_show_a_die_at_the_wall_lies_flat(value):
    """A 1, 2 or 3 has no layout to show a tilt, but its pips do (pip_shape.py): measured
    round, it is read at the wall before any face size is learnt, its face oblong (a dark
    die's face found with a side in it), and after."""
    assert _pips_seen(value, 1.02, PARAMS).die is not None
    assert _pips_seen(value, 1.02, PARAMS, face_size=50.0).die is not None


def test_round_pips_do_not_excuse_a_face_of_the_wrong_size():
    """Once the tray's faces are measured, a face far from their size leans whatever its pips
    look like: a die tipped far over shows a side nearly square to the camera."""
    small = _pips_seen(2, 1.0, PARAMS, face_size=62.0)
    assert small.die is None and "top face" in small.detail


@pytest.mark.parametrize(("count", "said"), [(1, "1 die, expected 3"), (2, "2 dice, expected 3")])
def test_a_wrong_count_says_how_many_dice_in_words(count, said):
    """The reason's detail is read by staff in the log and by `azar-kiosk read`."""
    dice = [Die(4, (40.0 + 60 * i, 40.0), 30.0, 0.95) for i in range(count)]
    verdicts = [DieVerdict(Candidate(d.center, 37.5, 0.9), None, None, d, None, "") for d in dice]
    roll = judge_roll(verdicts, [], 3, PARAMS)
    assert roll.reason is RerollReason.WRONG_COUNT and roll.detail == said


def test_a_blob_holding_more_is_explained_only_by_the_missed_die_read_in_it():
    """A blob of the tray difference that holds one die more than the finder marked in it
    refuses the roll, unless the die the tray difference alone put there (p_die 0) is read by
    both readings and every mark in it is read too; taken for a part of another die, or a mark
    taken for a part of it, it leaves the blob refusing the roll."""
    blob = np.array([[[20, 10]], [[140, 10]], [[140, 70]], [[20, 70]]], np.int32)
    marked = Die(3, (50.0, 40.0), 30.0, 0.95)
    missed = Die(5, (100.0, 40.0), 30.0, 0.95)
    found = DieVerdict(Candidate(marked.center, 37.5, 0.9), None, None, marked, None, "")
    read = DieVerdict(Candidate(missed.center, 37.5, 0.0, True), None, None, missed, None, "")
    roll = judge_roll([found, read], [blob], 2, PARAMS)
    assert roll.ok and sorted(roll.values) == [3, 5]
    part = DieVerdict(read.candidate, None, None, None, None, "part of a die read", False)
    assert judge_roll([found, part], [blob], 1, PARAMS).reason is RerollReason.OVERLAP
    marked_read = DieVerdict(Candidate(missed.center, 37.5, 0.9), None, None, missed, None, "")
    assert judge_roll([found, marked_read], [blob], 2, PARAMS).reason is RerollReason.OVERLAP
    # the missed die read, but the mark beside it left out as a part of it: one die unread
    mark = DieVerdict(found.candidate, None, None, None, None, "part of a die read", False)
    assert judge_roll([mark, read], [blob], 1, PARAMS).reason is RerollReason.OVERLAP
