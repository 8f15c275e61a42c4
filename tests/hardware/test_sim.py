"""The simulated tray: injected time, chosen faces, dice inside the tray, the hazards' poses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.camera import CameraError
from hardware.sim import Hazard, SimulatedTray

SIDE = 40


class FakeClock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def make_tray(seed: int = 1) -> tuple[SimulatedTray, FakeClock]:
    clock = FakeClock()
    tray = SimulatedTray((640, 400), die_size=SIDE, seed=seed, clock=clock)
    tray.open()
    return tray, clock


@pytest.fixture(scope="module")
def shared() -> tuple[SimulatedTray, FakeClock]:
    return make_tray()


def test_frames_follow_the_camera_contract(shared) -> None:
    tray, clock = shared
    frame = tray.read()
    assert frame.image.shape == (400, 640, 3) and frame.image.dtype == np.uint8
    assert frame.timestamp == clock.now


def test_a_tray_never_thrown_has_no_time_of_rest() -> None:
    tray, _ = make_tray()
    assert tray.rests_at is None and tray.settled


def test_reading_a_closed_tray_is_a_camera_error() -> None:
    tray, _ = make_tray()
    tray.close()
    with pytest.raises(CameraError):
        tray.read()


def test_a_throw_moves_then_settles_on_the_chosen_faces_without_sleeping(shared) -> None:
    tray, clock = shared
    thrown = clock.now
    tray.throw((6, 1, 4))
    assert not tray.settled
    assert 0.2 < tray.settle_time < 8
    assert tray.rests_at == pytest.approx(thrown + tray.settle_time)
    frames = []
    for _ in range(4):
        clock.now += 0.05
        frames.append(tray.read().image.astype(int))
    assert np.abs(frames[1] - frames[2]).mean() > 0.5  # dice moving between frames
    clock.now += tray.settle_time
    assert tray.settled
    assert tray.last_values == (6, 1, 4)
    still = [tray.read().image.astype(int) for _ in range(2)]
    assert np.abs(still[0] - still[1]).mean() < 4  # only sensor noise changes now


def test_the_same_seed_gives_the_same_frames() -> None:
    frames = []
    for _ in range(2):
        tray, clock = make_tray(seed=7)
        tray.throw()
        clock.now += tray.settle_time
        frames.append(tray.read().image)
    assert np.array_equal(frames[0], frames[1])


def test_an_empty_tray_differs_from_one_with_dice(shared) -> None:
    tray, clock = shared
    tray.throw((5, 5, 5))
    clock.now += tray.settle_time + 1
    with_dice = tray.read().image.astype(int)
    empty = tray.empty_frame().astype(int)
    differs = np.abs(with_dice - empty).max(axis=2) > 60
    # Three dice of side 40 cover about 3 * 40 * 40 pixels.
    assert 2000 < differs.sum() < 8000


def test_bad_values_are_refused(shared) -> None:
    tray, _ = shared
    with pytest.raises(ValueError):
        tray.throw((0, 3, 7))


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 10_000))
def test_ordinary_throws_rest_flat_inside_the_tray_and_apart(seed: int) -> None:
    tray, clock = make_tray(seed)
    tray.throw()
    poses = tray.poses_at(clock.now + tray.settle_time)
    x0, y0, x1, y1 = tray.geometry.floor
    for pose in poses:
        corners = pose.corners(SIDE)
        assert np.allclose(corners[:, 2].min(), 0, atol=1e-6)  # on the felt
        assert abs(pose.rotation[2, :]).max() == pytest.approx(1)  # flat on a face
        assert corners[:, 0].min() >= x0 - 1e-6 and corners[:, 0].max() <= x1 + 1e-6
        assert corners[:, 1].min() >= y0 - 1e-6 and corners[:, 1].max() <= y1 + 1e-6
    centres = np.array([p.centre[:2] for p in poses])
    gaps = [np.hypot(*(a - b)) for i, a in enumerate(centres) for b in centres[i + 1 :]]
    assert min(gaps) > 1.45 * SIDE
    assert tray.last_values == tuple(p.top_value() for p in poses)


def final(tray: SimulatedTray, hazard: Hazard, clock: FakeClock):
    tray.throw(hazard=hazard)
    assert tray.last_hazard is hazard
    return tray.poses_at(clock.now + tray.settle_time)


@pytest.mark.parametrize("seed", range(5))
def test_a_cocked_die_leans_on_the_rim(seed: int) -> None:
    tray, clock = make_tray(seed)
    poses = final(tray, Hazard.COCKED, clock)
    tilts = [np.degrees(np.arccos(min(1.0, abs(p.rotation[2, :]).max()))) for p in poses]
    assert sorted(tilts)[-1] > 15 and sorted(tilts)[-2] < 1e-3


@pytest.mark.parametrize("seed", range(5))
def test_a_die_outside_is_on_the_rim_or_the_table(seed: int) -> None:
    tray, clock = make_tray(seed)
    poses = final(tray, Hazard.OUTSIDE, clock)
    x0, y0, x1, y1 = tray.geometry.floor
    outside = [p for p in poses if not (x0 < p.centre[0] < x1 and y0 < p.centre[1] < y1)]
    assert len(outside) == 1


@pytest.mark.parametrize("seed", range(5))
def test_touching_dice_are_a_die_apart(seed: int) -> None:
    tray, clock = make_tray(seed)
    poses = final(tray, Hazard.TOUCHING, clock)
    centres = [p.centre[:2] for p in poses]
    gaps = sorted(np.hypot(*(a - b)) for i, a in enumerate(centres) for b in centres[i + 1 :])
    assert gaps[0] == pytest.approx(SIDE, abs=0.5)


@pytest.mark.parametrize("seed", range(5))
def test_no_die_shadows_or_hides_the_top_face_of_a_die_it_touches(seed: int) -> None:
    """The top faces of dice on the floor lie in one plane, so a neighbour's shadow falls on
    the floor only, and its side against this die lies behind it: each die's top face looks
    the same with the dice beside it and without (on average over the face: each frame has
    its own sensor noise)."""
    import cv2

    from hardware.sim.dice import FACE_CORNERS, up_axis

    tray, clock = make_tray(seed)
    poses = final(tray, Hazard.TOUCHING, clock)
    together = tray.render(poses).astype(np.float32)
    for pose in poses:
        alone = tray.render((pose,)).astype(np.float32)
        axis = up_axis(pose.rotation)
        quad = pose.centre + 0.9 * (pose.rotation @ (FACE_CORNERS[axis].T * SIDE / 2)).T
        inside = np.zeros(together.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, np.round(tray.geometry.project(quad)).astype(np.int32), 1)
        assert abs(float((together - alone)[inside > 0].mean())) < 1.0


@pytest.mark.parametrize("seed", range(5))
def test_a_stacked_die_rests_on_another(seed: int) -> None:
    tray, clock = make_tray(seed)
    poses = final(tray, Hazard.STACKED, clock)
    heights = sorted(p.centre[2] for p in poses)
    assert heights == pytest.approx([SIDE / 2, SIDE / 2, 1.5 * SIDE])
    top = max(poses, key=lambda p: p.centre[2])
    assert min(np.hypot(*(top.centre[:2] - p.centre[:2])) for p in poses if p is not top) < SIDE


def test_a_non_throw_moves_the_dice_and_puts_them_back() -> None:
    tray, clock = make_tray(3)
    tray.throw((2, 3, 4))
    clock.now += tray.settle_time
    before = tray.poses_at(clock.now)
    tray.throw(hazard=Hazard.NOT_MOVED)
    middle = tray.poses_at(clock.now + tray.settle_time / 2)
    after = tray.poses_at(clock.now + tray.settle_time)
    moved = [np.hypot(*(a.centre[:2] - b.centre[:2])) for a, b in zip(before, middle, strict=True)]
    assert max(moved) > 2
    for a, b in zip(before, after, strict=True):
        assert np.array_equal(a.centre, b.centre) and np.array_equal(a.rotation, b.rotation)
    assert tray.last_values == (2, 3, 4)


def test_a_non_throw_before_any_throw_is_an_ordinary_throw() -> None:
    tray, _ = make_tray()
    tray.throw(hazard=Hazard.NOT_MOVED)
    assert tray.last_hazard is None


def test_a_visitors_shadow_darkens_part_of_the_tray_and_its_dice() -> None:
    from hardware.sim.scene import visitor_shadow

    clock = [0.0]
    tray = SimulatedTray(seed=4, clock=lambda: clock[0])
    tray.open()
    rng = np.random.default_rng(1)
    for _ in range(8):
        shadow = visitor_shadow(tray.geometry, rng)
        assert shadow.shape == (tray.geometry.height, tray.geometry.width)
        assert 0.35 < shadow.min() < 0.85 and shadow.max() > 0.999
        assert 0.02 < np.mean(shadow < 0.95) < 0.6  # part of the view, not all of it
    tray.throw()
    clock[0] += tray.settle_time + 0.5
    plain = tray.read().image.astype(np.float32)
    tray.shadow = shadow
    shaded = tray.read().image.astype(np.float32)
    dark = shadow < 0.7
    assert np.mean(shaded[dark]) < 0.8 * np.mean(plain[dark])
    assert abs(np.mean(shaded[shadow > 0.999]) - np.mean(plain[shadow > 0.999])) < 1.0
