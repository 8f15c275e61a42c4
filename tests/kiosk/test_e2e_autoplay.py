"""End to end: `run --demo --autoplay` plays whole games through the simulated tray, the real
dice reader, the rules engine and the log, headless; the log then holds complete games."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.gamelog import GameLog
from kiosk.match import replay
from kiosk.rules.variants import find_variant


@pytest.mark.slow
def test_autoplay_plays_complete_games_of_both(tmp_path: Path) -> None:
    env = dict(
        os.environ, KIOSK_DATA_DIR=str(tmp_path), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"
    )
    shots = tmp_path / "shots"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "run",
            "--demo",
            "--autoplay",
            "--max-games",
            "2",  # Azar, then Medio azar (the autoplay's order)
            "--max-seconds",
            "900",  # a safety net only: a loaded machine is slower, never wrong
            "--size",
            "800x480",
            "--screenshots",
            str(shots),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert "the tray's faces learnt on a twin tray" in result.stderr  # wall dice read at once

    log = GameLog.in_dir(tmp_path)
    over = [g for g in log.games() if g.status == "over"]
    assert len(over) == 2  # --max-games counts the games that ended, each once
    assert {g.game for g in over} >= {"azar", "medio-azar"}
    for game in over:
        assert game.throws, game
        assert all(e.source == "camera" for e in game.events)  # read, not typed in
        # The log alone rebuilds the same ending the kiosk recorded.
        state, _ = replay(find_variant(game.game, game.variant), game.first, game.throws)
        assert state.is_over
        assert (int(state.outcome.winner), state.outcome.reason, state.outcome.stakes) == (
            game.winner,
            game.reason,
            game.stakes,
        )
    assert log.integrity() == "ok"
    names = {p.name.split("-")[1] for p in shots.glob("*.png")}
    assert {"attract", "language", "choose", "play", "result"} <= names
