"""The game log: every game and every throw in SQLite, written before the ruling is shown.

The power may be cut at any moment, so the database runs in WAL mode with `synchronous=FULL` and
every event is its own committed transaction (the file itself: kiosk.logfile). A game is its list of
events (throws, corrections, undos: kiosk.records, which also makes the exports' rows); the rules
engine rebuilds any game by replaying its effective throws, which is how an unfinished game resumes
after a crash without losing or duplicating a throw.

If the disk is full or read-only, play goes on: failed writes are kept in memory, retried in
order, and `problem` says what is wrong so the kiosk can warn the staff. A log that cannot be
opened at all is kept in memory with its warning, and the file is tried again every few seconds
(`retry`); once it opens, what was held is written to it. A log damaged anywhere (header or a
page) is set aside at start and a new one begun; a 0-byte log, a removed data folder and a
deleted -wal file are noticed and reported (`incidents`). Writes wait at most `BUSY_SECONDS`
for another process's lock; a write that cannot get it waits in the queue, off the screen's
time, like a write to a full disk.

With `start_writer()` (the kiosk's own log) the writes run on a thread of their own, so a
slow card or a lock never holds the screen; `settle(seconds)` waits for them, and the kiosk
calls it before each frame is shown, so a ruling is on screen only once it is on disk, unless
the disk is stalled (then the screen goes on and the write waits in the queue, reported).

`GameLog.reader(path)` opens a log read-only for `history`: it never creates, renames or
repairs anything, and raises `LogUnreadable` when it cannot read.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from kiosk.logfile import BUSY_SECONDS, DB_NAME, SCHEMA, connect, is_corrupt, set_aside
from kiosk.records import KINDS, Event, LoggedGame

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # the writer thread tries waiting writes and checks the file this often


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


class GameLog:
    """The SQLite log. Writes never raise: a failure is logged, kept, retried, and reported."""

    def __init__(self, path: str | os.PathLike[str] | None, clock=time.time) -> None:
        self.clock = clock
        self.problem: str | None = None
        self.incidents: list[str] = []  # what went wrong and was dealt with, for the staff
        self._pending: list[tuple[str, tuple]] = []
        self._lock = threading.RLock()  # the connection: one thread at a time
        self._queued = threading.Condition()  # `_pending`: writes added, writes done
        self._writer: threading.Thread | None = None
        self._stopping = self._failing = False  # the writer: asked to stop; its writes fail
        self._path = None if path is None or str(path) == ":memory:" else Path(path)
        self._held: list[tuple[str, tuple]] | None = None  # written to memory, not yet to a file
        self._file: tuple[int, int] | None = None  # (device, inode) of the open file
        self._conn = self._open()
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
        log_ = cls.__new__(cls)
        log_.clock, log_.problem, log_.incidents = time.time, None, []
        log_._pending, log_._path, log_._held, log_._file = [], None, None, None
        log_._lock, log_._queued, log_._writer = threading.RLock(), threading.Condition(), None
        log_._stopping = log_._failing = False
        log_._conn, log_._last_id = conn, 0
        return log_

    # -- opening -------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self._path is not None:
            try:
                return self._open_file()
            except (sqlite3.Error, OSError) as error:
                self._warn(f"cannot open the game log at {self._path}: {error}")
        self._held = [] if self._path is not None else None
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.executescript(SCHEMA)
        return conn

    def _open_file(self) -> sqlite3.Connection:
        path = self._path
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file() and path.stat().st_size == 0:
            kept = set_aside(path)
            self._incident(f"the game log {path} was empty (0 bytes): kept as {kept}, a new one")
        try:
            conn = connect(path)
        except sqlite3.DatabaseError as error:
            if not is_corrupt(error):
                raise
            kept = set_aside(path)
            self._incident(f"the game log {path} is damaged ({error}); kept as {kept}, a new one")
            conn = connect(path)
        info = path.stat()
        self._file = (info.st_dev, info.st_ino)
        return conn

    def _incident(self, message: str) -> None:
        log.error("game log: %s", message)
        self.incidents.append(message)

    @classmethod
    def in_dir(cls, directory: str | os.PathLike[str], clock=time.time) -> GameLog:
        return cls(Path(directory) / DB_NAME, clock=clock)

    def close(self) -> None:
        """Stop the writer (it writes what is queued first), then close the file."""
        if self._writer is not None:
            with self._queued:
                self._stopping = True
                self._queued.notify_all()
            self._writer.join(timeout=2 * RETRY_SECONDS)
        with self._lock:
            if self._pending:
                self._flush()
            self._conn.close()

    # -- the writer thread ---------------------------------------------------------------------
    def start_writer(self) -> None:
        """From now on writes are queued and run on a thread of their own."""
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="game log", daemon=True)
            self._writer.start()

    def _write_loop(self) -> None:
        checked = time.monotonic()
        while True:
            with self._queued:
                if not self._stopping and (self._failing or not self._pending):
                    self._queued.wait(RETRY_SECONDS)  # a new write, or time to try again
                stopping = self._stopping
            with self._lock:
                due = time.monotonic() - checked >= RETRY_SECONDS
                if self._pending and not self._failing and not due:
                    failing = not self._flush()
                else:  # the file checks, then the writes (those that failed, too)
                    checked = time.monotonic()
                    self._retry_now()
                    failing = bool(self._pending)
            with self._queued:
                self._failing = failing
                self._queued.notify_all()
            if stopping:
                return

    def settle(self, seconds: float) -> bool:
        """Wait up to `seconds` for the queued writes to be on disk; True when they are. No
        wait while writes are failing (a full disk, a lock): they wait for the next retry."""
        with self._queued:
            if self._writer is None or self._failing:
                return not self._pending
            return (
                self._queued.wait_for(lambda: not self._pending or self._failing, timeout=seconds)
                and not self._pending
            )

    def _query(self, sql: str, args: tuple = ()) -> list:
        """Rows of a read, once this log's own queued writes are in (a stalled disk: soon)."""
        if self._writer is not None:
            self.settle(BUSY_SECONDS)
        with self._lock:
            return self._conn.execute(sql, args).fetchall()

    def _warn(self, message: str) -> None:
        if self.problem != message:
            log.error("game log: %s", message)
        self.problem = message

    # -- writing -------------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple) -> None:
        """Run one statement in its own transaction, after any statements still pending: now,
        or on the writer thread once it is started."""
        with self._queued:
            self._pending.append((sql, args))
            self._queued.notify_all()
        if self._writer is None:
            with self._lock:
                self._flush()

    def _flush(self) -> bool:
        """The pending statements in order, until one fails (False: it waits for a retry)."""
        while True:
            with self._queued:
                if not self._pending:
                    break
                sql, args = self._pending[0]
            try:
                self._conn.execute(sql, args)
            except sqlite3.IntegrityError:
                log.warning("game log: dropped a duplicate event %r", args)
            except sqlite3.Error as error:
                self._warn(f"cannot write the game log: {error}")
                return False
            if self._held is not None:
                self._held.append((sql, args))
            with self._queued:
                self._pending.pop(0)
                self._queued.notify_all()
        if self._held is None:
            self.problem = None
        return True

    def retry(self) -> None:
        """Every few seconds (the kiosk calls it; the writer thread, once started, does it on
        its own): the log file, if it could not be opened; the writes still waiting (the disk
        may have room again); and the file still being where it was, with its -wal, so a
        removed folder or a deleted -wal loses nothing."""
        if self._writer is not None:
            return
        with self._lock:
            self._retry_now()

    def _retry_now(self) -> None:
        if self._held is not None:
            self._reopen_file()
        elif self._path is not None:
            self._check_file()
        if self._pending:
            self._flush()

    def _reopen_file(self) -> None:
        """The file opens at last: write what memory held, then use the file."""
        try:
            conn = self._open_file()
        except (sqlite3.Error, OSError):
            return
        held = self._held or []
        first = next((args[0] for sql, args in held if sql.startswith("INSERT INTO games")), None)
        clash = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        if first is not None and clash >= first:
            conn.close()
            self._warn(f"the game log at {self._path} holds other games: kept in memory only")
            return
        try:
            for sql, args in held:
                conn.execute(sql, args)
        except sqlite3.Error as error:
            conn.close()
            self._warn(f"cannot write the game log: {error}")
            return
        self._conn.close()
        self._conn, self._held = conn, None
        self.problem = None
        self._incident(f"the game log at {self._path} opened at last: {len(held)} writes kept")

    def _check_file(self) -> None:
        """Notice a log file removed or replaced, or its -wal deleted, and write it again."""
        path = self._path
        assert path is not None
        try:
            info = path.stat()
            same = (info.st_dev, info.st_ino) == self._file
        except OSError:
            same = False
        wal = Path(f"{path}-wal")
        if same and wal.exists():
            return
        if same:  # the -wal deleted: move what it holds into the log, then start a new one
            try:
                self._conn.execute("PRAGMA wal_checkpoint(FULL)")
                self._conn.close()
                self._conn = connect(path)
            except sqlite3.Error as error:
                self._warn(f"the game log's -wal file was deleted and cannot be rebuilt: {error}")
                return
            self._incident(f"{wal} was deleted; its writes were moved into the log, none lost")
            return
        try:  # the file (or its folder) is gone: write the whole log again from the open one
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                set_aside(path)
            fresh = sqlite3.connect(path, timeout=BUSY_SECONDS)
            self._conn.backup(fresh)
            fresh.close()
            conn = connect(path)
        except (sqlite3.Error, OSError) as error:
            self._warn(f"the game log {path} was removed and cannot be written again: {error}")
            return
        self._conn.close()
        self._conn = conn
        info = path.stat()
        self._file = (info.st_dev, info.st_ino)
        if self.problem and "removed" in self.problem:
            self.problem = None
        self._incident(f"the game log {path} was removed; written again, nothing lost")

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
