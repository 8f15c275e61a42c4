"""The face layout fit: exact layouts at any rotation and scale, and near misses."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.faces import LAYOUTS, fewer_faces, fit_face, hidden_faces


def placed(value: int, angle: float, spacing: float, centre=(50.0, 40.0)) -> np.ndarray:
    z = np.array(LAYOUTS[value]) * spacing * np.exp(1j * np.radians(angle)) + complex(*centre)
    return np.column_stack([z.real, z.imag])


@settings(deadline=None, max_examples=60)
@given(
    value=st.integers(2, 6),
    angle=st.floats(0, 360),
    spacing=st.floats(3, 40),
    order=st.randoms(use_true_random=False),
)
def test_any_layout_fits_at_any_rotation_scale_and_order(value, angle, spacing, order):
    indices = list(range(value))
    order.shuffle(indices)
    points = placed(value, angle, spacing)[indices]
    fit = fit_face(points)
    assert fit.value == value
    assert fit.error < 1e-6
    assert abs(fit.spacing - spacing) < 1e-6 * spacing
    assert np.allclose(fit.centre, (50.0, 40.0))


def test_three_not_in_line_does_not_fit():
    points = placed(3, 20, 10)
    points[0] += (6, -6)  # the middle pip pushed off the diagonal
    assert fit_face(points).error > 0.3


def test_square_of_four_squashed_does_not_fit():
    points = placed(4, 0, 10) * np.array([1.0, 0.6])
    assert fit_face(points).error > 0.3


def test_six_with_a_pip_out_of_its_column_does_not_fit():
    points = placed(6, 0, 10)
    points[2] += (7, 0)
    assert fit_face(points).error > 0.3


def test_a_six_on_an_even_grid_fits_its_own_design_only():
    """Some dice lay their 6 out as an even grid of two by three, the two lines one step
    apart: the standard 6 does not fit it, the even-grid design does (faces.SIX_LINES)."""
    even = np.array([complex(0.5 * z.real, z.imag) for z in LAYOUTS[6]]) * 10 * np.exp(0.35j)
    points = np.column_stack([even.real, even.imag]) + 100.0
    assert fit_face(points).error > 0.3
    fit = fit_face(points, lines=0.5)
    assert fit.value == 6 and fit.error < 1e-6 and abs(fit.spacing - 10) < 1e-6
    assert abs(fit.stretch - 1.0) < 1e-6  # seen square-on in its own design


def six(lines: float, squash: complex = 1, angle: float = 20.0) -> np.ndarray:
    """A 6 whose lines lie `lines` steps from its middle, squashed along its lines (squash.imag)
    or across them (squash.real) as a tilt that way shows it, turned by `angle`."""
    sx, sy = (squash.real or 1.0), (squash.imag or 1.0)
    z = np.array([complex(lines * z.real * sx, z.imag * sy) for z in LAYOUTS[6]])
    z = z * 10 * np.exp(1j * np.radians(angle))
    return np.column_stack([z.real, z.imag]) + 100.0


def test_a_flat_six_of_any_design_is_laid_out_square():
    """Makers set a 6's lines 0.5-1 steps from its middle (byler's flat 6s measured 1.26 long
    against the standard design): whatever the design, a flat 6 shows no stretch."""
    for lines in (0.5, 0.6, 0.79, 0.9, 1.0):
        fit = fit_face(six(lines), lines=1.0 if lines > 0.75 else 0.5)
        assert fit.value == 6 and fit.stretch < 1.01, (lines, fit.stretch)


def test_a_six_tilted_past_every_design_shows_it():
    """A tilt that lays a 6 out as no maker does shows in its layout as in a 4's: a standard 6
    tilted 25 degrees along its lines (its pip steps there 0.91 long), an even-grid 6 across
    them (its lines 0.45 steps from its middle). Tilted the other way, either looks like
    another design, and only its pips' shape shows the tilt (faces.SHAPED)."""
    four = fit_face(placed(4, 20, 10) * np.array([1.0, 0.906])).stretch
    standard = fit_face(six(1.0, squash=0.906j), lines=1.0)
    even = fit_face(six(0.5, squash=0.906), lines=0.5)
    assert four > 1.09
    for fit in (standard, even):
        assert fit.value == 6 and abs(fit.stretch - four) < 0.01, fit
    assert fit_face(six(1.0, squash=0.906), lines=1.0).stretch < 1.01  # a design of 0.91


def test_no_pips_or_too_many_has_no_face():
    assert fit_face(np.zeros((0, 2))) is None
    assert fit_face(np.zeros((7, 2))) is None


def test_the_faces_glare_could_hide_hold_the_pips_read():
    """What a glared face may hide (faces.hidden_faces): the places a face with more pips adds
    to the layout read. A 6 hides nothing; a 5 nothing either (no face adds pips to a 5); a 4
    may hide a 5 (its middle) or a 6 (two middle sides, either way round); a 1 a 3 (two
    opposite corners, either diagonal) or a 5 (all four)."""

    def unique(value):
        return {frozenset(extra) for extra in hidden_faces(value)}

    assert unique(6) == set() and unique(5) == set()
    assert unique(4) == {frozenset({0j}), frozenset({1 + 0j, -1 + 0j}), frozenset({1j, -1j})}
    corners = [frozenset({-1 - 1j, 1 + 1j}), frozenset({1 - 1j, -1 + 1j})]
    assert unique(1) == {*corners, corners[0] | corners[1]}
    for value in range(1, 6):
        for extra in hidden_faces(value):
            assert not extra & set(LAYOUTS[value])  # only places the face read leaves empty
            assert len(extra) + value in LAYOUTS


def test_the_pips_a_glint_could_fake_leave_a_face_of_fewer():
    """What glare may have faked (faces.fewer_faces): the places of the layout read that a face
    of fewer pips lacks. A 3 less its middle is a 2 (less its corners a 1), a 5 less its
    middle a 4, a 4 less two opposite corners a 2, a 6 less its middle sides a 4; a 2 holds no
    face of fewer pips (its pips lie on a diagonal, a 1's in the middle), nor does a 1."""

    def unique(value):
        return {frozenset(extra) for extra in fewer_faces(value)}

    assert unique(1) == set()
    corners = {frozenset({-1 - 1j, 1 + 1j}), frozenset({1 - 1j, -1 + 1j})}
    assert unique(2) == set() and unique(4) == corners
    assert unique(3) == {frozenset({0j}), frozenset({-1 - 1j, 1 + 1j})}
    assert frozenset({0j}) in unique(5) and frozenset({1 + 0j, -1 + 0j}) in unique(6)
    for value in range(2, 7):
        for extra in fewer_faces(value):
            assert extra <= set(LAYOUTS[value]) and value - len(extra) in LAYOUTS
