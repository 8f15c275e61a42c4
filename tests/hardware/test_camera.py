"""Cameras: replay of real photos and videos, failure as CameraError, reopening after it."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import (
    Camera,
    CameraError,
    Frame,
    PiCamera,
    UsbCamera,
    as_bgr,
    open_camera,
    pi_controls,
)
from hardware.replay import ReplayCamera
from hardware.sim import SimulatedTray
from kiosk.config import CameraConfig, SimulatedConfig

REPO = Path(__file__).resolve().parents[2]
PHOTOS = REPO.parent / "shared" / "data" / "dice-photos" / "byler-d6-topdown" / "images" / "train"
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no photos at {PHOTOS}")


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


@needs_photos
def test_replay_serves_the_shared_photos_in_order_at_the_frame_rate() -> None:
    files = sorted(PHOTOS.glob("*.jpg"))
    clock = FakeClock()
    with ReplayCamera(PHOTOS, fps=10, loop=False, clock=clock) as camera:
        assert camera.frame_count == len(files)
        first = camera.read()
        assert isinstance(first, Frame)
        assert first.image.dtype == np.uint8 and first.image.ndim == 3
        assert first.image.shape[2] == 3
        assert np.array_equal(first.image, cv2.imread(str(files[0])))
        clock.now += 0.25  # 2.5 frames later: the third photo
        third = camera.read()
        assert np.array_equal(third.image, cv2.imread(str(files[2])))
        assert third.timestamp > first.timestamp
        clock.now += len(files) / 10
        with pytest.raises(CameraError, match="ended"):
            camera.read()


@needs_photos
def test_replay_loops_when_asked() -> None:
    files = sorted(PHOTOS.glob("*.jpg"))
    clock = FakeClock()
    with ReplayCamera(PHOTOS, fps=1, loop=True, clock=clock) as camera:
        clock.now += len(files) + 1
        assert np.array_equal(camera.read().image, cv2.imread(str(files[1])))


def test_a_replay_folder_that_vanishes_is_an_error_then_reopens(tmp_path: Path) -> None:
    folder = tmp_path / "tray"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((48, 64, 3), 40 * i, np.uint8))
    clock = FakeClock()
    camera = ReplayCamera(folder, fps=1, clock=clock)
    camera.open()
    assert camera.read().image[0, 0, 0] == 0
    moved = tmp_path / "unplugged"
    folder.rename(moved)
    clock.now += 1
    with pytest.raises(CameraError, match="removed"):
        camera.read()
    with pytest.raises(CameraError, match="not open"):
        camera.read()
    with pytest.raises(CameraError, match="does not exist"):
        camera.open()
    moved.rename(folder)
    camera.open()
    assert camera.read().image.shape == (48, 64, 3)
    camera.close()


def test_an_empty_replay_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no images"):
        ReplayCamera(tmp_path).open()


def write_video(path: Path, frames: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(frames):
        writer.write(np.full((48, 64, 3), 20 * i + 10, np.uint8))
    writer.release()


def test_replay_of_a_video_file(tmp_path: Path) -> None:
    path = tmp_path / "throw.avi"
    write_video(path, 5)
    clock = FakeClock()
    with ReplayCamera(path, fps=10, loop=False, clock=clock) as camera:
        levels = []
        for _ in range(5):
            levels.append(int(camera.read().image.mean()))
            clock.now += 0.1
        assert levels == sorted(levels) and levels[-1] - levels[0] > 60
        with pytest.raises(CameraError, match="ended"):
            camera.read()


def test_a_looping_video_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "throw.avi"
    write_video(path, 3)
    clock = FakeClock()
    with ReplayCamera(path, fps=10, loop=True, clock=clock) as camera:
        first = int(camera.read().image.mean())
        clock.now += 0.35  # past the third frame
        again = int(camera.read().image.mean())
        assert abs(again - first) < 8


class FakeCapture:
    """Stands in for the webcam device behind cv2.VideoCapture."""

    def __init__(self, plugged: list[bool]) -> None:
        self.plugged = plugged
        self.settings: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.plugged[0]

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.plugged[0]:
            return False, None
        return True, np.zeros((72, 128, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_usb_camera_unplugged_mid_run_raises_then_reopens() -> None:
    plugged = [True]
    captures: list[FakeCapture] = []

    def factory(device: int | str) -> FakeCapture:
        captures.append(FakeCapture(plugged))
        return captures[-1]

    camera = UsbCamera("/dev/video0", (128, 72), 30, 8000, capture_factory=factory)
    with camera:
        assert camera.read().image.shape == (72, 128, 3)
        assert captures[0].settings[cv2.CAP_PROP_FRAME_WIDTH] == 128
        assert captures[0].settings[cv2.CAP_PROP_EXPOSURE] == 80  # units of 100 us
        plugged[0] = False
        with pytest.raises(CameraError, match="unplugged"):
            camera.read()
        assert captures[0].released
        with pytest.raises(CameraError, match="not connected"):
            camera.open()
        plugged[0] = True
        camera.open()
        assert camera.read().image.shape == (72, 128, 3)


def test_a_missing_usb_camera_is_a_camera_error() -> None:
    def broken(device: int | str) -> FakeCapture:
        raise RuntimeError("no such device")

    with pytest.raises(CameraError, match="no such device"):
        UsbCamera(3, capture_factory=broken).open()


def test_grey_and_bgra_images_become_bgr() -> None:
    assert as_bgr(np.zeros((4, 5), np.uint8), "test").shape == (4, 5, 3)
    assert as_bgr(np.zeros((4, 5, 4), np.uint8), "test").shape == (4, 5, 3)
    with pytest.raises(CameraError):
        as_bgr(np.zeros((4, 5), np.float32), "test")
    with pytest.raises(CameraError):
        as_bgr(None, "test")


def test_pi_controls_fix_exposure_gain_and_white_balance() -> None:
    controls = pi_controls(30, 8000, 2.0, (1.8, 1.6))
    assert controls == {
        "FrameRate": 30.0,
        "AeEnable": False,
        "ExposureTime": 8000,
        "AnalogueGain": 2.0,
        "AwbEnable": False,
        "ColourGains": (1.8, 1.6),
    }
    assert pi_controls(25, 0, 0, None) == {"FrameRate": 25.0}


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here"
)
def test_the_pi_camera_off_a_pi_is_a_clear_camera_error() -> None:
    with pytest.raises(CameraError, match="picamera2"):
        PiCamera().open()


@pytest.mark.pi
def test_the_pi_camera_gives_bgr_frames() -> None:
    with PiCamera((640, 480), 30) as camera:
        frame = camera.read()
        assert frame.image.shape == (480, 640, 3)
        assert camera.read_lores_grey().shape == (240, 320)


@pytest.mark.parametrize(
    ("kind", "cls"),
    [("pi", PiCamera), ("usb", UsbCamera), ("replay", ReplayCamera), ("simulated", SimulatedTray)],
)
def test_open_camera_builds_the_kind_asked_for(kind: str, cls: type) -> None:
    config = CameraConfig(kind=kind, replay_path="/nowhere", resolution=(320, 240))
    camera = open_camera(config, SimulatedConfig(die_size=30))
    assert isinstance(camera, cls)
    assert isinstance(camera, Camera)


def test_the_simulated_camera_follows_the_config() -> None:
    config = CameraConfig(kind="simulated", resolution=(480, 320))
    with open_camera(config, SimulatedConfig(die_size=36, seed=3)) as camera:
        frame = camera.read()
    assert frame.image.shape == (320, 480, 3) and frame.image.dtype == np.uint8


@needs_photos
def test_replay_survives_copying_photos_elsewhere(tmp_path: Path) -> None:
    """A museum's recording is a folder of files copied around: names keep the order."""
    for path in sorted(PHOTOS.glob("*.jpg"))[:3]:
        shutil.copy(path, tmp_path / path.name)
    clock = FakeClock()
    with ReplayCamera(tmp_path, fps=1, loop=False, clock=clock) as camera:
        shapes = []
        for _ in range(3):
            shapes.append(camera.read().image.shape)
            clock.now += 1
    assert shapes == [(640, 640, 3)] * 3


def test_a_bad_file_in_a_replay_folder_is_a_dropped_frame_not_a_lost_camera(tmp_path) -> None:
    import cv2
    import numpy as np

    from hardware.replay import ReplayCamera

    good = np.full((48, 64, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "000.png"), good)
    (tmp_path / "001.png").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "002.png"), good + 10)
    t = [0.0]
    camera = ReplayCamera(tmp_path, fps=1, clock=lambda: t[0])
    camera.open()
    seen = []
    for second in range(6):  # twice round the folder: the bad file never raises
        t[0] = second + 0.5
        seen.append(int(camera.read().image[0, 0, 0]))
    assert seen == [90, 90, 100, 90, 90, 100]


def test_opencv_keeps_its_own_warnings_out_of_the_journal() -> None:
    import subprocess
    import sys

    program = (
        "from hardware.camera import UsbCamera, CameraError\n"
        "camera = UsbCamera('/dev/video-none-here')\n"
        "for _ in range(3):\n"
        "    try:\n"
        "        camera.open()\n"
        "    except CameraError as error:\n"
        "        print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    assert "is not connected" in result.stdout
    assert "WARN" not in result.stderr and "global" not in result.stderr, result.stderr
