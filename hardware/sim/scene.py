"""The simulated tray's fixed parts: geometry, lighting and the background image.

Coordinates are "floor pixels": a point on the floor at (x, y) appears at pixel (x, y); a
point at height z appears pushed away from the image centre, as under a pinhole camera
mounted `camera_height` pixels above the floor. Everything here is computed once per tray.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Light: mostly from above, a little from the top-left (unit vector towards the light).
LIGHT = np.array([-0.35, -0.45, 1.0]) / np.linalg.norm([-0.35, -0.45, 1.0])


def hex_to_bgr(colour: str) -> np.ndarray:
    """'#rrggbb' -> BGR floats 0..1."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return np.array([b, g, r], dtype=np.float32)


@dataclass(frozen=True)
class TrayGeometry:
    """Where the tray is in the frame, in floor pixels; `die` is a die's side."""

    width: int
    height: int
    die: float
    floor: tuple[float, float, float, float]  # x0, y0, x1, y1 of the felt
    rim_width: float
    rim_height: float
    camera_height: float

    @classmethod
    def fit(cls, width: int, height: int, die: float) -> TrayGeometry:
        """A tray filling the frame, with a band of table all round for dice thrown out."""
        table = 1.6 * die
        rim = 0.9 * die
        margin = table + rim
        return cls(
            width,
            height,
            die,
            (margin, margin, width - margin, height - margin),
            rim,
            1.6 * die,
            40.0 * die,
        )

    @property
    def centre(self) -> np.ndarray:
        return np.array([self.width / 2, self.height / 2])

    def project(self, points: np.ndarray) -> np.ndarray:
        """3-D floor-pixel points (..., 3) -> image pixels (..., 2)."""
        points = np.asarray(points, dtype=np.float64)
        scale = self.camera_height / (self.camera_height - points[..., 2:3])
        return self.centre + (points[..., :2] - self.centre) * scale

    def floor_polygon(self) -> np.ndarray:
        """The felt's outline in image pixels, (4, 2) int32: what the reader calls the tray."""
        x0, y0, x1, y1 = self.floor
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.int32)

    def rim_rects(self) -> tuple[np.ndarray, np.ndarray]:
        """Inner and outer edges of the rim top, at rim height, in image pixels (4, 2)."""
        x0, y0, x1, y1 = self.floor
        r, h = self.rim_width, self.rim_height
        inner = [[x0, y0, h], [x1, y0, h], [x1, y1, h], [x0, y1, h]]
        outer = [[x0 - r, y0 - r, h], [x1 + r, y0 - r, h], [x1 + r, y1 + r, h], [x0 - r, y1 + r, h]]
        return self.project(np.array(inner)), self.project(np.array(outer))


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Gaussian-blurred white noise scaled to unit standard deviation, float32 (h, w)."""
    noise = rng.standard_normal(shape).astype(np.float32)
    if sigma > 0:
        noise = cv2.GaussianBlur(noise, (0, 0), sigma)
    return noise / max(float(noise.std()), 1e-6)


def felt(rng: np.random.Generator, shape: tuple[int, int], colour: np.ndarray) -> np.ndarray:
    """Felt: fine fibres plus slow blotches, around `colour`. (h, w, 3) float32."""
    fibres = smooth_noise(rng, shape, 0.8)
    blotches = smooth_noise(rng, shape, 18)
    tone = 1 + 0.07 * fibres + 0.05 * blotches
    return colour[None, None, :] * tone[..., None]


def wood(
    rng: np.random.Generator,
    shape: tuple[int, int],
    dark: np.ndarray,
    light: np.ndarray,
    period: float,
    vertical: bool = False,
) -> np.ndarray:
    """Wood grain: warped stripes between two colours, plus fine pores. (h, w, 3) float32."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = xx if vertical else yy
    warp = smooth_noise(rng, shape, period * 2.5) * period * 0.9
    rings = 0.5 + 0.5 * np.sin((across + warp) * (2 * np.pi / period))
    grain = rings**3 * 0.75 + 0.25 * (0.5 + 0.15 * smooth_noise(rng, shape, 1.0))
    grain = np.clip(grain, 0, 1)[..., None]
    return dark[None, None, :] * (1 - grain) + light[None, None, :] * grain


def illumination(geometry: TrayGeometry, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a broad lamp off-centre, a falloff towards the corners. (h, w) float32."""
    h, w = geometry.height, geometry.width
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lx, ly = w * rng.uniform(0.3, 0.45), h * rng.uniform(0.25, 0.4)
    lamp = np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * (0.6 * w) ** 2))
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (1.1 * w) ** 2
    vignette = 1 / (1 + r2) ** 2
    return ((0.62 + 0.42 * lamp) * vignette).astype(np.float32)


def visitor_shadow(geometry: TrayGeometry, rng: np.random.Generator) -> np.ndarray:
    """A visitor leaning over the tray from one of its sides: a head and shoulders' shadow, 40-80%
    of the light, its edge 4-60 px soft (sharp under a spotlight, soft under a broad lamp).
    (h, w) float32 factors on the light, 1 where the shadow does not fall."""
    h, w = geometry.height, geometry.width
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = int(rng.integers(4))  # the side the visitor stands at
    along = rng.uniform(0.25, 0.75)
    cx, cy = [(along * w, -0.05 * h), (1.05 * w, along * h), (along * w, 1.05 * h),
              (-0.05 * w, along * h)][side]  # fmt: skip
    rx, ry = w * rng.uniform(0.18, 0.35), h * rng.uniform(0.3, 0.6)
    if side % 2:
        rx, ry = h * rng.uniform(0.3, 0.6), w * rng.uniform(0.18, 0.35)
    inside = 1 - np.sqrt(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2)  # > 0 in the shadow
    softness = rng.uniform(4, 60) / min(rx, ry)
    cover = 1 / (1 + np.exp(np.clip(-inside / (softness / 4), -50, 50)))
    return (1 - rng.uniform(0.2, 0.6) * cover).astype(np.float32)


def sunbeam(geometry: TrayGeometry, rng: np.random.Generator) -> np.ndarray:
    """Sunlight through a window across the tray: a slanted band 1.3-2 times the light, warm
    (red up, blue down: each channel its own factor), its edges 10-40 px soft.
    (h, w, 3) float32 factors on the light (BGR), 1 where it does not fall."""
    h, w = geometry.height, geometry.width
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    turn = rng.uniform(-0.6, 0.6)  # the band's slant, x per y
    width = w * rng.uniform(0.1, 0.3)
    middle = w * rng.uniform(0.2, 0.8) + turn * (yy - h / 2)
    softness = rng.uniform(10, 40)
    across = np.abs(xx - middle) - width / 2  # < 0 inside the band
    cover = 1 / (1 + np.exp(np.clip(across / (softness / 4), -50, 50)))
    gain = rng.uniform(1.3, 2.0)
    warm = np.array([0.8, 1.0, 1.15], np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    return (1 + cover[..., None] * (gain * warm - 1)).astype(np.float32)


def render_background(
    geometry: TrayGeometry, rng: np.random.Generator, floor_colour: np.ndarray, surface: str
) -> tuple[np.ndarray, np.ndarray]:
    """The empty tray under its light: (image float32 (h, w, 3) 0..1, light map (h, w))."""
    h, w = geometry.height, geometry.width
    shape = (h, w)
    x0, y0, x1, y1 = geometry.floor
    d = geometry.die

    table = wood(rng, shape, np.float32([0.05, 0.09, 0.16]), np.float32([0.10, 0.17, 0.28]), d)
    rim = wood(rng, shape, np.float32([0.16, 0.30, 0.45]), np.float32([0.28, 0.46, 0.62]), d / 2)
    if surface == "wood":
        floor = wood(rng, shape, floor_colour * 0.7, floor_colour * 1.2, d * 0.8, vertical=True)
    else:
        floor = felt(rng, shape, floor_colour)

    # Each layer is blended into the image in place: at 1280x720 a float32 picture is 11 MB,
    # and every `a * b + c` made three more, which the kiosk's peak memory kept.
    image = table
    inner, outer = geometry.rim_rects()
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(outer * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    alpha = (mask.astype(np.float32) / 255)[..., None]
    image *= 1 - alpha
    image += rim * alpha

    # Inner walls: from the floor edge up to the rim's inner edge, shaded by their facing.
    base = geometry.floor_polygon().astype(np.float64)
    walls = [(0, 1, np.array([0, 1, 0])), (1, 2, np.array([-1, 0, 0]))]
    walls += [(2, 3, np.array([0, -1, 0])), (3, 0, np.array([1, 0, 0]))]
    for a, b, normal in walls:
        quad = np.array([base[a], base[b], inner[b], inner[a]])
        shade = 0.55 + 0.5 * max(0.0, float(normal @ LIGHT))
        mask[:] = 0
        cv2.fillPoly(mask, [np.round(quad * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        image *= 1 - alpha
        image += rim * shade * 0.8 * alpha
    del rim

    # The floor, darkened towards the walls (ambient occlusion) and by the rim's soft shadow.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    to_wall = np.minimum.reduce([xx - x0, x1 - xx, yy - y0, y1 - yy])
    occlusion = 1 - 0.35 * np.exp(-np.clip(to_wall, 0, None) / (0.5 * d))
    shadow_x = np.clip((xx - x0) / (0.9 * d), 0, 1)
    shadow_y = np.clip((yy - y0) / (1.2 * d), 0, 1)
    rim_shadow = 0.75 + 0.25 * np.minimum(shadow_x, shadow_y)
    del yy, xx, to_wall, shadow_x, shadow_y
    floor *= (occlusion * rim_shadow)[..., None]
    mask[:] = 0
    cv2.fillPoly(mask, [np.round(base * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    alpha = (mask.astype(np.float32) / 255)[..., None]
    image *= 1 - alpha
    image += floor * alpha
    del floor

    light = illumination(geometry, rng)
    image *= light[..., None]
    image = cv2.GaussianBlur(image, (0, 0), 0.6)  # lens softness
    return np.clip(image, 0, 1, out=image), light


def noise_bank(
    rng: np.random.Generator, shape: tuple[int, int], sigma: float, count: int = 4
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Sensor noise, precomputed: (add, subtract) uint8 pairs applied with saturation."""
    bank = []
    for _ in range(count):
        noise = rng.normal(0, sigma, (*shape, 3))
        for top in range(0, shape[0], 64):  # luminance grain shared by channels, drawn in
            rows = noise[top : top + 64]  # strips (the same draws): no second whole frame
            rows += rng.normal(0, sigma * 0.6, (*rows.shape[:2], 1))
        steps = np.round(noise, out=noise).astype(np.int16)
        del noise, rows  # a 1280x720 frame's float64 noise, 22 MB, gone before the next
        bank.append(
            (np.clip(steps, 0, 255).astype(np.uint8), np.clip(-steps, 0, 255).astype(np.uint8))
        )
    return bank
