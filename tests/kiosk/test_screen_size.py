"""The demo's window fits the screen it opens on (a 7-inch 800x480 panel included)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from kiosk.app import fits


def test_a_window_larger_than_the_screen_does_not_fit() -> None:
    assert fits((1280, 720), (1920, 1080))
    assert fits((800, 480), (800, 480))
    assert not fits((1280, 720), (800, 480))
    assert not fits((1280, 720), (1280, 700))
    assert fits((1280, 720), None)  # SDL cannot tell: open what was asked


OPEN = """
import pygame
from kiosk.app import open_screen
screen = open_screen(None, True)
print(*screen.get_size())
"""


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_the_demo_window_on_an_800x480_screen_fills_it_instead_of_running_off_it() -> None:
    display = f":{90 + os.getpid() % 100}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_VIDEO")}
        env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy")
        for _ in range(50):  # the server takes a moment to listen
            if os.path.exists(f"/tmp/.X11-unix/X{display[1:]}"):
                break
            time.sleep(0.1)
        out = subprocess.run(
            [sys.executable, "-c", OPEN], env=env, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.split()[-2:] == ["800", "480"]
    finally:
        server.terminate()
        server.wait(timeout=10)
