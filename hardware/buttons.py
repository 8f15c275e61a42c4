"""Three arcade buttons (left, ok, right) through gpiozero, as events on a queue.

A press is reported when the button is released, if it was held for less than the hold time;
a hold is reported once, when the hold time is reached (holding ok opens the maintenance mode),
and no press follows it. Debounce lives here, not in gpiozero: its mock pins ignore
`bounce_time`, and the logic we rely on must be tested.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

BUTTONS = ("left", "ok", "right")
Clock = Callable[[], float]


@dataclass(frozen=True)
class ButtonEvent:
    """A button as the kiosk sees it: `kind` "press" (short) or "hold" (long); `t` monotonic.
    The staff key switch is button "staff", kind "on" or "off" ("toggle" from the demo's F12)."""

    button: str
    kind: Literal["press", "hold", "on", "off", "toggle"]
    t: float


class PressTracker:
    """Turns raw up/down edges of one button into press and hold events. Pure and thread-safe.

    An edge that comes less than `debounce` seconds after the last accepted edge is contact
    bounce: it is remembered but not acted on, and `poll` settles it once the window is over
    (so a bounce that ends in a new state is not lost).
    """

    def __init__(self, button: str, hold_seconds: float, debounce: float = 0.0) -> None:
        self.button = button
        self.hold_seconds = hold_seconds
        self.debounce = debounce
        self._lock = threading.Lock()
        self._down = False  # the accepted state
        self._raw = False  # the last edge seen
        self._last_edge = float("-inf")
        self._down_since = 0.0
        self._held = False

    @property
    def is_down(self) -> bool:
        return self._down

    def edge(self, down: bool, t: float) -> list[ButtonEvent]:
        """The pin changed to `down` at time `t`."""
        with self._lock:
            self._raw = down
            if t - self._last_edge < self.debounce:
                return []
            return self._accept(down, t)

    def poll(self, t: float) -> list[ButtonEvent]:
        """Called regularly: settles a pending bounce and reports a hold when it is reached."""
        with self._lock:
            events = []
            if self._raw != self._down and t - self._last_edge >= self.debounce:
                events += self._accept(self._raw, t)
            if self._down and not self._held and t - self._down_since >= self.hold_seconds:
                self._held = True
                events.append(ButtonEvent(self.button, "hold", t))
            return events

    def _accept(self, down: bool, t: float) -> list[ButtonEvent]:
        if down == self._down:
            return []
        self._down = down
        self._last_edge = t
        if down:
            self._down_since = t
            self._held = False
            return []
        if self._held:
            return []
        kind = "hold" if t - self._down_since >= self.hold_seconds else "press"
        return [ButtonEvent(self.button, kind, t)]


class GpioButtons:
    """The three buttons on GPIO pins; events go to `events`, nothing else happens in callbacks.

    `config` needs `pins` (name -> BCM number), `pull_up`, `debounce_ms` and `hold_seconds`
    (kiosk.config.ButtonsConfig). A small thread calls `poll()` every `poll_interval` seconds
    to report holds; tests pass `poll_interval=None`, inject `clock` and call `poll()`.
    """

    def __init__(
        self,
        config: Any,
        events: queue.Queue[ButtonEvent],
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        poll_interval: float | None = 0.05,
        key_pin: int | None = None,
    ) -> None:
        from gpiozero import Button

        self._events = events
        self._clock = clock
        self._trackers: dict[str, PressTracker] = {}
        self._buttons: dict[str, Any] = {}
        self._closed = threading.Event()
        try:
            for name, pin in config.pins.items():
                tracker = PressTracker(name, config.hold_seconds, config.debounce_ms / 1000)
                button = Button(pin, pull_up=config.pull_up, pin_factory=pin_factory)
                button.when_pressed = self._callback(tracker, True)
                button.when_released = self._callback(tracker, False)
                self._trackers[name] = tracker
                self._buttons[name] = button
            if key_pin is not None:  # a key switch to ground: turned is "on", back is "off"
                key = Button(key_pin, pull_up=True, bounce_time=0.05, pin_factory=pin_factory)
                key.when_pressed = self._switch("on")
                key.when_released = self._switch("off")
                self._buttons["staff"] = key
                if key.is_pressed:  # already turned when the kiosk starts
                    self._switch("on")()
        except Exception:
            self.close()
            raise
        self._thread = None
        if poll_interval is not None:
            self._thread = threading.Thread(
                target=self._poll_loop, args=(poll_interval,), name="buttons", daemon=True
            )
            self._thread.start()

    def _callback(self, tracker: PressTracker, down: bool) -> Callable[[], None]:
        def on_edge() -> None:
            for event in tracker.edge(down, self._clock()):
                self._events.put(event)

        return on_edge

    def _switch(self, kind: str) -> Callable[[], None]:
        def on_turn() -> None:
            self._events.put(ButtonEvent("staff", kind, self._clock()))  # type: ignore[arg-type]

        return on_turn

    def poll(self) -> None:
        """Report holds that have been reached and settle bounces; safe from any thread."""
        now = self._clock()
        for tracker in self._trackers.values():
            for event in tracker.poll(now):
                self._events.put(event)

    def is_down(self, button: str) -> bool:
        return self._trackers[button].is_down

    def _poll_loop(self, interval: float) -> None:
        while not self._closed.wait(interval):
            self.poll()

    def close(self) -> None:
        """Release the pins; calling it again does nothing."""
        self._closed.set()
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()
        thread, self._thread = getattr(self, "_thread", None), None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
