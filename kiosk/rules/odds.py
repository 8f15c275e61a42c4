"""Exact odds: the game's own states form a Markov chain; solve it exactly.

Each state says what it awaits. A throw of n dice is a chance node: the chain applies every
one of the 6**n ordered throws, each with probability 1 / 6**n, to the engine's state, so
the figures come from the same rules (faces and all) the referee applies. Where the game
declares that it looks at sums alone (`AwaitThrow.by_total`, checked by a test over every
throw of every reachable state), one throw per total, with its probability, gives the same
chain faster. A choice is a
decision node: the caller says which option is taken (`choices`, by the decision's name).
"Start over" and ignored throws make the chain cyclic, so the values solve a sparse linear
system, eliminated exactly with `fractions.Fraction`.

Running totals (the ledger, a raised prize) are removed from the states (`chain_key`), which
keeps the chain finite. Expected stakes still come out exact: a prize raised by one pays that
stake to the eventual winner, worth P(caster wins) - P(caster loses) to the caster from there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from kiosk.rules.core import (
    AwaitChoice,
    Choice,
    InvalidChoice,
    Throw,
    all_throws,
    total_probabilities,
)
from kiosk.rules.state import State
from kiosk.rules.variants import Variant

CASTER_WINS = "caster_wins"
CASTER_LOSES = "caster_loses"
DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact figures for one variant, from the caster's point of view.

    outcomes: probability of each outcome name (`draw` only where a game can end drawn).
    expected_throws: mean number of throws per game, counting every throw (not choices).
    expected_stakes: mean net stakes per game for "caster" and "opponent", if reported.
    choices: the option taken at each decision (Hazard's main), empty if the game has none.
    reasons: probability of each way the game ends (an outcome reason's message key).
    """

    game: str
    variant: str
    outcomes: dict[str, Fraction]
    expected_throws: Fraction
    expected_stakes: dict[str, Fraction] | None = None
    choices: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, Fraction] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "game": self.game,
            "variant": self.variant,
            "outcomes": {name: figure(p) for name, p in self.outcomes.items()},
            "expected_throws": figure(self.expected_throws),
        }
        if self.expected_stakes is not None:
            data["expected_stakes"] = {
                side: figure(value) for side, value in self.expected_stakes.items()
            }
        if self.choices:
            data["choices"] = dict(self.choices)
        return data


def figure(value: Fraction) -> dict[str, object]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "float": float(value)}


@dataclass(frozen=True, slots=True)
class _Step:
    probability: Fraction
    after: State  # the state the move leads to (with its running totals)
    throws: int  # 1 for a throw, 0 for a choice


def chosen(state: State, choices: Mapping[str, int]) -> Choice:
    """The option `choices` takes at a decision node; a clear error if it names none."""
    awaiting = state.awaiting
    assert isinstance(awaiting, AwaitChoice)
    options = ", ".join(str(o) for o in awaiting.options)
    if awaiting.name not in choices:
        raise InvalidChoice(f"say which {awaiting.name} is chosen: one of {options}")
    if choices[awaiting.name] not in awaiting.options:
        raise InvalidChoice(
            f"the {awaiting.name} is one of {options}; got {choices[awaiting.name]!r}"
        )
    return Choice(choices[awaiting.name])


def _steps(state: State, choices: Mapping[str, int]) -> list[_Step]:
    """The next states of one state: all ordered throws, merged where they lead alike."""
    awaiting = state.awaiting
    if isinstance(awaiting, AwaitChoice):
        after, _ = state.apply(chosen(state, choices))
        return [_Step(Fraction(1), after, 0)]
    if awaiting.by_total:  # the game looks at sums alone: one throw per total will do
        totals = total_probabilities(awaiting.dice)
        weighted = [(Throw.with_total(t, awaiting.dice), p) for t, p in totals.items()]
    else:
        throws = all_throws(awaiting.dice)
        weighted = [(throw, Fraction(1, len(throws))) for throw in throws]
    merged: dict[State, Fraction] = {}
    for throw, p in weighted:
        after, _ = state.apply(throw)
        merged[after] = merged.get(after, 0) + p
    return [_Step(p, after, 1) for after, p in merged.items()]


def _chain(start: State, choices: Mapping[str, int]) -> dict[State, list[_Step]]:
    """Every state reachable from `start` (by chain key) with its possible next states."""
    chain: dict[State, list[_Step]] = {}
    todo = [start.chain_key()]
    while todo:
        state = todo.pop()
        if state in chain:
            continue
        steps = _steps(state, choices)
        for step in steps:
            if not step.after.is_over and step.after.chain_key() not in chain:
                todo.append(step.after.chain_key())
        chain[state] = steps
    return chain


def reachable_states(variant: Variant, choices: Mapping[str, int] | None = None) -> list[State]:
    """Every state of the odds chain (running totals dropped): what the solver works on."""
    return list(_chain(variant.new_game(), dict(choices or {})))


def _solve(
    chain: dict[State, list[_Step]], gain: Callable[[State, _Step], Fraction]
) -> dict[State, Fraction]:
    """Values x with x[s] = sum over steps of p * (gain(s, step) + x[next]); x = 0 at the end."""
    equations: dict[Hashable, tuple[Fraction, dict[Hashable, Fraction]]] = {}
    for state, steps in chain.items():
        constant = Fraction(0)
        row: dict[Hashable, Fraction] = {}
        for step in steps:
            constant += step.probability * gain(state, step)
            if not step.after.is_over:
                key = step.after.chain_key()
                row[key] = row.get(key, Fraction(0)) + step.probability
        equations[state] = (constant, row)
    return solve_linear(equations)


def solve_linear(
    equations: dict[Hashable, tuple[Fraction, dict[Hashable, Fraction]]],
) -> dict[Hashable, Fraction]:
    """Solve x[k] = c[k] + sum(a[k][j] * x[j]) exactly by sparse Gaussian elimination.

    Raises ZeroDivisionError if the system is singular (a loop nothing can leave).
    """
    order = list(equations)
    rank = {key: i for i, key in enumerate(order)}
    rows = {key: (c, dict(row)) for key, (c, row) in equations.items()}
    users: dict[Hashable, set[Hashable]] = {key: set() for key in order}
    for key, (_, row) in rows.items():
        for j in row:
            users[j].add(key)
    # Eliminate from the last variable back; each row then refers only to earlier variables.
    for key in reversed(order):
        constant, row = rows[key]
        own = row.pop(key, Fraction(0))
        if own:
            scale = 1 / (1 - own)
            constant *= scale
            row = {j: a * scale for j, a in row.items()}
        rows[key] = (constant, row)
        for user in users[key]:
            if rank[user] >= rank[key]:
                continue
            user_constant, user_row = rows[user]
            a = user_row.pop(key)
            user_constant += a * constant
            for j, b in row.items():
                user_row[j] = user_row.get(j, Fraction(0)) + a * b
                users[j].add(user)
            rows[user] = (user_constant, user_row)
    values: dict[Hashable, Fraction] = {}
    for key in order:
        constant, row = rows[key]
        values[key] = constant + sum((a * values[j] for j, a in row.items()), Fraction(0))
    return values


def _caster_won(step: _Step) -> bool:
    outcome = step.after.outcome
    return (
        outcome is not None and outcome.winner is not None and outcome.winner == step.after.caster
    )


def _caster_lost(step: _Step) -> bool:
    outcome = step.after.outcome
    return (
        outcome is not None and outcome.winner is not None and outcome.winner != step.after.caster
    )


def _drawn(step: _Step) -> bool:
    return step.after.outcome is not None and step.after.outcome.winner is None


def stakes_distribution(
    variant: Variant, choices: Mapping[str, int] | None = None, up_to: int = 12
) -> dict[tuple[str, int], Fraction]:
    """P(the game ends with the caster winning or losing, and `stakes` paid at the end), for
    every stake up to `up_to`, exactly: the distribution behind the mean, not only the mean.

    The chain here keeps the prize in its states (not the ledger): a prize only rises, so the
    states whose prize is past `up_to` can be left out without changing any figure kept.
    """
    policy = dict(choices or {})
    start = variant.new_game()

    def key(state: State) -> Hashable:
        return (state.chain_key(), state.prize)

    chain: dict[Hashable, tuple[State, list[_Step]]] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        if key(state) in chain:
            continue
        steps = _steps(state, policy)
        chain[key(state)] = (state, steps)
        todo += [
            step.after
            for step in steps
            if not step.after.is_over and step.after.prize <= up_to and key(step.after) not in chain
        ]
    ends = sorted(
        {
            (CASTER_WINS if _caster_won(step) else CASTER_LOSES, step.after.outcome.stakes)
            for _, steps in chain.values()
            for step in steps
            if step.after.outcome is not None and step.after.outcome.stakes <= up_to
        }
    )
    found: dict[tuple[str, int], Fraction] = {}
    for side, stakes in ends:
        equations: dict[Hashable, tuple[Fraction, dict[Hashable, Fraction]]] = {}
        for name, (_, steps) in chain.items():
            constant, row = Fraction(0), {}
            for step in steps:
                outcome = step.after.outcome
                if outcome is not None:
                    won = CASTER_WINS if _caster_won(step) else CASTER_LOSES
                    constant += step.probability * ((won, outcome.stakes) == (side, stakes))
                elif key(step.after) in chain:
                    row[key(step.after)] = row.get(key(step.after), Fraction(0)) + step.probability
            equations[name] = (constant, row)
        found[(side, stakes)] = solve_linear(equations)[key(start)]
    return found


def exact_odds(variant: Variant, choices: Mapping[str, int] | None = None) -> Odds:
    """The exact probabilities, expected throws (and stakes) of a variant, from its start.

    `choices` names the option taken at each decision (`{"main": 7}` in Hazard); a game with
    a decision needs it, and a choice the game never asks for is refused.
    """
    return _exact_odds(variant, tuple(sorted((choices or {}).items())))


@cache
def _exact_odds(variant: Variant, choices: tuple[tuple[str, int], ...]) -> Odds:
    policy = dict(choices)
    start = variant.new_game()
    chain = _chain(start, policy)
    asked = {s.awaiting.name for s in chain if isinstance(s.awaiting, AwaitChoice)}
    unasked = sorted(set(policy) - asked)
    if unasked:
        raise InvalidChoice(f"{variant.label} asks for no {', '.join(unasked)}")
    key = start.chain_key()
    win = _solve(chain, lambda _s, step: Fraction(_caster_won(step)))
    lose = _solve(chain, lambda _s, step: Fraction(_caster_lost(step)))
    draw = _solve(chain, lambda _s, step: Fraction(_drawn(step)))
    throws = _solve(chain, lambda _s, step: Fraction(step.throws))
    outcomes = {CASTER_WINS: win[key], CASTER_LOSES: lose[key]}
    if any(_drawn(step) for steps in chain.values() for step in steps):
        outcomes[DRAW] = draw[key]
    reasons = {}
    for reason in sorted(
        {str(st.after.outcome.reason) for sts in chain.values() for st in sts if st.after.outcome}
    ):

        def ends_so(_s: State, step: _Step, reason: str = reason) -> Fraction:
            outcome = step.after.outcome
            return Fraction(outcome is not None and outcome.reason == reason)

        reasons[reason] = _solve(chain, ends_so)[key]
    stakes = None
    if variant.reports_stakes:

        def caster_gain(state: State, step: _Step) -> Fraction:
            after = step.after
            if after.caster is None:
                return Fraction(0)
            gain = Fraction(after.ledger[after.caster] - state.ledger[after.caster])
            if not after.is_over:
                raised = after.prize - state.prize
                nxt = after.chain_key()
                gain += raised * (win[nxt] - lose[nxt])
            return gain

        caster = _solve(chain, caster_gain)[key]
        stakes = {"caster": caster, "opponent": -caster}
    return Odds(variant.game, variant.name, outcomes, throws[key], stakes, dict(policy), reasons)
