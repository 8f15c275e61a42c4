"""Notices along the top edge of every screen, over whatever scene is drawn.

The kiosk decides what to say (kiosk/app.py); this draws it: each notice in a warning panel,
wrapped over as many lines as it needs at its own size, one under the other.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout

VISITOR = theme.BODY_BOLD.size  # a notice anyone may read: body size (5 mm cap height)
STAFF = 18  # the staff's own notices: a label's size, covering little of the game


def show(screen: pygame.Surface, layout: Layout, notices: Sequence[tuple[str, float]]) -> None:
    """Draw (text, design size) notices from the top edge down."""
    face, top = theme.BODY_BOLD.face, 4.0
    unit = layout.px(100) / 100  # pixels a design unit
    for line, size in notices:
        _, wrapped, line_h = draw.paragraph_fit(face, layout.px(size), line, layout.px(720), 10**5)
        height = len(wrapped) * line_h / unit + 2
        box = layout.rect(30, top, 740, height + 8)
        draw.panel(screen, box, layout, color=(90, 50, 20), edge=theme.WARN, radius=8)
        draw.paragraph(
            screen, layout, line, (40, top + 4, 720, height), size, face, theme.TEXT, "center"
        )
        top += height + 12
