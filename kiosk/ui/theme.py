"""Colours: warm, calm, high contrast (parchment on a dark walnut table)."""

from __future__ import annotations

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
