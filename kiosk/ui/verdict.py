"""Who came out ahead: the one rule every result screen follows, so it never contradicts itself.

In Medio azar the player whose chance takes the prize can still end the game behind, having
paid the other player's azars; the headline names the player whose net for the game is above
zero, or says the game is even. The stakes always move from one player to the other, so the
two nets sum to zero and at most one player is ahead. In Azar the winner takes the one stake,
so the player ahead is the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules import Seat


@dataclass(frozen=True)
class Verdict:
    ahead: Seat | None  # the player whose net is above zero; None when both end even
    net: tuple[int, int]  # each player's stakes won (+) or paid (-) over the game
    winner: Seat | None  # the player the last rule paid (the chance, the azar...)
    prize: int  # what that rule paid
    reason: str  # the outcome's message key: by which rule


def verdict(state) -> Verdict:
    """The verdict of an ended game's state."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over")
    net = (int(state.ledger[Seat.ONE]), int(state.ledger[Seat.TWO]))
    ahead = Seat.ONE if net[0] > 0 else Seat.TWO if net[1] > 0 else None
    return Verdict(ahead, net, outcome.winner, int(outcome.stakes), outcome.reason)
