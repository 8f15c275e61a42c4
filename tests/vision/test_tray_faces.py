"""What the kiosk's reader learnt of its tray's faces, kept beside the calibration."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from kiosk.config import load_config
from kiosk.reading import build_watcher
from vision.calibration import FACES_FILE, Calibration
from vision.params import PARAMS
from vision.tray_faces import TrayFaces, load_faces, save_faces
from vision.tray_reader import TrayReader

LEARNT = TrayFaces(sizes=(61.8, 62.4, 62.0), window=(0.96, 1.1))


def _calibration() -> Calibration:
    tray = np.array([[10, 10], [300, 10], [300, 200], [10, 200]], np.int32)
    return Calibration(tray, None, np.full((240, 320, 3), 90, np.uint8))


def test_faces_kept_are_the_faces_learnt(tmp_path):
    save_faces(tmp_path, LEARNT)
    assert load_faces(tmp_path) == LEARNT


def test_nothing_kept_is_learnt_again(tmp_path):
    assert load_faces(tmp_path) is None


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"version": 2, "sizes": [], "window": [0.96, 1.1]}',
        '{"version": 2, "sizes": [62.0], "window": [1.2, 1.3]}',
        '{"version": 2, "sizes": ["62"], "window": [0.96, 1.1]}',
        '{"version": 2, "sizes": [62.0], "window": [0.96, "1.1"]}',
        '{"version": 9, "sizes": [62.0], "window": [0.96, 1.1]}',
        '{"version": 1, "sizes": [62.0], "window": [0.96, 1.1]}',  # measured otherwise
        '{"version": 2, "sizes": [62.0], "window": [0.96, 1.1], "tilts": [1.06]}',
        '{"version": 2, "sizes": [62.0], "window": [0.96, 1.1], "tilts": [0.9, 1.06]}',
        '{"version": 2, "sizes": [62.0], "window": [0.96, 1.1], "tilts": [1.06, null]}',
        "[]",
    ],
)
def test_a_damaged_file_is_learnt_again_and_said_so(tmp_path, caplog, text):
    (tmp_path / FACES_FILE).write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert load_faces(tmp_path) is None
    assert "learnt again" in caplog.text


def test_the_leaning_limits_learnt_are_kept_and_a_file_without_them_still_loads(tmp_path):
    widened = TrayFaces(LEARNT.sizes, LEARNT.window, tilts=(1.08, 1.07))
    save_faces(tmp_path, widened)
    assert load_faces(tmp_path) == widened
    save_faces(tmp_path, LEARNT)  # as written before the limits were learnt
    assert load_faces(tmp_path) == LEARNT and LEARNT.tilts is None


def test_a_reader_given_leaning_limits_holds_dice_to_them_never_past_the_ceiling():
    told = TrayReader(_calibration(), faces=TrayFaces(LEARNT.sizes, LEARNT.window, (1.08, 1.07)))
    assert told.tilt_limits == pytest.approx((1.08, 1.07))
    assert told.faces.tilts == pytest.approx((1.08, 1.07))
    loose = TrayReader(_calibration(), faces=TrayFaces(LEARNT.sizes, LEARNT.window, (1.9, 1.0)))
    ceiling, pips = PARAMS.judge.lean_ceiling, PARAMS.pips
    assert loose.tilt_limits == pytest.approx((ceiling, pips.cocked_stretch))
    assert TrayReader(_calibration(), faces=LEARNT).tilt_limits == (
        pips.cocked_pips,
        pips.cocked_stretch,
    )


def test_a_new_calibration_forgets_the_faces_learnt_on_the_old(tmp_path):
    save_faces(tmp_path, LEARNT)
    _calibration().save(tmp_path)
    assert load_faces(tmp_path) is None


def test_a_reader_given_faces_starts_learnt():
    fresh = TrayReader(_calibration())
    assert fresh.faces is None and fresh.face_size is None
    told = TrayReader(_calibration(), faces=LEARNT)
    assert told.faces == LEARNT
    assert told.face_size == pytest.approx(62.0)
    assert told.params.judge.top_face == LEARNT.window  # faces held to it from the start
    assert told.calibration.die_size == pytest.approx(62.0)  # the finder's scale, too


def test_a_single_photo_reader_takes_no_tray_faces():
    assert TrayReader(None, faces=LEARNT).faces is None


def test_another_number_of_dice_keeps_what_the_reader_learnt():
    reader = TrayReader(_calibration(), faces=LEARNT)
    two = reader.expecting(2)
    assert two.expect == 2 and reader.expect == 3
    assert two.faces == LEARNT and two.calibration == reader.calibration


def test_the_kiosk_reader_starts_from_the_faces_kept_with_its_calibration(tmp_path):
    calibration = _calibration()
    calibration.save(tmp_path)
    assert build_watcher(load_config(None), calibration, folder=tmp_path).reader.faces is None
    save_faces(tmp_path, LEARNT)
    watcher = build_watcher(load_config(None), calibration, folder=tmp_path)
    assert watcher.reader.faces == LEARNT
    kept = build_watcher(load_config(None), calibration, 2, reader=watcher.reader)
    assert kept.reader.faces == LEARNT and kept.reader.expect == 2
