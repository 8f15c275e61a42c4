"""Calibration helpers for the maintenance screen: where the tray floor is, how big a die looks,
and whether the picture is good enough to read dice in.

All take frames as arrays and return plain values; `calibrate(empty)` puts them together into a
`vision.calibration.Calibration` (which saves and loads itself). Failures raise
`CalibrationError` with a sentence the maintenance screen can show as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from vision.calibration import Calibration, CalibrationError
from vision.reading import Roll

WORK_WIDTH = 640  # the tray is found on a copy at most this wide: its outline to a pixel
QUALITY_WIDTH = 640  # exposure and focus are measured at this width, whatever the camera's
MIN_TRAY = 0.1  # a tray floor smaller than this fraction of the frame is not believed
MIN_SOLIDITY = 0.9  # a floor region filling less of its convex hull leaked out of the tray
# The floor's border is an edge this much stronger than the strongest grain in the middle of
# the floor (its 99.9th percentile), and at least MIN_EDGE (Sobel of Lab, after a blur).
EDGE_OVER_GRAIN = 1.6
MIN_EDGE = 8.0
MAX_GRAIN = 80.0  # grain stronger than this in the middle: clutter or dice, not a bare floor


def _bgr(frame: np.ndarray, what: str) -> np.ndarray:
    """The frame as BGR uint8, or a CalibrationError naming `what` it was meant to be."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.size == 0:
        raise CalibrationError(f"the {what} is not an image (a uint8 array)")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise CalibrationError(f"the {what} has shape {frame.shape}, expected (h, w, 3) BGR")


def _shrunk(image: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The image at most `width` wide (area-averaged) and the scale applied."""
    h, w = image.shape[:2]
    if w <= width:
        return image, 1.0
    scale = width / w
    size = (width, max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


# --- the tray ------------------------------------------------------------------------------


def find_tray(empty: np.ndarray) -> np.ndarray:
    """The tray floor's outline in an empty-tray frame: polygon (N, 2) int32, frame pixels.

    The camera looks down into the tray, so the floor is the smooth region around the middle
    of the frame; the raised rim shows as a strong edge (in brightness or colour) all round
    it. The floor is first taken as the region reachable from the middle without crossing such
    an edge (felt grain, a light falloff and sensor noise are weak edges after a blur); then a
    watershed between that region and the other smooth regions puts the border on the crest of
    the edge band between them. The answer is the convex hull (trays are rectangles, rounded
    or oval).
    """
    image = _bgr(empty, "empty-tray frame")
    small, scale = _shrunk(image, WORK_WIDTH)
    edges = _edges(small)
    count, labels = cv2.connectedComponents(1 - edges, connectivity=4)
    floor = _central_label(labels, count)
    if floor is None:
        raise CalibrationError("no tray floor found around the middle of the picture")
    # Watershed: the floor, against every other smooth region, decides the edge bands.
    markers = np.where(labels == floor, 1, np.where(edges > 0, 0, 2)).astype(np.int32)
    cv2.watershed(cv2.GaussianBlur(small, (0, 0), 1.0), markers)
    floor_side = cv2.dilate((markers == 1).astype(np.uint8), np.ones((3, 3), np.uint8))
    region = (floor_side & (markers != 2)).astype(np.uint8)  # the crest line is the border
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    if cv2.contourArea(hull) < MIN_TRAY * small.shape[0] * small.shape[1]:
        raise CalibrationError(
            "the tray floor found is too small: is the camera looking down into the tray?"
        )
    if cv2.contourArea(contour) < MIN_SOLIDITY * cv2.contourArea(hull):
        raise CalibrationError(
            "the tray's edge is not clear all round: empty the tray, light it evenly, and "
            "keep other things out of the picture"
        )
    outline = cv2.approxPolyDP(hull, 1.0, True).reshape(-1, 2)  # within a pixel of the hull
    h, w = image.shape[:2]
    polygon = np.round((outline + 0.5) / scale - 0.5)
    polygon[:, 0] = polygon[:, 0].clip(0, w - 1)
    polygon[:, 1] = polygon[:, 1].clip(0, h - 1)
    return polygon.astype(np.int32)


def _edges(small: np.ndarray) -> np.ndarray:
    """uint8 mask (1) of the strong edges: in any of the L, a, b channels, an edge this much
    stronger than that channel's grain in the middle of the picture (the floor). Judging each
    channel against its own grain keeps a striped wooden floor (lightness grain) from hiding
    the colour edge to its rim, and a grey-on-grey tray still has its lightness edge."""
    lab = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32), (0, 0), 3)
    h, w = lab.shape[:2]
    edges = np.zeros((h, w), bool)
    for channel in cv2.split(lab):
        strength = cv2.magnitude(
            cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3),
        )
        middle = strength[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3]
        grain = float(np.percentile(middle, 99.9))
        if grain > MAX_GRAIN:
            raise CalibrationError(
                "the middle of the picture is not a plain tray floor: empty the tray, and "
                "point the camera straight down into it"
            )
        edges |= strength > max(MIN_EDGE, EDGE_OVER_GRAIN * grain)
    return cv2.dilate(edges.astype(np.uint8), np.ones((3, 3), np.uint8))


def _central_label(labels: np.ndarray, count: int) -> int | None:
    """The non-edge region covering most of the middle ninth of the picture, if any."""
    h, w = labels.shape
    middle = labels[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3]
    votes = np.bincount(middle.ravel(), minlength=count)
    votes[0] = 0  # label 0 is the edges
    best = int(np.argmax(votes))
    return best if votes[best] > 0 else None


# --- the die size --------------------------------------------------------------------------


def die_size_from_roll(roll: Roll) -> float | None:
    """The median top-face side of the dice a reading found, or None if it found none."""
    sizes = [die.size for die in roll.dice if die.size > 0]
    return float(np.median(sizes)) if sizes else None


def die_size_from_frame(
    frame: np.ndarray, empty: np.ndarray, tray: np.ndarray | None = None
) -> float:
    """The side of a die's top face, in pixels, from a frame with dice lying apart on the tray
    and the same tray empty.

    What differs from the empty tray is split into blobs; in each, the top face is the part
    that differs most (Otsu's threshold on the change inside the blob), which leaves out the
    die's shaded sides and its shadow. The answer is the median side of the square faces, so
    dice touching one another (an oblong face pair) do not count."""
    image = _bgr(frame, "frame with dice")
    reference = _bgr(empty, "empty-tray frame")
    if image.shape != reference.shape:
        raise CalibrationError("the frame with dice and the empty-tray frame differ in size")
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab_empty = cv2.cvtColor(reference, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab_empty[..., 0] *= cv2.mean(lab[..., 0])[0] / max(1.0, cv2.mean(lab_empty[..., 0])[0])
    change = cv2.GaussianBlur(np.sqrt(((lab - lab_empty) ** 2).sum(axis=2)), (0, 0), 1.0)
    mask = (change > 30).astype(np.uint8)
    if tray is not None:
        inside = np.zeros_like(mask)
        cv2.fillPoly(inside, [np.asarray(tray, np.int32).reshape(-1, 1, 2)], 1)
        mask &= inside
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, blobs = cv2.connectedComponents(mask)
    level = np.clip(change, 0, 255).astype(np.uint8)
    sides = []
    for blob in range(1, count):
        where = blobs == blob
        if np.count_nonzero(where) < 36:
            continue
        otsu, _ = cv2.threshold(level[where].reshape(1, -1), 0, 255, cv2.THRESH_OTSU)
        face = (where & (level > otsu)).astype(np.uint8)
        face = cv2.morphologyEx(face, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_, _), (a, b), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        if min(a, b) >= 6 and max(a, b) <= 1.3 * min(a, b):
            sides.append(float(np.sqrt(a * b)))
    if not sides:
        raise CalibrationError("no die found: lay the dice apart on the tray, then try again")
    return float(np.median(sides))


# --- exposure and focus --------------------------------------------------------------------


class Verdict(StrEnum):
    """What the maintenance screen says about the picture; the value is a message key."""

    OK = "ok"
    TOO_DARK = "too_dark"
    TOO_BRIGHT = "too_bright"
    GLARE = "glare"
    OUT_OF_FOCUS = "out_of_focus"


@dataclass(frozen=True)
class QualityLimits:
    """Where the verdicts start. Sharpness depends on the scene: judge it with dice in the
    tray (pip edges), not on a bare felt floor."""

    dark_mean: float = 45.0  # mean grey below this: too dark
    dark_fraction: float = 0.5  # or more than this share of near-black pixels
    bright_mean: float = 215.0  # mean grey above this: too bright
    bright_fraction: float = 0.2  # or more than this share of clipped pixels
    glare_fraction: float = 0.002  # more than this share of clipped pixels: glare
    sharpness: float = 10.0  # noise-corrected Laplacian variance below this: out of focus


@dataclass(frozen=True)
class ImageQuality:
    """Exposure and focus of one frame, measured inside the tray when it is known.

    mean: mean grey level 0..255. dark: share of pixels below 16. clipped: share at 250 or
    above. noise: estimated sensor noise (grey levels, standard deviation). sharpness: variance
    of the Laplacian at 640 pixels wide, less the part the noise explains.
    """

    mean: float
    dark: float
    clipped: float
    noise: float
    sharpness: float
    verdict: Verdict


# Immerkaer's noise estimator: a kernel that cancels smooth shading and straight edges.
_NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)


def assess_image(
    frame: np.ndarray, tray: np.ndarray | None = None, limits: QualityLimits | None = None
) -> ImageQuality:
    """Measure exposure and focus, and give the first verdict that applies: too dark, too
    bright, glare, out of focus, else ok."""
    limits = limits or QualityLimits()
    grey = cv2.cvtColor(_bgr(frame, "frame"), cv2.COLOR_BGR2GRAY)
    grey, scale = _shrunk(grey, QUALITY_WIDTH)
    mask = np.full(grey.shape, 255, np.uint8)
    if tray is not None:
        mask[:] = 0
        polygon = np.round(np.asarray(tray, np.float64) * scale).astype(np.int32)
        cv2.fillPoly(mask, [polygon.reshape(-1, 1, 2)], 255)
    inside = max(1, cv2.countNonZero(mask))
    mean = cv2.mean(grey, mask)[0]
    dark = cv2.countNonZero(cv2.bitwise_and((grey < 16).astype(np.uint8) * 255, mask)) / inside
    clipped = cv2.countNonZero(cv2.bitwise_and((grey >= 250).astype(np.uint8) * 255, mask))
    clipped /= inside
    core = cv2.erode(mask, np.ones((3, 3), np.uint8))  # the filters need their neighbours
    residue = np.abs(cv2.filter2D(grey.astype(np.float32), -1, _NOISE_KERNEL))
    noise = float(np.sqrt(np.pi / 2) * cv2.mean(residue, core)[0] / 6)
    laplacian = cv2.Laplacian(grey, cv2.CV_32F)
    _, spread = cv2.meanStdDev(laplacian, mask=core)
    sharpness = float(spread[0, 0]) ** 2 - 20.0 * noise**2  # a 4-neighbour Laplacian: 20 s^2
    if mean < limits.dark_mean or dark > limits.dark_fraction:
        verdict = Verdict.TOO_DARK
    elif mean > limits.bright_mean or clipped > limits.bright_fraction:
        verdict = Verdict.TOO_BRIGHT
    elif clipped > limits.glare_fraction:
        verdict = Verdict.GLARE
    elif sharpness < limits.sharpness:
        verdict = Verdict.OUT_OF_FOCUS
    else:
        verdict = Verdict.OK
    return ImageQuality(mean, dark, clipped, noise, max(0.0, sharpness), verdict)


# --- all together --------------------------------------------------------------------------


def calibrate(
    empty: np.ndarray, dice: np.ndarray | None = None, die_size: float | None = None
) -> Calibration:
    """A Calibration from an empty-tray frame: its floor outline and the frame itself, and the
    die size from a frame with dice lying apart (or as given, e.g. from a reading)."""
    image = _bgr(empty, "empty-tray frame")
    tray = find_tray(image)
    if dice is not None and die_size is None:
        die_size = die_size_from_frame(dice, image, tray)
    return Calibration(tray=tray, die_size=die_size, empty=image.copy())
