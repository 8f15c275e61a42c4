"""photo.one_die_twice: in a single photo, two dice read edge to edge, one of them with its pip
layout squashed past a tilt of 34 degrees, may be the top and the side of one die (an oblique
camera shows the side of a die beside its top, its layout squashed, its face found a square
box): both are refused. Two flat dice side by side, seen at one slant, are read."""

from __future__ import annotations

from vision.params import PARAMS
from vision.photo import one_die_twice
from vision.reading import Die, RerollReason
from vision.top_face import Face
from vision.types import Candidate, DieVerdict, FaceGuess, PipReading

SIDE = 60.0


def _read(value: int, centre: tuple[float, float], stretch: float) -> DieVerdict:
    """A die both readings read: its face found square (a box of the die's size), its pips
    laid out `stretch` long."""
    face = Face(centre, SIDE, 0.0, 1.0, 0.9)
    pips = PipReading(value, 0.9, face, None, "", value, (), stretch)
    die = Die(value=value, center=centre, size=SIDE, confidence=0.9)
    guess = FaceGuess(value, 0.97, 0.99)
    return DieVerdict(Candidate(centre, SIDE, 0.8), pips, guess, die, None, "")


def test_a_squashed_layout_edge_to_edge_with_a_die_read_is_its_side():
    top, side = _read(3, (465.0, 44.0), 1.0), _read(6, (461.0, 92.0), 1.43)
    judged = one_die_twice([top, side])
    assert all(v.die is None and v.reason is RerollReason.COCKED for v in judged), judged


def test_flat_dice_side_by_side_at_one_slant_are_read():
    """A camera's slant squashes both alike, less than `photo.paired_stretch`."""
    a, b = _read(4, (300.0, 200.0), 1.12), _read(5, (360.0, 205.0), 1.17)
    assert [v.die for v in one_die_twice([a, b])] == [a.die, b.die]


def test_a_squashed_layout_with_no_die_beside_it_is_read():
    """Alone, a squashed 6 is a flat die seen at a slant (the photo's own limits judge it)."""
    top, side = _read(3, (100.0, 100.0), 1.0), _read(6, (400.0, 300.0), 1.43)
    assert [v.die for v in one_die_twice([top, side])] == [top.die, side.die]
    reach = PARAMS.photo.edge_to_edge * SIDE
    near = _read(6, (100.0, 100.0 + 1.05 * reach), 1.43)
    assert [v.die for v in one_die_twice([top, near])] == [top.die, near.die]
