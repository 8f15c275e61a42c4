"""The simulated dice tray: a Camera whose pictures show three thrown dice.

Used by the demo mode and the end-to-end tests, so its frames must look like a camera's: a
lit tray with texture and a shaded rim, perspective on the dice, soft shadows, motion blur and
sensor noise. Time comes from an injected clock, so tests and an accelerated demo never sleep.
The background and noise are computed once; a frame only copies them and draws the dice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from hardware.camera import CameraBase, CameraError, Frame
from hardware.sim.dice import DieLook, DiePose, draw_die, draw_shadow, resting
from hardware.sim.scene import TrayGeometry, hex_to_bgr, noise_bank, render_background
from hardware.sim.throw import Hazard, Throw, simulate


class SimulatedTray(CameraBase):
    """A dice track seen from above, with three dice a program can throw.

    `throw()` starts a throw at the clock's current time; `read()` shows the dice where they
    are at that moment; `settled` tells when they lie still, and `last_values` what they show.
    The kiosk reads on its vision thread while a test or the demo throws from another: a lock
    keeps a frame from seeing a throw half started, and the two from sharing random draws.
    """

    def __init__(
        self,
        resolution: tuple[int, int] = (1280, 720),
        die_size: int = 54,
        die_colour: str = "#efe8d8",
        pip_colour: str = "#1c1814",
        felt_colour: str = "#1f5a3a",
        surface: str = "felt",
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        exposure: float = 0.008,
        noise: float = 2.5,
    ) -> None:
        self.name = "simulated tray"
        self.geometry = TrayGeometry.fit(resolution[0], resolution[1], float(die_size))
        self._rng = np.random.default_rng(seed)
        self._clock = clock
        self.exposure = exposure
        self.look = DieLook(hex_to_bgr(die_colour), hex_to_bgr(pip_colour))
        background, self._light = render_background(
            self.geometry, self._rng, hex_to_bgr(felt_colour), surface
        )
        self._background = np.clip(background * 255 + 0.5, 0, 255).astype(np.uint8)
        del background  # float32, 11 MB at 1280x720: not kept while the noise is drawn
        self._noise = noise_bank(self._rng, self._background.shape[:2], noise)
        self.shadow: np.ndarray | None = None  # (h, w) factors on the light, or (h, w, 3) one
        # a channel: a visitor's shadow (scene.visitor_shadow), a sunbeam (scene.sunbeam) over
        # the tray and the dice, or None
        self._throw: Throw | None = None
        self._started = 0.0
        self._open = False
        self._lock = threading.Lock()

    @classmethod
    def from_config(
        cls,
        simulated: Any = None,
        resolution: tuple[int, int] = (1280, 720),
        clock: Callable[[], float] = time.monotonic,
    ) -> SimulatedTray:
        """Built from a [simulated] config section (kiosk.config.SimulatedConfig) or defaults."""
        if simulated is None:
            return cls(tuple(resolution), clock=clock)
        return cls(
            tuple(resolution),
            die_size=simulated.die_size,
            die_colour=simulated.die_colour,
            pip_colour=simulated.pip_colour,
            felt_colour=simulated.felt_colour,
            surface=simulated.surface,
            seed=simulated.seed,
            clock=clock,
        )

    # Camera protocol -------------------------------------------------------------------------

    def open(self) -> None:
        self._open = True

    def close(self) -> None:
        self._open = False

    def read(self) -> Frame:
        """The tray now: the dice where the throw has them at the clock's time."""
        if not self._open:
            raise CameraError("the simulated tray is not open")
        with self._lock:
            now = self._clock()
            return Frame(self.render(self.poses_at(now)), now)

    def at_rest(self) -> np.ndarray:
        """The tray as the current throw leaves it at rest, whatever the clock says: what a
        reader learning the tray's dice needs of a twin tray, without waiting for them."""
        with self._lock:
            if self._throw is None:
                return self.render(())
            return self.render(self._throw.final)

    # Throwing --------------------------------------------------------------------------------

    def throw(
        self, values: tuple[int, int, int] | None = None, hazard: Hazard | None = None
    ) -> None:
        """Throw the three dice now; they come to rest showing `values` (random if None)."""
        if values is not None and (len(values) != 3 or not all(1 <= int(v) <= 6 for v in values)):
            raise ValueError(f"values must be three die faces 1..6, not {values!r}")
        with self._lock:
            if values is None:
                values = tuple(int(v) for v in self._rng.integers(1, 7, 3))
            previous = self._throw.final if self._throw is not None else None
            if hazard is Hazard.NOT_MOVED and previous is None:
                hazard = None  # nothing to leave in place yet: an ordinary throw
            self._throw = simulate(self.geometry, tuple(values), self._rng, hazard, previous)
            self._started = self._clock()

    def clear(self) -> None:
        """Take the dice out of the tray (an empty tray, as for calibration)."""
        with self._lock:
            self._throw = None

    @property
    def settled(self) -> bool:
        """The dice lie still (or there are none)."""
        if self._throw is None:
            return True
        return self._clock() - self._started >= self._throw.duration

    @property
    def rests_at(self) -> float | None:
        """The clock time the current throw's dice come to rest (None before any throw): when
        a camera would first show them still."""
        with self._lock:
            if self._throw is None:
                return None
            return self._started + self._throw.duration

    @property
    def last_values(self) -> tuple[int, ...] | None:
        """The faces up once the current throw has come to rest (None before any throw).

        With a hazard this is still each die's most upward face, which the reader must not
        announce; `last_hazard` says which hazard it was.
        """
        return None if self._throw is None else self._throw.values()

    @property
    def last_hazard(self) -> Hazard | None:
        return None if self._throw is None else self._throw.hazard

    @property
    def settle_time(self) -> float:
        """How long the current throw takes to come to rest, in seconds of the clock."""
        return 0.0 if self._throw is None else self._throw.duration

    # What the reader may be told ------------------------------------------------------------

    @property
    def tray_polygon(self) -> np.ndarray:
        """The felt's outline in frame pixels, (4, 2) int32."""
        return self.geometry.floor_polygon()

    @property
    def die_size(self) -> float:
        return self.geometry.die

    def empty_frame(self) -> np.ndarray:
        """The tray with no dice, with sensor noise: what calibration would capture."""
        with self._lock:
            return self.render(())

    # Drawing -----------------------------------------------------------------------------------

    def poses_at(self, now: float) -> tuple[DiePose, ...]:
        if self._throw is None:
            return ()
        return self._throw.at(now - self._started)

    def render(self, poses: tuple[DiePose, ...]) -> np.ndarray:
        """A frame showing dice in `poses`: BGR uint8 (h, w, 3)."""
        frame = self._background.copy()
        for pose in poses:  # on the floor first: no die's shadow falls on a top face
            if resting(pose, self.geometry.die):
                draw_shadow(frame, pose, self.geometry)
        camera = np.array([*self.geometry.centre, self.geometry.camera_height])
        far_first = sorted(poses, key=lambda p: -float(np.linalg.norm(p.centre - camera)))
        for pose in far_first:  # a nearer die hides the sides of those beside and under it
            if not resting(pose, self.geometry.die):  # on a die, the rim or in the air
                draw_shadow(frame, pose, self.geometry)
            draw_die(frame, pose, self.look, self.geometry, self._light, self.exposure)
        if self.shadow is not None:
            light = self.shadow if self.shadow.ndim == 3 else self.shadow[..., None]
            frame = np.clip(frame * light + 0.5, 0, 255).astype(np.uint8)
        add, subtract = self._noise[int(self._rng.integers(len(self._noise)))]
        cv2.add(frame, add, dst=frame)
        cv2.subtract(frame, subtract, dst=frame)
        return frame
