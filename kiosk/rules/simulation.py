"""Monte Carlo play through the same engine the kiosk uses, to check the exact odds."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.rules.core import DIE_FACES, AwaitChoice, Throw
from kiosk.rules.game import Game
from kiosk.rules.odds import CASTER_LOSES, CASTER_WINS, DRAW, chosen
from kiosk.rules.variants import Variant

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its standard error and a 95 % normal confidence interval."""

    mean: float
    stderr: float

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - Z95 * self.stderr, self.mean + Z95 * self.stderr)

    @classmethod
    def of(cls, values: list[float]) -> Estimate:
        n = len(values)
        mean = math.fsum(values) / n
        variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return cls(mean, math.sqrt(variance / n))

    def to_json(self) -> dict[str, object]:
        low, high = self.ci95
        return {"float": self.mean, "stderr": self.stderr, "ci95": [low, high]}


@dataclass(frozen=True, slots=True)
class Simulation:
    """Figures from `games` simulated games, named as in `Odds`."""

    game: str
    variant: str
    games: int
    seed: int
    outcomes: dict[str, Estimate]
    expected_throws: Estimate
    expected_stakes: dict[str, Estimate] | None = None
    choices: dict[str, int] | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "game": self.game,
            "variant": self.variant,
            "games": self.games,
            "seed": self.seed,
            "outcomes": {name: e.to_json() for name, e in self.outcomes.items()},
            "expected_throws": self.expected_throws.to_json(),
        }
        if self.expected_stakes is not None:
            data["expected_stakes"] = {
                side: e.to_json() for side, e in self.expected_stakes.items()
            }
        if self.choices:
            data["choices"] = dict(self.choices)
        return data


def random_throw(rng: random.Random, dice: int = 3) -> Throw:
    return Throw(tuple(rng.choice(DIE_FACES) for _ in range(dice)))


def play_out(game: Game, rng: random.Random, choices: Mapping[str, int] | None = None) -> Game:
    """Throw random dice (and take `choices` at decisions) until the game ends."""
    while not game.is_over:
        awaiting = game.state.awaiting
        if isinstance(awaiting, AwaitChoice):
            game.play(chosen(game.state, choices or {}))
        else:
            game.play(random_throw(rng, awaiting.dice))
    return game


def simulate(
    variant: Variant, games: int, seed: int, choices: Mapping[str, int] | None = None
) -> Simulation:
    """Play `games` games with dice from a seeded generator, through `Game.play`."""
    if games < 2:
        raise ValueError("simulate at least 2 games to estimate an error")
    rng = random.Random(seed)
    won, lost, drawn, throws, stakes = [], [], [], [], []
    for _ in range(games):
        state = play_out(Game(variant), rng, choices)
        game_throws = len(state.throws)
        final = state.state
        assert final.outcome is not None and final.caster is not None
        winner = final.outcome.winner
        won.append(float(winner is not None and winner == final.caster))
        lost.append(float(winner is not None and winner != final.caster))
        drawn.append(float(winner is None))
        throws.append(float(game_throws))
        stakes.append(float(final.ledger[final.caster]))
    outcomes = {CASTER_WINS: Estimate.of(won), CASTER_LOSES: Estimate.of(lost)}
    if any(drawn):
        outcomes[DRAW] = Estimate.of(drawn)
    expected_stakes = None
    if variant.reports_stakes:
        expected_stakes = {
            "caster": Estimate.of(stakes),
            "opponent": Estimate.of([-s for s in stakes]),
        }
    return Simulation(
        variant.game,
        variant.name,
        games,
        seed,
        outcomes,
        Estimate.of(throws),
        expected_stakes,
        dict(choices or {}),
    )
