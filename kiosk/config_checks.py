"""The configuration's values checked together: each problem named by its key, its value and
what is allowed, all at once, so that a museum technician fixes them in one visit rather than
meeting a traceback an hour later. Pure: a Config in, the same Config out or one ConfigError.
"""

from __future__ import annotations

import difflib
from typing import Any

from kiosk.config_schema import (
    BUTTON_NAMES,
    CAMERA_KINDS,
    COLOUR,
    HEADER_GPIOS,
    SURFACES,
    Config,
    ConfigError,
    GameConfig,
)
from kiosk.languages import LANGUAGES


class Problems:
    """Every problem found in one config file, so a technician fixes them all in one visit."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, key: str, value: Any, allowed: str) -> None:
        self.messages.append(f"{key} = {shown(value)} is not allowed: {allowed}")

    def note(self, message: str) -> None:
        self.messages.append(message)

    def raise_any(self) -> None:
        if len(self.messages) == 1:
            raise ConfigError(self.messages[0])
        if self.messages:
            raise ConfigError(
                f"{len(self.messages)} problems:\n" + "\n".join(f"- {m}" for m in self.messages)
            )


def shown(value: Any) -> str:
    """A value as the message quotes it: short, whatever was written."""
    text = repr(list(value) if isinstance(value, tuple) else value)
    return text if len(text) <= 60 else text[:57] + "..."


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


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
        if not COLOUR.match(colour):
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
            "one of " + ", ".join(map(repr, GAMES)) + did_you_mean(game.default_game, GAMES),
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
            + did_you_mean(game.variant, names),
        )
