"""The game log's file: SQLite that survives a power cut, a full disk or a damaged file.

The database runs in WAL mode with `synchronous=FULL` and every statement is its own committed
transaction (the file itself: kiosk.logfile). Writes never raise. If the disk is full or
read-only, failed writes are kept in memory, retried in order, and `problem` says what is wrong
so the kiosk can warn the staff. A log that cannot be opened at all is kept in memory with its
warning, and the file is tried again every few seconds (`retry`); once it opens, what was held
is written to it. A log damaged anywhere (header or a page) is set aside at start and a new one
begun; a 0-byte log, a removed data folder and a deleted -wal file are noticed and reported
(`incidents`). Writes wait at most `BUSY_SECONDS` for another process's lock; a write that
cannot get it waits in the queue, off the screen's time, like a write to a full disk.

With `start_writer()` (the kiosk's own log) the writes run on a thread of their own, so a slow
card or a lock never holds the screen; `settle(seconds)` waits for them, and the kiosk calls it
before each frame is shown, so a ruling is on screen only once it is on disk, unless the disk
is stalled (then the screen goes on and the write waits in the queue, reported). What is
written, and how games are read back, is kiosk.gamelog's.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Self

from kiosk.logfile import BUSY_SECONDS, SCHEMA, connect, is_corrupt, set_aside

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # the writer thread tries waiting writes and checks the file this often


class LogStore:
    """The log's connection, its queue of writes and its writer thread. Writes never raise: a
    failure is logged, kept, retried, and reported."""

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

    @classmethod
    def _over(cls, conn: sqlite3.Connection) -> Self:
        """A store over a connection opened elsewhere (read-only): no file to watch, no writer."""
        store = cls.__new__(cls)
        store.clock, store.problem, store.incidents = time.time, None, []
        store._pending, store._path, store._held, store._file = [], None, None, None
        store._lock, store._queued, store._writer = threading.RLock(), threading.Condition(), None
        store._stopping = store._failing = False
        store._conn = conn
        return store

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
