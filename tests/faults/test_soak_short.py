"""A short soak: the soak harness (benchmarks/soak.py) runs the whole kiosk headless through a
few autoplayed games and must report no error, an intact log, and every finished game
replaying to its logged outcome. The thousand-game soak is the benchmark itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


@pytest.mark.slow
def test_a_short_soak_is_clean(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, str(SOAK), "--games", "3", "--warmup", "1", "--every", "1"],
        env=dict(
            os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TMPDIR=str(tmp_path)
        ),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    out = result.stdout
    assert "games played: 3 " in out
    assert "errors and exceptions logged: 0 " in out
    assert "reader exceptions on the worker: 0" in out
    assert "log integrity_check: ok" in out
    assert "finished games replaying to their logged outcome: 3 of 3" in out
    assert "Traceback" not in result.stderr
