"""A calm full-screen message for staff when the kiosk cannot start (a broken config file).

It stays up (and keeps systemd's watchdog fed) rather than exiting into a restart loop that
would flash the console at visitors. The config may be what is broken, so the visitor's line
is shown in every language; the detail for staff is the config checker's own sentence.
"""

from __future__ import annotations

import time

import pygame

from kiosk import sdnotify
from kiosk.i18n import LANGUAGES, N_, Translator
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout

OUT_OF_ORDER = N_("The table is out of order. Please tell the staff.")


def draw_error(screen: pygame.Surface, layout: Layout, message: str) -> None:
    """The visitors' line in every language at body size (5 mm cap height on the 7-inch panel),
    two lines each at most, then the staff's detail in small print."""
    screen.fill(theme.BACKGROUND)
    draw.styled(screen, layout, "Azar", (400, 0), theme.ERROR_WORDMARK)
    for i, language in enumerate(LANGUAGES):
        draw.paragraph(
            screen,
            layout,
            Translator(language)(OUT_OF_ORDER),
            (20, 76 + i * 88, 760, 84),
            theme.BODY_BOLD.size,
            "sans-bold",
            theme.TEXT,
            "center",
            spacing=1.1,
        )
    top = 76 + len(LANGUAGES) * 88
    draw.paragraph(
        screen, layout, message, (40, top, 720, 430 - top), 18, "sans", theme.WARN, "center"
    )


def show_error(
    message: str, size=None, windowed: bool = False, max_seconds: float | None = None
) -> None:
    from kiosk.app import open_screen

    try:
        screen = open_screen(size, windowed)
    except pygame.error:
        return  # no display at all: the journal has the message
    layout = Layout(*screen.get_size())
    sdnotify.notify("READY=1")
    started = time.monotonic()
    ticker = pygame.time.Clock()
    while max_seconds is None or time.monotonic() - started < max_seconds:
        if any(e.type == pygame.QUIT for e in pygame.event.get()):
            break
        draw_error(screen, layout, message)
        pygame.display.flip()
        sdnotify.notify("WATCHDOG=1")
        ticker.tick(5)
    pygame.quit()
