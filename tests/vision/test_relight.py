"""What a change of light does not explain (vision/relight.py), on drawn trays: light leaves
nothing, a thing that came, went or moved leaves its patch or its edge band."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_settle import THREE, Drawn, _lit, scene
from vision.motion import shrink, tray_mask
from vision.relight import evenly_lit, unexplained

WIDTH = 160  # the settle detector's work copy
SPAN = 3 * 40 * WIDTH / 640  # three die sides of the drawn dice (40 px at 640)
MASK = tray_mask((160, 120), 640, None)


def _small(frame: np.ndarray) -> np.ndarray:
    return shrink(frame, WIDTH)


@pytest.mark.parametrize(
    ("factors", "soft"),
    [(0.5, 1.0), (0.4, 60.0), (1.5, 10.0), ((0.8, 1.3, 1.6), 20.0), ((1.2, 1.0, 0.7), 1.0)],
)
def test_a_change_of_light_leaves_nothing(factors, soft):
    """A shadow (sharp or soft), brighter light, warm sun clipping the white dice, a cold
    lamp: over the dice and the felt alike, both ways (light coming and going)."""
    before = _small(scene(THREE))
    for edge in (100.0, 330.0, 520.0):
        after = _small(_lit(scene(THREE), factors, edge, soft))
        assert cv2.countNonZero(unexplained(after, before, MASK, 12, SPAN)) == 0
        assert cv2.countNonZero(unexplained(before, after, MASK, 12, SPAN)) == 0


@pytest.mark.parametrize("factor", [0.3, 0.5])
def test_a_shadows_edge_across_a_white_die_leaves_nothing(factor):
    """The edge of a deep shadow swept across the tray, 10 px soft, every 10 px: where it
    crosses a die, the light's factor there, a median over three die sides, is a few per cent
    off the die's own change, and a white die's bright pixels relit by it fell beyond the
    level (up to 20 px of them, more than 0.1% of the tray: a visitor's shadow taken for a
    hand, "the dice did not move")."""
    before = _small(scene(THREE))
    for edge in range(80, 600, 10):
        after = _small(_lit(scene(THREE), factor, float(edge), 10.0))
        assert cv2.countNonZero(unexplained(after, before, MASK, 12, SPAN)) == 0, edge
        assert cv2.countNonZero(unexplained(before, after, MASK, 12, SPAN)) == 0, edge


def test_a_die_moved_is_not_light_even_in_changed_light():
    moved = [THREE[0], THREE[1], Drawn(6, (470.0, 200.0), angle=70)]  # the 6 slid aside
    before = _small(scene(THREE))
    after = _small(_lit(scene(moved), 0.6, 300, 20.0))
    changed = unexplained(after, before, MASK, 12, SPAN)
    ys, xs = np.nonzero(changed)
    assert len(xs) >= 10 and xs.min() >= (450 - 30) / 4 and xs.max() <= (470 + 30) / 4


def test_a_hand_larger_than_the_span_keeps_its_edge():
    """A hand is many dice wide: inside it the light found is the hand's own, but along its
    edge the median is the floor's, and a band of it stays unexplained."""
    before = _small(scene(THREE))
    after = _small(scene(THREE, hand=(300, 260)))
    changed = unexplained(after, before, MASK, 12, SPAN)
    assert cv2.countNonZero(changed) > 0.01 * cv2.countNonZero(MASK)


@pytest.mark.parametrize("factors", [0.5, (0.8, 1.3, 1.6)])
def test_a_die_in_a_sunbeam_or_a_shadow_is_not_evenly_lit(factors) -> None:
    """Light changed over the right third of the tray only (a shadow, warm sun): the die there
    is not lit as the rest of the tray is, the others are; the same change over the whole
    tray (the lamp dimmed, the room's light warmer) leaves every die evenly lit."""
    empty = scene()
    frame = scene(THREE)  # dice at x = 200, 330 and 450
    boxes = [(*d.center, d.size) for d in THREE]
    assert evenly_lit(frame, empty, boxes) == [True, True, True]
    assert evenly_lit(_lit(frame, factors, 400, 10), empty, boxes) == [True, True, False]
    everywhere = _lit(frame, factors, -1000, 10)
    assert evenly_lit(everywhere, empty, boxes) == [True, True, True]
