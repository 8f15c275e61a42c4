"""The game log: events committed in order, resumed by replay, failures survived."""

from __future__ import annotations

import sqlite3

import pytest

from kiosk.gamelog import GameLog
from kiosk.match import Match
from kiosk.records import Event, effective_throws
from kiosk.rules import Seat
from kiosk.rules.variants import find_variant


def test_effective_throws_apply_corrections_and_undos() -> None:
    events = [
        Event(0, "throw", (1, 2, 3)),
        Event(1, "throw", (4, 4, 4)),
        Event(2, "correction", (4, 4, 5)),
        Event(3, "throw", (6, 6, 6)),
        Event(4, "undo"),
    ]
    assert effective_throws(events) == [(1, 2, 3), (4, 4, 5)]


def test_wal_and_full_sync(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    assert log._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    log.close()


def test_unfinished_game_resumes_exactly(tmp_path) -> None:
    variant = find_variant("medio-azar")
    log = GameLog.in_dir(tmp_path)
    match = Match.start(variant, log, Seat.ONE)
    for dice in [(5, 4, 3), (2, 2, 3), (6, 5, 6), (3, 3, 3)]:
        match.throw(dice)
    match.correct((3, 3, 4))
    match.throw((1, 1, 1))
    match.undo()
    expected_state = match.state
    log.close()  # the process dies here; a new one opens the same folder

    reopened = GameLog.in_dir(tmp_path)
    resumed = Match.resume(reopened)
    assert resumed is not None
    assert resumed.state == expected_state
    assert resumed.throws == [(5, 4, 3), (2, 2, 3), (6, 5, 6), (3, 3, 4)]
    assert [e.source for e in resumed.entries] == ["camera"] * 3 + ["staff"]  # corrected
    assert resumed.entries == match.entries
    resumed.throw((2, 2, 2))  # continues numbering after the logged events, no clash
    assert [e.kind for e in reopened.game(resumed.game_id).events][-3:] == [
        "throw",
        "undo",
        "throw",
    ]
    assert reopened.integrity() == "ok"


def test_finished_game_is_not_resumed_and_new_game_abandons_old(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    azar = find_variant("azar")
    first = Match.start(azar, log)
    first.throw((6, 6, 6))  # 18: an azar on the first throw wins at once
    assert first.is_over
    assert Match.resume(log) is None
    second = Match.start(azar, log)
    second.throw((2, 3, 4))
    Match.start(azar, log)
    statuses = {g.id: g.status for g in log.games()}
    assert statuses == {first.game_id: "over", second.game_id: "abandoned", 3: "playing"}


def test_correcting_the_winning_throw_reopens_the_game(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), log)
    match.throw((6, 6, 6))
    assert log.game(match.game_id).status == "over"
    match.correct((2, 3, 4))  # it was a 9: a chance, the game goes on
    assert not match.is_over
    assert log.game(match.game_id).status == "playing"
    assert Match.resume(log).throws == [(2, 3, 4)]


def test_bad_correction_writes_nothing(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), log)
    match.throw((2, 3, 4))
    with pytest.raises(ValueError):
        match.correct((0, 3, 4))
    assert len(log.game(match.game_id).events) == 1


class BrokenConnection:
    """A connection whose writes fail like a full disk, until `healed`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.healed = False

    def execute(self, sql, args=()):
        if not self.healed and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, args)

    def close(self):
        self.conn.close()


def test_disk_full_keeps_playing_warns_and_catches_up(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), log)
    broken = BrokenConnection(log._conn)
    log._conn = broken
    match.throw((2, 3, 4))
    match.throw((1, 3, 6))
    assert log.problem and "full" in log.problem
    assert match.throws == [(2, 3, 4), (1, 3, 6)]  # play went on
    broken.healed = True
    match.throw((1, 1, 1))
    assert log.problem is None
    assert log.game(match.game_id).throws == [(2, 3, 4), (1, 3, 6), (1, 1, 1)]


def test_unwritable_folder_falls_back_to_memory(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    log = GameLog.in_dir(blocker / "sub")
    assert log.problem
    match = Match.start(find_variant("azar"), log)
    match.throw((2, 3, 4))
    assert match.throws == [(2, 3, 4)]


def test_game_that_ended_before_its_end_was_written_is_closed_on_resume(tmp_path) -> None:
    log = GameLog.in_dir(tmp_path)
    game_id = log.new_game("azar", "card", 0)
    log.add_event(game_id, 0, "throw", (6, 6, 6), "camera", 0.9, "azar.azar_wins", {})
    # killed here: the winning throw is in the log, the game's end is not
    match = Match.resume(GameLog.in_dir(tmp_path))
    assert match.is_over
    assert GameLog.in_dir(tmp_path).game(game_id).status == "over"


def test_a_log_from_before_the_language_column_still_opens(tmp_path) -> None:
    old = sqlite3.connect(tmp_path / "games.sqlite3")
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,"
        " first INTEGER NOT NULL, started REAL NOT NULL, status TEXT NOT NULL DEFAULT 'playing',"
        " ended REAL, winner INTEGER, reason TEXT, stakes INTEGER);"
        "INSERT INTO games (id, game, variant, first, started) VALUES (1, 'azar', 'card', 0, 0);"
    )
    old.commit()
    old.close()
    log = GameLog.in_dir(tmp_path)
    assert log.problem is None
    assert log.unfinished().language is None
    assert Match.resume(log) is not None


def test_a_damaged_log_is_set_aside_and_a_new_one_started(tmp_path) -> None:
    (tmp_path / "games.sqlite3").write_bytes(b"this is not sqlite at all" * 100)
    log = GameLog.in_dir(tmp_path)
    assert log.problem is None  # a fresh log on disk, not a memory fallback
    match = Match.start(find_variant("azar"), log)
    match.throw((2, 3, 4))
    log.close()
    assert GameLog.in_dir(tmp_path).game(match.game_id).throws == [(2, 3, 4)]
    kept = list(tmp_path.glob("games.sqlite3.damaged-*"))
    assert kept and kept[0].read_bytes().startswith(b"this is not sqlite")
