"""A camera knocked since calibration: its shift measured on the tray's rim, and the kiosk's
reader following it (or, moved too far, refusing every roll and saying why)."""

from __future__ import annotations

import logging

import cv2
import numpy as np
import pytest

from hardware.sim import SimulatedTray
from vision.calibration import Calibration
from vision.reading import RerollReason
from vision.tray_reader import TrayReader
from vision.tray_shift import HOLD, MATCH, FollowedCamera, camera_shift, moved

SIZE, DIE = (1280, 720), 64


def _knocked(frame: np.ndarray, dx: float, dy: float, turn: float = 0.0) -> np.ndarray:
    """The frame as a camera moved by (dx, dy) px, and turned by `turn` degrees, sees it."""
    h, w = frame.shape[:2]
    move = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    move[:, 2] += (dx, dy)
    return cv2.warpAffine(frame, move, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _shaded(frame: np.ndarray) -> np.ndarray:
    """Half the light on one side of the picture, full on the other (a visitor's shadow)."""
    light = np.linspace(0.5, 1.0, frame.shape[1], dtype=np.float32)[None, :, None]
    return (frame * light).astype(np.uint8)


def _tray(seed: int, colour: str = "#efe8d8") -> tuple[SimulatedTray, Calibration]:
    tray = SimulatedTray(SIZE, die_size=DIE, seed=seed, die_colour=colour)
    tray.open()
    return tray, Calibration(tray.tray_polygon, None, tray.empty_frame())


@pytest.mark.parametrize(
    ("colour", "shift", "shade"),
    [
        ("#efe8d8", (0.0, 0.0), False),
        ("#efe8d8", (0.4, -0.3), True),
        ("#b02020", (7.6, -3.2), False),
        ("#2a8a3a", (-11.3, 9.7), True),
        ("#2040a0", (30.5, -24.8), False),
        ("#1a1a1a", (-4.5, -8.2), True),
    ],
)
def test_the_cameras_shift_is_measured_with_dice_on_the_tray(colour, shift, shade):
    """Dice on the floor, a shadow over half the picture: the shift is found within 0.4 px,
    and the rim matches once it is undone."""
    tray, calibration = _tray(5, colour)
    tray.throw()
    frame = _knocked(tray.at_rest(), *shift)
    found = camera_shift(_shaded(frame) if shade else frame, calibration)
    assert found is not None
    assert np.hypot(found.dx - shift[0], found.dy - shift[1]) < 0.4, found
    assert found.match >= MATCH


@pytest.mark.parametrize("side", ["top", "bottom", "left", "right"])
def test_an_arm_over_the_rim_is_no_move_of_the_camera(side):
    """A visitor's arm (a flat band of skin from the picture's edge onto the floor) covers part
    of the rim while the dice are at rest: the rest of the rim holds the shift under a pixel,
    and the calibration stays where it is."""
    tray, calibration = _tray(4)
    tray.throw()
    frame = tray.at_rest().copy()
    corners = {
        "top": ((500, 0), (700, 260)),
        "bottom": ((300, 460), (520, 720)),
        "left": ((0, 250), (330, 450)),
        "right": ((950, 100), (1280, 330)),
    }[side]
    cv2.rectangle(frame, *corners, (120, 150, 200), -1)
    found = camera_shift(frame, calibration)
    assert found is not None and found.length < HOLD, found  # under what is followed
    camera = FollowedCamera(calibration)
    assert camera.follow(frame, calibration) is None and camera.offset == (0, 0)


def test_a_turned_camera_does_not_match_and_is_not_followed():
    """A translation cannot undo a turn of 1.5 degrees (the corners move 20 px): the rim does
    not match, and the calibration is kept as it is (staff calibrate again)."""
    tray, calibration = _tray(6)
    tray.throw()
    frame = _knocked(tray.at_rest(), 6, 4, turn=1.5)
    found = camera_shift(frame, calibration)
    assert found is not None and found.match < MATCH
    camera = FollowedCamera(calibration)
    assert camera.follow(frame, calibration) is None
    assert camera.offset == (0, 0) and not camera.too_far and not camera.lost


def test_a_picture_that_no_longer_matches_is_said_once(caplog):
    """Turned by a degree and a half, the kiosk's reader reads on with the calibration as made
    (its reads refuse what lies wrong), and after three measures in a row that do not match,
    the log tells staff to calibrate again, once; a match again clears it."""
    tray, calibration = _tray(9)
    reader = TrayReader(calibration)
    with caplog.at_level(logging.WARNING, logger="vision.tray_shift"):
        for _ in range(5):
            tray.throw()
            roll = reader(_knocked(tray.at_rest(), 6, 4, turn=1.5))
            assert not roll.ok or sorted(roll.values) == sorted(tray.last_values)
    assert reader.camera.lost and reader.camera.offset == (0, 0)
    assert caplog.text.count("no longer matches the calibration") == 1
    tray.throw()
    reader(tray.at_rest())
    assert not reader.camera.lost


def test_nothing_is_measured_without_an_empty_tray_or_on_another_frame_size():
    tray, calibration = _tray(7)
    frame = tray.empty_frame()
    assert camera_shift(frame, Calibration(calibration.tray, None, None)) is None
    assert camera_shift(frame, Calibration(None, None, calibration.empty)) is None
    assert camera_shift(frame[:, :-8], calibration) is None


def test_a_moved_calibration_is_the_empty_tray_and_floor_moved_alike():
    tray, calibration = _tray(8)
    shifted = moved(calibration, 5, -3)
    assert np.array_equal(shifted.tray, calibration.tray + [5, -3])
    assert shifted.tray.dtype == np.int32
    assert np.array_equal(shifted.empty[103:600, 205:1000], calibration.empty[106:603, 200:995])
    assert shifted.die_size == calibration.die_size


def _read_right(reader: TrayReader, tray: SimulatedTray, shift: tuple[int, int], n: int):
    """How the reader answers `n` throws seen by a camera moved by `shift`: (right, reasons)."""
    right, reasons = 0, []
    for _ in range(n):
        tray.throw()
        roll = reader(_knocked(tray.at_rest(), *shift))
        assert not roll.ok or sorted(roll.values) == sorted(tray.last_values), roll
        right += roll.ok
        reasons.append(roll.reason)
    return right, reasons


def test_the_kiosks_reader_follows_a_knocked_camera(caplog):
    """Knocked 9 px right and 6 up after calibration, as the kiosk's reader meets it: the same
    eight throws are read about as by a camera never knocked (the finder samples the moved
    picture on another grid: a die on the edge of touching the wall may fall either side),
    where a reader that does not follow refuses most of them (`cut`: the floor's outline lies
    beside the real one); staff are told once, in the log."""
    tray, calibration = _tray(3)
    unknocked, _ = _read_right(TrayReader(calibration), tray, (0, 0), 8)
    assert unknocked >= 5

    tray, calibration = _tray(3)
    unmoved = TrayReader(calibration)
    unmoved.camera = FollowedCamera(None)  # the calibration as made, never moved
    right, reasons = _read_right(unmoved, tray, (9, -6), 8)
    assert right <= unknocked - 3 and RerollReason.CUT in reasons

    tray, calibration = _tray(3)
    reader = TrayReader(calibration)
    with caplog.at_level(logging.WARNING, logger="vision.tray_shift"):
        right, _ = _read_right(reader, tray, (9, -6), 8)
    assert right >= unknocked - 1 and reader.camera.offset == (9, -6)
    assert caplog.text.count("the camera has moved (+9, -6) px") == 1
    assert np.array_equal(reader.calibration.tray, calibration.tray + [9, -6])


def test_a_camera_moved_too_far_refuses_every_roll_until_it_is_back(caplog):
    """Moved a tenth of the picture's width or more (a knock that far may also have turned it),
    every roll is thrown again, with a reason for staff, and a warning once; put back, the
    camera is followed again."""
    tray, calibration = _tray(4)
    reader = TrayReader(calibration)
    with caplog.at_level(logging.WARNING, logger="vision.tray_shift"):
        right, reasons = _read_right(reader, tray, (200, 10), 3)
    assert right == 0 and set(reasons) == {RerollReason.BAD_FRAME}
    assert reader.camera.too_far
    assert caplog.text.count("too far to follow") == 1
    tray.throw()
    roll = reader(_knocked(tray.at_rest(), 200, 10))
    assert "calibrate again" in roll.detail
    right, _ = _read_right(reader, tray, (2, 1), 4)
    assert right >= 3 and not reader.camera.too_far and reader.camera.offset == (2, 1)


def test_the_test_read_follows_a_knocked_camera_and_learns_nothing_of_the_dice():
    """Staff test-read the tray right after the camera was knocked (no rest read since), on
    dice that the calibration as made refuses: the test read is the kiosk's, so it follows
    the camera too and reads them as the unknocked camera does; it still learns no faces."""
    tray, calibration = _tray(3)
    unmoved = TrayReader(calibration)
    unmoved.camera = FollowedCamera(None)  # the calibration as made, never moved
    for _ in range(20):
        tray.throw()
        frame = tray.at_rest()
        expected = unmoved.peek(frame)
        if expected.ok and not unmoved.peek(_knocked(frame, 9, -6)).ok:
            break
    else:
        raise AssertionError("no throw in 20 that the knock makes the reader refuse")
    reader = TrayReader(calibration)
    roll = reader.peek(_knocked(frame, 9, -6))
    assert roll.ok and sorted(roll.values) == sorted(expected.values)
    assert reader.camera.offset == (9, -6) and reader.learning == (0, 30)
