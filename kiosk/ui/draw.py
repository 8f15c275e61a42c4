"""Drawing helpers shared by the scenes: shipped fonts, cached text, wrapped paragraphs, dice.

Rendering text is the costly part of a frame, so rendered lines are cached by (font, size,
text, colour); a frame that shows the same words as the last one only blits.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

from kiosk.ui import theme
from kiosk.ui.layout import Layout

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONTS = {
    "sans": "DejaVuSans.ttf",  # body text: wide, open shapes, legible from a distance
    "sans-bold": "DejaVuSans-Bold.ttf",
    "serif": "JunicodeTwoBeta-Regular.otf",  # titles: Junicode, a face made for medievalists
    "serif-bold": "JunicodeTwoBeta-Bold.otf",
}

# Where the pips sit on a face, in thirds of the face (0, 1, 2), for values 1..6.
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


@lru_cache(maxsize=64)
def font(name: str, size: int) -> pygame.font.Font:
    return pygame.font.Font(FONT_DIR / FONTS[name], max(6, size))


@lru_cache(maxsize=384)  # bounded: a long day of games must not grow memory
def rendered(name: str, size: int, text: str, color: tuple) -> pygame.Surface:
    return font(name, size).render(text, True, color)


def fitting_size(name: str, size: int, text: str, max_width: int) -> int:
    """The largest size up to `size` at which `text` fits in `max_width` pixels."""
    while size > 8 and font(name, size).size(text)[0] > max_width:
        size = int(size * 0.92)
    return size


def text(
    surface: pygame.Surface,
    layout: Layout,
    string: str,
    pos: tuple[float, float],
    size: float,
    name: str = "sans",
    color: tuple = theme.TEXT,
    align: str = "left",
    max_width: float | None = None,
) -> pygame.Rect:
    """One line at a design position (`align` left/center/right on x, top on y); shrinks to fit."""
    px = layout.px(size)
    if max_width is not None:
        px = fitting_size(name, px, string, layout.px(max_width))
    image = rendered(name, px, string, tuple(color))
    x, y = layout.point(*pos)
    rect = image.get_rect()
    if align == "center":
        rect.midtop = (x, y)
    elif align == "right":
        rect.topright = (x, y)
    else:
        rect.topleft = (x, y)
    surface.blit(image, rect)
    return rect


def wrap(name: str, size: int, string: str, width: int) -> list[str]:
    """Break `string` into lines no wider than `width` pixels (blank lines kept)."""
    lines: list[str] = []
    f = font(name, size)
    for paragraph in string.split("\n"):
        line = ""
        for word in paragraph.split(" "):  # only plain spaces: no-break spaces hold
            if not word:
                continue
            candidate = f"{line} {word}".strip()
            if line and f.size(candidate)[0] > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def paragraph_fit(
    name: str, px: int, string: str, width: int, height: int, spacing: float = 1.25
) -> tuple[int, list[str], int]:
    """The size (pixels) at which `string` wraps into `width` x `height`, its lines, line height."""
    while True:
        lines = wrap(name, px, string, width)
        line_h = round(font(name, px).get_linesize() * spacing / 1.17)
        if len(lines) * line_h <= height or px <= 9:
            return px, lines, line_h
        px = int(px * 0.92)


def styled(
    surface: pygame.Surface,
    layout: Layout,
    string: str,
    pos: tuple[float, float],
    style: theme.Style,
    max_width: float | None = None,
    color: tuple | None = None,
) -> pygame.Rect:
    """One line in a named style (size, face, colour, alignment) instead of five arguments."""
    return text(
        surface,
        layout,
        string,
        pos,
        style.size,
        style.face,
        color or style.color,
        style.align,
        max_width,
    )


def paragraph(
    surface: pygame.Surface,
    layout: Layout,
    string: str,
    box: tuple[float, float, float, float],
    size: float,
    name: str = "sans",
    color: tuple = theme.TEXT,
    align: str = "left",
    spacing: float = 1.25,
) -> int:
    """Wrapped text inside a design box; the font shrinks until it fits. Returns lines drawn."""
    x, y, w, h = box
    width, height = layout.px(w), layout.px(h)
    px, lines, line_h = paragraph_fit(name, layout.px(size), string, width, height, spacing)
    left, top = layout.point(x, y)
    for i, line in enumerate(lines):
        if not line:
            continue
        image = rendered(name, px, line, tuple(color))
        rect = image.get_rect(top=top + i * line_h)
        if align == "center":
            rect.centerx = left + width // 2
        else:
            rect.left = left
        surface.blit(image, rect)
    return len(lines)


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    layout: Layout,
    color=theme.PANEL,
    edge=theme.PANEL_EDGE,
    radius: float = 10,
    width: float = 1.5,
) -> None:
    pygame.draw.rect(surface, color, rect, border_radius=layout.px(radius))
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, layout.px(width), border_radius=layout.px(radius))


def option(
    surface: pygame.Surface,
    layout: Layout,
    box: pygame.Rect,
    chosen: bool,
    radius: float,
    width: float,
    rest_width: float = 1,
    rest_color: tuple = theme.BACKGROUND,
) -> tuple:
    """One choice of a menu: the chosen one stands out on a panel with a thicker gold edge.

    Returns the colour for the choice's label (gold when chosen), so every menu marks its
    selection the same way.
    """
    panel(
        surface,
        box,
        layout,
        color=theme.PANEL if chosen else rest_color,
        edge=theme.GOLD if chosen else theme.PANEL_EDGE,
        radius=radius,
        width=width if chosen else rest_width,
    )
    return theme.GOLD if chosen else theme.TEXT


def die(
    surface: pygame.Surface,
    rect: pygame.Rect,
    value: int | None,
    face=theme.DIE_FACE,
    pip=theme.DIE_PIP,
    edge=None,
) -> None:
    """A die face; `value` None draws a blank face (a die still to be entered)."""
    radius = max(2, rect.width // 7)
    pygame.draw.rect(surface, face, rect, border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, max(2, rect.width // 18), border_radius=radius)
    if value not in PIPS:
        return
    step = rect.width / 4
    r = max(2, round(rect.width / 11))
    for col, row in PIPS[value]:
        centre = (round(rect.left + step * (col + 1)), round(rect.top + step * (row + 1)))
        pygame.draw.circle(surface, pip, centre, r)


# Where the three button labels sit (design units): above the physical buttons, and big enough
# (46 x 8 mm on the 7-inch panel) to be tapped.
HINT_BOXES = {
    "left": (30, 434, 240, 42),
    "ok": (280, 434, 240, 42),
    "right": (530, 434, 240, 42),
}


def hints(
    surface: pygame.Surface,
    layout: Layout,
    labels: tuple[str | None, str | None, str | None],
    pressed: str | None = None,
) -> None:
    """The three button labels along the bottom edge, above the physical buttons."""
    marks = ("◀", "●", "▶")
    for label, mark, key in zip(labels, marks, HINT_BOXES, strict=True):
        if not label:
            continue
        x, y, w, h = HINT_BOXES[key]
        box = layout.rect(x, y, w, h)
        down = pressed == key
        panel(
            surface,
            box,
            layout,
            color=theme.PRESSED if down else theme.PANEL,
            edge=theme.GOLD,
            radius=18,
            width=3 if down else 1.5,
        )
        string = f"{mark}  {label}" if mark != "▶" else f"{label}  {mark}"
        text(
            surface,
            layout,
            string,
            (x + w / 2, y + 8),
            20,
            "sans-bold",
            theme.TEXT,
            "center",
            max_width=w - 14,
        )
