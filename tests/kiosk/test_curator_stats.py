"""The curator's figures, through `azar-kiosk stats`, from a log the kiosk's own code wrote:
a camera game with a throw sent back, a game entered by hand and corrected by the staff, a
game left unfinished; and a damaged log, which must be refused, not counted as empty."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path

from kiosk.gamelog import DB_NAME, GameLog
from kiosk.match import Match
from kiosk.rules import find_variant


class WallClock:
    """Unix time the test sets: the games start at known local hours."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def local(day: int, hour: int, minute: int = 0) -> float:
    return time.mktime((2026, 12, day, hour, minute, 0, 0, 0, -1))


def write_log(folder: Path) -> None:
    """Three days of play at the table, as the kiosk logs it."""
    clock = WallClock(local(1, 10))
    gamelog = GameLog.in_dir(folder, clock=clock)
    azar = find_variant("azar")
    first = Match.start(azar, gamelog, language="fr")
    first.reroll("cocked")
    first.reroll("cocked")
    first.reroll("blur")
    clock.t += 30
    first.throw((6, 6, 5), confidence=0.9, places=((10, 10, 20), (40, 10, 20), (70, 10, 20)))
    assert first.is_over  # 17 at the first cast wins
    clock.t = local(1, 15)
    second = Match.start(azar, gamelog, language="es")
    second.throw((1, 2, 3), source="manual")  # the camera was lost
    clock.t += 90
    second.correct((1, 1, 1))  # a 3: the caster loses
    assert second.is_over
    clock.t = local(2, 15, 30)
    third = Match.start(azar, gamelog, language="fr")
    third.throw((2, 3, 4))
    third.undo()
    gamelog.close()  # left playing: the next game marks it abandoned
    gamelog = GameLog.in_dir(folder, clock=clock)
    clock.t = local(2, 16)
    Match.start(azar, gamelog, language="en").throw((6, 6, 6))
    gamelog.close()


def stats(*args: str, data: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("KIOSK_DATA_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "stats", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def figures(path: Path) -> dict[tuple[str, str], str]:
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["figure", "key", "value"]
    return {(figure, key): value for figure, key, value in rows[1:]}


def test_stats_csv_from_a_log_the_kiosk_wrote(tmp_path) -> None:
    data = tmp_path / "data"
    write_log(data)
    out = tmp_path / "visits.csv"
    done = stats("--csv", str(out), data=data)
    assert done.returncode == 0, done.stderr
    got = figures(out)
    assert got[("games", "")] == "4"
    assert got[("finished", "")] == "3"
    assert got[("abandoned", "")] == "1"
    assert got[("games_per_day", "2026-12-01")] == "2"
    assert got[("games_per_day", "2026-12-02")] == "2"
    assert got[("games_per_hour", "10")] == "1"
    assert got[("games_per_hour", "15")] == "2"
    assert got[("games_per_hour", "16")] == "1"
    assert (got[("language", "fr")], got[("language", "es")], got[("language", "en")]) == (
        "2",
        "1",
        "1",
    )
    assert got[("rerolls", "cocked")] == "2" and got[("rerolls", "blur")] == "1"
    assert got[("hand_entries", "")] == "1"
    assert got[("staff_corrections", "")] == "1"
    assert got[("staff_undos", "")] == "1"
    # Finished games: 30 s, 90 s and 0 s (the last one ended at its first throw).
    assert got[("average_game_seconds", "")] == "40.0"


def test_stats_as_a_table_on_the_terminal(tmp_path) -> None:
    write_log(tmp_path)
    done = stats(data=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split() == ["rerolls", "cocked", "2"] for line in lines)
    assert any(line.split() == ["abandoned", "1"] for line in lines)


def test_stats_refuses_a_damaged_log_and_leaves_it_alone(tmp_path) -> None:
    write_log(tmp_path)
    log = tmp_path / DB_NAME
    assert log.stat().st_size > 4 * 4096
    with log.open("r+b") as file:  # a failing SD card: garbage over the third page
        file.seek(2 * 4096)
        file.write(b"\xde\xad\xbe\xef" * 1024)
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "visits.csv"
    done = stats("--csv", str(out), data=tmp_path)
    assert done.returncode == 1
    assert "cannot read the game log" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()  # no CSV of zeros a curator would believe
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_stats_with_no_log_says_so(tmp_path) -> None:
    done = stats(data=tmp_path / "nothing")
    assert done.returncode == 1
    assert "no game log" in done.stderr
    assert not (tmp_path / "nothing").exists()


def test_stats_csv_to_a_folder_that_is_not_there(tmp_path) -> None:
    write_log(tmp_path)
    done = stats("--csv", str(tmp_path / "missing-folder" / "out.csv"), data=tmp_path)
    assert done.returncode == 1
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
