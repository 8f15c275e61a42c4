"""Touch hits what is drawn: taps go through pygame's event queue into the running kiosk."""

from __future__ import annotations

import queue
import time

import pygame
import pytest

from hardware.buttons import ButtonEvent
from hardware.keys import KeyButtons
from kiosk.config import load_config
from kiosk.gamelog import GameLog
from kiosk.rules import find_variant
from kiosk.table import Kiosk
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.worker import RollRead
from vision.reading import Die, Roll


@pytest.fixture
def kiosk(tmp_path):
    pygame.display.init()
    pygame.font.init()
    pygame.event.clear()
    k = Kiosk(
        load_config(None),
        pygame.Surface((800, 480)),
        GameLog.in_dir(tmp_path),
        events=queue.Queue(),
        keys=KeyButtons(3.0, 800),  # the thirds-of-the-screen fallback stays for keys only
    )
    k.camera_ok = True
    yield k
    pygame.event.clear()


def tap(kiosk: Kiosk, x: float, y: float, up: tuple[float, float] | None = None) -> None:
    """A click at design point (x, y) on the 800x480 screen, let go at `up` (default: there)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    kiosk.frame(0.0)
    ux, uy = up or (x, y)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(ux, uy), button=1))
    kiosk.frame(0.0)


def finger(kiosk: Kiosk, x: float, y: float) -> None:
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        event = pygame.event.Event(kind, x=x / 800, y=y / 480, touch_id=1, finger_id=0)
        pygame.event.post(event)
        kiosk.frame(0.0)


def test_tapping_francais_chooses_french(kiosk):
    kiosk.goto("language")
    tap(kiosk, 150, 260)  # the French card: by thirds of the screen this was "previous"
    assert kiosk.tr.language == "fr" and kiosk.scene.name == "choose"


def test_a_finger_on_the_spanish_card_chooses_spanish(kiosk):
    kiosk.goto("language")
    finger(kiosk, 400, 260)
    assert kiosk.tr.language == "es"


def test_tapping_the_medio_azar_row_starts_medio_azar(kiosk):
    kiosk.goto("choose")
    row = next(i for i, v in enumerate(kiosk.scene.rows) if getattr(v, "game", "") == "medio-azar")
    tap(kiosk, 600, 70 + row * 80 + 30)  # the right of the row: the old thirds said "next"
    assert kiosk.scene.name == "play" and kiosk.match.variant.game == "medio-azar"


def test_taps_on_the_tray_picture_never_undo(kiosk):
    kiosk.new_match(find_variant("azar"))
    die = (Die(v, (10.0 * i, 10.0), 8.0, 0.95) for i, v in enumerate((2, 3, 4)))
    kiosk.events.put(RollRead(Roll(tuple(die)), 0.0))
    kiosk.frame(0.0)
    for _ in range(4):
        tap(kiosk, 120, 150)  # the last throw's panel, on the left third of the screen
        tap(kiosk, 600, 150)  # the tray picture
    assert kiosk.match.throws == [(2, 3, 4)]


def test_a_target_shows_pressed_while_the_finger_is_down_and_sliding_off_cancels(kiosk):
    kiosk.goto("choose")
    x, y, w, h = draw.HINT_BOXES["right"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + 20, y + 20), button=1))
    kiosk.frame(0.0)
    assert kiosk.touch.pressed == "right"
    assert tuple(kiosk.screen.get_at((int(x + 20), int(y + 30))))[:3] == theme.PRESSED
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(400, 200), button=1))
    kiosk.frame(0.0)
    assert kiosk.scene.selected == 0  # let go off the button: no "next"
    tap(kiosk, x + 20, y + 20)
    assert kiosk.scene.selected == 1


def test_a_tap_between_targets_does_nothing(kiosk):
    kiosk.goto("choose")
    tap(kiosk, 20, 200)  # the margin left of the rows
    tap(kiosk, 400, 420)  # between the last row and the buttons
    assert kiosk.scene.name == "choose" and kiosk.scene.selected == 0


def test_touch_maps_through_a_scaled_layout():
    layout = Layout(1920, 1080)  # scale 2.25, 60 px side bars
    x, y = layout.point(150, 260)
    assert layout.design(x, y) == pytest.approx((150, 260), abs=0.5)


def test_presses_made_while_a_frame_froze_are_not_replayed(kiosk, monkeypatch):
    kiosk.goto("choose")
    slow = kiosk.scene.render

    def frozen(*args):
        time.sleep(0.8)
        slow(*args)

    monkeypatch.setattr(kiosk.scene, "render", frozen)
    kiosk.frame(0.0)  # a frame that froze the screen
    monkeypatch.setattr(kiosk.scene, "render", slow)
    for _ in range(3):  # pressed while frozen, handled on the next frame
        kiosk.events.put(ButtonEvent("right", "press", kiosk.clock()))
    kiosk.frame(0.0)
    assert kiosk.scene.selected == 0
    kiosk.events.put(ButtonEvent("right", "press", kiosk.clock()))
    kiosk.frame(0.0)
    assert kiosk.scene.selected == 1  # presses count again once the screen answers
