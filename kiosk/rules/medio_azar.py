"""Medio azar: azars pay at once, reazars set chances worth three stakes (Libro, f. 70r).

The throw-off for the first player is part of the game. The throw-off winner is the caster
and, as in the card's worked example ("13: nothing, I throw again"), keeps the dice until
the game ends. See docs/rules.md for every reading and its source.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk.rules.core import (
    EVEN_LEDGER,
    NO_CHANCES,
    AwaitThrow,
    GameOver,
    Move,
    Outcome,
    PerSeat,
    Reason,
    Ruling,
    Seat,
    pay,
    take_throw,
)

DICE = 3
THREE_DICE = AwaitThrow(DICE, by_total=True)  # only sums count
AZARI = frozenset({3, 4, 5, 6, 7, 14, 15, 16, 17, 18})  # the rest, 8..13, are reazares

THROW_OFF = "medio_azar.phase.throw_off"
OPEN = "medio_azar.phase.open"  # no chance set yet
SEEK_CHANCE = "medio_azar.phase.seek_chance"  # the opponent's chance is set, not the caster's
RECOVERY = "medio_azar.phase.recovery"  # the caster repeated the opponent's chance
CHASE = "medio_azar.phase.chase"  # both chances set
OVER = "medio_azar.phase.over"


class MedioAzarReason(Reason):
    WON_BY_CHANCE = "medio_azar.won_by_chance"
    WON_BY_RECOVERY = "medio_azar.won_by_recovery"


@dataclass(frozen=True, slots=True)
class MedioAzarRules:
    """One reading of Medio azar.

    azar_stakes: what each azar pays its thrower before both chances are set.
    chance_prize: what a winning chance pays before later azars raise it.
    table_stakes: "all the stakes on the table", collected by a winning recovery throw;
        we read them as the prize the chances were to be played for.
    """

    azar_stakes: int = 1
    chance_prize: int = 3
    table_stakes: int = 3

    def new_game(self, first: Seat = Seat.ONE) -> MedioAzarState:
        """`first` throws first in the throw-off; the throw-off decides the caster."""
        return MedioAzarState(
            rules=self,
            to_throw=Seat(first),
            first_to_throw_off=Seat(first),
            prize=self.chance_prize,
        )


@dataclass(frozen=True, slots=True)
class MedioAzarState:
    """A moment of a Medio azar game; `apply` gives the next one and the referee's ruling."""

    rules: MedioAzarRules
    to_throw: Seat
    first_to_throw_off: Seat
    prize: int
    phase: str = THROW_OFF
    throw_off_total: int | None = None  # the first throw-off total, while the second is awaited
    caster: Seat | None = None
    chances: PerSeat[int | None] = NO_CHANCES
    ledger: PerSeat[int] = EVEN_LEDGER
    outcome: Outcome | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def awaiting(self) -> AwaitThrow:
        return THREE_DICE

    def chain_key(self) -> MedioAzarState:
        """This state without its running totals: what the future depends on (for odds)."""
        return replace(self, ledger=EVEN_LEDGER, prize=self.rules.chance_prize)

    def apply(self, move: Move) -> tuple[MedioAzarState, Ruling]:
        if self.outcome is not None:
            raise GameOver("this game of Medio azar is over; start a new game to throw again")
        total = take_throw(THREE_DICE, move).total
        if self.phase == THROW_OFF:
            return self._throw_off(total)
        assert self.caster is not None  # set by the throw-off
        if self.phase == CHASE:
            return self._chase(self.caster, total)
        if self.phase == RECOVERY:
            return self._recovery(self.caster, total)
        return self._before_chances(self.caster, total)

    def _throw_off(self, total: int) -> tuple[MedioAzarState, Ruling]:
        seat = self.to_throw
        if self.throw_off_total is None:
            state = replace(self, throw_off_total=total, to_throw=seat.other)
            return state, Ruling("medio_azar.throw_off_first", {"total": total, "seat": int(seat)})
        other = self.throw_off_total
        if total == other:
            state = replace(self, throw_off_total=None, to_throw=self.first_to_throw_off)
            return state, Ruling("medio_azar.throw_off_tie", {"total": total})
        caster = seat if total > other else seat.other
        state = replace(self, phase=OPEN, throw_off_total=None, caster=caster, to_throw=caster)
        ruling = Ruling(
            "medio_azar.throw_off_won",
            {"total": total, "other_total": other, "seat": int(caster)},
        )
        return state, ruling

    def _before_chances(self, caster: Seat, total: int) -> tuple[MedioAzarState, Ruling]:
        opponent = caster.other
        if total in AZARI:
            stakes = self.rules.azar_stakes
            state = replace(self, ledger=pay(self.ledger, caster, stakes))
            ruling = Ruling(
                "medio_azar.azar_pays", {"total": total, "seat": int(caster), "stakes": stakes}
            )
            return state, ruling
        if self.phase == OPEN:
            state = replace(
                self, phase=SEEK_CHANCE, chances=self.chances.with_value(opponent, total)
            )
            ruling = Ruling(
                "medio_azar.chance_for_opponent", {"total": total, "seat": int(opponent)}
            )
            return state, ruling
        if total == self.chances[opponent]:
            return replace(self, phase=RECOVERY), Ruling(
                "medio_azar.recovery_due", {"total": total, "seat": int(caster)}
            )
        state = replace(self, phase=CHASE, chances=self.chances.with_value(caster, total))
        ruling = Ruling("medio_azar.chance_for_caster", {"total": total, "seat": int(caster)})
        return state, ruling

    def _recovery(self, caster: Seat, total: int) -> tuple[MedioAzarState, Ruling]:
        if total in AZARI:
            stakes = self.rules.table_stakes
            ruling = Ruling(
                "medio_azar.recovery_wins", {"total": total, "seat": int(caster), "stakes": stakes}
            )
            return self._end(caster, MedioAzarReason.WON_BY_RECOVERY, stakes), ruling
        opponent = caster.other
        state = replace(self, phase=SEEK_CHANCE, chances=self.chances.with_value(opponent, total))
        ruling = Ruling("medio_azar.new_opponent_chance", {"total": total, "seat": int(opponent)})
        return state, ruling

    def _chase(self, caster: Seat, total: int) -> tuple[MedioAzarState, Ruling]:
        for owner in (caster, caster.other):
            if self.chances[owner] == total:
                ruling = Ruling(
                    "medio_azar.chance_wins",
                    {"total": total, "seat": int(owner), "stakes": self.prize},
                )
                return self._end(owner, MedioAzarReason.WON_BY_CHANCE, self.prize), ruling
        if total in AZARI:
            prize = self.prize + 1
            state = replace(self, prize=prize)
            return state, Ruling("medio_azar.prize_raised", {"total": total, "prize": prize})
        return self, Ruling("medio_azar.no_effect", {"total": total})

    def _end(self, winner: Seat, reason: MedioAzarReason, stakes: int) -> MedioAzarState:
        return replace(
            self,
            phase=OVER,
            ledger=pay(self.ledger, winner, stakes),
            outcome=Outcome(winner, reason, stakes),
        )
