"""Keyboard and touch fallback: the same ButtonEvents as the arcade buttons, from pygame events.

Left/Right arrows are left/right; Enter, keypad Enter and Space are ok (held for the hold time:
a hold); in demo mode only (`shortcuts`), F12 or M switches the staff mode ("staff",
"toggle"). A touch or click on the left third, middle or right third of the screen is left,
ok or right, with the same hold logic.
The UI calls `handle(event, now)` for each pygame event and `poll(now)` once per frame.
pygame is imported only when a `KeyButtons` is built, so `hardware` stays light.
"""

from __future__ import annotations

from typing import Any

from hardware.buttons import BUTTONS, ButtonEvent, PressTracker


class KeyButtons:
    """Maps pygame key, mouse and finger events to ButtonEvents. `screen_width` in pixels."""

    def __init__(
        self, hold_seconds: float = 3.0, screen_width: int = 1280, shortcuts: bool = False
    ) -> None:
        import pygame

        self.screen_width = screen_width
        self._trackers = {name: PressTracker(name, hold_seconds) for name in BUTTONS}
        self._keys = {
            pygame.K_LEFT: "left",
            pygame.K_RIGHT: "right",
            pygame.K_RETURN: "ok",
            pygame.K_KP_ENTER: "ok",
            pygame.K_SPACE: "ok",
        }
        # A kiosk's keyboard (a USB hub within reach) must not open the staff powers.
        self._maintenance_keys = {pygame.K_F12, pygame.K_m} if shortcuts else set()
        self._key_down, self._key_up = pygame.KEYDOWN, pygame.KEYUP
        self._mouse_down, self._mouse_up = pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP
        self._finger_down, self._finger_up = pygame.FINGERDOWN, pygame.FINGERUP
        self._touched: str | None = None  # the zone a touch or click started in

    def zone(self, x: float) -> str:
        """Which button a touch at `x` pixels from the left edge stands for."""
        third = self.screen_width / 3
        return "left" if x < third else "ok" if x < 2 * third else "right"

    def handle(self, event: Any, now: float) -> list[ButtonEvent]:
        """Events for one pygame event (often none). Needs only `type` and key/pos/x."""
        kind = event.type
        if kind in (self._key_down, self._key_up):
            key = getattr(event, "key", None)
            if kind == self._key_down and key in self._maintenance_keys:
                return [ButtonEvent("staff", "toggle", now)]
            button = self._keys.get(key)
            if button is None:
                return []
            return self._trackers[button].edge(kind == self._key_down, now)
        if kind in (self._mouse_down, self._mouse_up) and getattr(event, "touch", False):
            return []  # SDL's copy of a finger event, which arrives on its own
        if kind == self._mouse_down and getattr(event, "button", 1) == 1:
            return self._touch_down(self.zone(event.pos[0]), now)
        if kind == self._finger_down:
            return self._touch_down(self.zone(event.x * self.screen_width), now)
        if kind in (self._mouse_up, self._finger_up) and self._touched is not None:
            button, self._touched = self._touched, None
            return self._trackers[button].edge(False, now)
        return []

    def _touch_down(self, button: str, now: float) -> list[ButtonEvent]:
        events = []
        if self._touched is not None:  # a second finger: end the first touch
            events += self._trackers[self._touched].edge(False, now)
        self._touched = button
        return events + self._trackers[button].edge(True, now)

    def poll(self, now: float) -> list[ButtonEvent]:
        """Holds reached by keys or touches still down. Call once per frame."""
        return [event for tracker in self._trackers.values() for event in tracker.poll(now)]
