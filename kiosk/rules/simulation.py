"""Monte Carlo play through the same engine the kiosk uses, to check the exact odds."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from kiosk.rules.core import DICE_PER_THROW, DIE_FACES, Throw
from kiosk.rules.game import Game
from kiosk.rules.odds import CASTER_LOSES, CASTER_WINS, DRAW
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
        return data


def random_throw(rng: random.Random) -> Throw:
    return Throw(tuple(rng.choice(DIE_FACES) for _ in range(DICE_PER_THROW)))


def play_out(game: Game, rng: random.Random) -> Game:
    """Throw random dice until the game ends (it does with probability one)."""
    while not game.is_over:
        game.play(random_throw(rng))
    return game


def simulate(variant: Variant, games: int, seed: int) -> Simulation:
    """Play `games` games with dice from a seeded generator, through `Game.play`."""
    if games < 2:
        raise ValueError("simulate at least 2 games to estimate an error")
    rng = random.Random(seed)
    won, lost, drawn, throws, stakes = [], [], [], [], []
    for _ in range(games):
        state = play_out(Game(variant), rng)
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
        variant.game, variant.name, games, seed, outcomes, Estimate.of(throws), expected_stakes
    )
