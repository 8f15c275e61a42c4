"""The rules engine: Azar and Medio azar from Alfonso X's Libro de los juegos (1283).

Standard library only. States are immutable; `state.apply(throw)` returns the next state and
a `Ruling` (a message key with parameters, see `MESSAGES`). A `Game` is its list of throws and
can be rebuilt with `replay`. `exact_odds` solves each variant exactly; `simulate` plays it.
"""

from kiosk.rules.azar import AzarRules, AzarState
from kiosk.rules.core import (
    GameOver,
    InvalidThrow,
    Outcome,
    PerSeat,
    RulesError,
    Ruling,
    Seat,
    Throw,
    UnknownVariant,
    total_probabilities,
)
from kiosk.rules.game import Game, replay
from kiosk.rules.medio_azar import MedioAzarRules, MedioAzarState
from kiosk.rules.messages import MESSAGES
from kiosk.rules.odds import Odds, exact_odds
from kiosk.rules.simulation import Estimate, Simulation, simulate
from kiosk.rules.state import State
from kiosk.rules.variants import GAMES, VARIANTS, Variant, find_variant

__all__ = [
    "GAMES",
    "MESSAGES",
    "VARIANTS",
    "AzarRules",
    "AzarState",
    "Estimate",
    "Game",
    "GameOver",
    "InvalidThrow",
    "MedioAzarRules",
    "MedioAzarState",
    "Odds",
    "Outcome",
    "PerSeat",
    "Ruling",
    "RulesError",
    "Seat",
    "Simulation",
    "State",
    "Throw",
    "UnknownVariant",
    "Variant",
    "exact_odds",
    "find_variant",
    "replay",
    "simulate",
    "total_probabilities",
]
