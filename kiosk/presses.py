"""Who a press or a tap is for: the staff's key switch and code, the "Still playing?" question,
or the scene on screen.

pygame's pointer and key events become the kiosk's own here (a tap counts on the target it lands
on; a key stands for a button), and every press is routed once, in this order: a press made
while the screen was frozen is dropped; the key switch turns staff mode on or off; a press while
"Still playing?" asks only answers it; a press may be part of the staff code; a hold of ok ends
staff mode or lets the code follow; anything else is the scene's.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pygame

from kiosk.events import Touched
from kiosk.staff import StaffCode, Typed
from kiosk.ui.touch import BUTTON_KEYS

if TYPE_CHECKING:
    from hardware.buttons import ButtonEvent
    from kiosk.table import Kiosk

log = logging.getLogger(__name__)

POINTER_EVENTS = (
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.FINGERDOWN,
    pygame.FINGERUP,
)


class Presses:
    """The input rules of one kiosk."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.code = StaffCode(kiosk.config.staff, kiosk.clock)

    def translate(self, event: pygame.event.Event, now: float) -> list[object]:
        """What one pygame event means here (often nothing)."""
        kiosk = self.kiosk
        if event.type in POINTER_EVENTS:
            targets = kiosk.still_playing.targets() or kiosk.scene.targets()
            return list(kiosk.touch.handle(event, targets, kiosk.layout, now))
        return list(kiosk.keys.handle(event, now)) if kiosk.keys is not None else []

    def held(self, now: float) -> list[object]:
        """Touches and keys held long enough by now to count as a hold."""
        kiosk = self.kiosk
        held: list[object] = list(kiosk.touch.poll(now))
        return held + (list(kiosk.keys.poll(now)) if kiosk.keys is not None else [])

    def route(self, event: ButtonEvent | Touched) -> None:
        """One press, hold or tap, to whoever it is for."""
        kiosk = self.kiosk
        if kiosk.loop.stalled:
            log.info("dropping a press made while the screen was frozen")
            return  # replayed as a burst, presses nobody saw answered would play on
        kiosk.last_activity = kiosk.staff_pressed = kiosk.clock()
        if isinstance(event, Touched):
            button = event.key
        else:
            button = event.button
            if button == "staff":
                self.switch(event.kind)
                return
        if kiosk.still_playing.asking:
            kiosk.still_playing.asking = False
            return  # the press only answers "still playing?"
        if not isinstance(event, Touched):
            typed = self.code.take(button if event.kind == "press" else "")
            if typed is Typed.ENTERED:
                kiosk.enter_staff("the staff code")
            if typed is not Typed.UNUSED:
                return
        if button == "ok" and event.kind == "hold":
            if kiosk.staff:
                kiosk.leave_staff("hold of ok")
            else:
                self.code.begin()  # the staff code may follow
            return
        if isinstance(event, Touched) and event.key not in BUTTON_KEYS:
            kiosk.scene.on_touch(event.key)
        else:
            kiosk.scene.on_button(button, event.kind)

    def switch(self, kind: str) -> None:
        """The key switch turned ("on"/"off"), or the demo's F12 ("toggle")."""
        kiosk = self.kiosk
        kiosk.staff_key = kind == "on"
        if kind == "on" or (kind == "toggle" and not kiosk.staff):
            kiosk.enter_staff("the key switch" if kind == "on" else "the keyboard, demo mode")
        else:
            kiosk.leave_staff("the key switch" if kind == "off" else "the keyboard")
