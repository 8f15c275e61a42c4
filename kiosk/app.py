"""The kiosk application: the one place that wires camera, reader, buttons, log and screens.

A fixed-step main loop (`Kiosk.run`) reads pygame input and the one event queue (buttons from
their GPIO thread, throws and camera status from the vision worker), updates the current scene,
draws it, and pings systemd's watchdog. Nothing in the loop waits for the camera or the disk
beyond `WRITE_WAIT_SECONDS` for the log's writer thread before a frame is shown.

A scene that raises is logged and replaced by a calm message and a safe scene: visitors never
see a traceback.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from kiosk import sdnotify
from kiosk.clock import ScaledClock
from kiosk.events import CameraStatus, RollRead, Touched
from kiosk.gamelog import GameLog
from kiosk.i18n import Translator
from kiosk.match import Match
from kiosk.sound import Sounds
from kiosk.ui import notices, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.still_playing import StillPlaying
from kiosk.ui.touch import BUTTON_KEYS, TouchPad

log = logging.getLogger(__name__)

STEP = 1 / 30  # seconds of game time per update
MAX_CATCH_UP = 5  # updates per frame at most, after a stall
STALL_SECONDS = 0.75  # a frame this slow froze the screen: presses made meanwhile are dropped
FPS = 30
POINTER_EVENTS = (
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.FINGERDOWN,
    pygame.FINGERUP,
)
LOG_RETRY_SECONDS = 5.0  # how often writes waiting for a full disk are tried again
STOP_SECONDS = 6.0  # wait at most this long for the vision worker (systemd allows 10 s)
INPUT_PER_FRAME = 32  # pygame events handled per frame at most (a storm is cut short)
BUTTONS_PER_FRAME = 8  # button presses acted on per frame at most
WRITE_WAIT_SECONDS = 0.05  # a frame waits this long at most for its writes to be on disk


class Kiosk:
    """The running application. Hardware is handed in, so tests can build it headless."""

    def __init__(
        self,
        config: Any,
        screen: pygame.Surface,
        gamelog: GameLog,
        *,
        worker: Any = None,
        tray: Any = None,
        lights: Any = None,
        keys: Any = None,
        events: queue.Queue | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.monotonic,
        language: str | None = None,
        demo: bool = False,
        screenshots: Path | None = None,
        calibration: Any = None,
    ) -> None:
        from kiosk.ui.scenes import SCENES

        self.config = config
        self.screen = screen
        self.layout = Layout(*screen.get_size())
        self.log = gamelog
        self.worker = worker
        self._tray = tray
        self.lights = lights
        self.keys = keys
        self.touch = TouchPad(config.buttons.hold_seconds)
        self.sounds = Sounds(config.sound)
        self.events: queue.Queue = events if events is not None else queue.Queue()
        self.clock = clock
        self.wall_clock = wall_clock  # real time, for the frozen-screen rule (clock may run fast)
        self.default_language = language or config.kiosk.language
        self.tr = Translator(self.default_language)
        self.demo = demo
        self.screenshots = screenshots
        self.match: Match | None = None
        self.calibration = calibration  # the tray calibration the reader uses
        self.dice = 3  # how many dice the reader is asked for: the game in play's
        self.next_first = 0  # the seat that casts first in the next game
        self.camera_ok = worker is not None
        self.notice: str | None = None  # a calm message after an error, shown for a while
        # A camera kiosk without a tray calibration cannot tell the tray from its rim: staff are
        # asked to calibrate until they do (build() sets it; a calibration clears it).
        self.uncalibrated = False
        self.notice_until = 0.0
        self.running = True
        self.frames = 0
        self.last_activity = clock()
        # Staff mode: maintenance, undo, corrections. Entered by the code after a hold of ok,
        # the key switch, or (demo only) F12; ends after staff.idle_seconds without a press.
        self.staff = False
        self.staff_key = False  # the key switch is turned: staff mode stays until turned back
        self._staff_pressed = 0.0
        self._code: list[str] | None = None  # presses of the staff code so far, after a hold
        self._code_until = 0.0
        self._code_locked_until = float("-inf")  # after a wrong code: no new try before this
        self._throwing = threading.Event()  # the demo's simulated throw is being computed
        self._last_view: tuple | None = None
        self._shots = 0
        self._carry = 0.0  # game time not yet consumed by fixed steps
        self._stalled = False  # the last frame took STALL_SECONDS or more (real time)
        self._log_retry = LOG_RETRY_SECONDS
        self.reads = 0  # throws the reader has answered (the autoplay waits on it)
        self.data_dir: Path = Path(".")
        self.closers: list[Any] = []
        if worker is not None and hasattr(worker, "preview_width"):
            worker.preview_width = self.layout.px(334)  # 16:9 in the play screen's tray panel
        self.scenes: dict[str, Scene] = {name: cls(self) for name, cls in SCENES.items()}
        self.still_playing = StillPlaying(self)  # the overlay over any scene, not a scene
        self.scene: Scene = self.scenes["attract"]
        self.previous = "attract"
        self.scene.enter()
        resumed = Match.resume(gamelog)
        if resumed is not None:
            log.info("resuming game %s after %d throws", resumed.game_id, len(resumed.entries))
            self.match = resumed
            self.expect_dice(resumed.variant.dice)
            self.next_first = int(resumed.first) ^ 1
            language = gamelog.game(resumed.game_id).language
            if language:
                self.set_language(language)
            self.goto("result" if resumed.is_over else "play")

    @property
    def tray(self) -> Any:
        """The simulated dice tray in the demo (once the worker has built it), else None."""
        if self._tray is not None:
            return self._tray
        camera = getattr(self.worker, "camera", None)
        return camera if self.demo and hasattr(camera, "throw") else None

    # -- scenes ------------------------------------------------------------------------------
    def goto(self, name: str, **options) -> None:
        if self.scene.name != "maintenance":
            self.previous = self.scene.name
        self.scene = self.scenes[name]
        self.touch.forget()
        self.scene.enter(**options)
        self.show_turn()

    def set_language(self, language: str) -> None:
        if language != self.tr.language:
            self.tr = Translator(language)

    def safe_scene(self) -> str:
        return "play" if self.match is not None and not self.match.is_over else "attract"

    def fail(self, where: str) -> None:
        """Log the exception being handled and show a calm message instead of a traceback."""
        log.exception("error in %s", where)
        self.say(self.tr("Something went wrong. The table starts again."))
        try:
            self.goto(self.safe_scene())
        except Exception:
            log.exception("cannot return to a safe scene")
            self.scene = self.scenes["attract"]

    def apply_calibration(self, calibration: Any) -> str:
        """A new tray calibration from the maintenance screen: the watcher starts over with it."""
        if self.worker is None:
            return self.tr("No camera.")
        try:
            calibration.save(self.data_dir)
        except (OSError, ValueError) as error:
            log.error("cannot save the calibration: %s", error)
            return self.tr("Calibrated, but not saved: {error}").format(error=error)
        log.info("tray calibrated and saved in %s", self.data_dir)
        self.uncalibrated = False
        self.calibration = calibration
        self.worker.watcher = build_watcher(self.config, calibration, self.dice)
        self.worker.read_now = _reader(calibration)
        return self.tr("Calibrated.")

    def say(self, message: str, seconds: float = 6.0) -> None:
        self.notice = message
        self.notice_until = self.clock() + seconds

    # -- the game ----------------------------------------------------------------------------
    def new_match(self, variant) -> None:
        from kiosk.rules import Seat

        if self.match is not None and not self.match.is_over:
            self.match.abandon()
        # The first caster changes from game to game: throwing first is an edge in Azar.
        first, self.next_first = self.next_first, Seat(self.next_first).other
        self.match = Match.start(variant, self.log, first, self.tr.language)
        self.expect_dice(variant.dice)
        if self.worker is not None and hasattr(self.worker, "forget_last"):
            self.worker.forget_last()
        self.goto("play")

    def expect_dice(self, dice: int) -> None:
        """Ask the reader for `dice` dice (Hazard throws two): any other count is a re-throw.

        The watcher is rebuilt only when the count changes, at the start of a game."""
        if dice == self.dice:
            return
        self.dice = dice
        if self.worker is not None and hasattr(self.worker, "watcher"):
            self.worker.watcher = build_watcher(self.config, self.calibration, dice)

    def throw_dice(self) -> bool:
        """Demo mode: throw the simulated tray's dice, on a thread of its own (simulating a
        throw takes longer than a frame); a press while the dice fly does nothing. False when
        there is no tray, a throw is still being simulated, or the game throws other than the
        simulated tray's three dice."""
        tray = self.tray
        if tray is None or self._throwing.is_set() or self.dice != 3:
            return False
        self._throwing.set()

        def throw() -> None:
            try:
                tray.throw()
            except Exception:
                log.exception("simulated throw")
            finally:
                self._throwing.clear()

        threading.Thread(target=throw, name="simulated throw", daemon=True).start()
        return True

    def show_turn(self) -> None:
        """The LEDs say whose throw it is (or nothing outside a game)."""
        if self.lights is None:
            return
        try:
            playing = self.scene.name == "play" and self.match is not None
            if playing and not self.match.is_over:
                self.lights.show_turn(self.match.to_throw)
                self.lights.waiting(True)
            else:
                self.lights.show_turn(None)
                self.lights.waiting(False)
        except Exception:
            log.exception("lights")

    def idle_for(self) -> float:
        return self.clock() - self.last_activity

    # -- staff mode --------------------------------------------------------------------------
    def enter_staff(self, how: str) -> None:
        self.staff = True
        self._code = None
        self._staff_pressed = self.clock()
        log.info("staff mode on (%s)", how)
        if self.scene.name != "maintenance":
            self.goto("maintenance")

    def leave_staff(self, why: str) -> None:
        """Back to the visitors: undo, corrections and maintenance are closed again."""
        if not self.staff:
            return
        self.staff = self.staff_key = False
        log.info("staff mode off (%s)", why)
        if self.scene.name == "maintenance":
            self.goto(self.previous)
        elif self.scene.name == "play" and getattr(self.scene, "entry_purpose", "") == "correct":
            self.scene.entry = None  # a correction left half made is not made

    def _staff_code(self, event) -> bool:
        """A press while the code is being entered after a hold of ok: True if it was used.
        A wrong press ends the attempt silently (and does nothing else)."""
        if self._code is None:
            return False
        if self.clock() > self._code_until:
            self._code = None
            return False
        code = self.config.staff.presses
        self._code.append(event.button if event.kind == "press" else "")
        if tuple(self._code) != code[: len(self._code)]:
            self._code = None  # random presses get one try per code_seconds, not ten a second
            self._code_locked_until = self.clock() + self.config.staff.code_seconds
        elif len(self._code) == len(code):
            self.enter_staff("the staff code")
        return True

    def _staff_switch(self, kind: str) -> None:
        """The key switch turned ("on"/"off"), or the demo's F12 ("toggle")."""
        self.staff_key = kind == "on"
        if kind == "on" or (kind == "toggle" and not self.staff):
            self.enter_staff("the key switch" if kind == "on" else "the keyboard, demo mode")
        else:
            self.leave_staff("the key switch" if kind == "off" else "the keyboard")

    # -- input -------------------------------------------------------------------------------
    def press(self, button: str, kind: str = "press") -> None:
        """Put a button event on the queue, as the GPIO thread does (autoplay uses this)."""
        from hardware.buttons import ButtonEvent

        self.events.put(ButtonEvent(button, kind, self.clock()))

    def pump(self) -> None:
        """pygame's own events (window close, keys, touches) into the one queue. A storm (a
        stuck key, a child on the touch screen) is cut to INPUT_PER_FRAME events a frame: no
        hand presses faster, and each one may redraw a scene."""
        now = self.clock()
        events = pygame.event.get()
        if len(events) > INPUT_PER_FRAME:
            events = [e for e in events if e.type == pygame.QUIT] + events[:INPUT_PER_FRAME]
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
            elif self.demo and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.running = False  # only the demo: a kiosk has no way out for visitors
            elif event.type in POINTER_EVENTS:  # a tap counts on what it lands on
                targets = self.still_playing.targets() or self.scene.targets()
                for touched in self.touch.handle(event, targets, self.layout, now):
                    self.events.put(touched)
            elif self.keys is not None:
                for button_event in self.keys.handle(event, now):
                    self.events.put(button_event)
        for touched in self.touch.poll(now):
            self.events.put(touched)
        if self.keys is not None:
            for button_event in self.keys.poll(now):
                self.events.put(button_event)

    def dispatch(self, event) -> None:
        """One event from the queue, to the kiosk or to the current scene."""
        if isinstance(event, CameraStatus):
            self.camera_ok = event.ok
            if not event.ok:
                log.warning("camera lost: %s", event.detail)
            else:
                log.info("camera working")
            self.scene.on_event(event)
        elif isinstance(event, RollRead):
            self.last_activity = self.clock()
            self.reads += 1
        elif isinstance(event, Touched) or hasattr(event, "button"):
            if self._stalled:
                log.info("dropping a press made while the screen was frozen")
                return  # replayed as a burst, presses nobody saw answered would play on
            self.last_activity = self._staff_pressed = self.clock()
            if getattr(event, "button", None) == "staff":
                self._staff_switch(event.kind)
                return
            if self.still_playing.asking:
                self.still_playing.asking = False
                return  # the press only answers "still playing?"
            button = event.key if isinstance(event, Touched) else event.button
            if not isinstance(event, Touched) and self._staff_code(event):
                return
            if button == "ok" and event.kind == "hold":
                if self.staff:
                    self.leave_staff("hold of ok")
                elif self.clock() >= self._code_locked_until:  # the staff code may follow
                    self._code = []
                    self._code_until = self.clock() + self.config.staff.code_seconds
                return
            if isinstance(event, Touched) and event.key not in BUTTON_KEYS:
                self.scene.on_touch(event.key)
            else:
                self.scene.on_button(button, event.kind)
            return
        self.scene.on_event(event)

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
                self.dispatch(event)
            except Exception:
                self.fail(f"{self.scene.name} handling {type(event).__name__}")

    # -- time and drawing --------------------------------------------------------------------
    def update(self, dt: float) -> None:
        idle = self.clock() - self._staff_pressed > self.config.staff.idle_seconds
        if self.staff and idle and not self.staff_key:
            self.leave_staff("no press for a while")
        self.still_playing.watch()
        self.scene.update(dt)
        self._log_retry -= dt
        if self._log_retry <= 0:
            self._log_retry = LOG_RETRY_SECONDS
            self.log.retry()

    def render(self) -> None:
        self.scene.render(self.screen, self.layout)
        self.still_playing.render_over(self.screen, self.layout)
        self.draw_notices()

    def draw_notices(self) -> None:
        """Warnings along the top edge. The log that cannot be written and the error met are
        for whoever stands there, visitors too: body size, wrapped. The staff's own (the tray
        not calibrated, staff mode on) are small, and cover little of the game."""
        lines: list[tuple[str, float]] = []
        if self.log.problem:
            lines.append(
                (
                    self.tr("The game log cannot be written. Please tell the staff."),
                    notices.VISITOR,
                )
            )
        if self.uncalibrated:
            lines.append(
                (
                    self.tr("The tray is not calibrated. Staff: hold OK, then calibrate."),
                    notices.STAFF,
                )
            )
        if self.staff and self.scene.name != "maintenance":
            lines.append(
                (self.tr("Staff mode: Undo and Correct work. Hold OK to end it."), notices.STAFF)
            )
        if self.notice and self.clock() < self.notice_until:
            lines.append((self.notice, notices.VISITOR))
        notices.show(self.screen, self.layout, lines)

    def screenshot(self) -> None:
        """Save the screen when it shows something new (`--screenshots DIR`)."""
        if self.screenshots is None:
            return
        view = (self.tr.language, *self.scene.view(), self.still_playing.asking)
        if view == self._last_view:
            return
        self._last_view = view
        self._shots += 1
        self.screenshots.mkdir(parents=True, exist_ok=True)
        name = f"{self._shots:04d}-{self.scene.name}-{self.tr.language}.png"
        pygame.image.save(self.screen, str(self.screenshots / name))

    def frame(self, dt: float) -> None:
        """One pass of the loop without the sleep: input, events, updates, drawing."""
        started = self.wall_clock()
        self.pump()
        self.drain()
        steps = 0
        self._carry += dt
        while self._carry >= STEP and steps < MAX_CATCH_UP:
            try:
                self.update(STEP)
            except Exception:
                self.fail(f"{self.scene.name} update")
            self._carry -= STEP
            steps += 1
        if steps == MAX_CATCH_UP:
            self._carry = 0.0
        try:
            self.render()
        except Exception:
            self.fail(f"{self.scene.name} render")
            self.screen.fill(theme.BACKGROUND)
            try:
                self.draw_notices()
            except Exception:
                log.exception("cannot draw the notice either")
        self.log.settle(WRITE_WAIT_SECONDS)  # the ruling drawn is on disk before it is shown
        self.frames += 1
        self._stalled = self.wall_clock() - started >= STALL_SECONDS

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
        while self.running:
            now = self.clock()
            self.frame(now - last)
            last = now
            pygame.display.flip()
            self.screenshot()
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


# -- wiring ---------------------------------------------------------------------------------------
def open_screen(size: tuple[int, int] | None, windowed: bool) -> pygame.Surface:
    """The display: a window of `size`, or full screen at `size` or the display's own size."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("Azar")
    pygame.mouse.set_visible(windowed)
    if windowed:
        return pygame.display.set_mode(size or (1280, 720))
    headless = os.environ.get("SDL_VIDEODRIVER") == "dummy"  # no screen: keep the size asked
    return pygame.display.set_mode(size or (0, 0), 0 if headless else pygame.FULLSCREEN)


def build_watcher(config: Any, calibration: Any = None, expect: int | None = 3):
    """The settle watcher over the real dice reader (which learns the die size from the dice it
    reads when the calibration gives none), asking for `expect` dice (the game in play's:
    Hazard throws two), tuned by the [vision] section. `azar-kiosk watch` builds the same, so
    a recording is read exactly as the camera is."""
    from vision.reader import TrayReader
    from vision.settle import SettleConfig, ThrowWatcher

    settle = SettleConfig(still_for=config.vision.settle_seconds, votes=config.vision.votes)
    return ThrowWatcher(TrayReader(calibration, expect), settle, calibration)


def build(
    config: Any,
    *,
    demo: bool,
    size=None,
    windowed=None,
    language=None,
    screenshots: Path | None = None,
    speed: float = 1.0,
    data_dir=None,
) -> Kiosk:
    """Everything the kiosk needs, from the config: camera, worker, buttons, lights, log."""
    from hardware.camera import open_camera as hardware_open_camera
    from hardware.keys import KeyButtons
    from hardware.lights import NullLights, open_lights
    from kiosk.gamelog import data_dir as find_data_dir
    from kiosk.worker import VisionWorker
    from vision.calibration import Calibration

    clock = ScaledClock(speed) if speed != 1.0 else time.monotonic
    cfg = config.kiosk
    if windowed is None:  # the demo runs on someone's computer: a window they can close
        windowed = cfg.windowed or demo
    screen = open_screen(size or (cfg.window_size if windowed else cfg.fullscreen_size), windowed)
    folder = find_data_dir(data_dir or cfg.data_dir)
    gamelog = GameLog.in_dir(folder)
    gamelog.start_writer()  # a slow card or another process's lock never holds the screen
    events: queue.Queue = queue.Queue()

    camera_cfg = config.camera
    if demo:
        from dataclasses import replace

        camera_cfg = replace(config.camera, kind="simulated")
    simulated = camera_cfg.kind == "simulated"
    calibration = None
    if not demo:
        calibration = _quietly(lambda: Calibration.load(folder), None, "saved calibration")
    worker = VisionWorker(
        None,
        events,
        build_watcher(config, calibration),
        read_now=_reader(calibration),
        calibrate=calibrate_and_judge,
        make_camera=lambda: open_simulated_tray() if simulated else open_camera(camera_cfg),
    )

    def open_camera(section: Any) -> Any:
        return hardware_open_camera(section, config.simulated, clock=clock)

    def open_simulated_tray() -> Any:
        """The simulated tray, read as a calibrated kiosk reads its tray.

        Staff calibrate a real tray from the maintenance screen; the simulated tray knows its
        own floor and can show itself empty, so the demo starts calibrated (unless a saved
        calibration was loaded). Runs on the worker thread, the one that uses the watcher and
        the test reader.
        """
        tray = open_camera(camera_cfg)
        if calibration is not None:
            return tray
        demo_calibration = Calibration(tray.tray_polygon, None, tray.empty_frame())
        kiosk.calibration = demo_calibration
        worker.watcher = build_watcher(config, demo_calibration, kiosk.dice)
        worker.read_now = _reader(demo_calibration)
        return tray

    lights: Any = NullLights()
    buttons = None
    if not demo:
        lights = _quietly(lambda: open_lights(config.lights), NullLights(), "lights")
        buttons = _quietly(lambda: _gpio_buttons(config, events), None, "GPIO buttons")
    keys = KeyButtons(config.buttons.hold_seconds, screen.get_width(), shortcuts=demo)
    kiosk = Kiosk(
        config,
        screen,
        gamelog,
        worker=worker,
        lights=lights,
        keys=keys,
        events=events,
        clock=clock,
        language=language,
        demo=demo,
        screenshots=screenshots,
        calibration=calibration,
    )
    kiosk.data_dir = folder
    kiosk.uncalibrated = not simulated and calibration is None
    if kiosk.uncalibrated:
        log.warning("the tray is not calibrated: calibrate it from the maintenance screen")
    kiosk.closers = [c for c in (buttons, lights) if c is not None and hasattr(c, "close")]
    if not simulated:  # a real tray may still hold the last throw's dice (a simulated one never)
        from kiosk.resume import logged_dice

        worker.resume(logged_dice(*gamelog.last_seen()))
    worker.start()
    return kiosk


def _gpio_buttons(config: Any, events: queue.Queue):
    from hardware.buttons import GpioButtons

    return GpioButtons(config.buttons, events, key_pin=config.staff.key_pin)


def calibrate_and_judge(empty: Any) -> tuple[Any, Any]:
    """The maintenance tool: the tray's calibration from an empty-tray frame, and how good the
    picture is (exposure, focus)."""
    from vision.calibrate import assess_image, calibrate

    calibration = calibrate(empty)
    return calibration, assess_image(empty, calibration.tray)


def _reader(calibration: Any) -> Callable:
    """The maintenance screen's one-frame test read, with the current calibration."""
    from vision.reader import read_roll

    return lambda frame: read_roll(frame, calibration=calibration)


def _quietly(make: Callable[[], Any], fallback: Any, what: str) -> Any:
    """Hardware that is missing (a laptop, a loose cable) must not stop the kiosk."""
    try:
        return make()
    except Exception as error:
        log.warning("%s unavailable, going on without: %s", what, error)
        return fallback


def shutdown(kiosk: Kiosk) -> None:
    if kiosk.worker is not None:
        # The worker may be inside a long OpenCV call (the first read loads the models): the
        # process must not exit under it, which aborts in C++ ("terminate called ...").
        kiosk.worker.stop(timeout=STOP_SECONDS)
    for closer in getattr(kiosk, "closers", []):
        _quietly(closer.close, None, "closing hardware")
    kiosk.log.close()
    pygame.quit()
