"""The kiosk's one configuration file: TOML read with tomllib into frozen dataclasses.

Read and checked once at start so a museum technician sees a clear sentence naming the key, the
value and what is allowed, instead of a traceback an hour later: a file that is missing, too big,
damaged or not TOML, an unknown section or key, a value of the wrong type
(here); a value of the right type that cannot work (config_checks.py). The sections and their
defaults are config_schema.py's; `config.example.toml` (next to this module) documents every key.
"""

from __future__ import annotations

import math
import stat
import tomllib
import types
import typing
from dataclasses import fields
from pathlib import Path
from typing import Any

from kiosk.config_checks import Problems, did_you_mean, menu_names, shown, validate
from kiosk.config_schema import (
    ButtonsConfig,
    CameraConfig,
    Config,
    ConfigError,
    GameConfig,
    KioskConfig,
    LightsConfig,
    SimulatedConfig,
    SoundConfig,
    StaffConfig,
    VisionConfig,
)

__all__ = [  # what the kiosk imports from here: the reading, and the shape and checks it gives
    "ButtonsConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "EXAMPLE_PATH",
    "GameConfig",
    "KioskConfig",
    "LightsConfig",
    "SimulatedConfig",
    "SoundConfig",
    "StaffConfig",
    "VisionConfig",
    "load_config",
    "menu_names",
    "parse_config",
    "validate",
]

EXAMPLE_PATH = Path(__file__).with_name("config.example.toml")
MAX_BYTES = 256 * 1024  # a real config is a few kB: anything bigger is not one (/dev/zero)


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
                f"unknown section [{name}]{did_you_mean(name, sections)}; allowed sections: "
                + ", ".join(f"[{s}]" for s in sections)
            )
        elif not isinstance(table, dict):
            problems.note(f"{name} must be a section [{name}], not the value {shown(table)}")
        else:
            values[name] = _build(_section_type(name), table, name, problems)
    problems.raise_any()
    return validate(Config(**values))


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
                f"unknown key {section}.{key}{did_you_mean(key, known)}; allowed keys in "
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
    wrong = f"{key} = {shown(value)} is not allowed: expected {_type_name(hint)}"
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
            raise ConfigError(f"{key} = {shown(value)} is not allowed: a NUL character in it")
        return value
    if hint is bool and isinstance(value, bool):
        return value
    raise ConfigError(wrong)
