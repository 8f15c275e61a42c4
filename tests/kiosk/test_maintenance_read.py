"""The maintenance screen's test read reads as the kiosk would, now: the watcher's own reader
(its calibration, the game's number of dice, what it has learnt of the tray's faces), and it
learns nothing from the frames staff test; and its camera tools say what the reader has learnt
of the dice's top faces."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from hardware.sim import SimulatedTray
from kiosk.config import load_config
from kiosk.reading import build_watcher, learn_faces, maintenance_reader
from kiosk.worker import Preview
from tests.kiosk.tables import headless_table
from vision.calibration import Calibration
from vision.reading import RerollReason
from vision.tray_faces import TrayFaces
from vision.tray_reader import TrayReader

pytestmark = pytest.mark.slow

SIZE, DIE = (640, 360), 45


def _read_throw(tray: SimulatedTray, reader) -> tuple:
    """A throw at rest that the fresh reader reads."""
    for _ in range(20):
        tray.throw()
        frame = tray.at_rest()
        if reader.peek(frame).ok:
            return frame, tuple(sorted(tray.last_values))
    raise AssertionError("no throw read in 20")


def _faces_of_another_size() -> TrayFaces:
    """What a kiosk learnt of its faces before its camera was moved closer to the tray: faces
    0.7 times the size they show now, to which it holds every face (`judge.top_face`)."""
    return TrayFaces((0.7 * DIE,) * 30, (0.96, 1.1))


def _told_of(tmp_path, faces: TrayFaces, die: float) -> tuple:
    """A headless kiosk whose watcher's reader starts from `faces` on a simulated tray of dice
    `die` px wide, its calibration set: (kiosk, watcher, calibration)."""
    tray = SimulatedTray(SIZE, die_size=die, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    watcher = build_watcher(load_config(None), calibration, 3, faces=faces)
    kiosk = headless_table(tmp_path, worker=_Worker(watcher))
    kiosk.calibration = calibration
    return kiosk, watcher, calibration


def _camera_tools_drawn(kiosk, drawn) -> list[str]:
    """The maintenance screen's camera tools drawn: the strings on screen (`drawn`)."""
    scene = kiosk.scenes["maintenance"]
    kiosk.goto("maintenance")
    while scene.tool != "camera":
        scene.on_button("right", "press")
    kiosk.render()
    return drawn


def test_the_test_read_is_the_kiosks_read_and_teaches_it_nothing() -> None:
    tray = SimulatedTray(SIZE, die_size=DIE, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    config = load_config(None)
    worker = SimpleNamespace(watcher=build_watcher(config, calibration, 3))
    read = maintenance_reader(worker)
    frame, values = _read_throw(tray, worker.watcher.reader)

    for _ in range(12):  # staff test the same dice again and again: nothing is learnt
        roll = read(frame)
        assert roll.ok and tuple(sorted(roll.values)) == values, roll  # as the kiosk would
    assert worker.watcher.reader.faces is None and worker.watcher.reader.face_size is None
    assert worker.watcher.reader.learning == (0, 30)

    # The kiosk holds faces to a size it learnt before: the test read holds them to it too.
    worker.watcher = build_watcher(config, calibration, 3, faces=_faces_of_another_size())
    roll = read(frame)
    assert roll.reason is RerollReason.COCKED and "top face" in roll.detail, roll
    worker.watcher = build_watcher(config, calibration, 3)

    # A game of two dice: the test read asks for two, as the kiosk does.
    worker.watcher = build_watcher(config, calibration, 2, reader=worker.watcher.reader)
    roll = read(frame)
    assert roll.reason is RerollReason.WRONG_COUNT and len(roll.dice) == 3


class _Worker:
    """The vision worker as the maintenance screen sees it: a picture and the watcher."""

    def __init__(self, watcher) -> None:
        self.watcher = watcher

    def preview(self):
        image = np.full((90, 160, 3), 60, np.uint8)
        return Preview(image, 0.125, "settled", (), 0.0)

    def request(self, name: str) -> None:
        pass


def test_staff_see_what_the_reader_has_learnt_of_the_dice_faces(tmp_path, drawn) -> None:
    """The camera tools say how far the reader has learnt the size of the dice's top faces
    (how many dice so far), then the size it measured: a size far from the dice's tells a
    curator the camera or the calibration is not what they think."""
    tray = SimulatedTray(SIZE, die_size=DIE, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    config = load_config(None)
    kiosk = headless_table(tmp_path, worker=_Worker(build_watcher(config, calibration, 3)))
    kiosk.calibration = calibration
    scene = kiosk.scenes["maintenance"]
    assert scene.faces_state() == ("Learning the size of the dice's top faces (0 of 30 dice read).")
    tray.throw((2, 3, 4))
    read = kiosk.worker.watcher.reader(tray.at_rest()).dice  # those both readings agree on
    assert read and f"({len(read)} of 30 dice read)" in scene.faces_state()

    faces = learn_faces(SimulatedTray(SIZE, die_size=DIE, seed=1283))
    kiosk.worker.watcher = build_watcher(config, calibration, 3, faces=faces)
    size = round(float(np.median(faces.sizes)))
    assert scene.faces_state() == f"The dice's top faces measure {size} px a side."
    assert abs(size - DIE) < 0.15 * DIE

    kiosk.goto("maintenance")
    while scene.tool != "camera":
        scene.on_button("right", "press")
    kiosk.render()
    assert scene.faces_state() in drawn

    kiosk.calibration = None  # no tray calibrated: nothing to say of its dice
    assert scene.faces_state() == ""
    kiosk.log.close()


def test_staff_are_told_when_the_dice_are_too_small_to_tell_a_leaning_die(tmp_path, drawn) -> None:
    """A camera too far from the tray: once the reader has learnt the dice's top faces to be
    under the camera guide's 40 px, the camera tools say so and ask for the camera closer, not
    whether it is square (such small pips look long from any camera)."""
    from kiosk.i18n import Translator
    from kiosk.ui.scenes import reader_status

    faces = learn_faces(SimulatedTray(SIZE, die_size=30, seed=1283))
    kiosk, watcher, _ = _told_of(tmp_path, faces, 30)
    scene = kiosk.scenes["maintenance"]
    size = round(watcher.reader.face_size)
    assert size < reader_status.LEAST_FACE
    assert scene.faces_state() == (
        f"The dice's top faces measure {size} px a side, too small to tell a leaning die: "
        "bring the camera closer (40 px or more)."
    )
    assert scene.faces_state() in _camera_tools_drawn(kiosk, drawn)
    kiosk.log.close()

    # camera_state reads these of the reader: small faces whose pips look long ask nothing
    seen = SimpleNamespace(face_size=float(size), pip_shape=1.06, camera=watcher.reader.camera)
    assert watcher.reader.camera.offset == (0, 0)
    assert reader_status.camera_state(seen, Translator("en")) == ""
    seen.face_size = float(DIE)  # the guide's size: the pips' length asks about the camera
    assert reader_status.camera_state(seen, Translator("en")).endswith("square to the tray?")


def test_staff_are_told_when_the_reader_reads_slightly_leaning_dice_as_flat(
    tmp_path, drawn
) -> None:
    """A camera that measures flat dice's pips only roughly makes the reader widen its leaning
    limits (TrayReader.tilt_limits, up to 1/cos 25 degrees): the camera tools say from what
    tilt a die is thrown again; where the limits stay about the simulated tray's, nothing."""
    rough = TrayFaces((float(DIE),) * 30, (0.96, 1.1), tilts=(1.10, 1.07))
    kiosk, _, calibration = _told_of(tmp_path, rough, DIE)
    scene = kiosk.scenes["maintenance"]
    assert scene.faces_state() == (
        f"The dice's top faces measure {DIE} px a side, their pips roughly: a die leaning "
        "under 25 degrees counts as flat."
    )
    assert scene.faces_state() in _camera_tools_drawn(kiosk, drawn)
    exact = TrayFaces((float(DIE),) * 30, (0.96, 1.1), tilts=(1.046, 1.05))
    kiosk.worker.watcher = build_watcher(load_config(None), calibration, 3, faces=exact)
    assert scene.faces_state() == f"The dice's top faces measure {DIE} px a side."
    kiosk.log.close()


def test_staff_see_that_the_camera_has_moved_since_calibration(tmp_path, drawn) -> None:
    """A camera knocked after calibration: the camera tools say the reader follows it, by how
    much; knocked too far, that every roll is thrown again until staff calibrate again."""
    tray = SimulatedTray(SIZE, die_size=DIE, seed=11)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    kiosk = headless_table(
        tmp_path, worker=_Worker(build_watcher(load_config(None), calibration, 3))
    )
    kiosk.calibration = calibration
    scene = kiosk.scenes["maintenance"]
    reader = kiosk.worker.watcher.reader
    tray.throw()
    reader(tray.at_rest())
    assert scene.camera_state() == ""  # where it was calibrated

    def knocked(dx: int, dy: int) -> np.ndarray:
        tray.throw()
        return np.roll(tray.at_rest(), (dy, dx), axis=(0, 1))

    reader(knocked(5, -4))
    assert scene.camera_state().startswith("The camera has moved (+5, -4) px since calibration")
    kiosk.goto("maintenance")
    while scene.tool != "camera":
        scene.on_button("right", "press")
    kiosk.render()
    assert scene.camera_state() in drawn

    reader(knocked(120, 0))
    assert scene.camera_state().startswith("The camera has moved too far since calibration")
    for _ in range(3):  # turned by two degrees: the picture no longer matches
        tray.throw()
        turn = cv2.getRotationMatrix2D((SIZE[0] / 2, SIZE[1] / 2), 2.0, 1.0)
        reader(cv2.warpAffine(tray.at_rest(), turn, SIZE, borderMode=cv2.BORDER_REPLICATE))
    assert scene.camera_state().startswith("The picture no longer matches the calibration")
    kiosk.log.close()


def test_staff_pressing_test_read_see_the_kiosks_ruling_on_the_screen(tmp_path, drawn) -> None:
    """Through the maintenance screen, as staff meet it: Test read, Run, on dice whose faces are
    not of the size the kiosk learnt (its camera moved closer since). The vision worker serves
    the request on its next frame; the screen says "throw again", as the kiosk would rule (a
    bare read of the frame with the calibration reads the dice)."""
    from kiosk.worker import CameraStatus, VisionWorker
    from tests.kiosk.test_technician import choose_tool, press

    tray = SimulatedTray(SIZE, die_size=DIE, seed=7)
    tray.open()
    calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
    kiosk = headless_table(tmp_path)
    faces = _faces_of_another_size()
    watcher = build_watcher(load_config(None), calibration, 3, faces=faces)
    worker = VisionWorker(None, kiosk.events, watcher)
    worker.read_now = maintenance_reader(worker)  # as kiosk.app.build wires it
    kiosk.worker, kiosk.calibration = worker, calibration
    frame, _ = _read_throw(tray, TrayReader(calibration))
    kiosk.events.put(CameraStatus(True))  # the camera works, as the worker's first frame says

    choose_tool(kiosk, "test_read")
    press(kiosk, "ok")  # Run
    worker.step(frame, 0.0)  # the worker's next frame serves the request
    kiosk.frame(0.0)
    kiosk.render()
    said = "Throw again: A die leans, or touches the wall of the track."
    assert kiosk.scene.status == said
    assert said in drawn
    kiosk.log.close()


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
@pytest.mark.parametrize("small", [False, True, "loose"])
def test_the_faces_line_keeps_its_size_on_the_seven_inch_panel(
    tmp_path, lang, small, monkeypatch
) -> None:
    """The longest faces lines, in every language, are drawn at the staff status size on the
    800x480 panel, wrapped on two lines where they need them rather than shrunk."""
    from kiosk.ui import draw, theme
    from kiosk.ui.scenes import reader_status

    kiosk = headless_table(tmp_path, worker=_Worker(None))
    kiosk.set_language(lang)
    kiosk.calibration = Calibration(np.array([[0, 0], [9, 0], [9, 9], [0, 9]]), None, None)
    scene = kiosk.scenes["maintenance"]
    if small == "loose":
        line = scene.tr(reader_status.FACES_LOOSE).format(px=139, degrees=25)
    elif small:
        line = scene.tr(reader_status.FACES_SMALL).format(px=39, least=reader_status.LEAST_FACE)
    else:
        line = scene.tr(reader_status.FACES_LEARNING).format(n=29, total=30)
    monkeypatch.setattr(scene, "faces_state", lambda: line)
    sizes: dict[str, int] = {}
    original = draw.rendered

    def spy(name, px, string, color):
        sizes[string] = px
        return original(name, px, string, color)

    monkeypatch.setattr(draw, "rendered", spy)
    kiosk.goto("maintenance")
    while scene.tool != "camera":
        scene.on_button("right", "press")
    kiosk.render()
    pieces = [s for s in sizes if s and s in line]
    assert " ".join(pieces) == line  # all of it drawn, on two lines where it needs them
    assert len(pieces) == (1 if lang == "en" and not small else 2)
    want = kiosk.layout.px(theme.STAFF_STATUS.size)
    assert all(sizes[s] == want for s in pieces)


@pytest.mark.parametrize("squash", [1.0, 1.07])
def test_staff_are_told_when_the_camera_is_not_square_to_the_tray(squash) -> None:
    """A camera tilted about 21 degrees shows everything on the tray 1.07 times shorter one way
    (drawn here by squashing the simulated camera's pictures, the empty tray's too, as it was
    calibrated so): flat dice's pips look long, dice showing 1-3 are thrown again as leaning,
    and the camera tools ask whether the camera is square to the tray. A square one: nothing."""
    from kiosk.i18n import Translator
    from kiosk.ui.scenes import reader_status

    tray = SimulatedTray(SIZE, die_size=DIE, seed=11)
    tray.open()
    middle = SIZE[1] / 2
    squashed = np.float32([[1, 0, 0], [0, 1 / squash, middle * (1 - 1 / squash)]])

    def seen(frame: np.ndarray) -> np.ndarray:
        return cv2.warpAffine(frame, squashed, SIZE, borderMode=cv2.BORDER_REPLICATE)

    floor = np.asarray(tray.tray_polygon, np.float64)
    floor[:, 1] = middle + (floor[:, 1] - middle) / squash
    calibration = Calibration(floor.round().astype(np.int32), None, seen(tray.empty_frame()))
    reader = TrayReader(calibration)
    for _ in range(20):
        tray.throw()
        reader(seen(tray.at_rest()))
    assert reader.pip_shape is not None
    said = reader_status.camera_state(reader, Translator("en"))
    if squash > 1:
        assert reader.pip_shape > reader_status.ASKEW
        assert said.startswith("Flat dice's pips look 1.0") and said.endswith("to the tray?")
    else:
        assert reader.pip_shape < reader_status.ASKEW and said == ""
