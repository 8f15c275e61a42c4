"""Colours: warm, calm, high contrast (parchment on a dark walnut table)."""

from __future__ import annotations

from dataclasses import dataclass

BACKGROUND = (24, 20, 16)
PANEL = (44, 37, 30)
PANEL_EDGE = (92, 76, 56)
TEXT = (246, 238, 220)
MUTED = (196, 184, 160)
GOLD = (232, 184, 84)
# One colour per seat, the same as the LEDs beside each player's button.
SEATS = ((236, 112, 88), (96, 170, 236))
GOOD = (120, 200, 120)
WARN = (240, 170, 70)
DIE_FACE = (250, 246, 236)
DIE_PIP = (30, 26, 22)
OVERLAY = (0, 0, 0, 170)
PRESSED = (96, 78, 40)  # a target under a finger


@dataclass(frozen=True)
class Style:
    """How a kind of text is set: size in design units (800x480), face, colour, alignment."""

    size: float
    face: str = "sans"
    color: tuple = TEXT
    align: str = "left"


# Sizes read from 2 m on the 7-inch panel (154 mm for 800 px: 5.2 px a millimetre). The total
# and the result have a cap height of at least 10 mm, every sentence a visitor reads a cap
# height of 5 mm (DejaVu Sans at 36 units); labels of a word or three beside a figure or on a
# key may be smaller. tests/kiosk/test_legibility.py measures the rendered glyphs.
TOTAL = Style(84, "sans-bold", GOLD, "center")
REVEAL_TOTAL = Style(150, "sans-bold", GOLD, "center")
RESULT = Style(76, "sans-bold", GOLD, "center")
CHANCE = Style(56, "sans-bold", TEXT, "right")
BODY = Style(36, "sans", TEXT)
BODY_BOLD = Style(36, "sans-bold", TEXT)
LABEL = Style(22, "sans", MUTED)
TITLE = Style(26, "serif-bold", GOLD)
HEADING = Style(44, "serif-bold", GOLD, "center")  # a question or a page title
