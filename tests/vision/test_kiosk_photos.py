"""The kiosk's reader on real dice: photos of a fixed camera over a light box, read as a tray's
throws (benchmarks/eval_kiosk_photos.py). Real pips and a real lens measure flat dice longer
than the simulated tray's pinhole camera: where a die has something to lean on (the wall,
another die) many are refused as leaning; none is announced wrongly."""

from __future__ import annotations

import sys
from collections import Counter
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibrate import find_tray
from vision.calibration import Calibration
from vision.reader import inspect
from vision.tray_reader import TrayReader

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "dice-photos"
sys.path.insert(0, str(REPO / "benchmarks"))
from eval_kiosk_photos import taken_to_lean  # noqa: E402
from eval_photos import load_labels, split  # noqa: E402

pytestmark = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"real photo sets not found at {DATA} (checkout without ../shared)"
)
SESSION = "IMG_20191209"  # one day's set-up of byler's light box: the camera stayed put


@cache
def _session() -> tuple[Calibration, list[tuple[np.ndarray, list[tuple]]]]:
    """The session's development photos with their labels, and a calibration made as staff
    make one from the empty tray: the per-pixel median of the photos (the dice lie elsewhere
    in each)."""
    dev, _ = split(load_labels(DATA / "byler-d6-topdown", errata=True))
    photos = [(cv2.imread(str(p)), dev[p]) for p in sorted(dev) if p.name.startswith(SESSION)]
    empty = np.median(np.stack([f for f, _ in photos[:40]]), axis=0).astype(np.uint8)
    return Calibration(tray=find_tray(empty), empty=empty), photos[:30]


@cache
def _flat_dice() -> Counter:
    """The dice the classifier reads right and surely (flat dice, seen from above) in the
    session's photos, read as the kiosk reads, counted as eval_kiosk_photos.py counts them:
    standing free or beside a die or the wall, and how many of each are taken to lean."""
    calibration, photos = _session()
    dice: Counter = Counter()
    for frame, labels in photos:
        dice.update(taken_to_lean(inspect(frame, expect=None, calibration=calibration)[1], labels))
    return dice


def test_the_kiosk_reader_answers_no_real_roll_wrongly():
    calibration, photos = _session()
    reader = TrayReader(calibration)
    answered = Counter()
    for frame, labels in photos:
        reader.expect = len(labels)
        roll = reader(frame)
        if roll.ok:
            right = Counter(roll.values) == Counter(v for v, *_ in labels)
            answered["right" if right else "wrong"] += 1
    # 8 of 30 answered: these photos hold 4-25 dice each, most beside another (Known weaknesses)
    assert answered["wrong"] == 0 and answered["right"] >= 1


def test_a_real_flat_die_with_nothing_to_lean_on_is_seldom_taken_to_lean():
    """Its pips look 1.05-1.3 long now and then (drilled, shaded, in JPEG) on a square face:
    held to the simulated tray's tilt limits, a third of such free dice were refused; needing
    both the face and the pips to show a tilt (face.kiosk_leaning), none."""
    dice = _flat_dice()
    assert dice["free"] >= 80 and dice["free leans"] <= 0.1 * dice["free"], dice


@pytest.mark.xfail(
    strict=True,
    reason="known weakness (docs/vision.md): beside another die or the wall, a die is held to "
    "the simulated tray's tilt limits, which real flat dice seen from above measure past",
)
def test_a_real_flat_die_beside_another_is_not_taken_to_lean():
    dice = _flat_dice()
    assert dice["beside"] >= 80
    assert dice["beside leans"] <= 0.1 * dice["beside"], dice
