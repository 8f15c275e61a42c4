"""The configuration file: defaults, the example file, and clear messages for bad values."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kiosk.config import EXAMPLE_PATH, Config, ConfigError, load_config, parse_config


def test_no_file_gives_the_documented_defaults() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.buttons.pins == {"left": 5, "ok": 6, "right": 13}
    assert config.lights.seat_pins == (17, 27)
    assert config.kiosk.language == "en"


def test_the_example_file_loads_and_states_every_default() -> None:
    assert load_config(EXAMPLE_PATH) == Config()


def test_the_example_file_mentions_every_key() -> None:
    text = EXAMPLE_PATH.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    for section, values in vars(Config()).items():
        assert section in data, section
        for key in vars(values):
            assert f"\n{key} =" in text or f"\n# {key} =" in text, f"{section}.{key}"


def test_values_are_read_and_typed(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(
        '[camera]\nkind = "usb"\ndevice = "/dev/video2"\nresolution = [640, 480]\n'
        'analogue_gain = 4\n[buttons]\nhold_seconds = 2\n[kiosk]\nlanguage = "fr"\n'
        'data_dir = "/srv/azar"\nfullscreen_size = [1920, 1080]\n',
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.camera.kind == "usb"
    assert config.camera.device == "/dev/video2"
    assert config.camera.resolution == (640, 480)
    assert config.camera.analogue_gain == 4.0 and isinstance(config.camera.analogue_gain, float)
    assert config.buttons.hold_seconds == 2.0
    assert config.kiosk.language == "fr"
    assert config.kiosk.data_dir == "/srv/azar"
    assert config.kiosk.fullscreen_size == (1920, 1080)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"camera": {"kind": "webcam"}}, ["camera.kind", "'webcam'", "'usb'"]),
        ({"camera": {"zoom": 2}}, ["camera.zoom", "unknown key", "exposure_us"]),
        ({"cameras": {}}, ["[cameras]", "unknown section", "[camera]"]),
        ({"camera": {"fps": "30"}}, ["camera.fps", "'30'", "integer"]),
        ({"camera": {"fps": True}}, ["camera.fps", "True", "integer"]),
        ({"camera": {"resolution": [640]}}, ["camera.resolution", "list of 2 integers"]),
        ({"camera": {"fps": 60, "exposure_us": 20000}}, ["camera.exposure_us", "16666"]),
        ({"camera": {"kind": "replay"}}, ["camera.replay_path"]),
        ({"buttons": {"ok_pin": 5}}, ["buttons.ok_pin", "5", "buttons.left_pin"]),
        ({"lights": {"waiting_pin": 13}}, ["lights.waiting_pin", "13", "buttons.right_pin"]),
        ({"buttons": {"left_pin": 40}}, ["buttons.left_pin", "40", "2 to 27"]),
        ({"buttons": {"left_pin": 1}}, ["buttons.left_pin", "2 to 27"]),
        ({"buttons": {"hold_seconds": -1}}, ["buttons.hold_seconds", "-1", "0.5 to 30"]),
        ({"buttons": {"debounce_ms": -5}}, ["buttons.debounce_ms", "-5"]),
        ({"kiosk": {"idle_seconds": -3}}, ["kiosk.idle_seconds", "-3"]),
        ({"kiosk": {"language": "de"}}, ["kiosk.language", "'de'", "'fr'"]),
        ({"simulated": {"die_colour": "white"}}, ["simulated.die_colour", "#rrggbb"]),
        ({"simulated": {"die_size": 150}}, ["simulated.die_size", "120"]),
        ({"vision": {"votes": 0}}, ["vision.votes", "0"]),
        ({"camera": "usb"}, ["camera", "section"]),
    ],
)
def test_bad_values_name_the_key_the_value_and_what_is_allowed(
    data: dict, words: list[str]
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    for word in words:
        assert word in str(caught.value)


def test_a_pin_may_be_reused_when_the_lights_are_off() -> None:
    config = parse_config({"lights": {"enabled": False, "waiting_pin": 5}})
    assert config.lights.enabled is False


def test_a_missing_file_and_bad_toml_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[camera\nkind = ", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(broken)


def test_the_example_ships_with_the_package() -> None:
    assert EXAMPLE_PATH.parent.name == "kiosk" and EXAMPLE_PATH.is_file()
