"""The game log: every game and every throw in SQLite, written before the ruling is shown.

The power may be cut at any moment, so the database runs in WAL mode with `synchronous=FULL`
and every event is its own committed transaction. A game is its list of events (throws,
corrections, undos); the rules engine rebuilds any game by replaying its effective throws, which
is how an unfinished game resumes after a crash without losing or duplicating a throw.

If the disk is full or read-only, play goes on: failed writes are kept in memory, retried in
order, and `problem` says what is wrong so the kiosk can warn the staff.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

log = logging.getLogger(__name__)

DB_NAME = "games.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,      -- "azar", "medio_azar"
    variant  TEXT NOT NULL,      -- variant name within the game
    first    INTEGER NOT NULL,   -- seat that throws first (0 or 1)
    started  REAL NOT NULL,      -- unix time
    status   TEXT NOT NULL DEFAULT 'playing',  -- playing | over | abandoned
    ended    REAL,
    winner   INTEGER,            -- seat, or NULL
    reason   TEXT,               -- outcome message key
    stakes   INTEGER,
    language TEXT                -- the visitors' language, so a resumed game speaks it again
);
CREATE TABLE IF NOT EXISTS events (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seq        INTEGER NOT NULL,     -- 0, 1, 2... within the game
    kind       TEXT NOT NULL,        -- throw | correction | undo | choice
    dice       TEXT,                 -- "3,5,6" (throw, correction)
    source     TEXT,                 -- camera | manual | simulated
    confidence REAL,                 -- lowest die confidence of a camera read
    t          REAL NOT NULL,        -- unix time
    ruling     TEXT,                 -- message key of the ruling shown after this event
    params     TEXT,                 -- its parameters, JSON
    UNIQUE (game_id, seq)
);
CREATE INDEX IF NOT EXISTS events_game ON events (game_id, seq);
"""

CHOICE = "choice"  # a player's decision (Hazard's main): its option is kept as the event's dice
KINDS = ("throw", "correction", "undo", CHOICE)


def data_dir(configured: str | os.PathLike[str] | None = None) -> Path:
    """Where the log lives: $KIOSK_DATA_DIR, else the config's data_dir, else the user data dir.

    The environment wins so a service unit or a test can redirect a kiosk without editing its
    config file.
    """
    env = os.environ.get("KIOSK_DATA_DIR")
    if env:
        return Path(env)
    if configured:
        return Path(configured)
    return Path(platformdirs.user_data_dir("azar-kiosk", appauthor=False))


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


def _connect(path) -> sqlite3.Connection:
    """The log file, in WAL mode with full sync, with the current schema."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(SCHEMA)
        _add_missing_columns(conn)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _is_corrupt(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "not a database" in text or "malformed" in text


def _set_aside(path: Path) -> Path:
    """Move a damaged log (and its WAL files) out of the way; nothing is deleted."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{kept}{suffix}"))
    return kept


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring a log written by an older version up to the current schema."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    if "language" not in columns:
        conn.execute("ALTER TABLE games ADD COLUMN language TEXT")


def _dice_text(dice: Iterable[int]) -> str:
    return ",".join(str(int(v)) for v in dice)


def _dice_tuple(text: str | None) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",")) if text else ()


class GameLog:
    """The SQLite log. Writes never raise: a failure is logged, kept, retried, and reported."""

    def __init__(self, path: str | os.PathLike[str] | None, clock=time.time) -> None:
        self.clock = clock
        self.problem: str | None = None
        self._pending: list[tuple[str, tuple]] = []
        self._conn = self._open(path)
        self._last_id = int(
            self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        )

    # -- opening -------------------------------------------------------------------------------
    def _open(self, path) -> sqlite3.Connection:
        if path is not None and str(path) != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                try:
                    return _connect(path)
                except sqlite3.DatabaseError as error:
                    if not _is_corrupt(error):
                        raise
                    kept = _set_aside(Path(path))
                    log.error(
                        "game log %s is damaged (%s); kept as %s, starting a new one",
                        path,
                        error,
                        kept,
                    )
                    return _connect(path)
            except (sqlite3.Error, OSError) as error:
                self._warn(f"cannot open the game log at {path}: {error}")
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.executescript(SCHEMA)
        return conn

    @classmethod
    def in_dir(cls, directory: str | os.PathLike[str], clock=time.time) -> GameLog:
        return cls(Path(directory) / DB_NAME, clock=clock)

    def close(self) -> None:
        self._flush()
        self._conn.close()

    def _warn(self, message: str) -> None:
        if self.problem != message:
            log.error("game log: %s", message)
        self.problem = message

    # -- writing -------------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple) -> None:
        """Run one statement in its own transaction, after any statements still pending."""
        self._pending.append((sql, args))
        self._flush()

    def _flush(self) -> None:
        while self._pending:
            sql, args = self._pending[0]
            try:
                self._conn.execute(sql, args)
            except sqlite3.IntegrityError:
                log.warning("game log: dropped a duplicate event %r", args)
            except sqlite3.Error as error:
                self._warn(f"cannot write the game log: {error}")
                return
            self._pending.pop(0)
        self.problem = None

    def retry(self) -> None:
        """Try the writes still waiting, if any: the disk may have room again. The kiosk calls
        it every few seconds, so writing resumes even when no new event comes."""
        if self._pending:
            self._flush()

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
    ) -> None:
        """Record one event. `seq` is the event's index in the game, so a retry cannot duplicate."""
        if kind not in KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        self._write(
            "INSERT INTO events (game_id, seq, kind, dice, source, confidence, t, ruling, params)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ),
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
        rows = self._conn.execute(
            "SELECT seq, kind, dice, source, confidence, t, ruling, params FROM events"
            " WHERE game_id=? ORDER BY seq",
            (game_id,),
        ).fetchall()
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
            )
            for seq, kind, dice, source, confidence, t, ruling, params in rows
        )

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
        row = self._conn.execute(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE status='playing'"
            " ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return self._game(row) if row else None

    def games(self) -> Iterator[LoggedGame]:
        rows = self._conn.execute(f"SELECT {self._GAME_COLUMNS} FROM games ORDER BY id")
        for row in rows.fetchall():
            yield self._game(row)

    def game(self, game_id: int) -> LoggedGame | None:
        row = self._conn.execute(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE id=?", (game_id,)
        ).fetchone()
        return self._game(row) if row else None

    def all_dice(self) -> list[tuple[int, ...]]:
        """Every effective throw of every game, for the statistics screen."""
        throws: list[tuple[int, ...]] = []
        for game in self.games():
            throws.extend(game.throws)
        return throws

    def counts(self) -> dict[str, int]:
        """Games by status, for the maintenance screen."""
        rows = self._conn.execute("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {status: n for status, n in rows.fetchall()}

    def integrity(self) -> str:
        return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])


# -- export ---------------------------------------------------------------------------------------
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
