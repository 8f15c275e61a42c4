"""Keyboard and touch fallback: pygame events become the same ButtonEvents as the buttons."""

from __future__ import annotations

import pygame
import pytest

from hardware.buttons import ButtonEvent
from hardware.keys import KeyButtons


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code)


@pytest.fixture
def keys() -> KeyButtons:
    return KeyButtons(hold_seconds=3.0, screen_width=900)


@pytest.mark.parametrize(
    ("code", "button"),
    [
        (pygame.K_LEFT, "left"),
        (pygame.K_RIGHT, "right"),
        (pygame.K_RETURN, "ok"),
        (pygame.K_KP_ENTER, "ok"),
        (pygame.K_SPACE, "ok"),
    ],
)
def test_a_tap_is_a_press_on_release(keys: KeyButtons, code: int, button: str) -> None:
    assert keys.handle(key(pygame.KEYDOWN, code), 1.0) == []
    assert keys.handle(key(pygame.KEYUP, code), 1.2) == [ButtonEvent(button, "press", 1.2)]


def test_holding_enter_is_one_hold_and_no_press(keys: KeyButtons) -> None:
    keys.handle(key(pygame.KEYDOWN, pygame.K_RETURN), 1.0)
    assert keys.poll(3.9) == []
    keys.handle(key(pygame.KEYDOWN, pygame.K_RETURN), 3.95)  # key repeat changes nothing
    assert keys.poll(4.0) == [ButtonEvent("ok", "hold", 4.0)]
    assert keys.poll(6.0) == []
    assert keys.handle(key(pygame.KEYUP, pygame.K_RETURN), 6.5) == []


@pytest.mark.parametrize("code", [pygame.K_F12, pygame.K_m])
def test_staff_keys_switch_staff_mode_in_the_demo_only(keys: KeyButtons, code: int) -> None:
    assert keys.handle(key(pygame.KEYDOWN, code), 2.0) == []  # a kiosk's keyboard: nothing
    demo = KeyButtons(3.0, 900, shortcuts=True)
    assert demo.handle(key(pygame.KEYDOWN, code), 2.0) == [ButtonEvent("staff", "toggle", 2.0)]
    assert demo.handle(key(pygame.KEYUP, code), 2.1) == []


def test_other_keys_and_events_give_nothing(keys: KeyButtons) -> None:
    assert keys.handle(key(pygame.KEYDOWN, pygame.K_a), 1.0) == []
    assert keys.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10)), 1.0) == []
    assert keys.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(10, 10), button=1), 1) == []


@pytest.mark.parametrize(
    ("x", "button"), [(10, "left"), (299, "left"), (450, "ok"), (899, "right")]
)
def test_a_click_on_a_third_of_the_screen(keys: KeyButtons, x: int, button: str) -> None:
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, 300), button=1)
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, 300), button=1)
    assert keys.handle(down, 1.0) == []
    assert keys.handle(up, 1.1) == [ButtonEvent(button, "press", 1.1)]


def test_a_long_touch_in_the_middle_is_a_hold(keys: KeyButtons) -> None:
    keys.handle(pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, finger_id=0), 1.0)
    assert keys.poll(4.0) == [ButtonEvent("ok", "hold", 4.0)]
    assert keys.handle(pygame.event.Event(pygame.FINGERUP, x=0.5, y=0.5, finger_id=0), 5) == []


def test_a_finger_is_not_counted_twice_through_sdl_mouse_emulation(keys: KeyButtons) -> None:
    events = [
        (pygame.event.Event(pygame.FINGERDOWN, x=0.9, y=0.5, finger_id=0), 1.0),
        (pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(810, 9), button=1, touch=True), 1.0),
        (pygame.event.Event(pygame.FINGERUP, x=0.9, y=0.5, finger_id=0), 1.2),
        (pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(810, 9), button=1, touch=True), 1.2),
    ]
    out = [e for event, t in events for e in keys.handle(event, t)]
    assert out == [ButtonEvent("right", "press", 1.2)]
