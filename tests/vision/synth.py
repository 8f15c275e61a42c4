"""Synthetic dice-tray frames drawn at known values, for the reader's (and settling) tests.

Everything is drawn with anti-aliased OpenCV primitives on a tray with optional uneven light:
die bodies as rounded squares, pips at the standard layout (spacing 0.27 side, radius 0.09
side), soft shadows; a cocked die shows a foreshortened top face and a strip of side face.
All positions are in pixels, angles in degrees, colours BGR.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SHIFT = 4  # sub-pixel bits for OpenCV drawing
ONE = 1 << SHIFT

# pip layouts in pip spacings (x, y), as on a real die
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


# a 6 of another design: its six pips on an even grid of two by three (lines one step apart)
EVEN_SIX = ((-0.5, -1), (-0.5, 0), (-0.5, 1), (0.5, -1), (0.5, 0), (0.5, 1))


@dataclass(frozen=True)
class Style:
    """Colours of a die set and its tray."""

    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    tray: tuple[int, int, int]


IVORY_ON_GREEN = Style(body=(225, 235, 240), pip=(25, 25, 25), tray=(60, 110, 50))
RED_ON_LIGHT = Style(body=(40, 40, 200), pip=(245, 245, 245), tray=(200, 205, 210))
BLACK_ON_LIGHT = Style(body=(30, 30, 30), pip=(240, 240, 240), tray=(190, 200, 205))
WHITE_ON_DARK = Style(body=(235, 235, 235), pip=(30, 30, 30), tray=(45, 40, 40))
WOOD_ON_FELT = Style(body=(50, 90, 140), pip=(215, 230, 235), tray=(90, 45, 40))
STYLES = (IVORY_ON_GREEN, RED_ON_LIGHT, BLACK_ON_LIGHT, WHITE_ON_DARK, WOOD_ON_FELT)


@dataclass(frozen=True)
class DrawnDie:
    """A die to draw: value, centre (x, y), side, angle; tilt > 0 draws it cocked (degrees);
    pips: its top face's pips in pip spacings, for a die of another design than PIPS."""

    value: int
    centre: tuple[float, float]
    side: float = 48.0
    angle: float = 0.0
    tilt: float = 0.0
    pips: tuple[tuple[float, float], ...] | None = None


def tray(
    width: int = 640,
    height: int = 480,
    style: Style = IVORY_ON_GREEN,
    uneven: float = 0.0,
    seed: int = 7,
) -> np.ndarray:
    """An empty tray: flat colour, sensor noise (from `seed`), light falling off by `uneven`
    (0..1) across it."""
    rng = np.random.default_rng(seed)
    frame = np.empty((height, width, 3), np.float32)
    frame[:] = style.tray
    frame += rng.normal(0, 3, frame.shape)
    if uneven:
        x = np.linspace(0, 1, width)[None, :]
        y = np.linspace(0, 1, height)[:, None]
        frame *= (1 - uneven * (0.6 * x + 0.4 * y))[..., None]
    return np.clip(frame, 0, 255).astype(np.uint8)


def _pt(x: float, y: float) -> tuple[int, int]:
    return round(x * ONE), round(y * ONE)


def _to_frame(centre, angle, ux, uy):
    """Map face coordinates (ux, uy), in pixels from the centre, to the frame."""
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    return centre[0] + c * ux - s * uy, centre[1] + s * ux + c * uy


def _face(frame, centre, angle, width, height, colour, pips, pip_colour, value_side):
    """A rounded rectangle of width x height with pips laid out for a face of side value_side."""
    r = 0.12 * min(width, height)
    corners = []
    for cx, cy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for t in np.linspace(start, start + 90, 6):
            ux = cx * (width / 2 - r) + r * np.cos(np.radians(t))
            uy = cy * (height / 2 - r) + r * np.sin(np.radians(t))
            corners.append(_pt(*_to_frame(centre, angle, ux, uy)))
    cv2.fillPoly(frame, [np.array(corners, np.int32)], colour, cv2.LINE_AA, SHIFT)
    spacing = 0.27 * value_side
    squash = height / width
    for px, py in pips:
        x, y = _to_frame(centre, angle, px * spacing, py * spacing * squash)
        radius = 0.09 * value_side
        axes = (round(radius * ONE), round(radius * squash * ONE))
        cv2.ellipse(frame, _pt(x, y), axes, angle, 0, 360, pip_colour, -1, cv2.LINE_AA, SHIFT)


def draw_die(frame: np.ndarray, die: DrawnDie, style: Style, shadow: bool = True) -> None:
    """Draw one die in place on a BGR frame."""
    s = die.side
    if shadow:
        layer = np.zeros(frame.shape[:2], np.float32)
        cx, cy = die.centre[0] + 0.08 * s, die.centre[1] + 0.1 * s
        cv2.circle(layer, (round(cx), round(cy)), round(0.6 * s), 1.0, -1)
        layer = cv2.GaussianBlur(layer, (0, 0), 0.12 * s)
        frame[:] = (frame * (1 - 0.35 * layer[..., None])).astype(np.uint8)
    top = die.pips or PIPS[die.value]
    if die.tilt <= 0:
        _face(frame, die.centre, die.angle, s, s, style.body, top, style.pip, s)
        return
    # cocked: top face foreshortened along its y axis, a side face showing below it
    t = np.radians(die.tilt)
    top_h, side_h = s * np.cos(t), s * np.sin(t)
    side_colour = tuple(int(0.7 * c) for c in style.body)
    top_centre = _to_frame(die.centre, die.angle, 0, -side_h / 2)
    side_centre = _to_frame(die.centre, die.angle, 0, top_h / 2)
    other = 7 - die.value
    _face(frame, side_centre, die.angle, s, side_h, side_colour, PIPS[other], style.pip, s)
    _face(frame, top_centre, die.angle, s, top_h, style.body, top, style.pip, s)


def scene(
    dice: list[DrawnDie],
    style: Style = IVORY_ON_GREEN,
    width: int = 640,
    height: int = 480,
    uneven: float = 0.0,
) -> np.ndarray:
    """A tray with the dice drawn on it, in list order (later dice on top)."""
    frame = tray(width, height, style, uneven)
    for die in dice:
        draw_die(frame, die, style)
    return frame


def motion_blur(frame: np.ndarray, length: int, angle: float = 30.0) -> np.ndarray:
    """Blur as a die moving `length` pixels during the exposure."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, rotation, (length, length))
    return cv2.filter2D(frame, -1, kernel / kernel.sum())


def glare(
    frame: np.ndarray, centre: tuple[float, float], radius: float, strength: float = 1.0
) -> np.ndarray:
    """A highlight with a soft rim that lightens towards white by `strength`: at 1 a saturated
    specular highlight; under 1 a sheen that leaves a channel unclipped (a warm ivory face
    under it is white to the eye, grey 250 and up, while its blue channel still shows what lies
    beneath, a pip darker)."""
    out = frame.copy()
    layer = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(layer, (round(centre[0]), round(centre[1])), round(radius), strength, -1)
    layer = cv2.GaussianBlur(layer, (0, 0), radius * 0.15)
    out = out * (1 - layer[..., None]) + 255 * layer[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def spotlight(frame: np.ndarray, centre: tuple[float, float], radius: float, gain: float):
    """A pool of lamp light `gain` times as bright at its middle, fading at its rim: a light die
    under it is overexposed, its face clipped white in every channel, while its dark pips,
    lit alike, stay dark (no mirror's glint: nothing is hidden)."""
    layer = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(layer, (round(centre[0]), round(centre[1])), round(radius), 1.0, -1)
    layer = cv2.GaussianBlur(layer, (0, 0), radius * 0.2)
    return np.clip(frame * (1 + (gain - 1) * layer[..., None]), 0, 255).astype(np.uint8)


def marbled(frame: np.ndarray, style: Style, side: float, seed: int) -> np.ndarray:
    """The die bodies in `frame` swirled dark and light, as marbled dice are, their pips left
    plain: a smooth random field about a fifteenth of a die wide scales the body colour by up to
    0.9 either way and lightens its light swirls."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0, 1, frame.shape[:2]).astype(np.float32)
    field = cv2.GaussianBlur(noise, (0, 0), side / 15)
    field /= np.abs(field).max()
    body = np.all(np.abs(frame.astype(int) - style.body) < 40, axis=2)
    out = frame.astype(np.float32)
    out[body] = out[body] * (1 + 0.9 * field[body, None]) + 60 * field[body, None].clip(0)
    return np.clip(out, 0, 255).astype(np.uint8)


def three_dice(values=(3, 5, 6), style: Style = IVORY_ON_GREEN, side: float = 48.0, **kw):
    """A typical kiosk frame: three dice well apart at assorted angles."""
    places = [(0.25, 0.35, 10.0), (0.55, 0.6, 33.0), (0.78, 0.3, 71.0)]
    width, height = kw.get("width", 640), kw.get("height", 480)
    dice = [
        DrawnDie(v, (fx * width, fy * height), side, a)
        for v, (fx, fy, a) in zip(values, places, strict=True)
    ]
    return scene(dice, style, **kw)


def veined(
    frame: np.ndarray, centre: tuple[float, float], side: float, seed: int, colour
) -> np.ndarray:
    """Three straight veins of `colour` across a die's face (a marbled die's streaks, drawn
    over its pips as they run through them), each 0.035 die sides wide."""
    rng = np.random.default_rng(seed)
    out = frame.copy()
    for _ in range(3):
        turn, off = rng.uniform(0, np.pi), rng.uniform(-0.35, 0.35) * side
        x = centre[0] - off * np.sin(turn)
        y = centre[1] + off * np.cos(turn)
        dx, dy = 0.4 * side * np.cos(turn), 0.4 * side * np.sin(turn)
        width = max(1, round(0.035 * side))
        cv2.line(out, _pt(x - dx, y - dy), _pt(x + dx, y + dy), colour, width, cv2.LINE_AA, SHIFT)
    return out
