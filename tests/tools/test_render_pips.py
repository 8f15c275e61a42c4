"""The rendered training scenes know where each flat die's top-face pips were drawn: the pip
finder (tools/pip_examples.py) learns from those positions, so they must be the pips seen."""

from __future__ import annotations

import numpy as np
import pytest

from tools.render_dice import render_scene


def _scenes():
    rng = np.random.default_rng(11)
    return [render_scene(rng, 480, 480, side=float(rng.uniform(30, 160))) for _ in range(12)]


@pytest.fixture(scope="module")
def scenes():
    return _scenes()


def test_flat_dice_have_their_value_in_pips_on_their_face(scenes):
    flat = [d for _, dice in scenes for d in dice if d.flat]
    assert len(flat) >= 10
    for die in flat:
        assert len(die.pips) == die.value
        pips = np.array(die.pips)
        offsets = np.abs(pips[:, :2] - np.array(die.centre))
        assert (offsets <= die.size / 2).all(), "a pip outside its die's box"
        assert ((pips[:, 2] > 0.03 * die.size) & (pips[:, 2] < 0.2 * die.size)).all()
        if die.value > 1:
            gaps = np.hypot(*(pips[:, None, :2] - pips[None, :, :2]).transpose(2, 0, 1))
            assert gaps[~np.eye(len(pips), dtype=bool)].min() > 1.5 * pips[:, 2].max()


def test_cocked_dice_have_no_top_pips(scenes):
    cocked = [d for _, dice in scenes for d in dice if not d.flat]
    assert all(d.pips == () for d in cocked)


def test_pips_are_where_the_face_is_darker_or_lighter(scenes):
    """At a drawn pip the picture differs from the face a pip radius and a half away more than
    two places on the plain face differ: the positions are the pips, not the layout's grid."""
    differ, plain = [], []
    for image, dice in scenes:
        grey = image.astype(np.float32).mean(axis=2)
        for die in dice:
            for x, y, r in die.pips:
                if not (2 * r <= x < 480 - 2 * r and 2 * r <= y < 480 - 2 * r):
                    continue  # a die cut by the picture's edge
                inner = grey[int(y), int(x)]
                ring = [grey[int(y + 1.5 * r * dy), int(x + 1.5 * r * dx)]
                        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]  # fmt: skip
                differ.append(abs(inner - np.median(ring)))
                plain.append(abs(ring[0] - ring[1]))
    assert len(differ) >= 30
    assert np.median(differ) > 3 * np.median(plain) + 5
