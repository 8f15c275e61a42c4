"""Pips no die found accounts for: a second source of candidates for single photos.

On the kiosk's tray the empty-tray difference sees every die the finder misses. A single photo
has no empty tray, so a die the finder misses would silently drop out of an `expect=None` read.
The pips of the dice read say what a pip looks like in this photo: its size and how strongly
it stands out (dark on light dice, or light on dark). A spot like them anywhere else, away from
every candidate, is a pip of a die nobody found, and the read is refused.

Spots are grouped as pips of one face (closer than `StrayParams.group` face sides), and each
group's centre, the face's centre for a face seen whole, is where a missed die would be:
`missed_dice` gives those groups as boxes for the face classifier, which tells a die's face
from a shoe's pattern or a knot in the wood.

A die the finder missed touching one it found has its pips within that die's reach, where
they pass for its sides'. The learned pip finder (pip_net.py) marks top-face pips and seldom a
side's: `learned_strays` runs it on every die read, and a pip it marks outside that die's face
and every other die's is a stray too (its groups held to a surer face, missed_dice).

Contract: `stray_pips(frame, verdicts, p) -> list[(x, y)]` and `learned_strays(...)` in frame
pixels; `missed_dice(...) -> list[(x, y, side, p_face needed)]`; pure but for the model loaded once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.image import downsize
from vision.params import PARAMS, Params
from vision.pip_net import PipNet
from vision.pips import is_round
from vision.top_face import Face
from vision.types import DieVerdict


def pip_sized(diameter, face: float, p: Params = PARAMS):
    """Is a spot `diameter` across (a float or an array of them) of a pip's size on a face
    `face` wide, in the same units? `strays.pip` face sides, give or take `strays.size_ratio`:
    the dice of one photo are of one set, and its pips of one size."""
    pip = p.strays.pip * face
    return (diameter >= pip / p.strays.size_ratio) & (diameter <= pip * p.strays.size_ratio)


def stray_pips(
    frame: np.ndarray, verdicts: Sequence[DieVerdict], p: Params = PARAMS
) -> list[tuple[float, float]]:
    """Where pips like those of the dice read lie, outside every die and candidate, in scan
    order."""
    read = [v for v in verdicts if v.die is not None and v.pips is not None and v.pips.pips]
    if not read:
        return []
    face = float(np.median([v.die.size for v in read]))
    scale = min(1.0, p.strays.face_px / max(face, 1.0))
    size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
    grey = cv2.cvtColor(downsize(frame, size), cv2.COLOR_BGR2GRAY)
    k = max(3, round(p.strays.kernel * face * scale) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    points = [(x * scale, y * scale) for v in read for x, y in v.pips.pips]
    rows, cols = grey.shape
    at = [(min(max(int(y), 0), rows - 1), min(max(int(x), 0), cols - 1)) for x, y in points]
    taken = [
        (v.candidate.centre, p.strays.clear * max(v.candidate.size, v.die.size if v.die else 0.0))
        for v in verdicts
        if v.counts or v.die is not None or v.detail == "part of a die read"
    ]
    strays = []
    # each polarity apart (dark pips on light dice, light on dark): a missed die may have the
    # other's, and the light face between dark pips must not join them
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        response = cv2.morphologyEx(grey, op, kernel)
        strength = max(float(np.median([response[r, c] for r, c in at])), 0.0)
        level = max(p.strays.min_response, p.strays.share * strength)
        spots = (response >= level).astype(np.uint8)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
        for i in range(1, count):
            _, _, w, h, n = stats[i]
            diameter = 2 * np.sqrt(n / np.pi)
            if not pip_sized(diameter, face * scale, p):
                continue
            if not is_round(w, h, n, fill=0.5, ratio=1.8):
                continue  # grain, an edge, a letter
            x, y = centroids[i] / scale
            if all(np.hypot(x - cx, y - cy) > reach for (cx, cy), reach in taken):
                strays.append((float(x), float(y)))
    return strays


def on_face(face: Face, x: float, y: float, margin: float) -> bool:
    """Is (x, y) on `face` (frame pixels), its square widened by `margin` face sides a side?"""
    z = (complex(x, y) - complex(*face.centre)) / face.axes
    return max(abs(z.real), abs(z.imag)) <= 0.5 + margin


def learned_strays(
    frame: np.ndarray, verdicts: Sequence[DieVerdict], p: Params = PARAMS
) -> list[tuple[float, float]]:
    """Pips the learned pip finder marks beside the dice read, on no read die's face and away
    from every other candidate."""
    read = [v for v in verdicts if v.die is not None and v.pips is not None and v.pips.face]
    faces = [v.pips.face for v in read]
    others = [
        (v.candidate.centre, p.strays.clear * v.candidate.size)
        for v in verdicts
        if v.die is None and (v.counts or v.detail == "part of a die read")
    ]
    net = PipNet.load()
    strays: list[tuple[float, float]] = []
    for v in read:
        found = net.pip_map(frame, v.candidate.centre, v.candidate.size)
        spots = (found.p >= p.pips.learned_split).astype(np.uint8)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
        back = cv2.invertAffineTransform(found.matrix)
        for i in range(1, count):
            if stats[i, cv2.CC_STAT_AREA] < p.strays.learned_area:
                continue
            x, y = back @ np.array([*centroids[i], 1.0])
            if any(on_face(f, x, y, p.strays.own_margin) for f in faces):
                continue
            if any(np.hypot(x - cx, y - cy) <= reach for (cx, cy), reach in others):
                continue
            if all(np.hypot(x - a, y - b) > 2 for a, b in strays):  # seen from two dice
                strays.append((float(x), float(y)))
    return strays


def missed_dice(
    frame: np.ndarray, verdicts: Sequence[DieVerdict], p: Params = PARAMS
) -> list[tuple[float, float, float, float]]:
    """Boxes (centre x, centre y, die side) where groups of stray pips may be a missed die,
    each with the classifier's probability of a face that makes it one: the groups of
    stray_pips (`strays.face`), then those of learned_strays (`strays.learned_face`: the pip
    finder marks a side face's pips now and then, and a side seen in perspective is a face to
    the classifier about as often), at most `strays.most` of each. The two are grouped apart:
    a spot one of them alone sees would move the other's group off the face it found."""
    read = [v for v in verdicts if v.die is not None]
    if not read:
        return []
    face = float(np.median([v.die.size for v in read]))
    side = float(np.median([v.candidate.size for v in read]))
    faces = [v.pips.face for v in read if v.pips is not None and v.pips.face is not None]
    boxes = []
    for strays, sure in (
        (stray_pips(frame, verdicts, p), p.strays.face),
        (learned_strays(frame, verdicts, p), p.strays.learned_face),
    ):
        # a die's middle never lies on another's top face (two dice cannot share a place):
        # a group there is the read die's own rim or side seen again, not a die missed, and
        # takes none of the `most` looks
        groups = _grouped(strays, p.strays.group * face)
        off = [(x, y) for x, y in groups if not any(on_face(f, x, y, 0.0) for f in faces)]
        centres = off[: p.strays.most]
        boxes += [(x, y, side, sure) for x, y in centres]
    return boxes


def _grouped(strays: list[tuple[float, float]], reach: float) -> list[tuple[float, float]]:
    """The centres of the groups of points closer than `reach` (chains of them: the connected
    parts of the nearness graph), the largest first, of equal size the one whose last point
    comes first. Points are binned into cells `reach` wide, so each is compared with those of its
    own and the eight cells around it only: the cost grows with the points, not their square."""
    if not strays or reach <= 0:
        return [(float(x), float(y)) for x, y in strays]
    parent = list(range(len(strays)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cells: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(strays):
        cx, cy = math.floor(x / reach), math.floor(y / reach)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in cells.get((cx + dx, cy + dy), ()):
                    if math.hypot(x - strays[j][0], y - strays[j][1]) < reach:
                        parent[root(j)] = root(i)
        cells.setdefault((cx, cy), []).append(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(strays)):
        groups.setdefault(root(i), []).append(i)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[-1]))
    centres = [np.mean([strays[i] for i in g], axis=0) for g in ordered]
    return [(float(c[0]), float(c[1])) for c in centres]
