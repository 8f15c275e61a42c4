"""The face patch the pips are sought in, and what stands in for its colour distance.

Contract: `face_patch_of(frame, face, p) -> FacePatch`, frame BGR uint8 (h, w, 3) at full
resolution, the Face in its pixels; the patch is `face_patch(p)` pixels a side, `face_px` a
face side, along the face's axes, its centre on the face's. Resampled once a face, it is read
along every colour axis (pips.find_spots). Where a colour split takes in a marbled face's
swirls with its pips, two other patches stand in for the colour distance: `blob_patch`, round
spots of a pip's size (a difference of Gaussians), and `learned_patch`, the learned pip
finder's map (pip_net.py). Either is split at a fixed level, not an Otsu split.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.colour import lab_distance, least_channel, median
from vision.params import PARAMS, PipParams
from vision.pip_net import PipMap
from vision.top_face import Face, resample, square


def face_patch(p: PipParams) -> int:
    """Side in pixels of the face patch pips are sought in."""
    return round(p.face_px * p.face_span)


@lru_cache(maxsize=4)
def masks(p: PipParams) -> tuple[np.ndarray, np.ndarray]:
    """The face inset (where the face colour is taken) and the pip search area (face patch)."""
    side = face_patch(p)
    inner = square(side, p.face_px * (0.5 - p.face_inset))
    area = square(side, p.face_px * p.pip_reach)
    return inner, area


@dataclass(frozen=True, slots=True)
class FacePatch:
    """A face resampled once for every colour axis its pips are sought along: the grey and Lab
    patch, the face colour, every pixel's colour distance from it, and its least channel."""

    grey: np.ndarray
    lab: np.ndarray
    colour: np.ndarray
    distance: np.ndarray
    least: np.ndarray
    matrix: np.ndarray | None = None  # 2x3 affine, frame -> patch pixels
    split_at: float | None = None  # pips are where `distance` exceeds this (None: an Otsu
    # split); set where distance is a response, not a colour distance (blob_patch,
    # learned_patch)
    apart: bool = False  # each spot is split at its peaks (a response runs pips together)


def face_patch_of(frame: np.ndarray, face: Face, p: PipParams = PARAMS.pips) -> FacePatch:
    """The face patch find_spots() reads: `face_px` pixels per face side, face axes."""
    inner_mask, _ = masks(p)
    patch, matrix = resample(frame, face.centre, face.angle, p.face_px / face.side, face_patch(p))
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    colour = median(lab[inner_mask > 0])
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    least = least_channel(patch)
    return FacePatch(grey, lab, colour, lab_distance(lab, colour), least, matrix)


@lru_cache(maxsize=4)
def _blob_gain(p: PipParams) -> float:
    """The blob response at the middle of a pip of unit contrast, the size of a die's middling
    pip (the middle of `pip_min`..`pip_max`, face sides): the response is divided by it, so it
    reads in the units of a colour distance and `min_contrast` bounds it as it does one."""
    side = face_patch(p)
    disc = np.zeros((side, side), np.float32)
    radius = (p.pip_min + p.pip_max) / 4 * p.face_px
    cv2.circle(disc, (side // 2, side // 2), max(1, round(radius)), 1.0, -1)
    return float(_blob(disc, p)[side // 2, side // 2])


def _blob(values: np.ndarray, p: PipParams) -> np.ndarray:
    """A difference of Gaussians at pip scale (`blob`, face sides): high on a round spot of a
    pip's size, low on a swirl, a streak or a slope, which are long in one direction."""
    inner, outer = (s * p.face_px for s in p.blob)
    return cv2.GaussianBlur(values, (0, 0), inner) - cv2.GaussianBlur(values, (0, 0), outer)


def blob_patch(patch: FacePatch, axis: int, p: PipParams = PARAMS.pips) -> FacePatch:
    """The face patch with its blob response as its distance: round spots of a pip's size that
    differ from the face in any way (axis -1) or along one colour axis (0..5, as find_spots),
    split at `blob_split` of the strongest on the face (a die's pips are of one size and one
    colour: they respond alike, marbling less). Where an Otsu split of the colour takes in a
    marbled or translucent face's swirls with its pips, this keeps the pips."""
    if axis < 0:
        values = patch.distance
    else:
        sign = 1.0 if axis % 2 == 0 else -1.0
        values = sign * (patch.lab[..., axis // 2] - patch.colour[axis // 2])
        values = values * (2.0 if axis >= 2 else 1.0)  # a, b span half of L's range
    response = np.maximum(_blob(values.astype(np.float32), p) / _blob_gain(p), 0.0)
    _, area = masks(p)
    top = float(response[area > 0].max())
    level = max(p.blob_split * top, p.min_contrast)
    return replace(patch, distance=response, split_at=level, apart=True)


def learned_patch(patch: FacePatch, pips: PipMap, p: PipParams = PARAMS.pips) -> FacePatch:
    """The face patch with the pip finder's map (pip_net.py, x 255) as its distance: the
    pips are then split from it as from a colour distance, and every check of the layout reads
    the map (a pip place holds a pip where the map says so)."""
    assert patch.matrix is not None
    to_patch = np.vstack([patch.matrix, [0, 0, 1]]) @ np.linalg.inv(
        np.vstack([pips.matrix, [0, 0, 1]])
    )
    side = patch.grey.shape[0]
    warped = cv2.warpAffine(
        pips.p * 255.0,
        to_patch[:2],
        (side, side),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    )
    return replace(
        patch, distance=warped.astype(np.float32), split_at=255.0 * p.learned_split, apart=True
    )
