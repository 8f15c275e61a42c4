"""What the curator asks of the table: how much it is played, by whom, and how often the
camera needed help. Pure functions of the game log's games and rerolls.

Hand entries and staff corrections are a proxy for misreads: a throw entered by hand is one
the camera could not read (it was lost), and a correction or undo is staff fixing a read.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.records import LoggedGame

HOURS = range(24)


@dataclass(frozen=True)
class Visits:
    """The curator's figures over a log (local time for days and hours)."""

    games: int
    per_day: dict[str, int]  # "2026-12-01" -> games started that day
    per_hour: dict[int, int]  # 0..23 -> games started in that hour, all days together
    languages: dict[str, int]  # "fr" -> games played in it ("?" when the log does not say)
    finished: int
    abandoned: int
    average_seconds: float | None  # mean length of the finished games, start to end
    rerolls: dict[str, int]  # reason -> "throw again" answers of the reader
    hand_entries: int  # throws entered with the buttons (the camera was lost)
    corrections: int  # staff corrections of a throw's dice
    undos: int  # throws taken back by the staff


def day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t))


def hour(t: float) -> int:
    return time.localtime(t).tm_hour


def average_seconds(games: Iterable[LoggedGame]) -> float | None:
    """How long a finished game lasts on average; None before any game has finished."""
    lengths = [g.ended - g.started for g in games if g.status == "over" and g.ended is not None]
    return sum(lengths) / len(lengths) if lengths else None


def visits(games: Sequence[LoggedGame], rerolls: Iterable[tuple[int, float, str]] = ()) -> Visits:
    """The figures, from `GameLog.games()` and `GameLog.rerolls()`."""
    events = [e for g in games for e in g.events]
    return Visits(
        games=len(games),
        per_day=dict(sorted(Counter(day(g.started) for g in games).items())),
        per_hour={h: n for h, n in sorted(Counter(hour(g.started) for g in games).items())},
        languages=dict(Counter(g.language or "?" for g in games).most_common()),
        finished=sum(g.status == "over" for g in games),
        abandoned=sum(g.status == "abandoned" for g in games),
        average_seconds=average_seconds(games),
        rerolls=dict(Counter(reason for _, _, reason in rerolls).most_common()),
        hand_entries=sum(e.kind == "throw" and e.source == "manual" for e in events),
        corrections=sum(e.kind == "correction" for e in events),
        undos=sum(e.kind == "undo" for e in events),
    )


CSV_HEADER = ("figure", "key", "value")


def csv_rows(figures: Visits) -> list[tuple[str, str, str]]:
    """One (figure, key, value) row per number, so a spreadsheet can pivot on the first column."""
    average = figures.average_seconds
    rows: list[tuple[str, str, str]] = [
        ("games", "", str(figures.games)),
        ("finished", "", str(figures.finished)),
        ("abandoned", "", str(figures.abandoned)),
        ("average_game_seconds", "", "" if average is None else f"{average:.1f}"),
        ("hand_entries", "", str(figures.hand_entries)),
        ("staff_corrections", "", str(figures.corrections)),
        ("staff_undos", "", str(figures.undos)),
    ]
    rows += [("games_per_day", d, str(n)) for d, n in figures.per_day.items()]
    rows += [("games_per_hour", f"{h:02d}", str(n)) for h, n in figures.per_hour.items()]
    rows += [("language", lang, str(n)) for lang, n in figures.languages.items()]
    rows += [("rerolls", reason, str(n)) for reason, n in figures.rerolls.items()]
    return rows


def minutes(seconds: float | None) -> str:
    """A game's length as people say it: "4 min 05 s"; "-" when there is none."""
    if seconds is None:
        return "-"
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s"
