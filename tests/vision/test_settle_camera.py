"""Settle detection as a real camera feeds it: table shake, sensor noise, JPEG, exposure drift,
and a hand-held camera's turn and zoom.

Each sequence is a still scene (drawn dice on felt, or a real photo of dice) seen by a camera
that shakes by up to 2 px between frames (a throw shakes the table), adds sensor noise and JPEG
artefacts, and drifts slowly in exposure. Dice at rest must settle; a die that moves must be
seen moving, under the same camera.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_settle import THREE, Drawn, felt, scene
from vision import motion
from vision.calibration import Calibration
from vision.settle import SettleConfig, SettleDetector, SettleState

FPS = 30.0
PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "dice-photos"
BYLER = PHOTOS / "byler-d6-topdown"


def camera(
    frame: np.ndarray,
    i: int,
    rng: np.random.Generator,
    shake: float = 2.0,
    turn: float = 0.0,
    zoom: float = 0.0,
) -> np.ndarray:
    """The frame as frame i of a shaky, noisy, compressing, drifting camera sees it; held in
    the hand, it also turns by up to `turn` degrees and zooms by up to `zoom` a frame."""
    h, w = frame.shape[:2]
    shift = rng.uniform(-shake, shake, 2)
    angle, scale = (rng.uniform(-turn, turn), 1 + rng.uniform(-zoom, zoom)) if turn else (0, 1)
    move = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    move[:, 2] += shift
    seen = cv2.warpAffine(frame, move, (w, h), borderMode=cv2.BORDER_REFLECT)
    gain = 1.0 + 0.003 * i  # slow exposure drift: +9% a second
    noisy = seen.astype(np.float32) * gain + rng.normal(0, 3.0, seen.shape)
    seen = np.clip(noisy, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", seen, [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def in_tray(frame: np.ndarray) -> np.ndarray:
    """The drawn felt inside a tray's wooden walls, as the kiosk's camera sees it: the walls,
    their grain and the table around them are what stays still when the dice do."""
    out = frame.copy()
    h, w = out.shape[:2]
    rng = np.random.default_rng(9)
    grain = cv2.GaussianBlur(rng.normal(0, 25, (h, w)).astype(np.float32), (0, 0), 2.0)
    wood = np.clip(np.float32([40, 80, 130]) + grain[..., None], 0, 255).astype(np.uint8)
    wall = np.zeros((h, w), bool)
    wall[:36], wall[-36:], wall[:, :36], wall[:, -36:] = True, True, True, True
    out[wall] = wood[wall]
    return out


def tray_calibration() -> Calibration:
    return Calibration(empty=in_tray(felt()))


def states(detector: SettleDetector, frames: list[np.ndarray]) -> list[SettleState]:
    return [detector.update(frame, i / FPS) for i, frame in enumerate(frames)]


def real_photo() -> np.ndarray:
    paths = sorted((BYLER / "images").rglob("*.jpg"))
    if not paths:
        pytest.skip("the byler photo set is not beside the checkout")
    return cv2.imread(str(paths[0]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_drawn_dice_at_rest_settle_under_a_shaking_noisy_camera(seed: int) -> None:
    rng = np.random.default_rng(seed)
    still = in_tray(scene(THREE))
    frames = [camera(still, i, rng) for i in range(30)]
    seen = states(SettleDetector(SettleConfig(still_for=0.3), tray_calibration()), frames)
    assert all(s is SettleState.SETTLED for s in seen[12:]), seen


@pytest.mark.parametrize("seed", [0, 1])
def test_a_drawn_die_rolling_is_moving_under_the_same_camera(seed: int) -> None:
    rng = np.random.default_rng(seed)
    frames = [
        camera(in_tray(scene([*THREE[:2], Drawn(5, (430.0 + 3 * i, 300.0), angle=7 * i)])), i, rng)
        for i in range(30)
    ]
    seen = states(SettleDetector(SettleConfig(still_for=0.3), tray_calibration()), frames)
    assert SettleState.SETTLED not in seen


@pytest.mark.parametrize("seed", [0, 1])
def test_a_real_photo_of_dice_at_rest_settles_under_a_shaking_noisy_camera(seed: int) -> None:
    rng = np.random.default_rng(seed)
    photo = real_photo()
    frames = [camera(photo, i, rng) for i in range(30)]
    seen = states(SettleDetector(SettleConfig(still_for=0.3)), frames)
    assert all(s is SettleState.SETTLED for s in seen[12:]), seen


def test_a_real_die_sliding_across_a_real_photo_is_moving() -> None:
    rng = np.random.default_rng(5)
    photo = real_photo()
    h, w = photo.shape[:2]
    die = photo[h // 2 - 20 : h // 2 + 20, w // 2 - 20 : w // 2 + 20].copy()
    frames = []
    for i in range(30):
        frame = photo.copy()
        x = w // 4 + 2 * i
        frame[h // 4 : h // 4 + 40, x : x + 40] = die
        frames.append(camera(frame, i, rng))
    seen = states(SettleDetector(SettleConfig(still_for=0.3)), frames)
    assert SettleState.SETTLED not in seen


def test_without_shake_compensation_the_same_camera_never_settles() -> None:
    """The mechanism is what makes it work: with shake undone by nothing, the same frames
    keep the detector moving (as a hand-held camera did before)."""
    rng = np.random.default_rng(0)
    frames = [camera(in_tray(scene(THREE)), i, rng) for i in range(30)]
    config = SettleConfig(still_for=0.3, shake=0.0)
    seen = states(SettleDetector(config, tray_calibration()), frames)
    assert SettleState.SETTLED not in seen[12:]


HAND = {"turn": 0.25, "zoom": 0.002}  # a hand-held camera: a quarter degree, 0.2% a frame


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_dice_at_rest_settle_under_a_hand_held_camera(seed: int) -> None:
    """Two seconds of a real photo and of drawn dice filmed by hand: the camera shakes, turns
    and zooms a little every frame, and the dice at rest settle and stay settled."""
    for still, calibration in ((real_photo(), None), (in_tray(scene(THREE)), tray_calibration())):
        rng = np.random.default_rng(seed)
        frames = [camera(still, i, rng, **HAND) for i in range(60)]
        seen = states(SettleDetector(SettleConfig(still_for=0.3), calibration), frames)
        assert all(s is SettleState.SETTLED for s in seen[12:]), seen


def test_a_die_rolling_is_moving_under_a_hand_held_camera() -> None:
    rng = np.random.default_rng(1)
    frames = [
        camera(
            in_tray(scene([*THREE[:2], Drawn(5, (430.0 + 3 * i, 300.0), angle=7 * i)])),
            i,
            rng,
            **HAND,
        )
        for i in range(30)
    ]
    seen = states(SettleDetector(SettleConfig(still_for=0.3), tray_calibration()), frames)
    assert SettleState.SETTLED not in seen


def test_with_the_shift_alone_a_hand_held_camera_keeps_interrupting(monkeypatch) -> None:
    """The turn is what the refinement undoes: with the shift alone (no turn or zoom taken),
    the same hand-held frames fall back to moving now and then, each time delaying the read
    by the settling time."""
    monkeypatch.setattr(motion, "TURN", 0.0)
    seeds = (2, 3, 4)
    interrupted = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        frames = [camera(real_photo(), i, rng, **HAND) for i in range(60)]
        seen = states(SettleDetector(SettleConfig(still_for=0.3)), frames)
        interrupted += SettleState.MOVING in seen[12:]
    assert interrupted >= 2
