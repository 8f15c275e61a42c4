"""The game log's SQLite file: where it lives, its schema, and opening it safely.

`connect(path)` opens the log in WAL mode with `synchronous=FULL` (every event its own committed
transaction survives a power cut), checks every page (`quick_check`), and brings a log written
by an older version up to the current schema. A damaged log is never deleted: `set_aside` moves
it and its WAL files beside it, stamped, and kiosk.gamelog begins a new one. Writes wait at
most `BUSY_SECONDS` for another process's lock.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import platformdirs

DB_NAME = "games.sqlite3"
BUSY_SECONDS = 0.1  # longest wait for another process's write lock (sqlite's default: 5 s)


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
    places     TEXT,                 -- camera throw: [[x, y, size], ...] of each die, JSON
    UNIQUE (game_id, seq)
);
CREATE INDEX IF NOT EXISTS events_game ON events (game_id, seq);
CREATE TABLE IF NOT EXISTS rerolls (  -- "throw again": no throw, so not one of the game's events
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    t       REAL NOT NULL,        -- unix time
    reason  TEXT NOT NULL         -- vision.reading.RerollReason value, or "wrong_count"
);
"""


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


def connect(path) -> sqlite3.Connection:
    """The log file, in WAL mode with full sync, with the current schema, checked whole."""
    conn = sqlite3.connect(
        path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        verdict = str(conn.execute("PRAGMA quick_check").fetchone()[0])
        if verdict != "ok":  # a damaged page: the header alone would have been seen above
            raise sqlite3.DatabaseError(f"database disk image is malformed ({verdict})")
        conn.executescript(SCHEMA)
        add_missing_columns(conn)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def is_corrupt(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "not a database" in text or "malformed" in text or "corrupt" in text


def set_aside(path: Path) -> Path:
    """Move a damaged log (and its WAL files) out of the way; nothing is deleted."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{kept}{suffix}"))
    return kept


def add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring a log written by an older version up to the current schema."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    if "language" not in columns:
        conn.execute("ALTER TABLE games ADD COLUMN language TEXT")
    if "places" not in {row[1] for row in conn.execute("PRAGMA table_info(events)")}:
        conn.execute("ALTER TABLE events ADD COLUMN places TEXT")
