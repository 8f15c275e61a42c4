"""After a start, the dice in the tray belong to the last throw until something moves.

A kiosk restarts (the watchdog, a crash, a power blip, staff leaving maintenance by "exit") with
the last throw's dice still lying in the tray. The settle watcher starts afresh and would read
them as a new throw, once per restart. `StartGuard` sits between the watcher and the game: it
drops every answer until it has seen the tray still (the view the kiosk woke up to) and then
moving, and it turns the first answer after that into NOT_MOVED when the dice lie where the log
says the last camera throw left them (a hand passed over the tray; nobody threw).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

from vision.reading import Die, RerollReason, Roll

log = logging.getLogger(__name__)

MOVING = "moving"  # vision.settle.SettleState.MOVING: the watcher saw a change
STALL_SECONDS = 0.9  # a longer gap between frames is the camera or the machine stalling (the
# watcher counts it as motion, after `SettleConfig.max_gap`): not a sign that anyone threw
PLACE_TOLERANCE = 0.5  # the same die if its centre moved less than this many die sizes


class StartGuard:
    """Filters the watcher's answers after a start; `last` is the last logged camera throw."""

    def __init__(self, last: Sequence[Die] = ()) -> None:
        self.last = tuple(last)
        self._looked = False  # the watcher has seen the tray still at least once
        self.stirred = False  # ...and then moving: answers are throws again
        self.dropped = 0
        self._t: float | None = None
        self._stalled = False  # this spell of "moving" began with a stall, not with motion

    def filter(self, roll: Roll | None, state: str, t: float) -> Roll | None:
        """The answer the game should get for the frame taken at `t` (None: nothing to say)."""
        if not self.stirred:
            gap, self._t = (0.0 if self._t is None else t - self._t), t
            if str(state) != MOVING:
                self._looked, self._stalled = True, False
            elif gap > STALL_SECONDS:
                self._stalled = True
            elif self._looked and not self._stalled:
                self.stirred = True
            if not self.stirred:
                if roll is not None:
                    self.dropped += 1
                    log.info(
                        "the dice lie as the kiosk found them at start (%s): waiting for them "
                        "to move before reading a throw",
                        " ".join(map(str, roll.values)) or str(roll.reason),
                    )
                return None
        if roll is None or not self.last:
            return roll
        last, self.last = self.last, ()
        if roll.ok and same_places(roll.dice, last):
            log.info("the dice are where the last logged throw left them: not a throw")
            return Roll(roll.dice, RerollReason.NOT_MOVED, "the dice are where they lay at start")
        return roll


def same_places(a: Sequence[Die], b: Sequence[Die], tolerance: float = PLACE_TOLERANCE) -> bool:
    """The same faces up, each die within `tolerance` die sizes of one of the other dice."""
    if len(a) != len(b) or Counter(d.value for d in a) != Counter(d.value for d in b):
        return False
    free = list(b)
    for die in a:
        near = [
            other
            for other in free
            if other.value == die.value
            and (die.center[0] - other.center[0]) ** 2 + (die.center[1] - other.center[1]) ** 2
            <= (tolerance * max(die.size, other.size, 1.0)) ** 2
        ]
        if not near:
            return False
        free.remove(near[0])
    return True


def logged_dice(values: Sequence[int], places: Sequence[tuple[float, float, float]]) -> tuple:
    """The dice of a logged throw (`GameLog.last_seen`) as the reader's Die objects."""
    if len(values) != len(places):
        return ()
    return tuple(
        Die(int(v), (x, y), size, 1.0) for v, (x, y, size) in zip(values, places, strict=True)
    )
