"""kill -9 at random moments of autoplayed games: the next start resumes the game in progress
with every logged event kept, none duplicated, and the database intact."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.gamelog import GameLog

KILLS = 6


def snapshot(folder: Path) -> dict[int, tuple[str, tuple]]:
    log = GameLog.in_dir(folder)
    assert log.integrity() == "ok"
    games = {
        g.id: (g.status, tuple((e.seq, e.kind, e.dice) for e in g.events)) for g in log.games()
    }
    log.close()
    for _, events in games.values():
        assert [seq for seq, _, _ in events] == list(range(len(events)))  # no gap, no double
    return games


@pytest.mark.slow
def test_killed_kiosk_resumes_its_game(tmp_path: Path) -> None:
    env = dict(
        os.environ, KIOSK_DATA_DIR=str(tmp_path), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"
    )
    rng = random.Random(1283)
    before: dict[int, tuple[str, tuple]] = {}
    resumed = 0
    for _ in range(KILLS):
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk",
                "run",
                "--demo",
                "--autoplay",
                "--speed",
                "8",
                "--size",
                "800x480",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(2.0, 5.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        after = snapshot(tmp_path)
        for game_id, (status, events) in before.items():
            new_status, new_events = after[game_id]
            assert new_events[: len(events)] == events  # nothing lost, nothing rewritten
            if status == "playing":
                assert new_status in ("playing", "over")  # resumed, not abandoned
                resumed += len(new_events) > len(events)
        before = after
    assert resumed >= 1  # at least one game went on after a kill
    assert any(status == "over" for status, _ in before.values())
