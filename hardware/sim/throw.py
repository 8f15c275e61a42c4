"""A throw of three dice, simulated once and then looked up by time.

The dice fly in over the near rim, bounce on the floor, tumble (rolling over their edges),
bounce off the rim and each other, then lie flat. The faces they end on are chosen by turning
each die's labels (a cube symmetry), so the chosen values come up without any jump on screen.
Hazards replace the last part of one die's path with a pose a referee must refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from hardware.sim.dice import AXES, STANDARD_LABELS, DiePose, relabel_for, up_axis
from hardware.sim.scene import TrayGeometry

STEP = 1 / 240  # simulation step, seconds
GRAVITY_M = 9.81
DIE_M = 0.016  # a 16 mm die


class Hazard(StrEnum):
    """Throws a referee must not announce (except TOUCHING, which may be read if clear)."""

    COCKED = "cocked"  # a die leans against the rim
    OUTSIDE = "outside"  # a die ends on the rim or on the table outside the tray
    TOUCHING = "touching"  # two dice side by side, face against face
    STACKED = "stacked"  # a die rests on another
    NOT_MOVED = "not_moved"  # a "non-throw": the dice lie where the last throw left them


@dataclass(frozen=True)
class Throw:
    """Poses of the three dice at every step; the last step is the resting state."""

    poses: list[tuple[DiePose, ...]]
    hazard: Hazard | None = None

    @property
    def duration(self) -> float:
        return (len(self.poses) - 1) * STEP

    def at(self, elapsed: float) -> tuple[DiePose, ...]:
        index = int(np.clip(elapsed / STEP + 1e-6, 0, len(self.poses) - 1))
        return self.poses[index]

    @property
    def final(self) -> tuple[DiePose, ...]:
        return self.poses[-1]

    def values(self) -> tuple[int, ...]:
        return tuple(pose.top_value() for pose in self.final)


def rotate(rotation: np.ndarray, rvec: np.ndarray) -> np.ndarray:
    """`rotation` turned by the rotation vector `rvec` (world axes)."""
    if not np.any(rvec):
        return rotation
    turn, _ = cv2.Rodrigues(np.asarray(rvec, np.float64).reshape(3, 1))
    return turn @ rotation


def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation vector taking pose `a` to pose `b`."""
    rvec, _ = cv2.Rodrigues(b @ a.T)
    return rvec.ravel()


def yaw(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def support(rotation: np.ndarray, side: float) -> float:
    """Height of the centre above the floor when the lowest corner touches it."""
    return float(np.abs(rotation[2]).sum() * side / 2)


def flat_pose(rotation: np.ndarray) -> np.ndarray:
    """The nearest pose lying flat on a face: the same face up, the tilt removed."""
    pointing = rotation @ AXES[up_axis(rotation)]
    cross = np.cross(pointing, [0, 0, 1.0])
    sin = float(np.linalg.norm(cross))
    if sin < 1e-9:
        return rotation
    return rotate(rotation, cross / sin * np.arctan2(sin, pointing[2]))


def simulate(
    geometry: TrayGeometry,
    values: tuple[int, int, int],
    rng: np.random.Generator,
    hazard: Hazard | None = None,
    previous: tuple[DiePose, ...] | None = None,
) -> Throw:
    """Throw three dice that come to rest showing `values` (with a hazard, one die will not)."""
    if hazard is Hazard.NOT_MOVED and previous is not None:
        return _stir(previous, geometry.die, rng)
    side = geometry.die
    x0, y0, x1, y1 = geometry.floor
    gravity = GRAVITY_M * side / DIE_M
    n = 3
    pos = np.zeros((n, 3))
    vel = np.zeros((n, 3))
    spin = np.zeros((n, 3))
    rot = [yaw(rng.uniform(0, 2 * np.pi)) @ rotate(np.eye(3), rng.normal(0, 2, 3)) for _ in "abc"]
    # The players sit on the long sides: a throw comes in over the near rim, from a hand.
    towards = 1.0 if rng.random() < 0.5 else -1.0  # +1: from the top edge, -1: from the bottom
    hand_x = geometry.width / 2 + rng.uniform(-0.3, 0.3) * (x1 - x0)
    aim = rng.normal(0, 0.25)
    for i in range(n):
        entry = -0.3 * side - rng.uniform(0, side)
        pos[i] = [
            hand_x + rng.normal(0, 0.8 * side),
            entry if towards > 0 else geometry.height - entry,
            geometry.rim_height + rng.uniform(2.0, 3.0) * side,
        ]
        speed = rng.uniform(20, 38) * side
        heading = aim + rng.normal(0, 0.12)
        vel[i] = [
            speed * np.sin(heading),
            towards * speed * np.cos(heading),
            rng.uniform(0, 6) * side,
        ]
        spin[i] = rng.normal(0, 18, 3)
    state = ["air"] * n  # air -> roll -> settle -> rest
    settle_from: list[np.ndarray | None] = [None] * n
    settle_t = [0.0] * n
    poses: list[tuple[DiePose, ...]] = []
    friction = 0.06 * gravity
    roll_stop = 7.0 * side
    t = 0.0
    while True:
        for i in range(n):
            speed = float(np.hypot(*vel[i, :2]))
            if state[i] == "air":
                vel[i, 2] -= gravity * STEP
                pos[i] += vel[i] * STEP
                rot[i] = rotate(rot[i], spin[i] * STEP)
                floor_z = support(rot[i], side)
                inside = x0 < pos[i, 0] < x1 and y0 < pos[i, 1] < y1
                if inside and pos[i, 2] <= floor_z and vel[i, 2] < 0:
                    pos[i, 2] = floor_z
                    if vel[i, 2] < -3 * side:  # a bounce: lose energy, new tumble
                        vel[i, 2] *= -0.3
                        vel[i, :2] *= 0.8
                        spin[i] = rng.normal(0, 12, 3)
                    else:
                        state[i] = "roll"
            elif state[i] == "roll":
                if speed > 0:
                    vel[i, :2] *= max(0.0, speed - friction * STEP) / speed
                pos[i, :2] += vel[i, :2] * STEP
                rolling = np.cross([0, 0, 1.0], [*vel[i, :2], 0]) / (side / 2) * 0.9
                rot[i] = rotate(rot[i], (rolling + [0, 0, spin[i, 2] * 0.3]) * STEP)
                pos[i, 2] = support(rot[i], side)
                if speed < roll_stop:
                    state[i] = "settle"
                    settle_from[i] = rot[i]
                    settle_t[i] = t
            elif state[i] == "settle":
                if speed > 0:
                    vel[i, :2] *= max(0.0, speed - 2 * friction * STEP) / speed
                pos[i, :2] += vel[i, :2] * STEP
                k = min(1.0, (t - settle_t[i]) / 0.1)
                start = settle_from[i]
                target = flat_pose(start)
                rot[i] = rotate(start, rotation_between(start, target) * k)
                spin[i, 2] *= 0.95
                rot[i] = rotate(rot[i], [0, 0, spin[i, 2] * 0.2 * STEP])
                settle_from[i] = rotate(settle_from[i], [0, 0, spin[i, 2] * 0.2 * STEP])
                pos[i, 2] = support(rot[i], side)
                if k >= 1 and np.hypot(*vel[i, :2]) < 1:
                    state[i] = "rest"
                    vel[i] = 0
            _walls(pos[i], vel[i], spin[i], rot[i], geometry, state[i], rng)
        _collide(pos, vel, state, side)
        poses.append(
            tuple(
                DiePose(pos[i].copy(), rot[i], STANDARD_LABELS, tuple(vel[i, :2])) for i in range(n)
            )
        )
        t += STEP
        if all(s == "rest" for s in state) or t > 8:
            break
    poses.append(
        tuple(DiePose(pos[i].copy(), flat_pose(rot[i]), STANDARD_LABELS) for i in range(n))
    )
    poses = _label(poses, values, rng)
    if hazard is not None and hazard is not Hazard.NOT_MOVED:
        poses = _apply_hazard(poses, hazard, geometry, rng)
    return Throw(poses, hazard)


def _stir(previous: tuple[DiePose, ...], side: float, rng) -> Throw:
    """A "non-throw": the dice are nudged and rock, then lie exactly as they were."""
    steps = int(0.6 / STEP)
    directions = rng.normal(0, 1, (len(previous), 2))
    poses = []
    for k in range(steps + 1):
        phase = np.sin(np.pi * k / steps)
        step = []
        for pose, direction in zip(previous, directions, strict=True):
            shift = np.array([*direction * 0.25 * side * phase, 0])
            turn = rotate(pose.rotation, [0, 0, 0.3 * phase * direction[0]])
            velocity = tuple(direction * 0.25 * side * np.pi / 0.6 * np.cos(np.pi * k / steps))
            step.append(DiePose(pose.centre + shift, turn, pose.labels, velocity))
        poses.append(tuple(step))
    poses.append(tuple(DiePose(p.centre, p.rotation, p.labels) for p in previous))
    return Throw(poses, Hazard.NOT_MOVED)


def _walls(pos, vel, spin, rot, geometry: TrayGeometry, state: str, rng) -> None:
    """Bounce off the rim's inner walls once the die is down inside the tray."""
    if state == "air" and pos[2] > geometry.rim_height + geometry.die / 2:
        return
    x0, y0, x1, y1 = geometry.floor
    corners = (rot @ (np.array([[1, 1, 1], [1, -1, 1], [-1, 1, 1], [-1, -1, 1]]).T)).T
    extent = np.abs(corners[:, :2]).max(axis=0) * geometry.die / 2
    for axis, low, high in ((0, x0, x1), (1, y0, y1)):
        if pos[axis] - extent[axis] < low:
            pos[axis] = low + extent[axis]
            if vel[axis] < 0:
                vel[axis] *= -0.45
                spin[:] = rng.normal(0, 10, 3) if state == "air" else spin
        elif pos[axis] + extent[axis] > high:
            pos[axis] = high - extent[axis]
            if vel[axis] > 0:
                vel[axis] *= -0.45
                spin[:] = rng.normal(0, 10, 3) if state == "air" else spin


def _collide(pos: np.ndarray, vel: np.ndarray, state: list[str], side: float) -> None:
    """Dice bounce off each other; they stay a little apart so each reads on its own."""
    gap = 1.55 * side
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            if state[i] == "air" or state[j] == "air":
                continue
            delta = pos[j, :2] - pos[i, :2]
            dist = float(np.hypot(*delta))
            if dist >= gap or dist == 0:
                continue
            normal = delta / dist
            push = (gap - dist) / 2
            pos[i, :2] -= normal * push
            pos[j, :2] += normal * push
            closing = float((vel[i, :2] - vel[j, :2]) @ normal)
            if closing > 0:
                impulse = normal * closing * 0.8
                vel[i, :2] -= impulse
                vel[j, :2] += impulse
                for k in (i, j):
                    if state[k] == "rest":
                        state[k] = "settle"


def _label(poses, values, rng) -> list[tuple[DiePose, ...]]:
    """Relabel each die (the same for the whole throw) so its resting up face shows the value."""
    final = poses[-1]
    labels = [
        relabel_for(STANDARD_LABELS, up_axis(final[i].rotation), values[i], rng) for i in range(3)
    ]
    return [
        tuple(DiePose(p.centre, p.rotation, labels[i], p.velocity) for i, p in enumerate(step))
        for step in poses
    ]


def _blend(poses, die: int, target: DiePose, seconds: float = 0.35):
    """Bend the end of one die's path so that it comes to rest in `target` instead."""
    count = min(len(poses) - 1, int(seconds / STEP))
    start = len(poses) - 1 - count
    end = poses[-1][die]
    turn = rotation_between(end.rotation, target.rotation)
    shift = target.centre - end.centre
    out = list(poses[:start])
    for k, step in enumerate(poses[start:], 1):
        w = k / (count + 1) if k <= count else 1.0
        w = w * w * (3 - 2 * w)
        p = step[die]
        moved = DiePose(p.centre + shift * w, rotate(p.rotation, turn * w), p.labels, p.velocity)
        out.append(tuple(moved if i == die else q for i, q in enumerate(step)))
    final = list(out[-1])
    final[die] = DiePose(target.centre, target.rotation, target.labels)
    out[-1] = tuple(final)
    return out


def _apply_hazard(poses, hazard: Hazard, geometry: TrayGeometry, rng) -> list:
    side = geometry.die
    x0, y0, x1, y1 = geometry.floor
    final = poses[-1]
    die = int(rng.integers(3))
    me = final[die]
    others = [final[i] for i in range(3) if i != die]
    if hazard is Hazard.COCKED:
        # Lean against the nearest wall: bottom edge on the felt, top edge on the rim.
        wall = int(np.argmin([me.centre[0] - x0, x1 - me.centre[0], me.centre[1] - y0,
                              y1 - me.centre[1]]))  # fmt: skip
        toward = [np.array([-1.0, 0, 0]), np.array([1.0, 0, 0])]
        toward += [np.array([0, -1.0, 0]), np.array([0, 1.0, 0])]
        out = toward[wall]
        tilt = rng.uniform(0.35, 0.6)
        axis = np.cross([0, 0, 1.0], out)
        rotation = rotate(flat_pose(me.rotation), axis * tilt)
        corners = (rotation @ (np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1)
                                          for z in (-1, 1)]).T * side / 2)).T  # fmt: skip
        centre = me.centre.copy()
        centre[2] = -corners[:, 2].min()
        limit = [x0, x1, y0, y1][wall]
        index = 0 if wall < 2 else 1
        reach = (corners[:, index] * out[index]).max()
        centre[index] = limit - out[index] * reach
        target = DiePose(centre, rotation, me.labels)
    elif hazard is Hazard.OUTSIDE:
        rotation = flat_pose(me.rotation)
        centre = me.centre.copy()
        if rng.random() < 0.5:  # on the rim top
            centre[1] = y1 + geometry.rim_width / 2
            centre[2] = geometry.rim_height + side / 2
        else:  # on the table beyond the rim
            centre[1] = y1 + geometry.rim_width + 0.85 * side
            centre[2] = side / 2
        centre[0] = np.clip(centre[0], x0 + side, x1 - side)
        target = DiePose(centre, rotation, me.labels)
    elif hazard is Hazard.TOUCHING:
        other = others[0]
        rotation = flat_pose(other.rotation)
        sides = [axis for axis in rotation.T if abs(axis[2]) < 0.5]
        sides += [-axis for axis in sides]  # the four horizontal directions out of its faces
        third = others[1].centre[:2]

        def room(direction: np.ndarray) -> float:
            c = other.centre[:2] + direction[:2] * side
            inside = min(c[0] - x0, x1 - c[0], c[1] - y0, y1 - c[1]) - 0.75 * side
            return min(inside, np.hypot(*(c - third)) - 1.5 * side)

        order = rng.permutation(4)
        direction = max((sides[i] for i in order), key=room)
        centre = other.centre + direction * side
        centre[2] = side / 2
        spin = rng.choice([0, np.pi / 2, np.pi, 3 * np.pi / 2])
        target = DiePose(centre, rotate(rotation, [0, 0, spin]), me.labels)
    elif hazard is Hazard.STACKED:
        other = others[0]
        angle = rng.uniform(0, 2 * np.pi)
        offset = rng.uniform(0.15, 0.35) * side * np.array([np.cos(angle), np.sin(angle), 0])
        centre = other.centre + offset
        centre[2] = side * 1.5
        rotation = rotate(flat_pose(me.rotation), [0, 0, rng.uniform(0, np.pi / 2)])
        target = DiePose(centre, rotation, me.labels)
    else:
        return poses
    poses = _blend(poses, die, target)
    if hazard is Hazard.STACKED:  # draw the upper die last
        poses = [tuple(sorted(step, key=lambda p: p.centre[2])) for step in poses]
    return poses
