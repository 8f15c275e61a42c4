"""Fault: the screen froze (a frame took STALL_SECONDS or more: a slow card, the machine
swapping). Presses made while nothing on screen answered them are dropped, not replayed as a
burst that would play on through screens nobody saw; the first press after a frame drawn in
time is answered again. Frame time is the kiosk's wall clock, here one the test moves: the
rule is tested the same on a fast machine and under an emulator."""

from __future__ import annotations

import logging

import pytest

from hardware.buttons import ButtonEvent
from kiosk.loop import STALL_SECONDS

from .conftest import headless_kiosk
from .fakes import Camera, Clock


@pytest.fixture
def kiosk(tmp_path):
    wall = Clock()
    k = headless_kiosk(tmp_path, Camera(), Clock(), wall_clock=wall)
    render = k.render

    def render_taking(seconds: float) -> None:  # the frame's drawing took this long
        wall.t += seconds
        render()

    k.frame_seconds = 0.0
    k.render = lambda: render_taking(k.frame_seconds)
    return k


def press_ok(kiosk, frame_seconds: float) -> None:
    """ok pressed after a frame that took `frame_seconds`, then the next frame (which reads it)."""
    kiosk.frame_seconds = frame_seconds
    kiosk.frame(0.0)
    kiosk.frame_seconds = 0.0
    kiosk.events.put(ButtonEvent("ok", "press", kiosk.clock()))
    kiosk.frame(0.0)


def test_a_press_after_a_frozen_frame_is_dropped(kiosk, caplog) -> None:
    assert kiosk.scene.name == "attract"
    with caplog.at_level(logging.INFO, logger="kiosk"):
        press_ok(kiosk, STALL_SECONDS)
    assert kiosk.scene.name == "attract"
    assert "dropping a press made while the screen was frozen" in caplog.text


def test_after_a_frame_in_time_presses_are_answered_again(kiosk) -> None:
    press_ok(kiosk, STALL_SECONDS + 1.0)
    assert kiosk.scene.name == "attract"
    press_ok(kiosk, STALL_SECONDS * 0.9)  # slow, but not frozen
    assert kiosk.scene.name == "language"
