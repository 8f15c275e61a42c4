"""What a logged game is, apart from where it is kept: its events, the throws that count after
corrections and undos, and the plain records `history` and the staff export write.

Pure: values in, values out. kiosk.gamelog stores and reads them (SQLite); the rules engine
replays `LoggedGame.throws` to rebuild a game.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

CHOICE = "choice"  # a player's decision (Hazard's main): its option is kept as the event's dice
KINDS = ("throw", "correction", "undo", CHOICE)


@dataclass(frozen=True)
class Event:
    """One line of a game's history."""

    seq: int
    kind: str
    dice: tuple[int, ...] = ()
    source: str = ""
    confidence: float | None = None
    t: float = 0.0
    ruling: str = ""
    params: dict = field(default_factory=dict)
    places: tuple[tuple[float, float, float], ...] = ()  # camera pixels: x, y, die size


@dataclass(frozen=True)
class LoggedGame:
    """A game as the log knows it."""

    id: int
    game: str
    variant: str
    first: int
    started: float
    status: str
    events: tuple[Event, ...] = ()
    ended: float | None = None
    winner: int | None = None
    reason: str | None = None
    stakes: int | None = None
    language: str | None = None

    @property
    def throws(self) -> list[tuple[int, ...]]:
        return effective_throws(self.events)


def effective_throws(events: Iterable[Event]) -> list[tuple[int, ...]]:
    """The throws that count: each correction replaces the last throw, each undo removes it."""
    return [dice for dice, _ in effective_sources(events)]


def effective_sources(events: Iterable[Event]) -> list[tuple[tuple[int, ...], str]]:
    """The throws that count with where their dice came from ("camera", "manual"), and the
    players' choices among them (source "choice")."""
    throws: list[tuple[tuple[int, ...], str]] = []
    for event in events:
        if event.kind == "throw":
            throws.append((event.dice, event.source))
        elif event.kind == CHOICE:
            throws.append((event.dice, CHOICE))
        elif event.kind == "correction" and throws:
            throws[-1] = (event.dice, event.source or "manual")
        elif event.kind == "undo" and throws:
            throws.pop()
    return throws


CSV_FIELDS = (
    "game_id",
    "game",
    "variant",
    "status",
    "winner",
    "stakes",
    "seq",
    "kind",
    "dice",
    "total",
    "source",
    "confidence",
    "time",
    "ruling",
)


def game_record(game: LoggedGame) -> dict:
    """A game as plain data, for `history --json`."""
    return {
        "id": game.id,
        "game": game.game,
        "variant": game.variant,
        "first": game.first,
        "status": game.status,
        "started": game.started,
        "ended": game.ended,
        "winner": game.winner,
        "reason": game.reason,
        "stakes": game.stakes,
        "language": game.language,
        "throws": [list(d) for d in game.throws],
        "events": [
            {
                "seq": e.seq,
                "kind": e.kind,
                "dice": list(e.dice),
                "source": e.source,
                "confidence": e.confidence,
                "time": e.t,
                "ruling": e.ruling,
                "params": e.params,
            }
            for e in game.events
        ],
    }


def event_rows(games: Iterable[LoggedGame]) -> Iterator[dict]:
    """One row per event, for `history --csv`."""
    for game in games:
        for e in game.events:
            yield {
                "game_id": game.id,
                "game": game.game,
                "variant": game.variant,
                "status": game.status,
                "winner": game.winner,
                "stakes": game.stakes,
                "seq": e.seq,
                "kind": e.kind,
                "dice": " ".join(map(str, e.dice)),
                "total": sum(e.dice) if e.dice else "",
                "source": e.source,
                "confidence": "" if e.confidence is None else round(e.confidence, 3),
                "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e.t)),
                "ruling": e.ruling,
            }
