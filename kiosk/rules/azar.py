"""Azar: the caster wins on an azar, else chances are set and raced (Libro de los juegos, f. 67r).

The card's reading is the default; `AzarRules` holds the points where sources disagree
(which totals are azari, who makes the second throw, what an encuentro does).
See docs/rules.md for each reading and its source.
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
CARD_AZARI = frozenset({3, 4, 5, 6, 15, 16, 17, 18})
# Jacopo della Lana's commentary on Purgatorio VI, as the Azar card quotes it.
LANA_AZARI = frozenset({3, 4, 17, 18})
STAKES = 1  # Azar is played for one stake a game.
THREE_DICE = AwaitThrow(DICE, by_total=True)  # only sums count

FIRST_THROW = "azar.phase.first_throw"
SECOND_THROW = "azar.phase.second_throw"
CHASE = "azar.phase.chase"
OVER = "azar.phase.over"


class AzarReason(Reason):
    WON_BY_AZAR = "azar.won_by_azar"
    LOST_BY_REAZAR = "azar.lost_by_reazar"
    WON_BY_CHANCE = "azar.won_by_chance"


@dataclass(frozen=True, slots=True)
class AzarRules:
    """One reading of Azar.

    azari: the totals that win on the first throw and lose (as reazar) on the second.
    opponent_throws_second: the opponent, not the caster, makes the second throw. Results
        still follow roles, not hands: a reazar loses for the caster ("the first player
        loses"), a chance belongs to its owner whoever throws it.
    encuentro_restarts: a second throw equal to the opponent's chance restarts the game;
        otherwise it is ignored and the same player throws again.
    """

    azari: frozenset[int] = CARD_AZARI
    opponent_throws_second: bool = False
    encuentro_restarts: bool = True

    def new_game(self, first: Seat = Seat.ONE) -> AzarState:
        """`first` is the caster: the player who throws first."""
        return AzarState(rules=self, caster=Seat(first), to_throw=Seat(first))


@dataclass(frozen=True, slots=True)
class AzarState:
    """A moment of an Azar game; `apply` gives the next one and the referee's ruling."""

    rules: AzarRules
    caster: Seat
    to_throw: Seat
    phase: str = FIRST_THROW
    chances: PerSeat[int | None] = NO_CHANCES
    ledger: PerSeat[int] = EVEN_LEDGER
    outcome: Outcome | None = None

    @property
    def prize(self) -> int:
        return STAKES

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def awaiting(self) -> AwaitThrow:
        return THREE_DICE

    def chain_key(self) -> AzarState:
        """This state without its running totals: what the future depends on (for odds)."""
        return replace(self, ledger=EVEN_LEDGER)

    def apply(self, move: Move) -> tuple[AzarState, Ruling]:
        if self.outcome is not None:
            raise GameOver("this game of Azar is over; start a new game to throw again")
        total = take_throw(THREE_DICE, move).total
        if self.phase == FIRST_THROW:
            return self._first_throw(total)
        if self.phase == SECOND_THROW:
            return self._second_throw(total)
        return self._chase(total)

    def _first_throw(self, total: int) -> tuple[AzarState, Ruling]:
        opponent = self.caster.other
        if total in self.rules.azari:
            ruling = Ruling("azar.azar_wins", {"total": total, "seat": int(self.caster)})
            return self._end(self.caster, AzarReason.WON_BY_AZAR), ruling
        second = opponent if self.rules.opponent_throws_second else self.caster
        state = replace(
            self,
            phase=SECOND_THROW,
            to_throw=second,
            chances=self.chances.with_value(opponent, total),
        )
        return state, Ruling("azar.chance_for_opponent", {"total": total, "seat": int(opponent)})

    def _second_throw(self, total: int) -> tuple[AzarState, Ruling]:
        thrower = self.to_throw
        if total in self.rules.azari:
            ruling = Ruling("azar.reazar_loses", {"total": total, "seat": int(self.caster)})
            return self._end(self.caster.other, AzarReason.LOST_BY_REAZAR), ruling
        if total == self.chances[self.caster.other]:
            if self.rules.encuentro_restarts:
                restart = self.rules.new_game(self.caster)
                return restart, Ruling("azar.encuentro_restart", {"total": total})
            return self, Ruling("azar.encuentro_rethrow", {"total": total, "seat": int(thrower)})
        state = replace(
            self,
            phase=CHASE,
            to_throw=thrower.other,
            chances=self.chances.with_value(self.caster, total),
        )
        return state, Ruling("azar.chance_for_caster", {"total": total, "seat": int(self.caster)})

    def _chase(self, total: int) -> tuple[AzarState, Ruling]:
        for owner in Seat:
            if self.chances[owner] == total:
                ruling = Ruling("azar.chance_wins", {"total": total, "seat": int(owner)})
                return self._end(owner, AzarReason.WON_BY_CHANCE), ruling
        key = "azar.azar_ignored" if total in self.rules.azari else "azar.chance_ignored"
        return replace(self, to_throw=self.to_throw.other), Ruling(key, {"total": total})

    def _end(self, winner: Seat, reason: AzarReason) -> AzarState:
        return replace(
            self,
            phase=OVER,
            ledger=pay(self.ledger, winner, STAKES),
            outcome=Outcome(winner, reason, STAKES),
        )
