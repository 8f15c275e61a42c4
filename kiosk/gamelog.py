"""The game log: every game and every throw in SQLite, written before the ruling is shown.

A game is its list of events (throws, corrections, undos: kiosk.records, which also makes the
exports' rows); the rules engine rebuilds any game by replaying its effective throws, which is
how an unfinished game resumes after a crash without losing or duplicating a throw. Every event
is its own committed transaction on a file that survives a power cut, a full disk, a damaged or
removed file (kiosk.logstore: play goes on, nothing is lost, the staff are told).

`GameLog.reader(path)` opens a log read-only for `history`: it never creates, renames or
repairs anything, and raises `LogUnreadable` when it cannot read.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from kiosk.logfile import BUSY_SECONDS, DB_NAME
from kiosk.logstore import LogStore
from kiosk.records import KINDS, Event, LoggedGame


class LogUnreadable(Exception):
    """The log cannot be read (missing, damaged, no permission); the message says which."""


def _dice_text(dice: Iterable[int]) -> str:
    return ",".join(str(int(v)) for v in dice)


def _dice_tuple(text: str | None) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",")) if text else ()


def _places(text: str | None) -> tuple[tuple[float, float, float], ...]:
    """The JSON of a throw's die places; anything unreadable is no places at all."""
    if not text:
        return ()
    try:
        return tuple((float(x), float(y), float(size)) for x, y, size in json.loads(text))
    except (ValueError, TypeError):
        return ()


class GameLog(LogStore):
    """The games and their throws, written through the log's file (kiosk.logstore)."""

    def __init__(self, path: str | os.PathLike[str] | None, clock=time.time) -> None:
        super().__init__(path, clock)
        self._last_id = int(
            self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        )

    @classmethod
    def reader(cls, path: str | os.PathLike[str]) -> GameLog:
        """The log at `path`, read-only: nothing is created, renamed or repaired."""
        path = Path(path)
        if not path.is_file():
            raise LogUnreadable(f"no game log at {path}")
        try:
            # With no -wal beside it nobody is writing: read the file as it is, leaving no
            # -wal or -shm behind. With one (the kiosk is running), read through it.
            quiet = "" if Path(f"{path}-wal").exists() else "&immutable=1"
            conn = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro{quiet}", uri=True, timeout=BUSY_SECONDS
            )
            verdict = str(conn.execute("PRAGMA quick_check").fetchone()[0])
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"damaged: {verdict}")
            conn.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.Error as error:
            hint = ""
            if not os.access(path.parent, os.W_OK):
                hint = " (run it as the kiosk's user, who can write the folder: sudo -u azar ...)"
            raise LogUnreadable(f"cannot read the game log {path}: {error}{hint}") from None
        log_ = cls._over(conn)
        log_._last_id = 0
        return log_

    @classmethod
    def in_dir(cls, directory: str | os.PathLike[str], clock=time.time) -> GameLog:
        return cls(Path(directory) / DB_NAME, clock=clock)

    def new_game(self, game: str, variant: str, first: int, language: str | None = None) -> int:
        """Start a game and return its id. Any game still open is marked abandoned first."""
        self._write(
            "UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (self.clock(),)
        )
        self._last_id += 1  # counted here, not read back: the insert may still be pending
        game_id = self._last_id
        self._write(
            "INSERT INTO games (id, game, variant, first, started, language)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, game, variant, int(first), self.clock(), language),
        )
        return game_id

    def add_event(
        self,
        game_id: int,
        seq: int,
        kind: str,
        dice: Iterable[int] = (),
        source: str = "",
        confidence: float | None = None,
        ruling: str = "",
        params: dict | None = None,
        places: Iterable[tuple[float, float, float]] = (),
    ) -> None:
        """Record one event. `seq` is the event's index in the game, so a retry cannot duplicate.
        `places` says where a camera throw's dice lay, so a restarted kiosk knows them again."""
        if kind not in KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        places = [[round(float(v), 1) for v in place] for place in places]
        self._write(
            "INSERT INTO events"
            " (game_id, seq, kind, dice, source, confidence, t, ruling, params, places)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                seq,
                kind,
                _dice_text(dice),
                source,
                confidence,
                self.clock(),
                ruling,
                json.dumps(params or {}, default=str),
                json.dumps(places) if places else None,
            ),
        )

    def reroll(self, game_id: int, reason: str) -> None:
        """A throw the reader sent back ("throw again"), for the curator's statistics."""
        self._write(
            "INSERT INTO rerolls (game_id, t, reason) VALUES (?, ?, ?)",
            (game_id, self.clock(), str(reason)),
        )

    def finish(self, game_id: int, winner: int | None, reason: str, stakes: int | None) -> None:
        self._write(
            "UPDATE games SET status='over', ended=?, winner=?, reason=?, stakes=? WHERE id=?",
            (self.clock(), winner, reason, stakes, game_id),
        )

    def reopen(self, game_id: int) -> None:
        """A correction or undo took back the throw that ended the game."""
        self._write(
            "UPDATE games SET status='playing', ended=NULL, winner=NULL, reason=NULL, stakes=NULL"
            " WHERE id=?",
            (game_id,),
        )

    def abandon(self, game_id: int) -> None:
        self._write(
            "UPDATE games SET status='abandoned', ended=? WHERE id=? AND status='playing'",
            (self.clock(), game_id),
        )

    # -- reading -------------------------------------------------------------------------------
    def _events(self, game_id: int) -> tuple[Event, ...]:
        places = "places" if self._has_places() else "NULL"  # an older log, read-only
        rows = self._query(
            "SELECT seq, kind, dice, source, confidence, t, ruling, params,"
            f" {places} FROM events WHERE game_id=? ORDER BY seq",
            (game_id,),
        )
        return tuple(
            Event(
                seq,
                kind,
                _dice_tuple(dice),
                source or "",
                confidence,
                t,
                ruling or "",
                json.loads(params) if params else {},
                _places(places),
            )
            for seq, kind, dice, source, confidence, t, ruling, params, places in rows
        )

    def _has_places(self) -> bool:
        """Whether the events hold die places (a log read-only from an older version may not)."""
        if getattr(self, "_places_column", None) is None:
            columns = self._query("PRAGMA table_info(events)")
            self._places_column = any(row[1] == "places" for row in columns)
        return self._places_column

    def last_seen(self) -> tuple[tuple[int, ...], tuple[tuple[float, float, float], ...]]:
        """The dice of the newest throw in the log and where they lay, if the camera read it
        (else two empty tuples): a kiosk starting again may find them still in the tray."""
        if not self._has_places():
            return (), ()
        rows = self._query(
            "SELECT dice, places FROM events WHERE kind='throw' ORDER BY id DESC LIMIT 1"
        )
        row = rows[0] if rows else None
        if row is None or not row[1]:
            return (), ()
        try:
            return _dice_tuple(row[0]), _places(row[1])
        except ValueError:
            return (), ()

    def _game(self, row) -> LoggedGame:
        gid, game, variant, first, started, status, ended, winner, reason, stakes, lang = row
        return LoggedGame(
            gid,
            game,
            variant,
            first,
            started,
            status,
            self._events(gid),
            ended,
            winner,
            reason,
            stakes,
            lang,
        )

    _GAME_COLUMNS = (
        "id, game, variant, first, started, status, ended, winner, reason, stakes, language"
    )

    def unfinished(self) -> LoggedGame | None:
        """The game in progress when the kiosk stopped, if any."""
        rows = self._query(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE status='playing'"
            " ORDER BY id DESC LIMIT 1"
        )
        return self._game(rows[0]) if rows else None

    def games(self) -> Iterator[LoggedGame]:
        for row in self._query(f"SELECT {self._GAME_COLUMNS} FROM games ORDER BY id"):
            yield self._game(row)

    def game(self, game_id: int) -> LoggedGame | None:
        rows = self._query(f"SELECT {self._GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        return self._game(rows[0]) if rows else None

    def all_dice(self) -> list[tuple[int, ...]]:
        """Every effective throw of every game, for the statistics screen."""
        throws: list[tuple[int, ...]] = []
        for game in self.games():
            throws.extend(game.throws)
        return throws

    def rerolls(self) -> list[tuple[int, float, str]]:
        """Every "throw again" as (game id, unix time, reason); none in a log older than them."""
        try:
            rows = self._query("SELECT game_id, t, reason FROM rerolls ORDER BY id")
        except sqlite3.OperationalError:  # an older log, read-only: it has no such table
            return []
        return [(int(g), float(t), str(reason)) for g, t, reason in rows]

    def counts(self) -> dict[str, int]:
        """Games by status, for the maintenance screen."""
        rows = self._query("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {status: n for status, n in rows}

    def integrity(self) -> str:
        return str(self._query("PRAGMA integrity_check")[0][0])
