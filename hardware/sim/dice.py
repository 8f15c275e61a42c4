"""One die drawn as a real cube: perspective, shaded side faces, soft shadow, motion blur.

A die's pose is a centre in floor pixels (x, y, z) and a rotation matrix; the faces it shows
are the ones turned towards the camera, each a pip texture warped onto its projected corners.
Standard dice: opposite faces add up to 7.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.sim.scene import LIGHT, TrayGeometry

# Body axes (the die's own frame) and the value each face shows before any relabelling.
AXES = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], float)
STANDARD_LABELS = (1, 6, 2, 5, 3, 4)
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
TEXTURE = 96  # face texture side in pixels
SUPERSAMPLE = 2


def cube_rotations() -> list[np.ndarray]:
    """The 24 rotations that map a cube onto itself (signed permutation matrices, det +1)."""
    result = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = sign
            if np.linalg.det(m) > 0:
                result.append(m)
    return result


ROTATIONS = cube_rotations()


def axis_index(vector: np.ndarray) -> int:
    """Which body axis (index into AXES) a unit vector is closest to."""
    return int(np.argmax(AXES @ vector))


def up_axis(rotation: np.ndarray) -> int:
    """The body axis that points most upwards for a die in this pose."""
    return int(np.argmax((rotation @ AXES.T)[2]))


def relabel_for(labels: tuple[int, ...], axis: int, value: int, rng: np.random.Generator):
    """Labels of the same physical die turned so that body axis `axis` shows `value`.

    Turning the labels by a cube rotation keeps a real die's layout; any of the four turns
    that work is fine (it changes which way the 2, 3 and 6 point).
    """
    options = []
    for q in ROTATIONS:
        new = tuple(labels[axis_index(q @ a)] for a in AXES)
        if new[axis] == value:
            options.append(new)
    return options[int(rng.integers(len(options)))]


def face_corners(axis: int) -> np.ndarray:
    """A face's four corners in body units (half side 1), in texture order (4, 3)."""
    normal = AXES[axis]
    u = np.array([1.0, 0, 0]) if abs(normal[0]) < 0.5 else np.array([0, 1.0, 0])
    v = np.cross(normal, u)
    return np.array([normal - u - v, normal + u - v, normal + u + v, normal - u + v])


FACE_CORNERS = [face_corners(i) for i in range(6)]
CUBE_CORNERS = np.array(list(itertools.product((-1, 1), repeat=3)), float)


def face_texture(value: int, die: np.ndarray, pip: np.ndarray) -> np.ndarray:
    """A face as premultiplied BGRA float32 (T, T, 4): rounded square, concave pips."""
    t = TEXTURE
    big = 4 * t
    alpha = np.zeros((big, big), np.uint8)
    radius = int(0.16 * big)
    cv2.rectangle(alpha, (radius, 0), (big - radius, big), 255, -1)
    cv2.rectangle(alpha, (0, radius), (big, big - radius), 255, -1)
    for cx in (radius, big - radius):
        for cy in (radius, big - radius):
            cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    pips = np.zeros((big, big), np.uint8)
    rims = np.zeros((big, big), np.uint8)
    for dx, dy in PIPS[value]:
        centre = (int(big * (0.5 + 0.27 * dx)), int(big * (0.5 + 0.27 * dy)))
        pip_radius = int(0.088 * big) if value != 1 else int(0.11 * big)
        cv2.circle(pips, centre, pip_radius, 255, -1, cv2.LINE_AA)
        # The lit lower-right inside edge of a drilled pip.
        cv2.circle(rims, (centre[0] + 3, centre[1] + 4), pip_radius, 255, -1, cv2.LINE_AA)
    small = cv2.resize(np.dstack([alpha, pips, rims]), (t, t), interpolation=cv2.INTER_AREA)
    a, p, r = (small[..., i].astype(np.float32) / 255 for i in range(3))
    edge = cv2.GaussianBlur(a, (0, 0), t * 0.04)  # rounded edges read darker
    colour = die[None, None, :] * (0.8 + 0.2 * edge[..., None])
    inside = np.clip(p - r, 0, 1)[..., None]
    pit = pip[None, None, :] * (1 - inside * 0.35) + die[None, None, :] * inside * 0.1
    colour = colour * (1 - p[..., None]) + pit * p[..., None]
    return np.dstack([colour * a[..., None], a]).astype(np.float32)


@dataclass
class DieLook:
    """Colours (BGR 0..1) and the six pip textures of a die."""

    die: np.ndarray
    pip: np.ndarray

    def __post_init__(self) -> None:
        self.textures = {v: face_texture(v, self.die, self.pip) for v in range(1, 7)}


@dataclass(frozen=True)
class DiePose:
    """Where a die is: centre (x, y, z) in floor pixels, rotation, labels of its body faces."""

    centre: np.ndarray
    rotation: np.ndarray
    labels: tuple[int, ...] = STANDARD_LABELS
    velocity: tuple[float, float] = (0.0, 0.0)  # floor pixels per second, for motion blur

    def corners(self, side: float) -> np.ndarray:
        return self.centre + (self.rotation @ (CUBE_CORNERS.T * side / 2)).T

    def top_value(self) -> int:
        return self.labels[up_axis(self.rotation)]


def resting(pose: DiePose, side: float) -> bool:
    """Does the die rest on the floor (a face or an edge on it), not on a die, a rim or air?"""
    return float(pose.corners(side)[:, 2].min()) < 0.05 * side


def _region(frame: np.ndarray, points: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
    """The frame's box (x0, y0, x1, y1) about the points with `pad` px around, or None where
    it is under 2 px."""
    x0, y0 = np.floor(points.min(axis=0) - pad).astype(int)
    x1, y1 = np.ceil(points.max(axis=0) + pad).astype(int)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def draw_shadow(frame: np.ndarray, pose: DiePose, geometry: TrayGeometry) -> None:
    """Darken what lies under and beside one die (uint8 BGR `frame`, in place): a soft shadow
    along the light and a darker contact shadow. Drawn before the dice over it: the top faces
    of equal dice lie in one plane, so a die's shadow never falls on a neighbour's top face."""
    side = geometry.die
    corners3 = pose.corners(side)
    base_z = float(corners3[:, 2].min())
    shadow_offset = np.array([0.18, 0.24]) * (corners3[:, 2:3] - base_z)
    shadow_pts = geometry.project(
        np.column_stack([corners3[:, :2] + shadow_offset, np.full(8, base_z)])
    )
    box = _region(frame, shadow_pts, 0.35 * side + 4)
    if box is None:
        return
    x0, y0, x1, y1 = box
    roi = frame[y0:y1, x0:x1].astype(np.float32) / 255
    rh, rw = roi.shape[:2]
    origin = np.array([x0, y0], float)
    shadow = np.zeros((rh, rw), np.float32)
    hull = cv2.convexHull(np.round((shadow_pts - origin) * 4).astype(np.int32))
    cv2.fillConvexPoly(shadow, hull, 0.5, cv2.LINE_AA, shift=2)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.14 * side)
    footprint = np.zeros((rh, rw), np.float32)
    bottom = corners3[corners3[:, 2] < base_z + 0.2 * side]
    if len(bottom) >= 3:
        hull = cv2.convexHull(np.round((geometry.project(bottom) - origin) * 4).astype(np.int32))
        cv2.fillConvexPoly(footprint, hull, 0.45, cv2.LINE_AA, shift=2)
        shadow += cv2.GaussianBlur(footprint, (0, 0), 0.06 * side)
    roi *= 1 - np.clip(shadow, 0, 0.8)[..., None]
    frame[y0:y1, x0:x1] = np.clip(roi * 255 + 0.5, 0, 255).astype(np.uint8)


def draw_die(
    frame: np.ndarray,
    pose: DiePose,
    look: DieLook,
    geometry: TrayGeometry,
    light: np.ndarray,
    exposure: float,
) -> None:
    """Draw one die and its motion blur into `frame` (uint8 BGR, in place); its shadow is
    draw_shadow's."""
    side = geometry.die
    corners2 = geometry.project(pose.corners(side))
    velocity = np.asarray(pose.velocity, float)
    streak = velocity * exposure
    blur = float(np.hypot(*streak))

    # Region of interest: the die and the blur streak, with a margin.
    box = _region(frame, corners2, 0.35 * side + blur / 2 + 4)
    if box is None:
        return
    x0, y0, x1, y1 = box
    h, w = frame.shape[:2]
    roi = frame[y0:y1, x0:x1].astype(np.float32) / 255
    rh, rw = roi.shape[:2]
    origin = np.array([x0, y0], float)
    lit = float(light[int(np.clip(corners2[:, 1].mean(), 0, h - 1)),
                      int(np.clip(corners2[:, 0].mean(), 0, w - 1))])  # fmt: skip

    # The die itself, drawn supersampled: body silhouette, then the faces that face the camera.
    ss = SUPERSAMPLE
    layer = np.zeros((rh * ss, rw * ss, 4), np.float32)
    local = (corners2 - origin) * ss
    body = np.zeros((rh * ss, rw * ss), np.float32)
    cv2.fillConvexPoly(body, cv2.convexHull(np.round(local).astype(np.int32)), 1.0)
    body = cv2.GaussianBlur(body, (0, 0), 0.045 * side * ss)
    body = np.clip((body - 0.5) * 3 + 0.5, 0, 1)  # rounds the silhouette's corners
    layer[..., :3] = look.die * 0.42 * body[..., None]
    layer[..., 3] = body
    camera = np.array([*geometry.centre, geometry.camera_height])
    for axis in range(6):
        normal = pose.rotation @ AXES[axis]
        centre = pose.centre + normal * side / 2
        if normal @ (camera - centre) <= 0:
            continue
        quad3 = pose.centre + (pose.rotation @ (FACE_CORNERS[axis].T * side / 2)).T
        quad2 = (geometry.project(quad3) - origin) * ss
        fx0, fy0 = np.maximum(np.floor(quad2.min(axis=0)).astype(int) - 1, 0)
        fx1, fy1 = np.minimum(np.ceil(quad2.max(axis=0)).astype(int) + 2, [rw * ss, rh * ss])
        if fx1 <= fx0 or fy1 <= fy0:
            continue
        t = TEXTURE
        src = np.float32([[0, 0], [t, 0], [t, t], [0, t]])
        matrix = cv2.getPerspectiveTransform(src, (quad2 - [fx0, fy0]).astype(np.float32))
        face = cv2.warpPerspective(
            look.textures[pose.labels[axis]], matrix, (fx1 - fx0, fy1 - fy0), flags=cv2.INTER_LINEAR
        )
        shade = 0.42 + 0.62 * max(0.0, float(normal @ LIGHT))
        face[..., :3] *= shade
        under = layer[fy0:fy1, fx0:fx1]
        under *= 1 - face[..., 3:4]
        under += face
    layer = cv2.resize(layer, (rw, rh), interpolation=cv2.INTER_AREA)
    layer[..., :3] *= lit

    if blur > 1.0:
        length = int(np.ceil(blur)) | 1
        kernel = np.zeros((length, length), np.float32)
        direction = streak / blur
        for s in np.linspace(-blur / 2, blur / 2, length * 2):
            kx, ky = length // 2 + direction * s
            kernel[int(round(ky)), int(round(kx))] = 1
        layer = cv2.filter2D(layer, -1, kernel / kernel.sum())

    out = layer[..., :3] + roi * (1 - layer[..., 3:4])
    frame[y0:y1, x0:x1] = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
