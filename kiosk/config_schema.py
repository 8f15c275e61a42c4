"""The configuration's shape: one frozen dataclass a section of the TOML file, every key
optional with the default that matches the wiring in docs/hardware.md, and the values the
checks (config_checks.py) hold them to. kiosk/config.py reads the file into these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# BCM GPIO numbers on the 40-pin header. GPIO 0 and 1 are kept for the HAT ID EEPROM.
HEADER_GPIOS = frozenset(range(2, 28))
CAMERA_KINDS = ("pi", "usb", "replay", "simulated")
SURFACES = ("felt", "wood")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
BUTTON_NAMES = ("left", "ok", "right")


class ConfigError(ValueError):
    """The configuration file cannot be used; the message says which key and why."""


@dataclass(frozen=True)
class CameraConfig:
    """Which camera feeds the reader, and its fixed settings (auto-exposure makes reads drift)."""

    kind: str = "pi"
    device: int | str = 0  # USB: an index or a device path such as "/dev/video0"
    resolution: tuple[int, int] = (1280, 720)
    fps: int = 30
    exposure_us: int = 8000  # 0 = leave exposure automatic
    analogue_gain: float = 2.0  # 0 = leave gain automatic
    colour_gains: tuple[float, float] | None = (1.8, 1.6)  # red, blue; None = auto white balance
    replay_path: str = ""  # folder of images or a video file, for kind = "replay"
    loop: bool = True  # replay: start again at the end


@dataclass(frozen=True)
class ButtonsConfig:
    """Three arcade buttons between a GPIO pin and ground (internal pull-up by default)."""

    left_pin: int = 5
    ok_pin: int = 6
    right_pin: int = 13
    pull_up: bool = True
    debounce_ms: int = 30
    hold_seconds: float = 3.0  # holding ok this long opens the maintenance mode

    @property
    def pins(self) -> dict[str, int]:
        return {"left": self.left_pin, "ok": self.ok_pin, "right": self.right_pin}


@dataclass(frozen=True)
class LightsConfig:
    """LEDs: one steady per seat (whose throw it is), one pulsing while waiting for the dice."""

    enabled: bool = True
    seat_pins: tuple[int, int] = (17, 27)
    waiting_pin: int = 22


@dataclass(frozen=True)
class SimulatedConfig:
    """Looks of the simulated dice tray used by the demo mode and the end-to-end tests."""

    die_colour: str = "#efe8d8"  # bone
    pip_colour: str = "#1c1814"
    die_size: int = 54  # side of a die's top face, in pixels
    surface: str = "felt"
    felt_colour: str = "#1f5a3a"
    seed: int | None = None  # None = a new random sequence each run


@dataclass(frozen=True)
class StaffConfig:
    """The staff's way into maintenance, which visitors pressing at random will not find."""

    # Hold ok (buttons.hold_seconds), then press these buttons in order within `code_seconds`.
    code: str = "left left right left right right left ok"
    code_seconds: float = 10.0
    key_pin: int | None = None  # a key switch between this GPIO pin and ground: staff mode on
    idle_seconds: float = 60.0  # staff mode with no press this long: back to the visitors
    exports_kept: int = 10  # newest exports kept in data_dir/exports (older ones removed)

    @property
    def presses(self) -> tuple[str, ...]:
        return tuple(self.code.split())


@dataclass(frozen=True)
class KioskConfig:
    """The application: language, screen, idle timers, where the game log lives."""

    language: str = "en"
    idle_seconds: float = 90.0  # no button and no throw this long: back to the attract screen
    still_playing_seconds: float = 45.0  # mid-game silence this long: ask "still playing?"
    data_dir: str | None = None  # None = the platform's user data directory
    windowed: bool = False
    window_size: tuple[int, int] = (1280, 720)
    fullscreen_size: tuple[int, int] | None = None  # None = the display's own size


@dataclass(frozen=True)
class GameConfig:
    """Which game the kiosk offers first, and what a stake is called on the screen."""

    default_game: str = "azar"
    variant: str | None = None  # None = the standard rules
    stakes_label: str = ""  # "" = the translated default ("stake")
    # More readings on the visitors' menu, "game/variant" separated by commas ("azar/dante").
    menu_variants: str = ""


@dataclass(frozen=True)
class SoundConfig:
    """The table's sounds: dice landing, a ruling, a win; and the optional spoken ruling."""

    enabled: bool = True
    volume: float = 0.5  # 0 (silent) to 1
    speech: bool = False  # speak each ruling with espeak-ng, if installed


@dataclass(frozen=True)
class VisionConfig:
    """When a roll is final: the dice still for `settle_seconds`, `votes` reads in agreement."""

    settle_seconds: float = 0.3  # the settle check tolerates camera shake: 0.3 s of stillness
    votes: int = 3


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    simulated: SimulatedConfig = field(default_factory=SimulatedConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    game: GameConfig = field(default_factory=GameConfig)
    staff: StaffConfig = field(default_factory=StaffConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
