"""Fault: the card is slow or another process holds the log's lock. The kiosk's writes run on
the log's own thread, so the screen goes on; in the normal case a frame still ends only once
its throw is on disk (nothing shown that a power cut could lose), and a write that waited for
the lock lands, in order, once the lock is gone, or at the latest when the kiosk closes."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from kiosk import logstore
from kiosk.gamelog import DB_NAME
from kiosk.rules import find_variant
from kiosk.worker import RollRead
from vision.reading import Die, Roll

from .conftest import headless_kiosk
from .fakes import Camera, Clock


def on_disk(folder) -> list[tuple]:
    """The events as another process reads them from the file."""
    conn = sqlite3.connect(folder / DB_NAME)
    try:
        return conn.execute("SELECT game_id, seq, kind, dice FROM events ORDER BY id").fetchall()
    finally:
        conn.close()


def landed(gamelog, seconds: float = 5.0) -> bool:
    """Whether the queued writes land within `seconds` (the writer retries on its own)."""
    deadline = time.monotonic() + seconds
    while not gamelog.settle(0.05):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def read(kiosk, *values: int) -> None:
    dice = tuple(Die(v, (40.0 * i, 40.0), 20.0, 0.95) for i, v in enumerate(values))
    kiosk.events.put(RollRead(Roll(dice), kiosk.clock()))
    kiosk.frame(1 / 30)


@pytest.fixture
def kiosk(tmp_path, monkeypatch):
    monkeypatch.setattr(logstore, "RETRY_SECONDS", 0.2)
    k = headless_kiosk(tmp_path, Camera(), Clock())
    k.log.start_writer()  # as app.build() does
    threads: list[tuple[str, str]] = []
    k.log._conn.set_trace_callback(
        lambda sql: threads.append((threading.current_thread().name, sql))
    )
    k.sql_threads = threads
    yield k
    k.log.close()


def test_a_throw_is_written_by_the_log_thread_and_on_disk_when_the_frame_ends(
    kiosk, tmp_path
) -> None:
    kiosk.new_match(find_variant("azar"))
    read(kiosk, 2, 3, 4)
    game = kiosk.match.game_id
    assert on_disk(tmp_path) == [(game, 0, "throw", "2,3,4")]  # before the next frame
    writes = [name for name, sql in kiosk.sql_threads if sql.startswith(("INSERT", "UPDATE"))]
    assert writes and set(writes) == {"game log"}  # never the main loop


def test_a_locked_log_does_not_hold_the_screen_and_loses_nothing(kiosk, tmp_path) -> None:
    kiosk.new_match(find_variant("azar"))
    read(kiosk, 2, 3, 4)
    game = kiosk.match.game_id
    holder = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing to the log
    try:
        read(kiosk, 5, 5, 1)  # the frame ends; the write waits for the lock on its thread
        read(kiosk, 6, 2, 1)
        assert kiosk.match.throws == [(2, 3, 4), (5, 5, 1), (6, 2, 1)]  # play went on
        assert not landed(kiosk.log, 1.0)  # still locked: still waiting, not dropped
        assert kiosk.log.problem and "locked" in kiosk.log.problem
        kiosk.render()  # the staff warning is drawn, nothing raises
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert landed(kiosk.log)  # the lock is gone: the next retry writes them, in order
    assert [row[1:] for row in on_disk(tmp_path)] == [
        (0, "throw", "2,3,4"),
        (1, "throw", "5,5,1"),
        (2, "throw", "6,2,1"),
    ]
    assert kiosk.log.problem is None
    assert all(row[0] == game for row in on_disk(tmp_path))


def test_closing_writes_what_is_still_queued(kiosk, tmp_path) -> None:
    kiosk.new_match(find_variant("azar"))
    holder = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    read(kiosk, 2, 3, 4)
    assert not landed(kiosk.log, 0.3)
    holder.execute("ROLLBACK")
    holder.close()
    kiosk.log.close()  # as `shutdown` does when systemd stops the kiosk
    assert [row[1:] for row in on_disk(tmp_path)] == [(0, "throw", "2,3,4")]
    kiosk.log.close = lambda: None  # closed once already (the fixture closes it again)


def test_the_writer_thread_notices_a_removed_log_by_itself(kiosk, tmp_path) -> None:
    """The file checks run on the writer thread too: nobody calls `retry()` any more."""
    kiosk.new_match(find_variant("azar"))
    read(kiosk, 2, 3, 4)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    deadline = time.monotonic() + 5
    while not (tmp_path / DB_NAME).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    read(kiosk, 5, 5, 1)
    assert landed(kiosk.log)
    assert [row[1:] for row in on_disk(tmp_path)] == [(0, "throw", "2,3,4"), (1, "throw", "5,5,1")]
    assert any("was removed; written again" in text for text in kiosk.log.incidents)
