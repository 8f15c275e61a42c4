"""The [game] and [sound] keys: names checked against the rules' registry, volume bounded."""

from __future__ import annotations

import pytest

from kiosk.config import ConfigError, menu_names, parse_config


def test_game_keys_name_the_game_first_then_the_menu_extras() -> None:
    config = parse_config(
        {"game": {"default_game": "medio-azar", "menu_variants": "azar/dante, azar/rethrow"}}
    )
    assert menu_names(config.game) == [
        ("medio-azar", None),
        ("azar", "dante"),
        ("azar", "rethrow"),
    ]


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ({"default_game": "hazardous"}, "game.default_game"),
        ({"default_game": "azar", "variant": "zara"}, "game.variant"),
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


def menu_kiosk(tmp_path, game: dict):
    import queue

    import pygame

    from kiosk.gamelog import GameLog
    from kiosk.table import Kiosk

    pygame.display.init()
    pygame.font.init()
    kiosk = Kiosk(
        parse_config({"game": game}),
        pygame.Surface((800, 480)),
        GameLog.in_dir(tmp_path),
        events=queue.Queue(),
    )
    kiosk.goto("choose")
    return kiosk


def test_the_menu_shows_the_three_games_first_the_configured_one(tmp_path) -> None:
    kiosk = menu_kiosk(tmp_path, {"default_game": "medio-azar"})
    games = [(v.game, v.name) for v in kiosk.scene.games]
    # No scholarly variants: one row per game, Hazard's of two dice among them.
    assert games == [("medio-azar", "card"), ("azar", "card"), ("hazard", "called-main")]


def test_staff_put_variants_on_the_menu_and_it_scrolls(tmp_path) -> None:
    kiosk = menu_kiosk(
        tmp_path, {"menu_variants": "azar/dante, azar/rethrow, azar/opponent-second"}
    )
    scene = kiosk.scene
    names = [v.name for v in scene.games]  # azar/dante is the older name of azar/lana
    assert names == ["card", "card", "called-main", "lana", "rethrow", "opponent-second"]
    assert len(scene.rows) == 8 and list(scene.shown()) == [0, 1, 2, 3]
    for _ in range(5):
        scene.on_button("right", "press")
    assert scene.selected == 5 and list(scene.shown()) == [2, 3, 4, 5]
    scene.on_touch("up")
    assert list(scene.shown()) == [1, 2, 3, 4]
    scene.on_touch("row:4")  # a tap on a row starts that game
    assert kiosk.scene.name == "play" and kiosk.match.variant.name == "rethrow"
