"""English Hazard, the two-dice descendant of azar (Seymour, The Compleat Gamester, 1739).

The caster calls a main from 5 to 9 (a decision node), then throws two dice: a nick wins,
an out loses, anything else is his chance, thrown for against the main. The setter is the
other seat. `HazardRules(main_thrown=True)` is the older reading where the main is thrown,
not called. See docs/rules.md for every reading and its source.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kiosk.rules.core import (
    EVEN_LEDGER,
    NO_CHANCES,
    AwaitChoice,
    Awaiting,
    AwaitThrow,
    GameOver,
    Move,
    Outcome,
    PerSeat,
    Reason,
    Ruling,
    Seat,
    pay,
    take_choice,
    take_throw,
)

DICE = 2
TWO_DICE = AwaitThrow(DICE, by_total=True)  # only sums count
MAINS = (5, 6, 7, 8, 9)
STAKES = 1  # the setter's stake, covered by the caster
MAIN = "main"  # the name of the caster's decision

# Seymour: "nicks are either when the chance is the same with the main ... or 6 and 12,
# 7 and 11, 8 and 12"; "12 is out to 9, 7, and 5, and 11 is out to 9, 8, 6, and 5";
# ames-ace (2) and deuce-ace (3) are out to every main.
NICKS = {5: frozenset({5}), 6: frozenset({6, 12}), 7: frozenset({7, 11}), 8: frozenset({8, 12}),
         9: frozenset({9})}  # fmt: skip
OUTS = {5: frozenset({2, 3, 11, 12}), 6: frozenset({2, 3, 11}), 7: frozenset({2, 3, 12}),
        8: frozenset({2, 3, 11}), 9: frozenset({2, 3, 11, 12})}  # fmt: skip

CALL_MAIN = "hazard.phase.call_main"
THROW_MAIN = "hazard.phase.throw_main"
COME_OUT = "hazard.phase.come_out"
CHANCE = "hazard.phase.chance"
OVER = "hazard.phase.over"


class HazardReason(Reason):
    NICKED = "hazard.won_by_nick"
    THREW_OUT = "hazard.lost_by_out"
    THREW_CHANCE = "hazard.won_by_chance"
    THREW_MAIN = "hazard.lost_by_main"


@dataclass(frozen=True, slots=True)
class HazardRules:
    """One reading of Hazard.

    main_thrown: the caster throws until a total from 5 to 9 comes up, and that is the main
        (Seymour, Chambers); otherwise he calls it (a choice, as in later accounts).
    """

    main_thrown: bool = False

    def new_game(self, first: Seat = Seat.ONE) -> HazardState:
        """`first` is the caster; the other seat sets (covers his stake)."""
        phase = THROW_MAIN if self.main_thrown else CALL_MAIN
        return HazardState(caster=Seat(first), phase=phase)


@dataclass(frozen=True, slots=True)
class HazardState:
    """A moment of a game of Hazard; `apply` gives the next one and the referee's ruling.

    `chances` holds the caster's chance at his seat and the main at the setter's: the main
    comes up for the setter, the chance for the caster.
    """

    caster: Seat
    phase: str
    main: int | None = None
    chance: int | None = None
    ledger: PerSeat[int] = EVEN_LEDGER
    outcome: Outcome | None = None

    @property
    def to_throw(self) -> Seat:
        return self.caster  # the caster alone throws (and calls)

    @property
    def prize(self) -> int:
        return STAKES

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def chances(self) -> PerSeat[int | None]:
        return NO_CHANCES.with_value(self.caster, self.chance).with_value(
            self.caster.other, self.main
        )

    @property
    def awaiting(self) -> Awaiting:
        if self.phase == CALL_MAIN:
            return AwaitChoice(MAIN, self.caster, MAINS)
        return TWO_DICE

    def chain_key(self) -> HazardState:
        """This state without its running totals: what the future depends on (for odds)."""
        return replace(self, ledger=EVEN_LEDGER)

    def apply(self, move: Move) -> tuple[HazardState, Ruling]:
        if self.outcome is not None:
            raise GameOver("this game of Hazard is over; start a new game to throw again")
        awaiting = self.awaiting
        if isinstance(awaiting, AwaitChoice):
            main = take_choice(awaiting, move)
            state = replace(self, phase=COME_OUT, main=main)
            return state, Ruling("hazard.main_called", {"main": main, "seat": int(self.caster)})
        total = take_throw(awaiting, move).total
        if self.phase == THROW_MAIN:
            return self._throw_main(total)
        assert self.main is not None  # set by the call or the throw of the main
        if self.phase == COME_OUT:
            return self._come_out(self.main, total)
        return self._chance(self.main, total)

    def _throw_main(self, total: int) -> tuple[HazardState, Ruling]:
        if total in MAINS:
            state = replace(self, phase=COME_OUT, main=total)
            return state, Ruling("hazard.main_thrown", {"main": total, "seat": int(self.caster)})
        return self, Ruling("hazard.no_main", {"total": total})

    def _come_out(self, main: int, total: int) -> tuple[HazardState, Ruling]:
        seat = int(self.caster)
        if total in NICKS[main]:
            ruling = Ruling("hazard.nick", {"total": total, "main": main, "seat": seat})
            return self._end(self.caster, HazardReason.NICKED), ruling
        if total in OUTS[main]:
            ruling = Ruling("hazard.out", {"total": total, "main": main, "seat": seat})
            return self._end(self.caster.other, HazardReason.THREW_OUT), ruling
        state = replace(self, phase=CHANCE, chance=total)
        return state, Ruling("hazard.chance_set", {"total": total, "main": main, "seat": seat})

    def _chance(self, main: int, total: int) -> tuple[HazardState, Ruling]:
        if total == self.chance:
            ruling = Ruling("hazard.chance_wins", {"total": total, "seat": int(self.caster)})
            return self._end(self.caster, HazardReason.THREW_CHANCE), ruling
        if total == main:
            ruling = Ruling("hazard.main_loses", {"total": total, "seat": int(self.caster)})
            return self._end(self.caster.other, HazardReason.THREW_MAIN), ruling
        return self, Ruling("hazard.no_effect", {"total": total})

    def _end(self, winner: Seat, reason: HazardReason) -> HazardState:
        return replace(
            self,
            phase=OVER,
            ledger=pay(self.ledger, winner, STAKES),
            outcome=Outcome(winner, reason, STAKES),
        )
