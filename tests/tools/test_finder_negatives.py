"""tools/finder_negatives.py: which finder marks lie clear of every labelled die."""

from __future__ import annotations

from tools.finder_negatives import clear_of

DIE = (100.0, 100.0, 140.0, 140.0)  # a labelled box 40 px a side


def test_a_mark_on_or_beside_a_labelled_die_is_no_negative() -> None:
    assert not clear_of((120, 120), 40, [DIE])  # the die itself
    assert not clear_of((120, 120), 10, [DIE])  # one of its pips
    assert not clear_of((155, 120), 20, [DIE])  # half a side off its edge: its shadow, a side
    assert not clear_of((190, 120), 120, [DIE])  # a box over it and its neighbour


def test_a_mark_well_away_from_every_die_is_a_negative() -> None:
    assert clear_of((200, 120), 30, [DIE])  # two sides off, not reaching it
    assert clear_of((20, 20), 30, [DIE, (300.0, 300.0, 340.0, 340.0)])
    assert clear_of((20, 20), 30, [])  # a photo with no dice labelled
