"""The registry of games and their named readings, in a plain tuple (default first per game)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kiosk.rules.azar import LANA_AZARI, AzarRules
from kiosk.rules.core import AwaitThrow, Seat, Throw, UnknownVariant, take_throw
from kiosk.rules.hazard import HazardRules
from kiosk.rules.medio_azar import MedioAzarRules
from kiosk.rules.state import State


class Rules(Protocol):
    def new_game(self, first: Seat = Seat.ONE) -> State: ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A game under one reading of its sources.

    dice: how many dice each throw of the game has (the reader is asked for that many).
    reports_stakes: the game's stakes vary (Medio azar), so odds report expected stakes.
    printed: the reading has a printed source; the others are kept for tables that play
        them, but are not offered to visitors by default (`visitor_variants`).
    """

    game: str
    name: str
    rules: Rules
    dice: int = 3
    reports_stakes: bool = False
    printed: bool = True

    @property
    def title_key(self) -> str:
        return f"{self.game.replace('-', '_')}.title.{self.name.replace('-', '_')}"

    @property
    def summary_key(self) -> str:
        return f"{self.game.replace('-', '_')}.summary.{self.name.replace('-', '_')}"

    @property
    def label(self) -> str:
        return f"{self.game}/{self.name}"

    def new_game(self, first: Seat = Seat.ONE) -> State:
        return self.rules.new_game(first)

    def throw(self, dice: Sequence[int]) -> Throw:
        """The dice as a throw of this game; `InvalidThrow` unless `dice` faces from 1 to 6."""
        return take_throw(AwaitThrow(self.dice), Throw(tuple(dice)))


VARIANTS: tuple[Variant, ...] = (
    Variant("azar", "card", AzarRules()),
    Variant("azar", "lana", AzarRules(azari=LANA_AZARI)),
    Variant("azar", "rethrow", AzarRules(encuentro_restarts=False), printed=False),
    Variant("azar", "opponent-second", AzarRules(opponent_throws_second=True), printed=False),
    Variant("medio-azar", "card", MedioAzarRules(), reports_stakes=True),
    Variant("hazard", "called-main", HazardRules(), dice=2),
    Variant("hazard", "thrown-main", HazardRules(main_thrown=True), dice=2),
)

# Older names of variants, as game logs written before a rename still hold them.
ALIASES: dict[tuple[str, str], str] = {("azar", "dante"): "lana"}

GAMES: tuple[str, ...] = tuple(dict.fromkeys(variant.game for variant in VARIANTS))


def visitor_variants(include_unprinted: bool = False) -> tuple[Variant, ...]:
    """The variants a visitor may pick: those with a printed source, unless staff add the rest."""
    return tuple(v for v in VARIANTS if v.printed or include_unprinted)


def find_variant(game: str, variant: str | None = None) -> Variant:
    """The named variant of `game`, or its default (first listed) when `variant` is None."""
    game = game.strip().lower().replace("_", "-")
    if game not in GAMES:
        raise UnknownVariant(f"no game called {game!r}; the games are: {', '.join(GAMES)}")
    of_game = [v for v in VARIANTS if v.game == game]
    if variant is None:
        return of_game[0]
    wanted = variant.strip().lower().replace("_", "-")
    wanted = ALIASES.get((game, wanted), wanted)
    for candidate in of_game:
        if candidate.name == wanted:
            return candidate
    names = ", ".join(v.name for v in of_game)
    raise UnknownVariant(f"{game} has no variant {variant!r}; its variants are: {names}")
