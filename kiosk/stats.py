"""Statistics for the staff: sums thrown against the exact three-dice distribution, and a
chi-square test of the faces (are the dice, and the reader, fair?)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

# Critical value of chi-square with 5 degrees of freedom at the 1% level: a fair die exceeds
# it once in a hundred tests.
CHI2_5_CRITICAL_1PCT = 15.086


def sum_distribution() -> dict[int, float]:
    """Exact probability of each sum 3..18 of three fair dice."""
    counts = Counter(sum(dice) for dice in product(range(1, 7), repeat=3))
    return {total: n / 216 for total, n in sorted(counts.items())}


@dataclass(frozen=True)
class FaceTest:
    counts: tuple[int, ...]  # faces 1..6
    chi2: float

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def fair(self) -> bool | None:
        """None until there are enough faces (5 expected per face) to judge."""
        if self.n < 30:
            return None
        return self.chi2 <= CHI2_5_CRITICAL_1PCT


def face_test(faces: Iterable[int]) -> FaceTest:
    counts = Counter(faces)
    observed = tuple(counts.get(face, 0) for face in range(1, 7))
    n = sum(observed)
    expected = n / 6 if n else 1.0
    chi2 = sum((o - expected) ** 2 / expected for o in observed) if n else 0.0
    return FaceTest(observed, chi2)


@dataclass(frozen=True)
class Statistics:
    throws: int
    sums: dict[int, int]  # observed count of each sum 3..18
    per_die: tuple[FaceTest, ...]  # one test per die position in the reading (left to right)
    all_faces: FaceTest


def statistics(throws: Iterable[tuple[int, ...]]) -> Statistics:
    throws = [t for t in throws if len(t) == 3]
    sums = Counter(sum(t) for t in throws)
    per_die = tuple(face_test(t[i] for t in throws) for i in range(3))
    return Statistics(
        len(throws),
        {s: sums.get(s, 0) for s in range(3, 19)},
        per_die,
        face_test(v for t in throws for v in t),
    )
