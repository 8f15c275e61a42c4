"""The second source of candidates on a calibrated tray: what differs from the empty tray.

Contract: `tray_blobs(frame, empty, die, p, tray) -> TrayDifference`. frame and empty: BGR uint8
(h, w, 3), the same shape; die: a die's side in frame px (None: unknown); tray: the floor
polygon ((n, 2) int32 frame px) or None. `TrayDifference.outlines` are (n, 1, 2) int32 frame px;
`lit_area(outline)` is in frame px. It sees anything that came onto the tray, whatever it looks
like, independently of the die finder; vision/candidates.py joins the two.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import lab_distance, median
from vision.image import Halvings
from vision.params import PARAMS, CandidateParams
from vision.relight import light_field


class TrayDifference:
    """What differs from the empty tray, two ways.

    outlines: (n, 1, 2) int32 frame px, the light matched over the whole frame (a die's
        outline takes in its shadow, which shows a die at the wall leaning there).
    lit_area(outline): frame px inside an outline that still differ once the light is matched
        around each place (`_light`): a visitor's shadow is gone from them, a thing is not.
        Worked out on first use only: most frames hold only dice the finder marks.
    """

    def __init__(
        self,
        outlines: list[np.ndarray],
        now: np.ndarray,
        then: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None],
        scale: float,
        side: float,
        p: CandidateParams,
    ) -> None:
        self.outlines = outlines
        self.scale = scale  # working-copy px per frame px
        self._now, self._then, self._side, self._p = now, then, side, p
        self._lit: np.ndarray | None = None

    @property
    def lit(self) -> np.ndarray:
        """uint8 0/1, the working copy's size: what differs once the light is matched."""
        if self._lit is None:
            then, then_lab, then_median, floor = self._then
            distances = []
            for light in _light(
                self._now, then, self._side, self._p
            ):  # the least and most it may be
                lab = cv2.cvtColor(_relit(self._now, light), cv2.COLOR_BGR2LAB)
                lab = lab.astype(np.float32)
                if not distances:  # what is left, the white balance, is matched as a whole
                    shift = median(lab[::2, ::2].reshape(-1, 3)) - then_median
                distances.append(lab_distance(lab - shift, then_lab))
            self._lit = _blobs(np.minimum(*distances), floor, self._p)
        return self._lit

    def areas(
        self,
        outline: np.ndarray,
        centres: list[tuple[float, float]],
        radius: float,
        lit: bool,
    ) -> tuple[float, float]:
        """Frame px inside `outline`, and inside it within `radius` frame px of a centre: as
        found, or (lit) only what still differs once the light is matched around each place."""
        inside = self._inside(outline)
        if lit:
            inside &= self.lit
        disc = self._discs(centres, radius)
        square = self.scale**2
        return cv2.countNonZero(inside) / square, cv2.countNonZero(inside & disc) / square

    def deepest(
        self, outline: np.ndarray, centres: list[tuple[float, float]], radius: float
    ) -> tuple[tuple[float, float], float] | None:
        """The point (frame px) inside `outline` that still differs once the light is matched
        and lies deepest in it, discs of `radius` frame px about the centres left out; and its
        depth (frame px to the nearest pixel that does not differ, or to a disc). None where
        nothing is left. A die's middle is the deepest point of its own square, whatever the
        dice beside it: a disc cut out of a marked die leaves its neighbour's square whole."""
        left = self._inside(outline) & self.lit & (1 - self._discs(centres, radius))
        if not left.any():
            return None
        depth = cv2.distanceTransform(np.pad(left, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
        _, most, _, (x, y) = cv2.minMaxLoc(depth)
        return (x / self.scale, y / self.scale), most / self.scale

    def _discs(self, centres: list[tuple[float, float]], radius: float) -> np.ndarray:
        """uint8 0/1, the working copy's size: within `radius` frame px of a centre."""
        disc = np.zeros(self._now.shape[:2], np.uint8)
        for x, y in centres:
            middle = (round(x * self.scale), round(y * self.scale))
            cv2.circle(disc, middle, max(1, round(radius * self.scale)), 1, cv2.FILLED)
        return disc

    def _inside(self, outline: np.ndarray) -> np.ndarray:
        """uint8 0/1, the working copy's size: inside `outline` (frame px)."""
        inside = np.zeros(self._now.shape[:2], np.uint8)
        cv2.fillPoly(inside, [np.round(outline * self.scale).astype(np.int32)], 1)
        return inside

    def lit_area(self, outline: np.ndarray) -> float:
        """Frame px inside `outline` that still differ once the light is matched."""
        return self.areas(outline, [], 0.0, lit=True)[0]


def tray_blobs(
    frame: np.ndarray,
    empty: np.ndarray,
    die: float | None,
    p: CandidateParams = PARAMS.candidates,
    tray: np.ndarray | None = None,
    halvings: Halvings | None = None,
) -> TrayDifference:
    """What differs from the empty tray (TrayDifference).

    Both frames are shrunk so a die is about `p.work_die` px wide (or to a long side of
    `p.work_side` px when no die size is known) and their channels matched in median first: a change
    of light moves the whole floor, a die only its own patch; where that is not enough, also the
    light around each place. With the tray's floor polygon (`tray`) only what lies within
    `p.floor_reach` die sides of the floor counts: a sleeve on the rim, a phone beside the tray are
    not on it (and would otherwise refuse every roll as dice heaped). halvings: the frame's
    (image.Halvings), where the die finder shrinks it too; the empty tray is shrunk alike.
    """
    scale = min(1.0, p.work_die / die) if die else min(1.0, p.work_side / max(frame.shape[:2]))
    now = (halvings or Halvings(frame)).scaled(scale)
    reach = reference_side(frame.shape, die)
    then = _empty_lab(empty, scale, tray, p.floor_reach * reach)
    _, then_lab, then_median, floor = then
    now_lab = cv2.cvtColor(now, cv2.COLOR_BGR2LAB).astype(np.float32)
    shift = median(now_lab[::2, ::2].reshape(-1, 3)) - then_median
    mask = _blobs(lab_distance(now_lab - shift, then_lab), floor, p)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outlines = [np.round(c / scale).astype(np.int32) for c in contours]
    return TrayDifference(outlines, now, then, scale, scale * reach, p)


def reference_side(shape: tuple[int, ...], die: float | None) -> float:
    """A die's side in px, or where none is known a sixteenth of the frame's long side: the
    size that tells a speck from a thing, and how near the floor a thing counts."""
    return die or max(shape[:2]) / 16


def _blobs(distance: np.ndarray, floor: np.ndarray | None, p: CandidateParams) -> np.ndarray:
    """uint8 0/1: where `distance` marks something, near the floor, specks and gaps closed."""
    mask = (distance > p.tray_distance).astype(np.uint8)
    if floor is not None:
        mask &= floor
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)


def _light(
    now: np.ndarray, then: np.ndarray, side: float, p: CandidateParams
) -> tuple[np.ndarray, np.ndarray]:
    """How the light changed around each pixel of two 8-bit BGR images: the least and the most
    factor (float32 (h, w, 3), one a channel) the values were multiplied by within a sample step of
    the pixel, each the median over `p.light_span` die sides (`side` px) of samples (the mean of
    each `p.light_step`-square) that show the tray. Light multiplies linear values, and so a
    camera's 8-bit values (a power of them) too: a visitor's shadow every channel alike, a sunbeam
    or a warm lamp each by its own factor, over many dice, felt and wood alike, with an edge as
    sharp as a shadow's (a median keeps it, to within a sample step: hence a least and a most). A
    sample shows the tray where its colour (each channel's change less their mean) changed as the
    samples' around it did, within `p.light_tint` (a die, a thing changes it otherwise, and the
    samples around are mostly the tray); the others are left out of the median, their values
    alternately the darkest and the lightest, which pass over them."""
    h, w = now.shape[:2]
    step = p.light_step
    size = (max(1, w // step), max(1, h // step))
    a, b = (cv2.resize(x, size, interpolation=cv2.INTER_AREA) for x in (now, then))
    a, b = a.astype(np.float32) + 1, b.astype(np.float32) + 1  # each the mean of a step's square
    ratio = np.log2(a / b)  # stops each channel changed by
    stops = np.clip(128 + 32 * ratio, 1, 254).astype(np.uint8)  # in 1/32 stops
    k = max(3, 2 * round(p.light_span * side / step / 2) + 1)
    tint = ratio - ratio.mean(axis=2, keepdims=True)  # what changed besides the brightness
    coded = np.clip(128 + 64 * tint, 0, 255).astype(np.uint8)
    local = np.dstack([cv2.medianBlur(np.ascontiguousarray(coded[..., c]), k) for c in range(3)])
    own = np.abs(coded.astype(np.int16) - local).max(axis=2) < 64 * p.light_tint
    odd = (np.indices(own.shape).sum(axis=0) % 2).astype(np.uint8) * 255
    fields = light_field(np.where(own[..., None], stops, odd[..., None]), k)
    return tuple(cv2.resize(f, now.shape[1::-1], interpolation=cv2.INTER_LINEAR) for f in fields)


def _relit(bgr: np.ndarray, light: np.ndarray) -> np.ndarray:
    """8-bit BGR as it would be with its values divided by `light` (float32 (h, w, 3))."""
    return np.clip(bgr / light + 0.5, 0, 255).astype(np.uint8)


_EMPTY: dict[tuple, tuple] = {}


def _empty_lab(
    empty: np.ndarray, scale: float, tray: np.ndarray | None, reach: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """The empty tray shrunk by `scale` as the frame is (BGR) and in Lab, its median colour,
    and the mask (uint8 0/1, of the shrunk size) of the floor grown by `reach` frame px (None
    without a floor), made once per calibration (the kiosk reads every settled frame against
    the same empty frame)."""
    key = (id(empty), id(tray), scale, round(reach, 1))
    cached = _EMPTY.get(key)
    if cached is None or cached[0] is not empty or cached[1] is not tray:
        small = Halvings(empty).scaled(scale)
        size = (small.shape[1], small.shape[0])
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        floor = None
        if tray is not None:
            to_small = np.array([size[0] / empty.shape[1], size[1] / empty.shape[0]])
            points = np.asarray(tray, np.float64).reshape(-1, 2) * to_small
            floor = np.zeros((size[1], size[0]), np.uint8)
            cv2.fillPoly(floor, [np.round(points).astype(np.int32)], 1)
            r = max(1, round(reach * float(to_small.mean())))
            grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
            floor = cv2.dilate(floor, grow)
        if len(_EMPTY) > 4:
            _EMPTY.clear()
        middle = median(lab[::2, ::2].reshape(-1, 3))
        cached = _EMPTY[key] = (empty, tray, small, lab, middle, floor)
    return cached[2], cached[3], cached[4], cached[5]
