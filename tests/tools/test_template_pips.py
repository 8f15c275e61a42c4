"""The pip finder's examples place a labelled die's pips by fitting its layout whole where the
geometric reading's spot searches read nothing (tools/pip_examples.template_pips). Those
places become training targets, so they must be where the pips are: on rendered dice whose
pips are known, and on real dice where the spot searches agree."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, split
from tools.pip_examples import spot_pips, template_pips
from tools.render_dice import render_scene

BYLER = DEFAULT_DATA / "byler-d6-topdown"


def _worst_miss(found, pips) -> float:
    """The largest distance from a pip found to the nearest pip of `pips` (frame px)."""
    known = np.array([p[:2] for p in pips], float)
    return max(float(np.hypot(*(known - np.array(q[:2])).T).min()) for q in found)


@pytest.fixture(scope="module")
def rendered_dice():
    rng = np.random.default_rng(11)
    out = []
    for _ in range(24):
        image, dice = render_scene(rng, 480, 480, side=float(rng.uniform(30, 160)))
        for d in dice:
            (x, y), half = d.centre, d.size / 2
            whole = half <= x <= 480 - half and half <= y <= 480 - half
            if d.flat and d.value > 1 and whole:
                out.append((image, d, (x - half, y - half, x + half, y + half)))
    return out


def test_the_layout_fitted_whole_lands_on_the_drawn_pips(rendered_dice):
    assert len(rendered_dice) >= 20
    answered = [(d, template_pips(image, d.value, box)) for image, d, box in rendered_dice]
    answered = [(d, pips) for d, pips in answered if pips is not None]
    assert len(answered) >= 0.8 * len(rendered_dice)
    for d, pips in answered:
        assert len(pips) == d.value
    on_pips = [_worst_miss(pips, d.pips) < 0.12 * d.size for d, pips in answered]
    assert sum(on_pips) >= 0.9 * len(answered)


@pytest.mark.skipif(not BYLER.exists(), reason="the photo sets are not beside the checkout")
def test_on_real_dice_it_places_the_pips_where_the_spot_searches_do():
    dev, _ = split(load_labels(BYLER))
    agree = both = 0
    for path, labels in list(dev.items())[:8]:
        frame = cv2.imread(str(path))
        for value, *box in labels:
            spots = spot_pips(frame, value, box) if value > 1 else None
            if spots is None:
                continue
            fitted = template_pips(frame, value, box)
            if fitted is None:
                continue
            both += 1
            size = math.sqrt((box[2] - box[0]) * (box[3] - box[1]))
            agree += _worst_miss(fitted, spots) < 0.12 * size
    assert both >= 40
    assert agree >= 0.85 * both


def test_no_pips_are_placed_for_a_one_or_on_a_plain_face(rendered_dice):
    image, d, box = rendered_dice[0]
    assert template_pips(image, 1, box) is None  # one spot: no layout places it
    rng = np.random.default_rng(3)
    plain = np.clip(rng.normal(180, 2, (200, 200, 3)), 0, 255).astype(np.uint8)
    for value in range(2, 7):
        assert template_pips(plain, value, (60, 60, 140, 140)) is None
