"""The README's two commands: after the first run they start without pip (offline at a fair),
and `./scripts/demo` with no display says so instead of running invisibly for ever."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OFFLINE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_NO_INDEX": "1"}


def run(*command: str, env: dict, seconds: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def installed() -> None:
    if not (REPO / ".venv/.installed").exists():
        pytest.skip("the checkout's .venv was not made by scripts/setup-venv")


@pytest.mark.parametrize("extras", ["", "test"])
def test_a_second_setup_needs_no_network(installed, extras) -> None:
    env = dict(os.environ, **OFFLINE)
    result = run(str(REPO / "scripts/setup-venv"), *([extras] if extras else []), env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # pip never ran: it would have said it found no index


def test_the_demo_with_no_display_says_how_to_run_headless(installed) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    env.update(OFFLINE)
    result = run(str(REPO / "scripts/demo"), env=env)
    assert result.returncode == 1
    assert "No display" in result.stderr and "SDL_VIDEODRIVER=dummy" in result.stderr
