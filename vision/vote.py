"""The vote over the reads of one still scene: one answer by agreement, never by average.

Contract: `RollVote(config).add(roll) -> Roll | None`, one reader's Roll per settled frame in,
the answer once `votes` consecutive reads agree die by die (`same_dice`) or are all rerolls.
Pure: values in, values out.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from vision.reading import Die, RerollReason, Roll


class VoteRules(Protocol):
    """What the vote needs of the settle configuration (vision.settle.SettleConfig)."""

    votes: int  # consecutive reads that must agree
    max_reads: int  # reads without agreement that end in an UNREADABLE reroll
    place_tolerance: float  # die sizes a die may move between two reads and still agree


def same_dice(a: Roll, b: Roll, tolerance: float) -> bool:
    """Whether two readings agree die by die: as many dice, and each die of `a` has exactly one
    die of `b` within `tolerance` die sizes of its centre, showing the same value."""
    if len(a.dice) != len(b.dice):
        return False
    used: set[int] = set()
    for die in a.dice:
        near = [i for i, other in enumerate(b.dice) if _close(die, other, tolerance)]
        if len(near) != 1 or near[0] in used or b.dice[near[0]].value != die.value:
            return False
        used.add(near[0])
    return True


def _close(a: Die, b: Die, tolerance: float) -> bool:
    reach = tolerance * max(a.size, b.size, 1.0)
    return (a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2 <= reach**2


class RollVote:
    """Turns the readings of one still scene into one answer, by agreement, never by average."""

    def __init__(self, config: VoteRules) -> None:
        self.config = config
        self._reads: list[Roll] = []

    def clear(self) -> None:
        """Start over: the scene moved, the reads so far belong to another throw."""
        self._reads.clear()

    @property
    def reads(self) -> int:
        """How many reads of this still scene have been taken, none of them an answer yet."""
        return len(self._reads)

    def add(self, roll: Roll) -> Roll | None:
        """Take one frame's reading; return the answer once there is one, else None.

        When the last `votes` readings are all ok and agree die by die, the answer is the newest
        of them. When they are all rerolls, it is the newest of those giving the commonest reason
        (a reader may name the same bad throw `overlap` on one frame and `wrong_count` on the
        next; either way the throw is not announced). After `max_reads` readings without
        agreement it is an UNREADABLE reroll carrying the newest reading's dice."""
        self._reads.append(roll)
        last = self._reads[-self.config.votes :]
        if len(last) == self.config.votes:
            if all(not read.ok for read in last):
                commonest = Counter(read.reason for read in last).most_common(1)[0][0]
                return next(read for read in reversed(last) if read.reason is commonest)
            tolerance = self.config.place_tolerance
            if all(read.ok and same_dice(roll, read, tolerance) for read in last):
                return roll
        if len(self._reads) < self.config.max_reads:
            return None
        seen = Counter(read.reason or "ok" for read in self._reads)
        summary = ", ".join(f"{count} {reason}" for reason, count in seen.most_common())
        detail = f"reads of the still dice disagree ({summary})"
        return Roll(roll.dice, RerollReason.UNREADABLE, detail)
