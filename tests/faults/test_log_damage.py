"""The game log never lies and never loses quietly: damaged files, removed folders, a deleted
-wal, a 0-byte log, a log that cannot be opened, another process holding the lock, and
`history` that only ever reads."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.gamelog import DB_NAME, GameLog
from kiosk.match import Match
from kiosk.rules import find_variant


def a_log_with_games(folder: Path, games: int = 40) -> Path:
    gamelog = GameLog.in_dir(folder)
    for _ in range(games):
        match = Match.start(find_variant("azar"), gamelog)
        for dice in [(2, 3, 4), (1, 2, 5), (2, 3, 4)]:
            if not match.is_over:
                match.throw(dice)
    gamelog.close()
    return folder / DB_NAME


def damage_a_page(path: Path) -> None:
    """Garbage over the third page (not the header), as a failing SD card leaves it."""
    size = path.stat().st_size
    assert size > 4 * 4096
    with path.open("r+b") as file:
        file.seek(2 * 4096)
        file.write(b"\xde\xad\xbe\xef" * 1024)


def cli(*args: str, data: Path, seconds: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, KIOSK_DATA_DIR=str(data), SDL_VIDEODRIVER="dummy")
    env.update(SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock")
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds,
    )


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("damage", ["garbage", "a damaged page"])
def test_history_on_a_damaged_log_says_so_and_touches_nothing(tmp_path, damage) -> None:
    path = a_log_with_games(tmp_path)
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 200)
    else:
        damage_a_page(path)
    before = files(tmp_path)
    result = cli("history", "--json", data=tmp_path)
    assert result.returncode == 1, result.stdout[:200]
    assert "cannot read the game log" in result.stderr
    assert result.stdout == ""  # never "[]" as if the log were empty
    assert "Traceback" not in result.stderr
    assert files(tmp_path) == before  # nothing renamed, nothing created


def test_history_reads_a_good_log_without_creating_anything(tmp_path) -> None:
    a_log_with_games(tmp_path, games=3)
    before = files(tmp_path)
    result = cli("history", "--csv", data=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") > 3
    assert files(tmp_path) == before


def test_history_with_no_log_exits_1_and_creates_nothing(tmp_path) -> None:
    result = cli("history", data=tmp_path / "nowhere")
    assert result.returncode == 1 and "no game log" in result.stderr
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.slow
def test_a_damaged_page_is_set_aside_at_start_and_the_kiosk_runs(tmp_path) -> None:
    path = a_log_with_games(tmp_path)
    damage_a_page(path)
    result = cli("run", "--demo", "--size", "800x480", "--max-seconds", "3", data=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "damaged" in result.stderr and "Traceback" not in result.stderr
    kept = [name for name in files(tmp_path) if ".damaged-" in name]
    assert kept, files(tmp_path)  # the damaged log is kept for whoever can rescue it
    assert GameLog.reader(path).integrity() == "ok"


def test_a_0_byte_log_is_reported_and_set_aside(tmp_path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"")
    gamelog = GameLog.in_dir(tmp_path)
    assert any("0 bytes" in incident for incident in gamelog.incidents)
    assert any(".damaged-" in name for name in files(tmp_path))
    gamelog.close()


def test_a_log_that_cannot_be_opened_keeps_its_warning_and_is_written_once_it_can(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    gamelog = GameLog.in_dir(blocker)
    match = Match.start(find_variant("azar"), gamelog)
    match.throw((2, 3, 4))
    assert gamelog.problem  # the warning stays after writes that landed in memory only
    gamelog.retry()
    assert gamelog.problem
    blocker.unlink()
    gamelog.retry()
    assert gamelog.problem is None
    match.throw((1, 2, 5))
    gamelog.close()
    logged = GameLog.reader(blocker / DB_NAME).game(match.game_id)
    assert logged is not None and logged.throws == [(2, 3, 4), (1, 2, 5)]


def test_a_removed_data_folder_is_noticed_and_written_again(tmp_path) -> None:
    folder = tmp_path / "data"
    gamelog = GameLog.in_dir(folder)
    match = Match.start(find_variant("azar"), gamelog)
    match.throw((2, 3, 4))
    shutil.rmtree(folder)
    match.throw((1, 2, 5))
    gamelog.retry()  # the kiosk's few-second tick
    assert any("removed" in incident for incident in gamelog.incidents)
    logged = GameLog.reader(folder / DB_NAME).game(match.game_id)
    assert logged is not None and logged.throws == [(2, 3, 4), (1, 2, 5)]
    gamelog.close()


def test_a_deleted_wal_loses_nothing_when_the_kiosk_then_crashes(tmp_path) -> None:
    gamelog = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), gamelog)
    match.throw((2, 3, 4))
    os.unlink(tmp_path / f"{DB_NAME}-wal")
    match.throw((1, 2, 5))
    gamelog.retry()
    assert any("-wal" in incident for incident in gamelog.incidents)
    match.throw((2, 2, 2))
    # No close: the process dies here. What another process reads is what a restart finds.
    conn = sqlite3.connect(tmp_path / DB_NAME)
    rows = conn.execute("SELECT dice FROM events ORDER BY seq").fetchall()
    conn.close()
    assert [r[0] for r in rows] == ["2,3,4", "1,2,5", "2,2,2"]


def test_another_process_holding_the_lock_costs_a_write_a_tenth_of_a_second(tmp_path) -> None:
    gamelog = GameLog.in_dir(tmp_path)
    match = Match.start(find_variant("azar"), gamelog)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a backup tool, a curious technician's sqlite3 shell
    started = time.monotonic()
    match.throw((2, 3, 4))
    waited = time.monotonic() - started
    assert waited < 1.0, waited  # sqlite's default would hold the screen 5 s
    assert gamelog.problem and "locked" in gamelog.problem
    other.execute("ROLLBACK")
    other.close()
    gamelog.retry()
    assert gamelog.problem is None
    assert gamelog.game(match.game_id).throws == [(2, 3, 4)]
    gamelog.close()
