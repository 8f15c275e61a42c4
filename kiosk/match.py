"""The game at the table: rules state plus the log, the one place a throw is accepted.

Every change (a throw, a correction, an undo) is computed by the pure rules engine, written to
the game log and committed, and only then becomes the match's state, so what the screen shows
is always something the log can rebuild after a power cut.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from kiosk.gamelog import GameLog
from kiosk.records import CHOICE, LoggedGame, effective_sources
from kiosk.rules import AwaitChoice, Choice, Move, Ruling, Seat, find_variant
from kiosk.rules.variants import Variant

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Entry:
    """One throw as the table saw it: who threw, the dice, and the referee's ruling. A player's
    choice (Hazard's main) is an entry too, with `source` "choice" and the option as `dice`."""

    seat: Seat
    dice: tuple[int, ...]
    ruling: Ruling
    source: str = "camera"

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def is_choice(self) -> bool:
        return self.source == CHOICE


def as_move(variant: Variant, dice: tuple[int, ...], source: str) -> Move:
    """A logged entry as the engine's move: a choice, or a throw of the game's dice."""
    if source == CHOICE:
        if len(dice) != 1:
            raise ValueError(f"a logged choice holds one option, not {dice!r}")
        return Choice(dice[0])
    return variant.throw(dice)


def replay(
    variant: Variant, first: Seat, throws: list[tuple[int, ...]], sources: list[str] | None = None
):
    """The state after `throws` (and choices) and the entries that led there; moves after the
    end are dropped."""
    state = variant.new_game(first)
    entries: list[Entry] = []
    sources = sources or ["camera"] * len(throws)
    for dice, source in zip(throws, sources, strict=False):
        if state.is_over:
            log.warning("ignoring a logged throw after the end of the game: %s", dice)
            break
        seat = state.to_throw
        state, ruling = state.apply(as_move(variant, tuple(dice), source))
        entries.append(Entry(seat, tuple(dice), ruling, source))
    return state, entries


class Match:
    """A game in progress (or just ended), kept in step with its log."""

    def __init__(
        self,
        variant: Variant,
        gamelog: GameLog,
        game_id: int,
        first: Seat = Seat.ONE,
        events: int = 0,
        throws: list[tuple[int, ...]] | None = None,
        sources: list[str] | None = None,
    ) -> None:
        self.variant = variant
        self.log = gamelog
        self.game_id = game_id
        self.first = Seat(first)
        self.seq = events  # the next event's number in the log
        self.state, self.entries = replay(variant, self.first, throws or [], sources)

    @classmethod
    def start(
        cls, variant: Variant, gamelog: GameLog, first: Seat = Seat.ONE, language: str | None = None
    ) -> Match:
        game_id = gamelog.new_game(variant.game, variant.name, int(first), language)
        return cls(variant, gamelog, game_id, first)

    @classmethod
    def resume(cls, gamelog: GameLog) -> Match | None:
        """The unfinished game in the log, rebuilt by replaying its throws, or None."""
        logged = gamelog.unfinished()
        if logged is None:
            return None
        try:
            match = cls.from_log(logged, gamelog)
        except ValueError as error:  # an unknown variant or bad dice: do not resume it
            log.error("cannot resume game %s: %s", logged.id, error)
            gamelog.abandon(logged.id)
            return None
        match._finish_if_over()  # the power went between the last throw and the game's end
        return match

    @classmethod
    def from_log(cls, logged: LoggedGame, gamelog: GameLog) -> Match:
        variant = find_variant(logged.game, logged.variant)
        return cls(
            variant,
            gamelog,
            logged.id,
            Seat(logged.first),
            len(logged.events),
            [dice for dice, _ in effective_sources(logged.events)],
            [source for _, source in effective_sources(logged.events)],
        )

    # -- what the screen needs ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def to_throw(self) -> Seat:
        return self.state.to_throw

    @property
    def last(self) -> Entry | None:
        return self.entries[-1] if self.entries else None

    @property
    def choice(self) -> AwaitChoice | None:
        """The decision the game waits for (Hazard's main), or None when it waits for dice."""
        awaiting = None if self.state.is_over else self.state.awaiting
        return awaiting if isinstance(awaiting, AwaitChoice) else None

    @property
    def throws(self) -> list[tuple[int, ...]]:
        return [entry.dice for entry in self.entries]

    # -- changes -----------------------------------------------------------------------------
    def throw(
        self,
        dice,
        source: str = "camera",
        confidence: float | None = None,
        places: tuple[tuple[float, float, float], ...] = (),
    ) -> Entry:
        """Apply a throw: rules first (pure), then the log, then the state the screen shows.
        `places` (x, y, size of each die in camera pixels) lets a restart know the dice again."""
        if self.state.is_over:
            raise ValueError("the game is over")
        dice = tuple(int(v) for v in dice)
        seat = self.state.to_throw
        state, ruling = self.state.apply(self.variant.throw(dice))
        entry = Entry(seat, dice, ruling, source)
        self._record("throw", dice, source, confidence, ruling, places)
        self.state = state
        self.entries.append(entry)
        self._finish_if_over()
        return entry

    def choose(self, option: int) -> Entry:
        """The player's choice at a decision (Hazard's main): rules first, then the log."""
        if self.state.is_over:
            raise ValueError("the game is over")
        seat = self.state.to_throw
        state, ruling = self.state.apply(Choice(int(option)))
        entry = Entry(seat, (int(option),), ruling, CHOICE)
        self._record(CHOICE, entry.dice, CHOICE, None, ruling)
        self.state = state
        self.entries.append(entry)
        self._finish_if_over()
        return entry

    def correct(self, dice) -> Entry:
        """The staff's correction of the last throw's dice (logged as a staff action)."""
        if not self.entries or self.entries[-1].is_choice:
            raise ValueError("there is no throw to correct")
        dice = tuple(int(v) for v in dice)
        self.variant.throw(dice)  # refuse bad dice before anything is written
        sources = [entry.source for entry in self.entries[:-1]] + ["staff"]
        state, entries = replay(self.variant, self.first, self.throws[:-1] + [dice], sources)
        entries[-1] = Entry(entries[-1].seat, dice, entries[-1].ruling, "staff")
        self._reopen_if_over()
        self._record("correction", dice, "staff", None, entries[-1].ruling)
        self.state, self.entries = state, entries
        self._finish_if_over()
        return entries[-1]

    def undo(self) -> None:
        """Take back the last throw (a staff action)."""
        if not self.entries:
            raise ValueError("there is no throw to undo")
        sources = [entry.source for entry in self.entries[:-1]]
        state, entries = replay(self.variant, self.first, self.throws[:-1], sources)
        self._reopen_if_over()
        self._record("undo", (), "staff", None, None)
        self.state, self.entries = state, entries

    def reroll(self, reason: str) -> None:
        """The reader sent the dice back ("throw again"): logged for the curator, not a move."""
        self.log.reroll(self.game_id, reason)

    def abandon(self) -> None:
        if not self.state.is_over:
            self.log.abandon(self.game_id)

    def _record(
        self, kind, dice, source, confidence, ruling: Ruling | None, places: tuple = ()
    ) -> None:
        self.log.add_event(
            self.game_id,
            self.seq,
            kind,
            dice,
            source,
            confidence,
            ruling.key if ruling else "",
            dict(ruling.params) if ruling else {},
            places,
        )
        self.seq += 1

    def _finish_if_over(self) -> None:
        outcome = self.state.outcome
        if outcome is not None:
            winner = None if outcome.winner is None else int(outcome.winner)
            self.log.finish(self.game_id, winner, outcome.reason, outcome.stakes)

    def _reopen_if_over(self) -> None:
        """Before a correction or undo of an ended game is written, the log says "playing" again
        (and `_finish_if_over` ends it again if it still ends). Written the other way round, a
        power cut between the two writes would leave a game marked over whose throws say it is
        not, which no restart would resume; this way the restart replays it and decides."""
        if self.state.is_over:
            self.log.reopen(self.game_id)
