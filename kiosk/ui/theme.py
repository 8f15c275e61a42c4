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
    """How a kind of text is set: size in design units (800x480), face, colour, alignment.

    A scene names what a text is (`theme.TOTAL`, `theme.SEAT_NAME`); how it looks is decided
    here. A colour that changes with the state (a seat's, a pulse, the chosen row) is passed
    beside the style to `draw.styled`."""

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

# Every screen.
PAGE_TITLE = Style(40, "serif-bold", GOLD, "center")
PAGE_SUBTITLE = Style(18, "sans", MUTED, "center")
NOTE = Style(BODY.size, "sans", MUTED, "center")  # a sentence of help under the content
HOME = Style(18, "sans", MUTED, "center")  # the way back to the language screen
HOME_ICON = Style(28, "sans-bold", MUTED, "center")
COUNTDOWN = Style(72, "sans-bold", TEXT, "center")  # "Still playing?"

# The attract loop.
WORDMARK = Style(80, "serif-bold", GOLD, "center")
LEGEND = Style(38, "serif", TEXT, "center")  # serif: 38 units for a 5 mm cap
HOW_TO_VALUE = Style(20, "sans-bold", GOLD, "center")  # a die's value in the how-to
INVITATION = Style(40, "sans-bold", GOLD, "center")
RECENT_TOTAL = Style(20, "sans-bold", TEXT, "center")  # the strip of the last totals

# The language and game menus.
LANGUAGE_CODE = Style(64, "serif-bold", MUTED, "center")
LANGUAGE_NAME = Style(30, "sans-bold", MUTED, "center")
LANGUAGE_TITLE = Style(24, "serif", MUTED, "center")
MENU_TITLE = Style(30, "serif-bold", TEXT, "left")
MENU_SUMMARY = Style(BODY.size, "sans", MUTED)
SCROLL_MARK = Style(30, "sans-bold", GOLD, "center")

# The play screen.
TO_THROW = Style(34, "sans-bold", SEATS[0], "center")  # whose throw it is, in the seat's colour
REVEAL_EQUALS = Style(80, "sans-bold", MUTED, "center")  # dice "=" total, shown big
EQUALS = Style(52, "sans-bold", MUTED, "center")
FIRST_THROW = Style(40, "sans-bold", GOLD, "center")
CALLED_MAIN = Style(40, "sans-bold", GOLD, "left")  # Hazard: the main called, no dice
REROLL = Style(40, "sans-bold", WARN, "center")
PRIZE = Style(20, "sans-bold", GOLD, "right")
HISTORY_TOTAL = Style(17, "sans-bold", TEXT, "center")
CHOICE_TITLE = Style(36, "sans-bold", GOLD, "center")  # a question with options (a main...)
CHOICE_OPTION = Style(56, "serif-bold", TEXT, "center")
SEAT_NAME = Style(26, "sans-bold", SEATS[0], "left")
SEAT_NOTE = Style(20, "sans-bold", TEXT, "left")  # under a seat's name: its stakes, its turn
CHANCE_LABEL = Style(LABEL.size, "sans", MUTED, "right")  # "chance", "main" over the figure

# The result.
GAME_NAME = Style(26, "serif", MUTED, "center")
RESULT_SEAT = Style(30, "sans-bold", SEATS[0], "center")
NET = Style(56, "sans-bold", TEXT, "center")  # a player's net for the game
NET_LABEL = Style(LABEL.size, "sans", MUTED, "center")

# The rules and odds pages.
PAGE_NUMBER = Style(16, "sans", MUTED, "right")
LARGE_TEXT_TOGGLE = Style(26, "sans-bold", GOLD, "center")
ODDS_GAME = Style(38, "serif-bold", GOLD, "left")
ODDS_FIGURE = Style(36, "sans", TEXT, "center")

# The error screen, before the kiosk could start.
ERROR_WORDMARK = Style(60, "serif-bold", GOLD, "center")

# Staff screens: read at arm's length by someone who knows them.
STAFF_STATUS = Style(14, "sans-bold", TEXT, "left")
STAFF_MENU = Style(15, "sans-bold", TEXT, "left")
STAFF_INSTRUCTION = Style(15, "sans-bold", TEXT, "center")
STAFF_BUTTON = Style(16, "sans-bold", TEXT, "center")
STAFF_LED = Style(12, "sans", MUTED, "center")
STAFF_AXIS = Style(11, "sans", MUTED, "center")
STAFF_WARNING = Style(20, "sans-bold", WARN, "center")
