"""A camera kiosk restarted with the last throw's dice still in the tray logs no new throw.

Through the command line a technician uses: `azar-kiosk run --config FILE` on a calibrated
replay camera (recorded still frames of the tray), the game log in $KIOSK_DATA_DIR. The first
life sees the empty tray, then the dice land: one throw. Then the kiosk is stopped and started
three times (two clean stops, one `kill -9`) while the tray keeps showing the same dice; nobody
throws, so the game must still hold exactly one throw. A last life sees the dice move to other
faces and reads that throw: the guard waits for motion, it does not stop reading.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from hardware.sim import SimulatedTray
from kiosk.gamelog import GameLog
from kiosk.match import Match
from kiosk.rules import find_variant

from .conftest import calibrated

pytestmark = pytest.mark.slow

FPS = 10
WAITING = "waiting for them to move"  # the journal: no motion seen since the start
NOT_A_THROW = "not a throw"  # motion seen (a hand, a stall), the dice where they were logged


def tray_pictures(folder: Path) -> dict[str, Path]:
    """PNGs of the simulated tray: empty, with 1-2-4 at rest, and with 3-5-6 thrown after,
    each a throw a freshly started kiosk's reader reads (this test is about restarts, not the
    reader: a throw it would ask to throw again is thrown again here, as a visitor would)."""
    from vision.tray_reader import TrayReader

    class Hand:
        t = 0.0

        def __call__(self) -> float:
            return self.t

    clock = Hand()
    tray = SimulatedTray((640, 360), die_size=45, seed=7, clock=clock)
    tray.open()
    pictures = {"empty": tray.empty_frame()}
    calibration = calibrated(tray)

    def kiosk_reads(picture):
        """As the last life reads it: a fresh reader, the first throw's dice seen first."""
        read = TrayReader(calibration)
        if "first" in pictures and picture is not pictures["first"]:
            read(pictures["first"])
        return read(picture)

    for name, values in (("first", (1, 2, 4)), ("second", (3, 5, 6))):
        for _ in range(30):
            tray.throw(values)
            clock.t += tray.settle_time + 1.0
            pictures[name] = tray.read().image
            if kiosk_reads(pictures[name]).ok:
                break
        assert sorted(kiosk_reads(pictures[name]).values) == list(values)
    paths = {}
    for name, image in pictures.items():
        paths[name] = folder / f"{name}.png"
        cv2.imwrite(str(paths[name]), image)
    folder.joinpath("calibration").mkdir()
    calibration.save(folder / "calibration")
    return paths


def replay(folder: Path, scenes: list[tuple[Path, float]]) -> Path:
    """A replay folder showing each picture for its seconds, in order (links, not copies)."""
    folder.mkdir()
    n = 0
    for picture, seconds in scenes:
        for _ in range(round(seconds * FPS)):
            folder.joinpath(f"{n:05d}.png").symlink_to(picture)
            n += 1
    return folder


def config(path: Path, replay_folder: Path) -> Path:
    path.write_text(
        f'[camera]\nkind = "replay"\nreplay_path = "{replay_folder}"\nfps = {FPS}\nloop = false\n'
        "[lights]\nenabled = false\n",
        encoding="utf-8",
    )
    return path


def throws(data: Path) -> list[str]:
    uri = f"file:{data / 'games.sqlite3'}?mode=ro"
    with sqlite3.connect(uri, uri=True) as conn:
        rows = conn.execute("SELECT dice FROM events WHERE kind='throw' ORDER BY id").fetchall()
    return [",".join(sorted(dice.split(","))) for (dice,) in rows]


def life(cfg: Path, data: Path, until, stop: str, journal: Path, seconds: float = 120.0) -> str:
    """One run of the kiosk until `until(journal text)` holds, then stopped by `stop`."""
    env = dict(os.environ, KIOSK_DATA_DIR=str(data), SDL_VIDEODRIVER="dummy")
    env.update(SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock")
    with journal.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "kiosk", "run", "--config", str(cfg), "--size", "800x480"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    deadline = time.monotonic() + seconds
    try:
        while not until(journal.read_text()):
            assert process.poll() is None, journal.read_text()
            assert time.monotonic() < deadline, "the kiosk never got there:\n" + journal.read_text()
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGKILL if stop == "kill" else signal.SIGTERM)
        code = process.wait(30)
    text = journal.read_text()
    assert code == (-signal.SIGKILL if stop == "kill" else 0), text
    assert "Traceback" not in text
    return text


def looked(journal: str) -> bool:
    """The kiosk has had its look at the dice and said why it logs no throw."""
    return WAITING in journal or NOT_A_THROW in journal


def test_restarts_with_untouched_dice_log_no_new_throw(tmp_path) -> None:
    pictures = tray_pictures(tmp_path)
    data = tmp_path / "data"
    (tmp_path / "calibration").rename(data)
    gamelog = GameLog.in_dir(data)
    Match.start(find_variant("azar"), gamelog)  # visitors chose Azar; nobody has thrown yet
    gamelog.close()
    journal = tmp_path / "journal.txt"

    landing = replay(tmp_path / "landing", [(pictures["empty"], 8), (pictures["first"], 120)])
    life(
        config(tmp_path / "a.toml", landing),
        data,
        lambda _: len(throws(data)) == 1,
        "term",
        journal,
    )
    assert throws(data) == ["1,2,4"]

    still = replay(tmp_path / "still", [(pictures["first"], 300)])
    cfg = config(tmp_path / "b.toml", still)
    for stop in ("term", "kill", "term"):
        text = life(cfg, data, lambda text: looked(text) or len(throws(data)) > 1, stop, journal)
        assert throws(data) == ["1,2,4"], f"a phantom throw after a restart ({stop}):\n{text}"
        assert looked(text)

    moved = replay(tmp_path / "moved", [(pictures["first"], 8), (pictures["second"], 120)])
    life(
        config(tmp_path / "c.toml", moved), data, lambda _: len(throws(data)) == 2, "term", journal
    )
    assert throws(data) == ["1,2,4", "3,5,6"]  # the dice in reading order, sorted
