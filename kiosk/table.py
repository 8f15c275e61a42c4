"""The table as the loop drives it: the scenes, the game in play, staff mode, the notices.

Hardware and vision are handed in as small Protocols (kiosk.parts), so tests build the table
headless; `kiosk.app.build` builds the real parts from the config. A scene that raises is logged
and replaced by a calm message and a safe scene: visitors never see a traceback.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from kiosk.events import CameraStatus, RollRead, Touched
from kiosk.gamelog import GameLog
from kiosk.i18n import Translator
from kiosk.loop import FrameLoop
from kiosk.match import Match
from kiosk.parts import Closer, Keys, Lights, Tray, Worker
from kiosk.presses import Presses
from kiosk.reading import build_watcher
from kiosk.rules import Seat
from kiosk.sound import Sounds
from kiosk.ui import notices, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene
from kiosk.ui.still_playing import StillPlaying
from kiosk.ui.touch import TouchPad

if TYPE_CHECKING:
    from kiosk.config import Config
    from kiosk.rules.variants import Variant
    from vision.calibration import Calibration

log = logging.getLogger(__name__)

LOG_RETRY_SECONDS = 5.0  # how often writes waiting for a full disk are tried again


class Kiosk:
    """The running application. Hardware is handed in, so tests can build it headless."""

    def __init__(
        self,
        config: Config,
        screen: pygame.Surface,
        gamelog: GameLog,
        *,
        worker: Worker | None = None,
        tray: Tray | None = None,
        lights: Lights | None = None,
        keys: Keys | None = None,
        events: queue.Queue | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.monotonic,
        language: str | None = None,
        demo: bool = False,
        screenshots: Path | None = None,
        calibration: Calibration | None = None,
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
        self.presses = Presses(self)  # who a press is for; the staff code typed so far
        # Real time, for the frozen-screen rule (the game clock may run fast).
        self.wall_clock = wall_clock
        self.loop = FrameLoop(self, self.presses, self.events, gamelog, clock, wall_clock)
        self.last_activity = clock()
        # Staff mode: maintenance, undo, corrections. Entered by the code after a hold of ok,
        # the key switch, or (demo only) F12; ends after staff.idle_seconds without a press.
        self.staff = False
        self.staff_key = False  # the key switch is turned: staff mode stays until turned back
        self.staff_pressed = 0.0
        self._throwing = threading.Event()  # the demo's simulated throw is being computed
        self._last_view: tuple | None = None
        self._shots = 0
        self._log_retry = LOG_RETRY_SECONDS
        self.reads = 0  # throws the reader has answered (the autoplay waits on it)
        self.data_dir: Path = Path(".")
        self.closers: list[Closer] = []
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
    def tray(self) -> Tray | None:
        """The simulated dice tray in the demo (once the worker has built it), else None."""
        if self._tray is not None:
            return self._tray
        camera = getattr(self.worker, "camera", None)
        return camera if self.demo and hasattr(camera, "throw") else None

    @property
    def frames(self) -> int:
        return self.loop.frames

    def frame(self, dt: float) -> None:
        """One pass of the loop without the sleep: input, events, updates, drawing."""
        self.loop.frame(dt)

    def run(
        self, max_seconds: float | None = None, on_frame: Callable[[], None] | None = None
    ) -> int:
        """The main loop, until the window closes, exit is chosen, or `max_seconds` pass."""
        return self.loop.run(max_seconds, on_frame)

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

    @property
    def camera_rules(self) -> bool:
        """May the camera's reads rule a throw? Only while it works and its tray is
        calibrated: without the tray's outline the reader cannot tell a die leaning on the
        wall, and reads a fixed camera's picture as it reads a hand-held photo. Until staff
        calibrate, throws are entered with the buttons, as when the camera is lost."""
        return self.camera_ok and not self.uncalibrated

    def apply_calibration(self, calibration: Calibration) -> str:
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
        self.worker.watcher = build_watcher(
            self.config, calibration, self.dice, folder=self.data_dir
        )
        return self.tr("Calibrated.")

    def say(self, message: str, seconds: float = 6.0) -> None:
        self.notice = message
        self.notice_until = self.clock() + seconds

    # -- the game ----------------------------------------------------------------------------
    def new_match(self, variant: Variant) -> None:
        if self.match is not None and not self.match.is_over:
            self.match.abandon()
        # The first caster changes from game to game: throwing first is an edge in Azar.
        first, self.next_first = self.next_first, Seat(self.next_first).other
        self.match = Match.start(variant, self.log, first, self.tr.language)
        self.expect_dice(variant.dice)
        self.goto("play")

    def expect_dice(self, dice: int) -> None:
        """Ask the reader for `dice` dice (Hazard throws two): any other count is a re-throw.

        The watcher is rebuilt only when the count changes, at the start of a game."""
        if dice == self.dice:
            return
        self.dice = dice
        if self.worker is not None and hasattr(self.worker, "watcher"):
            reader = getattr(self.worker.watcher, "reader", None)  # what it learnt is kept
            kept = reader if hasattr(reader, "expecting") else None
            self.worker.watcher = build_watcher(self.config, self.calibration, dice, reader=kept)

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
        self.presses.code.cancel()
        self.staff_pressed = self.clock()
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

    # -- input -------------------------------------------------------------------------------
    def press(self, button: str, kind: str = "press") -> None:
        """Put a button event on the queue, as the GPIO thread does (autoplay uses this)."""
        from hardware.buttons import ButtonEvent

        self.events.put(ButtonEvent(button, kind, self.clock()))

    def dispatch(self, event: object) -> None:
        """One event from the queue: a press to whoever it is for, the worker's news to the
        current scene (the kiosk notes the camera's status and counts the throws read)."""
        if isinstance(event, Touched) or hasattr(event, "button"):
            self.presses.route(event)
            return
        if isinstance(event, CameraStatus):
            self.camera_ok = event.ok
            if not event.ok:
                log.warning("camera lost: %s", event.detail)
            else:
                log.info("camera working")
        elif isinstance(event, RollRead):
            self.last_activity = self.clock()
            self.reads += 1
        self.scene.on_event(event)

    # -- time and drawing --------------------------------------------------------------------
    def update(self, dt: float) -> None:
        idle = self.clock() - self.staff_pressed > self.config.staff.idle_seconds
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

    def draw_fallback(self) -> None:
        """After a failed render: the background and the notices, the error's among them."""
        self.screen.fill(theme.BACKGROUND)
        try:
            self.draw_notices()
        except Exception:
            log.exception("cannot draw the notice either")

    def draw_notices(self) -> None:
        """Warnings along the top edge. The log that cannot be written and the error met are
        for whoever stands there, visitors too: body size, wrapped. The staff's own (the tray
        not calibrated, staff mode on) are small, and cover little of the game."""
        lines: list[tuple[str, float]] = []
        if self.log.problem:
            text = self.tr("The game log cannot be written. Please tell the staff.")
            lines.append((text, notices.VISITOR))
        if self.uncalibrated:
            text = self.tr("The tray is not calibrated. Staff: hold OK, then calibrate.")
            lines.append((text, notices.STAFF))
        if self.staff and self.scene.name != "maintenance":
            text = self.tr("Staff mode: Undo and Correct work. Hold OK to end it.")
            lines.append((text, notices.STAFF))
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
