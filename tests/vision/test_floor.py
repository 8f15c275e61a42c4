"""On a calibrated tray the top face stops where the floor begins (top_face.floor_of): a dark
die's shadow is nearly its colour, and a face found by colour alone takes it in."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from hardware.sim import SimulatedTray
from hardware.sim.dice import DiePose
from vision.face import box_outline, read_pips
from vision.params import PARAMS, PipParams
from vision.top_face import Face, find_face, floor_of
from vision.types import Candidate

BLACK = ("#1a1a1a", "#f2f2f2")
IVORY = ("#efe8d8", "#1c1814")
GREEN = ("#2a8a3a", "#f5f5f5")  # about the felt's own hue (#1f5a3a)


def _turn(x: float = 0.0, z: float = 0.0) -> np.ndarray:
    """A rotation about the body's x axis, then the vertical (degrees): x = 90 shows a 3."""
    cx, sx = np.cos(np.radians(x)), np.sin(np.radians(x))
    cz, sz = np.cos(np.radians(z)), np.sin(np.radians(z))
    about_x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    about_z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return about_z @ about_x


def _faces(look: tuple[str, str]) -> list[tuple[int, int, float, float]]:
    """Flat dice beside each wall and in each corner of a simulated tray, turned 0-40 degrees,
    showing 1 or 3: (value read without the floor, with it, and the face each found over the
    projected top's side)."""
    tray = SimulatedTray(seed=11, die_colour=look[0], pip_colour=look[1])
    tray.open()
    g = tray.geometry
    side = g.die
    top = side * g.camera_height / (g.camera_height - side)  # the top is nearer the camera
    x0, y0, x1, y1 = g.floor
    empty = tray.empty_frame()
    found = []
    places = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.0), (0.0, 0.5)]
    for i, (fx, fy) in enumerate(places):
        x = x0 + 0.75 * side + fx * (x1 - x0 - 1.5 * side)
        y = y0 + 0.75 * side + fy * (y1 - y0 - 1.5 * side)
        pose = DiePose(np.array([x, y, side / 2]), _turn(90.0 * (i % 2), 20.0 * (i % 3)))
        frame = tray.render((pose,))
        tx, ty = g.project(np.array([x, y, side]))
        candidate = Candidate((float(tx), float(ty)), 1.25 * side, 1.0, on_tray=True)
        alone, on_floor = read_pips(frame, candidate), read_pips(frame, candidate, floor=empty)
        assert alone.face is not None and on_floor.face is not None
        found.append((alone.value, on_floor.value, alone.face.side / top, on_floor.face.side / top))
        assert pose.top_value() == (3 if i % 2 else 1)
    return found


def test_a_black_die_by_the_wall_is_measured_without_its_shadow() -> None:
    """Beside the wall a black die's shadow falls on dark felt: by colour alone its face takes
    it in (1.2-1.4 tops, which the kiosk refuses as a leaning die); with the floor it is the
    top's size, and read."""
    found = _faces(BLACK)
    assert all(with_floor == (3 if i % 2 else 1) for i, (_, with_floor, _, _) in enumerate(found))
    assert all(0.9 <= measured <= 1.1 for *_, measured in found), found
    assert sum(alone > 1.15 for _, _, alone, _ in found) >= 4, found  # what the floor mends


@pytest.mark.parametrize("look", [IVORY, GREEN], ids=["ivory", "green on green felt"])
def test_a_die_unlike_its_shadow_or_like_its_floor_is_measured_as_before(look) -> None:
    """An ivory die's face stops at its edge by colour already; a green die on green felt is
    of the floor's colour, and the floor is not used: both are read and measure as without it
    (to within the die's blended edge: 0.03 of a top on the ivory die)."""
    for alone_value, floor_value, alone, with_floor in _faces(look):
        assert floor_value == alone_value is not None
        assert with_floor == pytest.approx(alone, abs=0.05)


def test_the_floor_is_not_used_on_a_die_of_its_hue() -> None:
    """A green die on green felt passes for floor in much of its middle (`floor_middle`): the
    floor is then not used, where it would take most of the face away."""
    tray = SimulatedTray(seed=11, die_colour=GREEN[0], pip_colour=GREEN[1])
    tray.open()
    g = tray.geometry
    side = g.die
    x, y = (g.floor[0] + g.floor[2]) / 2 + 2 * side, (g.floor[1] + g.floor[3]) / 2
    frame = tray.render((DiePose(np.array([x, y, side / 2]), np.eye(3)),))
    tx, ty = g.project(np.array([x, y, side]))
    candidate = Candidate((float(tx), float(ty)), 1.25 * side, 1.0, on_tray=True)
    empty = tray.empty_frame()
    outline = box_outline(candidate.centre, candidate.size)

    def face(p: PipParams = PARAMS.pips, floor: np.ndarray | None = None) -> Face | None:
        return find_face(frame, outline, candidate.centre, candidate.size, 0.0, p, floor)

    alone, guarded = face(), face(floor=empty)
    unguarded = face(replace(PARAMS.pips, floor_middle=1.01), empty)
    assert alone is not None and guarded is not None
    assert guarded.side == pytest.approx(alone.side)
    assert unguarded is None or unguarded.side < 0.93 * alone.side


def test_the_floor_in_shadow_is_floor_and_a_die_on_it_is_not() -> None:
    rng = np.random.default_rng(0)
    felt = np.clip(rng.normal((58, 90, 31), 3, (40, 40, 3)), 0, 255).astype(np.float32)
    for shade in (1.0, 0.7, 0.4, 0.25):
        noisy = np.clip(felt * shade + rng.normal(0, 1.5, felt.shape), 0, 255)
        assert floor_of(noisy.astype(np.float32), felt, PARAMS.pips).mean() > 0.95
    black = np.full_like(felt, 20.0)
    white = np.full_like(felt, 235.0)
    assert not floor_of(black, felt, PARAMS.pips).any()
    assert not floor_of(white, felt, PARAMS.pips).any()
