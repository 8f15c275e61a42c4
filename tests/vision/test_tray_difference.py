"""The empty-tray difference (vision/tray_difference.py): what counts as on the tray, and a
change of light told from a thing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.params import PARAMS
from vision.tray_difference import _light, tray_blobs


def _felt(width: int = 320, height: int = 180, seed: int = 0) -> np.ndarray:
    """An empty green tray with sensor noise, a working copy's size (a die is 24 px)."""
    rng = np.random.default_rng(seed)
    felt = np.array([60.0, 120.0, 50.0]) + rng.normal(0, 3, (height, width, 3))
    return np.clip(felt, 0, 255).astype(np.uint8)


def _shaded(image: np.ndarray, factor, edge: int) -> np.ndarray:
    """`image` with every column right of `edge` multiplied by `factor` (a sharp shadow), or
    each BGR channel by its own (a tinted light: a warm lamp, a sunbeam)."""
    out = image.astype(np.float32)
    out[:, edge:] *= np.asarray(factor, np.float32)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("factor", [0.4, 0.7, 1.5])
def test_the_light_found_is_the_shadows_on_both_sides_of_its_edge(factor):
    empty = _felt()
    now = _shaded(_felt(seed=1), factor, 160)
    now[80:104, 150:174] = (200, 215, 225)  # an ivory die astride the shadow's edge
    least, most = _light(now, empty, 24.0, PARAMS.candidates)
    assert least.shape == most.shape == now.shape
    assert np.all(least <= most)
    # away from the edge, both are the shadow's factor on the 8-bit values (light multiplies
    # linear values; 8-bit ones are a power of them, multiplied alike)
    left, right = np.s_[:, :140], np.s_[:, 180:]
    assert np.allclose(np.median(least[left]), 1.0, atol=0.05)
    assert np.allclose(np.median(most[right]), factor, rtol=0.06)
    # at the edge, where the samples change, the two take in both sides
    assert least[40, 160].max() <= min(1.0, factor) * 1.06
    assert most[40, 160].min() >= max(1.0, factor) * 0.94


def test_a_die_on_an_evenly_lit_tray_is_no_change_of_light():
    empty = _felt()
    now = _felt(seed=2)
    now[60:84, 100:124] = (30, 30, 30)  # a black die
    least, most = _light(now, empty, 24.0, PARAMS.candidates)
    assert np.abs(least[72, 112] - 1).max() < 0.08 and np.abs(most[72, 112] - 1).max() < 0.08


def test_a_tinted_light_is_found_channel_by_channel_and_a_die_in_it_is_not():
    """A warm light over half the tray (blue x0.9, green x1.3, red x1.7), an ivory and a red
    die in it: the light found is each channel's factor, on the dice too (they are a few
    samples among many), and relit by it the dice still differ from the empty tray."""
    empty = _felt()
    now = _felt(seed=4)
    now[80:104, 200:224] = (200, 215, 225)  # an ivory die
    now[40:64, 250:274] = (40, 40, 170)  # a red die
    now = _shaded(now, (0.9, 1.3, 1.7), 160)
    least, most = _light(now, empty, 24.0, PARAMS.candidates)
    for field in (least, most):
        assert np.allclose(np.median(field[:, 180:], axis=(0, 1)), (0.9, 1.3, 1.7), rtol=0.06)
        assert np.allclose(field[92, 212], (0.9, 1.3, 1.7), rtol=0.08)
        assert np.allclose(field[52, 262], (0.9, 1.3, 1.7), rtol=0.08)
        relit = np.clip(now / field + 0.5, 0, 255).astype(np.int16)
        assert np.abs(relit[92, 212] - empty[92, 212]).max() > 60
        assert np.abs(relit[52, 262] - empty[52, 262]).max() > 60
        assert np.abs(relit[120:170, 180:300] - empty[120:170, 180:300]).mean() < 6


def _tray_frame(factor: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty 640x360 tray, the same tray with a die (48 px) and a sleeve on the rim, and the
    floor polygon; the frame shaded right of x = 300 by `factor`."""
    empty = np.zeros((360, 640, 3), np.uint8)
    empty[:] = (40, 85, 140)  # wooden rim
    empty[40:320, 40:600] = (60, 120, 50)  # felt floor
    rng = np.random.default_rng(3)
    noisy = lambda image: np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)  # noqa: E731
    frame = empty.copy()
    frame[150:198, 330:378] = (200, 215, 225)  # a die in the shadowed part
    frame[100:260, 0:12] = (60, 90, 200)  # a sleeve on the rim, 28 px from the floor
    floor = np.array([[40, 40], [600, 40], [600, 320], [40, 320]], np.int32)
    return noisy(empty), _shaded(noisy(frame), factor, 300), floor


@pytest.mark.parametrize("factor", [1.0, 0.5, (0.85, 1.25, 1.6)])
def test_the_die_is_the_one_thing_on_the_tray_in_a_shadow_or_not(factor):
    """Once the light is matched around each place, the die is all that differs, the shadow
    over it or not; the sleeve beside the tray differs in neither."""
    empty, frame, floor = _tray_frame(factor)
    difference = tray_blobs(frame, empty, 48.0, PARAMS.candidates, floor)
    count, _, stats, _ = cv2.connectedComponentsWithStats(difference.lit)
    things = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] / difference.scale**2 > 0.35 * 48**2]
    assert len(things) == 1
    x, y, w, h = (things[0][:4] / difference.scale).round()
    assert abs(x - 330) <= 3 and abs(y - 150) <= 3 and abs(w - 48) <= 4 and abs(h - 48) <= 4
    assert all(o.reshape(-1, 2)[:, 0].min() > 12 for o in difference.outlines)  # no sleeve
    if factor == 1.0:  # in even light the outline is the die's
        (outline,) = difference.outlines
        assert abs(cv2.contourArea(outline) - 48**2) < 0.15 * 48**2
