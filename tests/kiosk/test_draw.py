"""Drawing helpers on an off-screen surface: what a menu choice looks like, chosen or not."""

from __future__ import annotations

import pygame

from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout

LAYOUT = Layout(800, 480)
BOX = pygame.Rect(100, 100, 200, 60)
BLANK = (255, 0, 255)  # a colour no theme uses, to see what the helper painted


def option(chosen: bool, **kwargs) -> tuple[pygame.Surface, tuple]:
    surface = pygame.Surface((400, 300))
    surface.fill(BLANK)
    colour = draw.option(surface, LAYOUT, BOX, chosen, radius=8, width=3, **kwargs)
    return surface, colour


def rgb(surface: pygame.Surface, x: int, y: int) -> tuple[int, int, int]:
    return tuple(surface.get_at((x, y)))[:3]


def test_a_chosen_option_stands_out_on_a_panel_with_a_gold_edge():
    surface, colour = option(True)
    assert colour == theme.GOLD
    assert rgb(surface, BOX.centerx, BOX.centery) == theme.PANEL
    assert rgb(surface, BOX.centerx, BOX.top + 2) == theme.GOLD  # inside the 3-pixel edge
    assert rgb(surface, BOX.centerx, BOX.top - 1) == BLANK  # nothing outside the box


def test_an_option_at_rest_sits_on_the_background_with_a_thin_edge():
    surface, colour = option(False)
    assert colour == theme.TEXT
    assert rgb(surface, BOX.centerx, BOX.centery) == theme.BACKGROUND
    assert rgb(surface, BOX.centerx, BOX.top) == theme.PANEL_EDGE
    assert rgb(surface, BOX.centerx, BOX.top + 2) == theme.BACKGROUND  # a 1-pixel edge


def test_an_option_at_rest_may_keep_a_filled_card():
    surface, _ = option(False, rest_color=theme.PANEL, rest_width=2)
    assert rgb(surface, BOX.centerx, BOX.centery) == theme.PANEL
    assert rgb(surface, BOX.centerx, BOX.top + 1) == theme.PANEL_EDGE
