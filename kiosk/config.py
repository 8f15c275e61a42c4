"""The kiosk's one configuration file: TOML read with tomllib into frozen dataclasses.

Validated once at start so a museum technician sees a clear sentence naming the key, the value
and what is allowed, instead of a traceback an hour later. Every key is optional; the defaults
match the wiring in docs/hardware.md. `config.example.toml` (next to this module) documents
every key.
"""

from __future__ import annotations

import difflib
import math
import re
import stat
import tomllib
import types
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from kiosk.languages import LANGUAGES

# BCM GPIO numbers on the 40-pin header. GPIO 0 and 1 are kept for the HAT ID EEPROM.
HEADER_GPIOS = frozenset(range(2, 28))
CAMERA_KINDS = ("pi", "usb", "replay", "simulated")
SURFACES = ("felt", "wood")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


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


EXAMPLE_PATH = Path(__file__).with_name("config.example.toml")
MAX_BYTES = 256 * 1024  # a real config is a few kB: anything bigger is not one (/dev/zero)
BUTTON_NAMES = ("left", "ok", "right")


class Problems:
    """Every problem found in one config file, so a technician fixes them all in one visit."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, key: str, value: Any, allowed: str) -> None:
        self.messages.append(f"{key} = {_shown(value)} is not allowed: {allowed}")

    def note(self, message: str) -> None:
        self.messages.append(message)

    def raise_any(self) -> None:
        if len(self.messages) == 1:
            raise ConfigError(self.messages[0])
        if self.messages:
            raise ConfigError(
                f"{len(self.messages)} problems:\n" + "\n".join(f"- {m}" for m in self.messages)
            )


def _shown(value: Any) -> str:
    """A value as the message quotes it: short, whatever was written."""
    text = repr(list(value) if isinstance(value, tuple) else value)
    return text if len(text) <= 60 else text[:57] + "..."


def load_config(path: str | Path | None = None) -> Config:
    """Read and validate the TOML file at `path`; None gives every default."""
    if path is None:
        return validate(Config())
    path = Path(path)
    name = repr(str(path))
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a folder, a FIFO (would hang), /dev/zero (no end)
            raise ConfigError(
                f"cannot read configuration file {name}: not a regular file "
                "(a folder, a pipe or a device)"
            )
        if info.st_size > MAX_BYTES:
            raise ConfigError(f"configuration file {name} is {info.st_size} bytes: too big")
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ConfigError(f"configuration file {name} is too big")
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"configuration file {name} does not exist") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path itself
        if isinstance(error, ConfigError):
            raise
        if isinstance(error, UnicodeDecodeError):  # damaged (a power cut while it was written)
            raise ConfigError(f"{path}: not UTF-8 text, the file is damaged: {error}") from None
        if isinstance(error, tomllib.TOMLDecodeError):
            raise ConfigError(f"{path}: not valid TOML: {error}") from None
        raise ConfigError(f"cannot read configuration file {name}: {error}") from None
    except (RecursionError, MemoryError):  # arrays nested thousands deep
        raise ConfigError(f"{path}: not a configuration (nested too deep to read)") from None
    return parse_config(data)


def parse_config(data: dict[str, Any]) -> Config:
    """Build a validated Config from an already parsed TOML table; every problem at once."""
    problems = Problems()
    sections = {f.name: f for f in fields(Config)}
    values = {}
    for name, table in data.items():
        if name not in sections:
            problems.note(
                f"unknown section [{name}]{_did_you_mean(name, sections)}; allowed sections: "
                + ", ".join(f"[{s}]" for s in sections)
            )
        elif not isinstance(table, dict):
            problems.note(f"{name} must be a section [{name}], not the value {_shown(table)}")
        else:
            values[name] = _build(_section_type(name), table, name, problems)
    problems.raise_any()
    return validate(Config(**values))


def _did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _section_type(name: str) -> type:
    hints = typing.get_type_hints(Config)
    return hints[name]


def _build(cls: type, table: dict[str, Any], section: str, problems: Problems) -> Any:
    """One section: unknown keys and wrong types are noted (the default stands in), lists
    become tuples."""
    hints = typing.get_type_hints(cls)
    known = [f.name for f in fields(cls)]
    kwargs = {}
    for key, value in table.items():
        if key not in known:
            problems.note(
                f"unknown key {section}.{key}{_did_you_mean(key, known)}; allowed keys in "
                f"[{section}]: " + ", ".join(known)
            )
            continue
        try:
            kwargs[key] = _convert(value, hints[key], f"{section}.{key}")
        except ConfigError as error:
            problems.note(str(error))
    return cls(**kwargs)


def _type_name(hint: Any) -> str:
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        parts = [a for a in typing.get_args(hint) if a is not type(None)]
        names = " or ".join(_type_name(a) for a in parts)
        return (
            f"{names} (or leave the key out)" if len(parts) < len(typing.get_args(hint)) else names
        )
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        plural = {int: "integers", float: "numbers"}.get(args[0], "values")
        return f"a list of {len(args)} {plural}"
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(
        hint, str(hint)
    )


def _convert(value: Any, hint: Any, key: str) -> Any:
    """Check `value` against the annotation `hint`; TOML has no None, so None means 'absent'."""
    origin = typing.get_origin(hint)
    wrong = f"{key} = {_shown(value)} is not allowed: expected {_type_name(hint)}"
    if origin in (types.UnionType, typing.Union):
        for option in typing.get_args(hint):
            if option is type(None):
                continue
            try:
                return _convert(value, option, key)
            except ConfigError:
                continue
        raise ConfigError(wrong)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list) or len(value) != len(args):
            raise ConfigError(wrong)
        return tuple(_convert(v, a, key) for v, a in zip(value, args, strict=True))
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ConfigError(f"{key} = {value!r} is not allowed: expected a finite number")
        return float(value)
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint is str and isinstance(value, str):
        if "\0" in value:
            raise ConfigError(f"{key} = {_shown(value)} is not allowed: a NUL character in it")
        return value
    if hint is bool and isinstance(value, bool):
        return value
    raise ConfigError(wrong)


def menu_names(game: GameConfig) -> list[tuple[str, str | None]]:
    """The [game] keys as (game, variant) pairs: the one offered first, then the menu's extras."""
    pairs: list[tuple[str, str | None]] = [(game.default_game, game.variant)]
    for item in game.menu_variants.split(","):
        if item.strip():
            name, _, variant = item.strip().partition("/")
            pairs.append((name, variant or None))
    return pairs


def _check_games(game: GameConfig, problems: Problems) -> None:
    """Every game and variant the [game] section names exists in the rules' registry."""
    from kiosk.rules.core import UnknownVariant
    from kiosk.rules.variants import find_variant

    for i, (name, variant) in enumerate(menu_names(game)):
        if i == 0:
            continue  # default_game and variant: _check_game names each key, with a suggestion
        key = "menu_variants"
        try:
            find_variant(name, variant)
        except UnknownVariant as error:
            problems.add(f"game.{key}", getattr(game, key), str(error))


def validate(config: Config) -> Config:
    """Check the values that have the right type but cannot work; return the config unchanged.
    Raises one ConfigError listing every problem."""
    problems = Problems()
    _fail = problems.add
    cam = config.camera
    if cam.kind not in CAMERA_KINDS:
        _fail("camera.kind", cam.kind, "one of " + ", ".join(map(repr, CAMERA_KINDS)))
    if isinstance(cam.device, int) and cam.device < 0:
        _fail("camera.device", cam.device, "a camera index 0 or more, or a device path")
    if isinstance(cam.device, str) and not cam.device:
        _fail("camera.device", cam.device, "a camera index 0 or more, or a device path")
    width, height = cam.resolution
    if not (64 <= width <= 4608 and 64 <= height <= 3456):
        _fail("camera.resolution", list(cam.resolution), "[width, height] from 64 to 4608x3456")
    if not 1 <= cam.fps <= 120:
        _fail("camera.fps", cam.fps, "1 to 120 frames per second")
    if not 0 <= cam.exposure_us <= 1_000_000:
        _fail("camera.exposure_us", cam.exposure_us, "0 (automatic) to 1000000 microseconds")
    if cam.exposure_us and cam.fps * cam.exposure_us > 1_000_000:
        _fail(
            "camera.exposure_us",
            cam.exposure_us,
            f"at most {1_000_000 // cam.fps} microseconds at {cam.fps} fps",
        )
    if not 0 <= cam.analogue_gain <= 16:
        _fail("camera.analogue_gain", cam.analogue_gain, "0 (automatic) to 16")
    if cam.colour_gains is not None and not all(0 < g <= 8 for g in cam.colour_gains):
        _fail("camera.colour_gains", list(cam.colour_gains), "[red, blue] gains above 0, up to 8")
    if cam.kind == "replay" and not cam.replay_path:
        _fail("camera.replay_path", cam.replay_path, "a folder of images or a video file")

    buttons = config.buttons
    if not 0 <= buttons.debounce_ms <= 500:
        _fail("buttons.debounce_ms", buttons.debounce_ms, "0 to 500 milliseconds")
    if not 0.5 <= buttons.hold_seconds <= 30:
        _fail("buttons.hold_seconds", buttons.hold_seconds, "0.5 to 30 seconds")

    pins: dict[int, str] = {}
    named = [(f"buttons.{name}_pin", pin) for name, pin in buttons.pins.items()]
    if config.lights.enabled:
        named += [(f"lights.seat_pins[{i}]", pin) for i, pin in enumerate(config.lights.seat_pins)]
        named.append(("lights.waiting_pin", config.lights.waiting_pin))
    for key, pin in named:
        if pin not in HEADER_GPIOS:
            _fail(key, pin, "a BCM GPIO number on the Pi header, 2 to 27")
        if pin in pins:
            _fail(key, pin, f"a pin not already used by {pins[pin]}")
        pins[pin] = key

    sim = config.simulated
    for key in ("die_colour", "pip_colour", "felt_colour"):
        colour = getattr(sim, key)
        if not _COLOUR.match(colour):
            _fail(f"simulated.{key}", colour, 'a colour written "#rrggbb"')
    if not 16 <= sim.die_size <= 200:
        _fail("simulated.die_size", sim.die_size, "16 to 200 pixels")
    if 16 <= sim.die_size <= 200 and sim.die_size * 6 > min(cam.resolution):
        _fail(
            "simulated.die_size",
            sim.die_size,
            f"at most {min(cam.resolution) // 6} pixels at camera.resolution "
            f"{list(cam.resolution)} (three dice must fit in the tray)",
        )
    if sim.surface not in SURFACES:
        _fail("simulated.surface", sim.surface, "one of " + ", ".join(map(repr, SURFACES)))

    kiosk = config.kiosk
    if kiosk.language not in LANGUAGES:
        _fail("kiosk.language", kiosk.language, "one of " + ", ".join(map(repr, LANGUAGES)))
    for key in ("idle_seconds", "still_playing_seconds"):
        seconds = getattr(kiosk, key)
        if not 5 <= seconds <= 86_400:
            _fail(f"kiosk.{key}", seconds, "5 to 86400 seconds")
    if kiosk.data_dir == "":
        _fail("kiosk.data_dir", kiosk.data_dir, "a directory path, or leave the key out")
    for key in ("window_size", "fullscreen_size"):
        size = getattr(kiosk, key)
        if size is not None and not (320 <= size[0] <= 7680 and 240 <= size[1] <= 4320):
            _fail(f"kiosk.{key}", list(size), "[width, height] from 320x240 to 7680x4320")

    game = config.game
    _check_game(game, problems)
    if len(game.stakes_label) > 24:
        _fail("game.stakes_label", game.stakes_label, "at most 24 characters")
    _check_games(game, problems)
    if not 0 <= config.sound.volume <= 1:
        _fail("sound.volume", config.sound.volume, "0 (silent) to 1")

    vision = config.vision
    if not 0.1 <= vision.settle_seconds <= 5:
        _fail("vision.settle_seconds", vision.settle_seconds, "0.1 to 5 seconds")
    if not 1 <= vision.votes <= 30:
        _fail("vision.votes", vision.votes, "1 to 30 reads")

    staff = config.staff
    wrong = [p for p in staff.presses if p not in BUTTON_NAMES]
    if wrong or not 4 <= len(staff.presses) <= 16:
        _fail(
            "staff.code", staff.code, '4 to 16 of "left", "ok", "right" (say "left right ok ...")'
        )
    if not 3 <= staff.code_seconds <= 60:
        _fail("staff.code_seconds", staff.code_seconds, "3 to 60 seconds")
    if staff.key_pin is not None:
        if staff.key_pin not in HEADER_GPIOS:
            _fail("staff.key_pin", staff.key_pin, "a BCM GPIO number on the Pi header, 2 to 27")
        elif staff.key_pin in pins:
            _fail(
                "staff.key_pin", staff.key_pin, f"a pin not already used by {pins[staff.key_pin]}"
            )
    if not 10 <= staff.idle_seconds <= 3600:
        _fail("staff.idle_seconds", staff.idle_seconds, "10 to 3600 seconds")
    if not 1 <= staff.exports_kept <= 1000:
        _fail("staff.exports_kept", staff.exports_kept, "1 to 1000 exports")
    problems.raise_any()
    return config


def _check_game(game: GameConfig, problems: Problems) -> None:
    """The game and variant named must be ones the rules engine knows (its registry)."""
    from kiosk.rules import GAMES, VARIANTS

    def spelt(name: str) -> str:  # as the registry looks names up (kiosk.rules.find_variant)
        return name.strip().lower().replace("_", "-")

    if spelt(game.default_game) not in GAMES:
        problems.add(
            "game.default_game",
            game.default_game,
            "one of " + ", ".join(map(repr, GAMES)) + _did_you_mean(game.default_game, GAMES),
        )
        return
    if game.variant is None:
        return
    names = [v.name for v in VARIANTS if v.game == spelt(game.default_game)]
    if spelt(game.variant) not in names:
        problems.add(
            "game.variant",
            game.variant,
            f"a variant of {game.default_game}: "
            + ", ".join(map(repr, names))
            + _did_you_mean(game.variant, names),
        )
