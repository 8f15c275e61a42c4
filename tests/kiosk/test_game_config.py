"""The [game] and [sound] keys: names checked against the rules' registry, volume bounded."""

from __future__ import annotations

import pytest

from kiosk.config import ConfigError, menu_names, parse_config


def test_game_keys_name_the_game_first_then_the_menu_extras() -> None:
    config = parse_config(
        {"game": {"default_game": "medio_azar", "menu_variants": "azar/dante, azar/rethrow"}}
    )
    assert menu_names(config.game) == [
        ("medio_azar", None),
        ("azar", "dante"),
        ("azar", "rethrow"),
    ]


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"default_game": "hazardous"}, "game.default_game"),
        ({"default_game": "azar", "variant": "zara"}, "game.default_game"),
        ({"menu_variants": "azar/dante, azar/nope"}, "game.menu_variants"),
    ],
)
def test_an_unknown_game_or_variant_is_refused_naming_the_key(table, key) -> None:
    with pytest.raises(ConfigError, match=key):
        parse_config({"game": table})


def test_sound_volume_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ConfigError, match="sound.volume"):
        parse_config({"sound": {"volume": 1.5}})
    assert parse_config({"sound": {"volume": 0, "enabled": False}}).sound.volume == 0
