"""The frame loop: input in, fixed-step updates, drawing, pacing, systemd's watchdog.

`FrameLoop.run` reads pygame's input and the one event queue (buttons from their GPIO thread,
throws and camera status from the vision worker), hands each event to the table, updates it in
fixed steps of game time, draws it, and pings the watchdog. Nothing here waits for the camera
or the disk beyond `WRITE_WAIT_SECONDS` for the log's writer thread before a frame is shown.
Whatever the table raises is handed back to its `fail`: visitors never see a traceback.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Protocol

import pygame

from kiosk import sdnotify

STEP = 1 / 30  # seconds of game time per update
MAX_CATCH_UP = 5  # updates per frame at most, after a stall
STALL_SECONDS = 0.75  # a frame this slow froze the screen: presses made meanwhile are dropped
FPS = 30
INPUT_PER_FRAME = 32  # pygame events handled per frame at most (a storm is cut short)
BUTTONS_PER_FRAME = 8  # button presses acted on per frame at most
WRITE_WAIT_SECONDS = 0.05  # a frame waits this long at most for its writes to be on disk


class Named(Protocol):
    name: str


class Settling(Protocol):
    """The game log: a frame waits a little for its writes to be on disk."""

    def settle(self, timeout: float) -> None: ...


class Inputs(Protocol):
    """pygame's events as the table's own (kiosk.presses.Presses)."""

    def translate(self, event: pygame.event.Event, now: float) -> list[object]: ...

    def held(self, now: float) -> list[object]: ...


class Table(Protocol):
    """What the loop drives (kiosk.table.Kiosk): its scenes, its state, its notices."""

    running: bool
    demo: bool  # Escape quits the demo (a kiosk has no way out for visitors)
    scene: Named

    def dispatch(self, event: object) -> None: ...

    def update(self, dt: float) -> None: ...

    def render(self) -> None: ...

    def draw_fallback(self) -> None: ...

    def fail(self, where: str) -> None: ...

    def screenshot(self) -> None: ...


class FrameLoop:
    """The loop over one table; `stalled` says the last frame froze the screen."""

    def __init__(
        self,
        table: Table,
        inputs: Inputs,
        events: queue.Queue,
        log: Settling,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.inputs = inputs
        self.events = events
        self.log = log
        self.clock = clock  # game time (it may run fast: --speed)
        self.wall_clock = wall_clock  # real time: how long a frame took
        self.frames = 0
        self.stalled = False  # the last frame took STALL_SECONDS or more (real time)
        self._carry = 0.0  # game time not yet consumed by fixed steps

    def pump(self) -> None:
        """pygame's own events (window close, keys, touches) into the one queue. A storm (a
        stuck key, a child on the touch screen) is cut to INPUT_PER_FRAME events a frame: no
        hand presses faster, and each one may redraw a scene."""
        table = self.table
        now = self.clock()
        events = pygame.event.get()
        if len(events) > INPUT_PER_FRAME:
            events = [e for e in events if e.type == pygame.QUIT] + events[:INPUT_PER_FRAME]
        for event in events:
            escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            if event.type == pygame.QUIT or (table.demo and escape):
                table.running = False
            else:
                for news in self.inputs.translate(event, now):
                    self.events.put(news)
        for news in self.inputs.held(now):
            self.events.put(news)

    def drain(self) -> None:
        """The queued events; button presses beyond BUTTONS_PER_FRAME in one frame are dropped
        (bouncing contacts, a storm), throws and camera news never."""
        presses = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return
            if hasattr(event, "button") and event.button != "staff":
                presses += 1
                if presses > BUTTONS_PER_FRAME:
                    continue
            try:
                self.table.dispatch(event)
            except Exception:
                self.table.fail(f"{self.table.scene.name} handling {type(event).__name__}")

    def frame(self, dt: float) -> None:
        """One pass of the loop without the sleep: input, events, updates, drawing."""
        table = self.table
        started = self.wall_clock()
        self.pump()
        self.drain()
        steps = 0
        self._carry += dt
        while self._carry >= STEP and steps < MAX_CATCH_UP:
            try:
                table.update(STEP)
            except Exception:
                table.fail(f"{table.scene.name} update")
            self._carry -= STEP
            steps += 1
        if steps == MAX_CATCH_UP:
            self._carry = 0.0
        try:
            table.render()
        except Exception:
            table.fail(f"{table.scene.name} render")
            table.draw_fallback()
        self.log.settle(WRITE_WAIT_SECONDS)  # the ruling drawn is on disk before it is shown
        self.frames += 1
        self.stalled = self.wall_clock() - started >= STALL_SECONDS

    def run(
        self, max_seconds: float | None = None, on_frame: Callable[[], None] | None = None
    ) -> int:
        """The main loop, until the window closes, exit is chosen, or `max_seconds` pass."""
        started = time.monotonic()
        ticker = pygame.time.Clock()
        watchdog = sdnotify.watchdog_interval()
        last_ping = 0.0
        ready = False
        last = self.clock()
        while self.table.running:
            now = self.clock()
            self.frame(now - last)
            last = now
            pygame.display.flip()
            self.table.screenshot()
            if not ready and self.frames >= 1:
                sdnotify.notify("READY=1")
                ready = True
            real = time.monotonic()
            if watchdog is not None and real - last_ping >= watchdog:
                sdnotify.notify("WATCHDOG=1")
                last_ping = real
            if on_frame is not None:
                on_frame()
            if max_seconds is not None and real - started >= max_seconds:
                break
            ticker.tick(FPS)
        sdnotify.notify("STOPPING=1")
        return 0
