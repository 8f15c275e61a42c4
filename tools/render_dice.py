"""Training images that look like real tables: dice rendered in numpy and OpenCV (dev time only).

The development photos show one light box, one floor, one desk and one carpet; the die finder
and the face classifier must also meet wood, fabric, felt, leather and paper, dim rooms and spot
lights, dice from 15 to 400 px in every colour. Each scene here is drawn so:
- a surface texture (wood grain, carpet, woven fabric, felt, leather, paper, light box);
- dice as cubes seen by a camera above the table: every die is turned towards the camera by
  the angle of its ray, so dice away from the centre show the side faces that face the centre,
  as in the phone photos; about one die in eight is cocked (resting on an edge or leaning,
  40-70 degrees: "not a flat top face" for the classifier, still a die for the finder);
- faces with rounded corners and bevelled edges, drilled pips (a dark well, its lit rim), a
  body colour (ivory, white, black, red, green, blue, translucent, marbled) and pip colour
  (black, white, red, gold) with Lambert shading from one light;
- a hard or soft cast shadow along the light and a contact shadow under each die, a specular
  glint on some top faces, uneven light (a spot, a gradient, dim to bright, a colour cast);
- then the camera: defocus or motion blur, sensor noise, JPEG at quality 35-95.

A die's label is its value (0 when cocked) and the centre and size of the axis-aligned box of
its outline, as the photo sets label dice (size: square root of the box's area).

    .venv/bin/python tools/render_dice.py --sheet /tmp/renders.png [--seed 1]

writes a contact sheet: rendered scenes, then rendered die crops beside real development crops.
"""

from __future__ import annotations

import argparse
import csv
import math
import pickle
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hardware.sim.dice import PIPS  # noqa: E402  (the simulated tray's pip layouts)

# BGR body colours, pips
BODIES = {
    "ivory": (200, 232, 240),
    "white": (240, 240, 238),
    "black": (28, 26, 26),
    "red": (40, 30, 190),
    "green": (70, 150, 40),
    "blue": (170, 70, 25),
    "yellow": (40, 200, 225),
    "purple": (140, 40, 110),
}
PIP_COLOURS = {
    "black": (20, 20, 20),
    "white": (235, 235, 235),
    "red": (35, 30, 180),
    "gold": (60, 170, 215),
}
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice-photos"
SURFACES = ("wood", "carpet", "fabric", "felt", "leather", "paper", "lightbox")


@dataclass(frozen=True, slots=True)
class RenderedDie:
    """One die of a scene: its top value (0 when cocked), its box centre and size in pixels,
    and where its top face's pips were drawn (centre and radius in pixels; none when cocked)."""

    value: int
    centre: tuple[float, float]
    size: float
    flat: bool
    pips: tuple[tuple[float, float, float], ...] = ()  # top-face pips of a flat die (x, y, r)


def _noise(rng, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth value noise in 0..1 with features about `cell` pixels wide."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    small = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _fractal(rng, h: int, w: int, cell: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    total = 0.0
    for k in range(octaves):
        amp = 0.5**k
        out += amp * _noise(rng, h, w, max(1.5, cell / 2**k))
        total += amp
    return out / total


def _streaks(rng, h: int, w: int, scale: float) -> np.ndarray:
    """Wood grain: noise long along one direction and fine across it, at a random angle."""
    n = int(math.hypot(h, w)) + 2
    across = max(2, int(n / (rng.uniform(1.0, 4.0) * scale)))
    along = max(2, int(n / (rng.uniform(40, 150) * scale)))
    small = rng.random((along, across)).astype(np.float32)
    grain = cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC)
    wobble = cv2.resize(rng.random((4, 4)).astype(np.float32), (n, n)) * 0.15 * n
    xs = (np.arange(n)[None, :] + wobble).astype(np.float32)
    grain = cv2.remap(
        grain,
        xs,
        np.repeat(np.arange(n, dtype=np.float32)[:, None], n, 1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    m = cv2.getRotationMatrix2D((n / 2, n / 2), rng.uniform(0, 180), 1.0)
    m[:, 2] -= ((n - w) / 2, (n - h) / 2)
    return cv2.warpAffine(grain, m, (w, h), borderMode=cv2.BORDER_REFLECT).clip(0, 1)


def clutter(image: np.ndarray, rng, side: float) -> None:
    """Things on a table that are not dice: cables, coins, cards, a pen, a shadow's edge."""
    h, w = image.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        colour = tuple(float(c) for c in rng.uniform(0, 1, 3))
        kind = rng.integers(4)
        if kind == 0:  # a cable
            pts = np.cumsum(rng.normal(0, side, (8, 2)), axis=0) + rng.uniform(0, 1, 2) * (w, h)
            cv2.polylines(
                image,
                [pts.astype(np.int32)],
                False,
                colour,
                max(1, int(side * rng.uniform(0.1, 0.3))),
                cv2.LINE_AA,
            )
        elif kind == 1:  # a coin or a button
            cv2.circle(
                image,
                (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                int(side * rng.uniform(0.2, 0.6)),
                colour,
                -1,
                cv2.LINE_AA,
            )
        elif kind == 2:  # a card, a box
            box = (
                (rng.uniform(0, w), rng.uniform(0, h)),
                (side * rng.uniform(1, 5), side * rng.uniform(0.5, 4)),
                rng.uniform(0, 90),
            )
            cv2.fillConvexPoly(image, cv2.boxPoints(box).astype(np.int32), colour, cv2.LINE_AA)
        else:  # dots: a printed pattern, crumbs
            for _ in range(int(rng.integers(3, 12))):
                cv2.circle(
                    image,
                    (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    max(1, int(side * rng.uniform(0.04, 0.12))),
                    colour,
                    -1,
                    cv2.LINE_AA,
                )


def _tint(grey: np.ndarray, colour) -> np.ndarray:
    return grey[:, :, None] * np.array(colour, np.float32)[None, None, :] / 255.0


def surface(rng, h: int, w: int, kind: str, scale: float) -> np.ndarray:
    """A table surface (float32 BGR 0..1); `scale`: pixels per millimetre, roughly."""
    hue = rng.uniform(0.75, 1.25, 3).astype(np.float32)
    if kind == "wood":
        base = np.array(
            rng.choice(
                [
                    (60, 100, 150),
                    (40, 60, 140),
                    (120, 170, 200),
                    (30, 50, 90),
                    (140, 190, 215),
                    (110, 140, 170),
                ]
            ),
            np.float32,
        )
        g = 0.8 + 0.2 * _streaks(rng, h, w, scale) + 0.1 * _fractal(rng, h, w, 200 * scale)
        img = _tint(g, base * hue)
    elif kind == "carpet":
        base = np.array(
            rng.choice(
                [(80, 100, 120), (60, 70, 90), (110, 120, 130), (50, 60, 140), (90, 90, 90)]
            ),
            np.float32,
        )
        g = 0.55 + 0.45 * _noise(rng, h, w, 1.2) * _noise(rng, h, w, 2.5)
        g = 0.7 * g + 0.3 * _fractal(rng, h, w, 8 * scale)
        g = cv2.GaussianBlur(g, (0, 0), 0.6)
        img = _tint(g * 1.3, base * hue)
    elif kind == "fabric":
        base = np.array([rng.integers(30, 220) for _ in range(3)], np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        u = xx * np.cos(a) + yy * np.sin(a)
        v = -xx * np.sin(a) + yy * np.cos(a)
        p = rng.uniform(1.2, 4) * scale
        weave = np.sin(u / p) * np.sin(v / p)
        g = 0.8 + 0.15 * weave + 0.1 * _noise(rng, h, w, 1.5)
        if rng.random() < 0.5:  # a check or stripe
            g *= 0.85 + 0.15 * (np.sin(u / (p * rng.uniform(8, 30))) > 0)
        img = _tint(g, base * hue)
    elif kind == "felt":
        base = np.array(
            rng.choice([(40, 110, 20), (30, 30, 140), (110, 50, 20), (30, 30, 30), (70, 70, 70)]),
            np.float32,
        )
        g = 0.9 + 0.1 * _noise(rng, h, w, 1.0) + 0.08 * _fractal(rng, h, w, 30 * scale)
        img = _tint(g, base * hue)
    elif kind == "leather":
        base = np.array(
            rng.choice([(20, 40, 80), (30, 30, 30), (40, 70, 120), (20, 20, 60)]), np.float32
        )
        cells = _noise(rng, h, w, 2.5 * scale)
        g = 0.8 + 0.25 * np.abs(cells - 0.5) + 0.1 * _fractal(rng, h, w, 80 * scale)
        img = _tint(g, base * hue)
    elif kind == "paper":
        base = np.array(
            rng.choice([(235, 240, 242), (215, 232, 240), (250, 250, 250), (200, 215, 225)]),
            np.float32,
        )
        g = 0.95 + 0.04 * _noise(rng, h, w, 1.0) + 0.03 * _fractal(rng, h, w, 40 * scale)
        img = _tint(g, base)
    else:  # light box: near white, a soft glow
        g = 0.92 + 0.06 * _fractal(rng, h, w, 300) + 0.02 * _noise(rng, h, w, 1.0)
        img = _tint(g, (250, 250, 248))
    return img.clip(0, 1)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / (np.linalg.norm(axis) + 1e-12)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def _face_values(top: int, rng) -> dict[tuple[int, int], int]:
    """Values on the six faces (axis, sign) with `top` on +z; opposite faces add to 7."""
    rest = [v for v in range(1, 7) if v not in (top, 7 - top)]
    a = int(rng.choice(rest))
    rest = [v for v in rest if v not in (a, 7 - a)]
    b = int(rng.choice(rest))
    return {(2, 1): top, (2, -1): 7 - top, (0, 1): a, (0, -1): 7 - a, (1, 1): b, (1, -1): 7 - b}


@dataclass(frozen=True, slots=True)
class Look:
    """How a scene's dice look."""

    body: tuple
    pip: tuple
    marbled: tuple | None
    translucent: float  # 0: opaque; else how much of the table shows through
    pip_radius: float  # in face sides
    corner: float  # rounded corner radius, in face sides
    big_one: bool  # a 1 with a large pip, as many dice have


def random_look(rng) -> Look:
    name = str(rng.choice(list(BODIES), p=[0.3, 0.15, 0.1, 0.1, 0.1, 0.1, 0.07, 0.08]))
    body = np.array(BODIES[name], np.float32) * rng.uniform(0.85, 1.1, 3)
    dark = name in ("black", "red", "green", "blue", "purple")
    pips = ["white", "gold"] if dark else ["black", "red"]
    if name in ("red", "green", "blue") and rng.random() < 0.2:
        pips = ["black"]
    pip = np.array(PIP_COLOURS[str(rng.choice(pips))], np.float32) * rng.uniform(0.85, 1.1, 3)
    marbled = None
    if rng.random() < 0.12:
        marbled = tuple(np.clip(body * rng.uniform(0.4, 1.6, 3), 0, 255))
    translucent = float(rng.uniform(0.3, 0.6)) if rng.random() < 0.12 else 0.0
    return Look(
        body=tuple(np.clip(body, 0, 255)),
        pip=tuple(np.clip(pip, 0, 255)),
        marbled=marbled,
        translucent=translucent,
        pip_radius=float(rng.uniform(0.075, 0.11)),
        corner=float(rng.uniform(0.06, 0.2)),
        big_one=bool(rng.random() < 0.3),
    )


def face_texture(
    value: int, look: Look, n: int, rng
) -> tuple[np.ndarray, np.ndarray, list[tuple[float, float, float]]]:
    """(colour float32 n x n x 3, alpha n x n, pips) of one face: rounded square, drilled
    pips; pips: each pip's centre and radius in texture pixels."""
    yy, xx = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n - 0.5  # face units, -0.5..0.5
    body = _tint(np.ones((n, n), np.float32), look.body)
    if look.marbled is not None:
        swirl = _fractal(rng, n, n, n / 3)
        t = 0.5 + 0.5 * np.sin(12 * (xx + 2 * swirl))
        body = body * (1 - t[:, :, None]) + _tint(t * 0 + 1, look.marbled) * t[:, :, None]
    # rounded square: distance to the inner square
    r = look.corner
    qx, qy = np.maximum(np.abs(xx) - (0.5 - r), 0), np.maximum(np.abs(yy) - (0.5 - r), 0)
    outside = np.hypot(qx, qy) - r  # < 0 inside
    alpha = np.clip(-outside * n + 0.5, 0, 1)
    inner = -np.maximum(np.abs(xx), np.abs(yy)) + 0.5  # 0 at the edge, 0.5 in the middle
    bevel = np.clip(inner / max(r, 0.04), 0, 1) ** 0.5
    colour = body * (0.72 + 0.28 * bevel)[:, :, None]
    grid = 0.27 + rng.uniform(-0.03, 0.03)
    radius = look.pip_radius * (1.6 if value == 1 and look.big_one else 1.0)
    drilled = []
    for gx, gy in PIPS[value]:
        px, py = gx * grid, gy * grid
        drilled.append(((px + 0.5) * n, (py + 0.5) * n, radius * n))
        d = np.hypot(xx - px, yy - py) / radius
        well = np.clip((1 - d) * radius * n + 0.5, 0, 1)
        depth = 0.55 + 0.45 * np.clip(((xx - px) + (yy - py)) / radius, -1, 1)  # lit rim
        pip = _tint(np.ones_like(d), look.pip) * (0.75 + 0.25 * depth)[:, :, None]
        colour = colour * (1 - well[:, :, None]) + pip * well[:, :, None]
    return colour, alpha, drilled


def _poly_mask(shape, points: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(points * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    return mask.astype(np.float32) / 255.0


def draw_die(
    image: np.ndarray,
    shadow: np.ndarray,
    centre: tuple[float, float],
    side: float,
    yaw: float,
    top: int,
    look: Look,
    view: np.ndarray,
    light: np.ndarray,
    cock: float,
    rng,
    shadow_only: bool = False,
) -> tuple[tuple[float, float, float], list[tuple[float, float, float]]]:
    """Draw one die into `image` (float BGR) and its shadow into `shadow`; returns its box
    (centre x, centre y, size) and, unless it is cocked, its top face's pips (x, y, radius
    in image pixels: the radius of a disc of the drawn pip's area)."""
    rot = _rotation(np.array([0, 0, 1.0]), yaw)
    if cock:
        rot = _rotation(np.array([math.cos(yaw), math.sin(yaw), 0.0]), cock) @ rot
    half = side / 2
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    world = (rot @ (corners * half).T).T
    world[:, 2] -= world[:, 2].min()  # resting on the table
    world[:, :2] += centre
    cam = _rotation(np.cross(view, [0, 0, 1.0]), math.acos(np.clip(view[2], -1, 1)))

    def project(points: np.ndarray) -> np.ndarray:
        rel = points - [centre[0], centre[1], 0.0]
        return (cam.T @ rel.T).T[:, :2] + centre

    # cast shadow: the die's corners along the light onto the table, and a contact shadow
    ground = world[:, :2] - light[:2] / light[2] * world[:, 2:3]
    hull = cv2.convexHull(np.concatenate([ground, world[:, :2]]).astype(np.float32))[:, 0]
    if shadow_only:
        cv2.fillConvexPoly(shadow, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
        return (0.0, 0.0, 0.0), []
    outline = project(world)
    x0, y0 = outline.min(axis=0)
    x1, y1 = outline.max(axis=0)
    h, w = image.shape[:2]
    bx0, by0 = max(int(x0) - 2, 0), max(int(y0) - 2, 0)
    bx1, by1 = min(int(x1) + 3, w), min(int(y1) + 3, h)
    if bx1 <= bx0 or by1 <= by0:
        return ((x0 + x1) / 2, (y0 + y1) / 2, math.sqrt((x1 - x0) * (y1 - y0))), []
    roi = image[by0:by1, bx0:bx1]
    offset = np.array([bx0, by0], np.float32)
    # the die's outline in a darker edge colour (the rounded edges between faces)
    hull2 = cv2.convexHull(outline.astype(np.float32))[:, 0] - offset
    edge = _poly_mask(roi.shape[:2], hull2)
    edge = cv2.GaussianBlur(edge, (0, 0), max(0.4, side * 0.03))
    edge_colour = np.array(look.body, np.float32) / 255 * 0.55
    keep = 1 - edge * (1 - look.translucent)
    roi *= keep[:, :, None]
    roi += (edge * (1 - look.translucent))[:, :, None] * edge_colour
    values = _face_values(top, rng)
    top_pips: list[tuple[float, float, float]] = []
    n = int(np.clip(side * 1.5, 24, 192))
    for (axis, sign), value in values.items():
        normal = np.zeros(3)
        normal[axis] = sign
        normal_world = rot @ normal
        if (cam.T @ normal_world)[2] <= 0.02:
            continue
        u = np.zeros(3)
        u[(axis + 1) % 3] = 1
        v = np.cross(normal, u)
        quad = np.array([normal - u - v, normal + u - v, normal + u + v, normal - u + v]) * half
        quad_world = (rot @ quad.T).T
        quad_world[:, 2] += world[:, 2].min() - (rot @ (corners * half).T).T[:, 2].min()
        quad_world[:, :2] += centre
        dst = (project(quad_world) - offset).astype(np.float32)
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        colour, alpha, drilled = face_texture(value, look, n, rng)
        if axis == 2 and sign == 1 and not cock:
            top_pips = _projected(drilled, matrix, offset)
        lit = 0.35 + 0.65 * max(0.0, float(normal_world @ light))
        size = (roi.shape[1], roi.shape[0])
        warped = cv2.warpPerspective(colour * lit, matrix, size, flags=cv2.INTER_AREA)
        a = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR)
        if look.translucent:
            a = a * (1 - look.translucent)
        roi *= 1 - a[:, :, None]
        roi += warped * a[:, :, None]
        if axis == 2 and sign == 1 and rng.random() < 0.3:  # a glint on the top face
            centre_glint = dst.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * side
            glint = np.zeros(roi.shape[:2], np.float32)
            cv2.circle(
                glint,
                tuple(int(c) for c in centre_glint),
                max(1, int(side * rng.uniform(0.04, 0.15))),
                1.0,
                -1,
            )
            glint = cv2.GaussianBlur(glint, (0, 0), max(0.5, side * 0.04)) * a
            roi += glint[:, :, None] * rng.uniform(0.3, 1.0)
    return ((x0 + x1) / 2, (y0 + y1) / 2, math.sqrt((x1 - x0) * (y1 - y0))), top_pips


def _projected(
    drilled: list[tuple[float, float, float]], matrix: np.ndarray, offset: np.ndarray
) -> list[tuple[float, float, float]]:
    """Pips (x, y, radius) in texture pixels -> image pixels through the face's perspective
    `matrix` (texture -> roi) and the roi's `offset`: the centre, and the radius of a disc of
    the projected pip's area (a pip seen aslant is an ellipse)."""
    out = []
    for x, y, r in drilled:
        points = np.array([[[x, y], [x + r, y], [x, y + r]]], np.float32)
        c, a, b = cv2.perspectiveTransform(points, matrix)[0]
        (ux, uy), (vx, vy) = a - c, b - c
        area = abs(float(ux * vy - uy * vx))
        out.append((float(c[0] + offset[0]), float(c[1] + offset[1]), math.sqrt(area)))
    return out


def lighting(rng, h: int, w: int) -> np.ndarray:
    """A light map (h, w, 3): a spot, a gradient or even light, dim to bright, a colour cast."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = rng.random()
    if kind < 0.3:  # spot
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.3, 1.0) * max(h, w)
        g = 0.25 + 0.9 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    elif kind < 0.7:  # gradient
        a = rng.uniform(0, 2 * np.pi)
        t = ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / max(h, w)
        g = 1 + rng.uniform(0.2, 0.8) * t
    else:
        g = np.ones((h, w), np.float32)
    g = g * (rng.uniform(0.3, 0.6) if rng.random() < 0.15 else rng.uniform(0.75, 1.25))
    cast = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    return g[:, :, None] * cast[None, None, :]


def camera(image: np.ndarray, rng) -> np.ndarray:
    """The camera's faults on a float BGR image: blur, noise, JPEG; returns uint8."""
    if rng.random() < 0.2:  # motion blur
        k = int(rng.integers(3, 12))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, m, (k, k))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    elif rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.6))
    noise = rng.uniform(0, 0.04)
    image = image + rng.normal(0, noise, image.shape).astype(np.float32)
    out = np.clip(image * 255, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def render_scene(
    rng,
    width: int = 640,
    height: int = 640,
    side: float | None = None,
    count: int | None = None,
    about: dict | None = None,
) -> tuple[np.ndarray, list[RenderedDie]]:
    """One table with dice on it: (BGR uint8 image, its dice). `about`, if given, is filled
    with what the scene was drawn on and with: {"surface": its kind, "look": its dice's Look}."""
    side = side or float(np.exp(rng.uniform(np.log(18), np.log(260))))
    count = count or int(rng.integers(1, 7))
    kind = str(rng.choice(SURFACES))
    table = surface(rng, height, width, kind, scale=side / 16)
    look = random_look(rng)
    if about is not None:
        about.update(surface=kind, look=look)
    elevation = rng.uniform(np.radians(25), np.radians(80))
    azimuth = rng.uniform(0, 2 * np.pi)
    light = np.array(
        [
            np.cos(elevation) * np.cos(azimuth),
            np.cos(elevation) * np.sin(azimuth),
            np.sin(elevation),
        ]
    )
    focal = rng.uniform(0.8, 2.5) * max(width, height)
    cam_centre = np.array([width / 2, height / 2]) + rng.normal(0, 0.1, 2) * (width, height)
    tilt = rng.normal(0, 0.15, 2)  # the phone not held flat: every ray leans the same way
    image = table.copy()
    if rng.random() < 0.3:
        clutter(image, rng, side)
    shadow = np.zeros((height, width), np.float32)
    dice: list[RenderedDie] = []
    placed: list[tuple[float, float, float]] = []
    order = []
    for _ in range(count):
        s = side * rng.uniform(0.9, 1.1)
        for _ in range(40):
            x = rng.uniform(-0.2 * s, width + 0.2 * s)
            y = rng.uniform(-0.2 * s, height + 0.2 * s)
            if all(math.hypot(x - px, y - py) > 0.85 * (s + ps) for px, py, ps in placed):
                placed.append((x, y, s))
                order.append((x, y, s))
                break
    shadow_hard = rng.uniform(0.0, 1.0)
    shadow_strength = rng.uniform(0.25, 0.75) * (1.0 if kind != "lightbox" else 0.5)
    contact = np.zeros((height, width), np.float32)
    drawn = []
    for x, y, s in order:
        ray = np.array([x - cam_centre[0], y - cam_centre[1], focal])
        ray[:2] += tilt * focal
        view = ray / np.linalg.norm(ray)
        view[:2] = -view[:2]  # the camera sees the die's faces that turn towards it
        cock = float(rng.uniform(np.radians(40), np.radians(70))) if rng.random() < 0.12 else 0.0
        drawn.append((x, y, s, view, cock, int(rng.integers(1, 7)), rng.uniform(0, 2 * np.pi)))
        cv2.circle(contact, (int(x), int(y)), int(s * 0.55), 1.0, -1)
    # shadows first, onto the table
    layer = np.zeros_like(shadow)
    for x, y, s, view, cock, top, yaw in drawn:
        draw_die(image, layer, (x, y), s, yaw, top, look, view, light, cock, rng, True)
    soft = max(0.5, side * (0.02 + 0.25 * (1 - shadow_hard)))
    layer = cv2.GaussianBlur(layer, (0, 0), soft)
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.5, side * 0.12))
    image *= (1 - shadow_strength * np.clip(layer, 0, 1) - 0.3 * contact)[:, :, None]
    for x, y, s, view, cock, top, yaw in drawn:
        (bx, by, bs), pips = draw_die(
            image, np.zeros((1, 1), np.float32), (x, y), s, yaw, top, look, view, light, cock, rng
        )
        if -0.1 * bs < bx < width + 0.1 * bs and -0.1 * bs < by < height + 0.1 * bs:
            dice.append(RenderedDie(0 if cock else top, (bx, by), bs, not cock, tuple(pips)))
    image *= lighting(rng, height, width)
    return camera(image, rng), dice


def _real_crops(data: Path, count: int, rng) -> list[np.ndarray]:
    """Crops of labelled dice from the development part of every photo set."""
    out = []
    for set_dir in sorted(p for p in data.iterdir() if (p / "annotations.csv").exists()):
        labels: dict[Path, list] = defaultdict(list)
        with open(set_dir / "annotations.csv", newline="") as handle:
            for row in csv.DictReader(handle):
                path = set_dir / "images" / row["split"] / row["image"]
                labels[path].append([float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")])
        dev = [p for i, p in enumerate(sorted(labels)) if i % 4 != 3]
        for path in rng.choice(dev, min(count, len(dev)), replace=False):
            x0, y0, x1, y1 = labels[path][0]
            out.append(
                _square(cv2.imread(str(path)), (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0))
            )
    return out


def _square(image, cx, cy, size, out: int = 96) -> np.ndarray:
    side = 1.6 * size
    region = cv2.getRectSubPix(image, (int(side) + 1, int(side) + 1), (float(cx), float(cy)))
    return cv2.resize(region, (out, out), interpolation=cv2.INTER_AREA)


def contact_sheet(seed: int, data: Path) -> np.ndarray:
    """Rows of whole scenes, then rendered dice crops, then real development crops."""
    rng = np.random.default_rng(seed)
    scenes, crops = [], []
    for i in range(24):
        image, dice = render_scene(rng)
        if i < 12:
            scenes.append(cv2.resize(image, (192, 192), interpolation=cv2.INTER_AREA))
        crops += [_square(image, *d.centre, d.size) for d in dice[:2]]
    rows = [np.hstack(scenes[:6]), np.hstack(scenes[6:12])]
    crops = crops[:36]
    crops += [np.zeros_like(crops[0])] * (36 - len(crops))
    rows += [np.hstack(crops[i : i + 12]) for i in (0, 12, 24)]
    real = _real_crops(data, 9, rng)[:36]
    real += [np.zeros_like(real[0])] * (36 - len(real))
    rows += [np.hstack(real[i : i + 12]) for i in (0, 12, 24)]
    return np.vstack([cv2.resize(r, (1152, r.shape[0] * 1152 // r.shape[1])) for r in rows])


def scenes(count: int, seed: int):
    """`count` scenes from `seed`, 640 x 640 or 480 x 640 (the same scenes every time)."""
    for image, dice, _ in described_scenes(count, seed):
        yield image, dice


def described_scenes(count: int, seed: int):
    """scenes(), each with its `about` (render_scene): (image, dice, about)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        w, h = (640, 640) if rng.random() < 0.5 else (640, 480)
        about: dict = {}
        image, dice = render_scene(rng, w, h, about=about)
        yield image, dice, about


def write_cache(path: Path, count: int, seed: int) -> None:
    """Scenes as JPEG bytes and their dice, for the training scripts to share."""
    out = []
    for image, dice in scenes(count, seed):
        rows = [(d.value, d.centre, d.size, d.flat, d.pips) for d in dice]
        out.append((cv2.imencode(".png", image)[1].tobytes(), rows))
    with open(path, "wb") as handle:
        pickle.dump(out, handle)


def read_cache(path: Path) -> list[tuple[np.ndarray, list[RenderedDie]]]:
    with open(path, "rb") as handle:
        saved = _Unpickler(handle).load()
    return [
        (
            cv2.imdecode(np.frombuffer(b, np.uint8), cv2.IMREAD_COLOR),
            [d if isinstance(d, RenderedDie) else RenderedDie(*d) for d in rows],
        )
        for b, rows in saved
    ]


class _Unpickler(pickle.Unpickler):
    """Reads caches written when this file ran as a script (its classes then in __main__)."""

    def find_class(self, module: str, name: str):
        if name == "RenderedDie":
            return RenderedDie
        return super().find_class(module, name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheet", type=Path, help="contact sheet PNG to write")
    parser.add_argument("--cache", type=Path, help="write --scenes scenes to this pickle")
    parser.add_argument("--scenes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    if args.sheet:
        cv2.imwrite(str(args.sheet), contact_sheet(args.seed, args.data))
        print(f"wrote {args.sheet}")
    if args.cache:
        write_cache(args.cache, args.scenes, args.seed)
        print(f"wrote {args.scenes} scenes to {args.cache}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
