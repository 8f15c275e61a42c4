"""The debug view (`read` and `watch --debug-dir`): what the reader saw, drawn on the frame."""

from __future__ import annotations

import numpy as np

from tests.vision import synth
from vision.debug import GREEN, YELLOW, annotate
from vision.reader import inspect


def _near(image: np.ndarray, x: float, y: float, colour: tuple[int, int, int]) -> bool:
    """Is `colour` drawn within 2 px of (x, y)?"""
    patch = image[round(y) - 2 : round(y) + 3, round(x) - 2 : round(x) + 3].astype(int)
    return bool((np.abs(patch - colour).max(axis=2) < 30).any())


def test_each_die_read_is_boxed_with_its_face_and_pips_drawn() -> None:
    frame = synth.three_dice()
    roll, verdicts = inspect(frame, expect=3)
    assert roll.ok, roll.detail
    drawn = annotate(frame, verdicts, roll)
    assert drawn.shape == frame.shape and not np.array_equal(drawn, frame)
    read = [v for v in verdicts if v.die is not None]
    assert len(read) == 3
    for v in read:
        assert v.pips is not None and v.pips.face is not None
        assert len(v.pips.pips) == v.die.value
        for x, y in v.pips.pips:  # a dot on every pip read
            assert _near(drawn, x, y, YELLOW)
            assert not _near(frame, x, y, YELLOW)
        face = v.pips.face  # the face's outline: its corners
        for corner in (1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j):
            z = complex(*face.centre) + face.axes * corner / 2
            assert _near(drawn, z.real, z.imag, YELLOW)
        x, y = v.candidate.centre  # the box, in green, above the die
        assert _near(drawn, x, y - v.candidate.size / 2, GREEN)


def test_the_frame_itself_is_left_as_it_was() -> None:
    frame = synth.three_dice()
    before = frame.copy()
    roll, verdicts = inspect(frame, expect=3)
    annotate(frame, verdicts, roll)
    assert np.array_equal(frame, before)
