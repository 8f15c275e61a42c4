"""Statistics for the staff: the exact sum distribution and the chi-square face test."""

from __future__ import annotations

import random
from fractions import Fraction

from kiosk.rules.core import total_probabilities
from kiosk.stats import face_test, statistics, sum_distribution


def test_sum_distribution_is_the_engines() -> None:
    exact = total_probabilities()
    assert sum_distribution() == {t: float(p) for t, p in exact.items()}
    assert exact[10] == Fraction(27, 216)


def test_face_test_tells_fair_from_loaded_dice() -> None:
    rng = random.Random(3)
    fair = face_test(rng.randint(1, 6) for _ in range(600))
    loaded = face_test(6 if rng.random() < 0.3 else rng.randint(1, 6) for _ in range(600))
    assert fair.fair is True
    assert loaded.fair is False
    assert face_test([1, 2, 3]).fair is None  # too few to judge


def test_statistics_count_sums_and_each_die_position() -> None:
    stats = statistics([(1, 2, 3), (6, 6, 6), (1, 1, 1), (1, 2)])  # a malformed throw is skipped
    assert stats.throws == 3
    assert stats.sums[6] == 1 and stats.sums[18] == 1 and stats.sums[3] == 1
    assert stats.per_die[0].counts == (2, 0, 0, 0, 0, 1)
    assert stats.all_faces.n == 9
