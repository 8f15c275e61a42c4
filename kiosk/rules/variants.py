"""The registry of games and their named readings, in a plain tuple (default first per game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from kiosk.rules.azar import DANTE_AZARI, AzarRules
from kiosk.rules.core import Seat, UnknownVariant
from kiosk.rules.medio_azar import MedioAzarRules
from kiosk.rules.state import State


class Rules(Protocol):
    def new_game(self, first: Seat = Seat.ONE) -> State: ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A game under one reading of its sources.

    reports_stakes: the game's stakes vary (Medio azar), so odds report expected stakes.
    """

    game: str
    name: str
    rules: Rules
    reports_stakes: bool = False

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


VARIANTS: tuple[Variant, ...] = (
    Variant("azar", "card", AzarRules()),
    Variant("azar", "dante", AzarRules(azari=DANTE_AZARI)),
    Variant("azar", "rethrow", AzarRules(encuentro_restarts=False)),
    Variant("azar", "opponent-second", AzarRules(opponent_throws_second=True)),
    Variant("medio-azar", "card", MedioAzarRules(), reports_stakes=True),
)

GAMES: tuple[str, ...] = tuple(dict.fromkeys(variant.game for variant in VARIANTS))


def find_variant(game: str, variant: str | None = None) -> Variant:
    """The named variant of `game`, or its default (first listed) when `variant` is None."""
    game = game.strip().lower().replace("_", "-")
    if game not in GAMES:
        raise UnknownVariant(f"no game called {game!r}; the games are: {', '.join(GAMES)}")
    of_game = [v for v in VARIANTS if v.game == game]
    if variant is None:
        return of_game[0]
    wanted = variant.strip().lower().replace("_", "-")
    for candidate in of_game:
        if candidate.name == wanted:
            return candidate
    names = ", ".join(v.name for v in of_game)
    raise UnknownVariant(f"{game} has no variant {variant!r}; its variants are: {names}")
