"""The "Still playing?" question is drawn over the real game, dimmed, and only answers a press.

The kiosk runs its own loop here (pygame events, the queue, updates, drawing); only the clock
is moved by hand.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kiosk.rules import find_variant
from kiosk.table import Kiosk
from kiosk.ui import still_playing, theme
from kiosk.ui.layout import Layout
from kiosk.worker import RollRead
from tests.kiosk.tables import headless_table
from vision.reading import Die, Roll


@pytest.fixture
def kiosk(tmp_path):
    pygame.event.clear()
    k = headless_table(tmp_path)
    k.camera_ok = True
    yield k
    pygame.event.clear()


def played(kiosk: Kiosk) -> None:
    kiosk.new_match(find_variant("medio-azar"))
    die = (Die(v, (10.0 * i, 10.0), 8.0, 0.95) for i, v in enumerate((5, 4, 3)))
    kiosk.events.put(RollRead(Roll(tuple(die)), 0.0))
    kiosk.frame(0.0)
    kiosk.test_clock.t += 30  # the throw's reveal is long over
    kiosk.frame(1 / 30)


def quiet_until_asked(kiosk: Kiosk) -> None:
    kiosk.test_clock.t += kiosk.config.kiosk.still_playing_seconds + 1
    kiosk.frame(1 / 30)


def outside_the_box(layout: Layout) -> np.ndarray:
    mask = np.ones((layout.width, layout.height), bool)  # surfarray is (x, y)
    box = layout.rect(*still_playing.BOX)
    mask[box.left : box.right, box.top : box.bottom] = False
    return mask


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_question_dims_the_real_game_around_it(tmp_path, size) -> None:
    kiosk = headless_table(tmp_path, size=size)
    played(kiosk)
    quiet_until_asked(kiosk)
    assert kiosk.still_playing.asking and kiosk.scene.name == "play"
    shown = pygame.surfarray.array3d(kiosk.screen).astype(int)

    game = pygame.Surface(size)
    kiosk.scene.render(game, kiosk.layout)  # the play scene alone, at the same moment
    game_pixels = pygame.surfarray.array3d(game).astype(int)
    alpha = theme.OVERLAY[3] / 255
    mask = outside_the_box(kiosk.layout)
    dimmed = game_pixels * (1 - alpha)
    assert np.abs(shown[mask] - dimmed[mask]).max() <= 2  # the game, shaded, not a blank page
    assert game_pixels[mask].std() > 10  # and there was a game to see under the shade
    box = kiosk.layout.rect(*still_playing.BOX)
    inside = shown[box.left : box.right, box.top : box.bottom].reshape(-1, 3)
    gold = np.all(np.abs(inside - np.array(theme.GOLD)) < 30, axis=1)
    assert gold.sum() > 50 * kiosk.layout.scale**2  # the question, in gold, in the box


def test_a_tap_on_a_button_under_the_question_only_answers_it(kiosk) -> None:
    played(kiosk)
    throws = list(kiosk.match.throws)
    quiet_until_asked(kiosk)
    assert kiosk.still_playing.asking
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):  # on the left button's label
        pygame.event.post(pygame.event.Event(kind, pos=(150, 455), button=1))
        kiosk.frame(0.0)
    assert not kiosk.still_playing.asking
    assert kiosk.scene.name == "play" and kiosk.match.throws == throws


def test_a_tap_on_empty_screen_answers_it_too(kiosk) -> None:
    played(kiosk)
    quiet_until_asked(kiosk)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):  # the dimmed corner, no button
        pygame.event.post(pygame.event.Event(kind, pos=(790, 200), button=1))
        kiosk.frame(0.0)
    assert not kiosk.still_playing.asking and kiosk.scene.name == "play"


def test_the_countdown_runs_down_and_nobody_answering_ends_the_game(kiosk) -> None:
    played(kiosk)
    game_id = kiosk.match.game_id
    quiet_until_asked(kiosk)
    first = kiosk.still_playing.remaining()
    kiosk.test_clock.t += 3
    kiosk.frame(1 / 30)
    assert kiosk.still_playing.remaining() == pytest.approx(first - 3)
    kiosk.test_clock.t += kiosk.config.kiosk.idle_seconds
    kiosk.frame(1 / 30)
    assert kiosk.scene.name == "attract" and not kiosk.still_playing.asking
    assert kiosk.log.game(game_id).status == "abandoned"


def test_the_overlay_is_not_a_scene_the_kiosk_can_switch_to(kiosk) -> None:
    assert "idle" not in kiosk.scenes
    with pytest.raises(KeyError):
        kiosk.goto("idle")
