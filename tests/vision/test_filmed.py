"""Real dice filmed by a hand-held phone (benchmarks/eval_filmed.py) are read by `watch` as their
photos are: one answer a rest, with the photo's values, never another value."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_watch import tally, watch  # noqa: E402
from eval_filmed import film  # noqa: E402
from eval_photos import load_labels, split  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "dice-photos"
pytestmark = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"real photo sets not found at {DATA} (checkout without ../shared)"
)


def test_real_dice_filmed_hand_held_are_answered_as_their_photos_are_read(tmp_path):
    """Three photos of two dice on a wooden floor (skovy, the development part, path order),
    filmed at 960 px wide in MPEG-4 (predicted frames, as phones record): the camera shakes,
    wanders and turns, the sensor is noisy, the exposure drifts, and a hand sweeps over the
    dice between rests."""
    dev, _ = split(load_labels(DATA / "skovy-two-dice", errata=True))
    paths = sorted(dev)[:3]
    labels = [tuple(sorted(box[0] for box in dev[p])) for p in paths]
    video = tmp_path / "filmed.mp4"
    starts = film([cv2.imread(str(p)) for p in paths], video, "mp4v", seed=3, widest=960)
    counts = tally(watch(video, None, "any"), labels, starts)
    assert counts["ok right"] == 3, counts
    assert counts["extra"] == 0 and counts["ok WRONG"] == 0, counts
