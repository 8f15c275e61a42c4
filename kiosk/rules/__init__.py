"""The rules engine: Azar and Medio azar from Alfonso X's Libro de los juegos (1283), and
English Hazard, their two-dice descendant (Seymour, The Compleat Gamester, 1739).

Standard library only. States are immutable; `state.awaiting` says whether a throw (of how
many dice) or a player's choice comes next, and `state.apply(move)` returns the next state
and a `Ruling` (a message key with parameters, see `MESSAGES`). A `Game` is its list of
moves and can be rebuilt with `replay`. `exact_odds` solves each variant exactly over all
6**n ordered throws; `simulate` plays it.
"""

from kiosk.rules.azar import AzarReason, AzarRules, AzarState
from kiosk.rules.core import (
    AwaitChoice,
    Awaiting,
    AwaitThrow,
    Choice,
    GameOver,
    InvalidChoice,
    InvalidThrow,
    Move,
    Outcome,
    PerSeat,
    Reason,
    RulesError,
    Ruling,
    Seat,
    Throw,
    UnknownVariant,
    all_throws,
    total_probabilities,
)
from kiosk.rules.game import Game, replay
from kiosk.rules.hazard import HazardReason, HazardRules, HazardState
from kiosk.rules.medio_azar import MedioAzarReason, MedioAzarRules, MedioAzarState
from kiosk.rules.messages import MESSAGES
from kiosk.rules.odds import Odds, exact_odds
from kiosk.rules.simulation import Estimate, Simulation, simulate
from kiosk.rules.state import State
from kiosk.rules.variants import GAMES, VARIANTS, Variant, find_variant, visitor_variants

__all__ = [
    "GAMES",
    "MESSAGES",
    "VARIANTS",
    "AwaitChoice",
    "AwaitThrow",
    "Awaiting",
    "AzarReason",
    "AzarRules",
    "AzarState",
    "Choice",
    "Estimate",
    "Game",
    "GameOver",
    "HazardReason",
    "HazardRules",
    "HazardState",
    "InvalidChoice",
    "InvalidThrow",
    "MedioAzarReason",
    "MedioAzarRules",
    "MedioAzarState",
    "Move",
    "Odds",
    "Outcome",
    "PerSeat",
    "Reason",
    "Ruling",
    "RulesError",
    "Seat",
    "Simulation",
    "State",
    "Throw",
    "UnknownVariant",
    "Variant",
    "all_throws",
    "exact_odds",
    "find_variant",
    "replay",
    "simulate",
    "total_probabilities",
    "visitor_variants",
]
