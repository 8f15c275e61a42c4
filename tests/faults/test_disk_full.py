"""Fault: the SD card fills up in the middle of a game, and later space comes back.

Play goes on (the throws are ruled and shown), the staff are warned on the screen and in the
journal, nothing already written is lost, and once there is room again the waiting events are
written in order, so the log again rebuilds the game exactly (a restart resumes it).

Run as root, the log lives on a real 1 MB tmpfs that a filler file fills to the last byte;
elsewhere the same scenario runs with SQLite's "database or disk is full" raised at the log's
edge, where the real error would come from.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from kiosk.gamelog import DB_NAME
from kiosk.rules.variants import find_variant
from kiosk.worker import RollRead
from vision.reading import Die, Roll

from .conftest import headless_kiosk
from .test_button_storm import Camera

WARNING = "The game log cannot be written. Please tell the staff."
THROWS = [(1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 4, 4), (1, 1, 2), (5, 5, 6), (2, 2, 2), (3, 3, 1)]


class TinyDisk:
    """A 1 MB tmpfs: `fill()` takes every free byte, `free()` gives them back."""

    def __init__(self, mount: Path) -> None:
        self.folder = mount
        self.filler = mount / "filler"

    def fill(self) -> None:
        with open(self.filler, "ab", buffering=0) as filler:
            chunk = b"\0" * 4096
            while True:
                try:
                    filler.write(chunk)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    if len(chunk) == 1:
                        return
                    chunk = chunk[: len(chunk) // 2]

    def free(self) -> None:
        self.filler.unlink()


class FullAtTheEdge:
    """Where root is missing: the log's connection answers writes as SQLite on a full disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.full = False
        self.log = None

    def attach(self, log) -> None:
        self.log, real = log, log._conn
        disk = self

        class Connection:
            def execute(self, sql, args=()):
                if disk.full and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
                    raise sqlite3.OperationalError("database or disk is full")
                return real.execute(sql, args)

            def close(self):
                real.close()

        log._conn = Connection()

    def fill(self) -> None:
        self.full = True

    def free(self) -> None:
        self.full = False


@pytest.fixture(params=["tmpfs", "injected"])
def disk(request, tmp_path):
    if request.param == "injected":
        yield FullAtTheEdge(tmp_path)
        return
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root; the injected case covers the rest")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield TinyDisk(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def on_disk(folder: Path) -> list[tuple]:
    """The throws of game 1 as the file holds them, read-only (what a restart would see)."""
    conn = sqlite3.connect(f"file:{folder / DB_NAME}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT seq, dice FROM events WHERE game_id=1 ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [(seq, tuple(int(v) for v in dice.split(","))) for seq, dice in rows]


def read(kiosk, dice) -> None:
    roll = Roll(tuple(Die(v, (40.0 * i, 40.0), 30.0, 0.95) for i, v in enumerate(dice)))
    kiosk.events.put(RollRead(roll, 0.0))
    kiosk.frame(1 / 30)


def test_disk_full_mid_game_play_goes_on_staff_warned_nothing_lost(disk, drawn, caplog):
    caplog.set_level(logging.INFO)
    kiosk = headless_kiosk(disk.folder, Camera())
    if isinstance(disk, FullAtTheEdge):
        disk.attach(kiosk.log)
    kiosk.new_match(find_variant("medio-azar"))  # a long game: throw-off, chances, a chase
    for dice in THROWS[:3]:
        read(kiosk, dice)
    written = on_disk(disk.folder)
    assert [d for _, d in written] == THROWS[:3]

    disk.fill()
    for dice in THROWS[3:6]:
        read(kiosk, dice)
    played = list(kiosk.match.throws)
    assert played == THROWS[: len(played)] and len(played) > 3  # play went on
    assert kiosk.log.problem and "full" in kiosk.log.problem
    drawn.clear()
    kiosk.frame(1 / 30)
    assert WARNING in drawn  # the staff see it...
    assert any("full" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert on_disk(disk.folder) == written  # ...and nothing already written was lost

    disk.free()
    for _ in range(40):  # a few quiet seconds: the kiosk tries the waiting writes again
        kiosk.frame(0.2)
    assert kiosk.log.problem is None
    assert [d for _, d in on_disk(disk.folder)] == played
    for dice in THROWS[6:]:
        if not kiosk.match.is_over:
            read(kiosk, dice)
    assert kiosk.log.problem is None
    drawn.clear()
    kiosk.frame(1 / 30)
    assert WARNING not in drawn
    # Everything waiting was written, in order, after what was already there.
    final = on_disk(disk.folder)
    assert [seq for seq, _ in final] == list(range(len(final)))
    assert [d for _, d in final] == kiosk.match.throws
    kiosk.log.close()

    again = headless_kiosk(disk.folder, Camera())  # a restart on the same card
    logged = again.log.game(kiosk.match.game_id)
    assert logged.throws == kiosk.match.throws
    assert logged.status == ("over" if kiosk.match.is_over else "playing")
    if not kiosk.match.is_over:
        assert again.match is not None and again.match.throws == kiosk.match.throws
    again.log.close()
