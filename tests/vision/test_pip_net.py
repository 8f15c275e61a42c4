"""The learned pip finder (vision/pip_net.py) and its place in the geometric reading (face.py)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from benchmarks.eval_photos import DEFAULT_DATA, load_labels, split
from tests.vision.synth import PIPS, STYLES, DrawnDie, scene
from vision.face import read_pips
from vision.faces import LAYOUTS
from vision.layout import lay_out, map_spots
from vision.params import PARAMS
from vision.photo import leaning_limits
from vision.pip_net import INPUT, PX, PipMap, PipNet, die_patch
from vision.reader import read_roll
from vision.reading import Die, RerollReason
from vision.strays import learned_strays
from vision.top_face import Face
from vision.types import Candidate, DieVerdict, FaceGuess, PipReading


def _map_at(pip_map, x: float, y: float) -> float:
    q = pip_map.matrix @ np.array([x, y, 1.0])
    i, j = round(q[1]), round(q[0])
    return float(pip_map.p[max(i - 1, 0) : i + 2, max(j - 1, 0) : j + 2].max())


@pytest.mark.parametrize("style", STYLES, ids=lambda s: str(s.body))
@pytest.mark.parametrize("value", [2, 5, 6])
def test_map_marks_drawn_pips_and_not_the_plain_face(style, value):
    side, angle = 44.0, 23.0
    centre = (160.0, 120.0)
    frame = scene([DrawnDie(value, centre, side, angle)], style, 320, 240)
    pip_map = PipNet.load().pip_map(frame, centre, side * 1.1)
    a = 0.27 * side * np.exp(1j * np.radians(angle))
    nine = {(gx, gy) for gx in (-1, 0, 1) for gy in (-1, 0, 1)}
    for gx, gy in nine:
        z = complex(*centre) + a * complex(gx, gy)
        p = _map_at(pip_map, z.real, z.imag)
        if (gx, gy) in set(PIPS[value]):
            assert p > 0.5, (gx, gy, p)
        else:
            assert p < 0.5, (gx, gy, p)
    far = _map_at(pip_map, centre[0] + 0.7 * side, centre[1] + 0.7 * side)  # the tray
    assert far < 0.5


def test_die_patch_maps_frame_to_patch_pixels():
    frame = np.zeros((300, 400, 3), np.uint8)
    frame[148:153, 248:253] = 255  # a bright dot at (250, 150)
    for size in (20.0, 40.0, 200.0):  # enlarged, as is, and area-averaged
        patch, matrix = die_patch(frame, (240.0, 140.0), size, PX, 1.6)
        assert patch.shape == (INPUT, INPUT, 3)
        q = matrix @ np.array([250.0, 150.0, 1.0])
        grey = patch[..., 0].astype(float)
        if grey.max() == 0:
            continue  # shrunk past a pixel's worth
        ys, xs = np.nonzero(grey >= grey.max() * 0.5)
        assert abs(xs.mean() - q[0]) < 1.5 and abs(ys.mean() - q[1]) < 1.5, size


def test_missing_model_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="pip finder"):
        PipNet.load.__wrapped__(tmp_path / "none.onnx")


def _byler_dev(count: int):
    """The first `count` development images of byler-d6-topdown, in path order, with labels."""
    set_dir = DEFAULT_DATA / "byler-d6-topdown"
    if not (set_dir / "annotations.csv").exists():
        pytest.skip(f"photo set not found: {set_dir}")
    dev, _ = split(load_labels(set_dir))
    return sorted(dev.items())[:count]


def test_learned_map_reads_real_dice_the_colour_split_cannot():
    """On real marbled and translucent dice the colour split takes swirls and side faces' pips
    for pips; on the learned map the same layout checks read more of them, and none wrong
    (held to a single photo's limits on a leaning die, as the reader holds these photos)."""
    right = {True: 0, False: 0}
    wrong = {True: 0, False: 0}
    for path, labels in _byler_dev(16):
        frame = cv2.imread(str(path))
        for value, x0, y0, x1, y1 in labels:
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            candidate = Candidate(centre, float(np.sqrt((x1 - x0) * (y1 - y0))), 0.9)
            for learned in (True, False):
                colour = replace(PARAMS.pips, learned=learned, blobs=False)
                reading = read_pips(frame, candidate, colour, leaning_limits(None))
                right[learned] += reading.value == value
                wrong[learned] += reading.value not in (None, value)
    assert right[True] >= right[False] + 5, right
    assert wrong[True] <= wrong[False], wrong


def _read(value: int, centre, side: float, face: Face) -> DieVerdict:
    reading = PipReading(value, 0.9, face, None, "", value)
    guess = FaceGuess(value, 0.99, 0.99)
    die = Die(value, face.centre, face.side, 0.9)
    return DieVerdict(Candidate(centre, side, 0.9), reading, guess, die, None, "")


@pytest.mark.parametrize("style", STYLES[:3], ids=lambda s: str(s.body))
def test_learned_strays_are_the_pips_of_a_touching_die_not_found(style):
    """A die the finder missed, touching one it found: its pips lie within the found die's
    reach. The learned map marks them and they lie on no read face: strays. Alone, the die
    read leaves none (its own pips are on its face)."""
    side = 40.0
    read = DrawnDie(5, (150.0, 120.0), side, 8.0)
    missed = DrawnDie(4, (150.0 + 0.5 * side, 120.0 + 1.02 * side), side, 8.0)
    face = Face(read.centre, side, 8.0, 1.0, 0.8)
    verdicts = [_read(5, read.centre, side * 1.15, face)]
    alone = scene([read], style, 320, 240)
    assert learned_strays(alone, verdicts) == []
    touching = scene([read, missed], style, 320, 240)
    strays = learned_strays(touching, verdicts)
    assert strays, "no stray pip found"
    for x, y in strays:  # all of them the missed die's
        assert np.hypot(x - missed.centre[0], y - missed.centre[1]) < 0.6 * side


def test_learned_strays_do_not_pull_a_missed_die_off_its_face():
    """matteop65 valid_56.jpg turned a quarter: a die seen edge-on, whose pips the colour
    strays find, and a pip the pip finder marks on a read die's side nearby. Grouped
    together, their centre would lie between the two and be no face; grouped apart, the
    edge-on die is seen (`wrong_count`, or `cocked` where its pips are found as round spots;
    the finder may also mark it itself, and its pips fit no face: `unreadable`, or `blur`
    where its edges, seen edge-on, are as wide as a blurred face's), and the photo is refused
    rather than answered one die short."""
    path = DEFAULT_DATA / "matteop65-webcam-oblique/images/valid/valid_56.jpg"
    if not path.exists():
        pytest.skip(f"photo not found: {path}")
    frame = cv2.rotate(cv2.imread(str(path)), cv2.ROTATE_90_CLOCKWISE)
    roll = read_roll(frame, expect=None)
    refused = (
        RerollReason.WRONG_COUNT,
        RerollReason.COCKED,
        RerollReason.UNREADABLE,
        RerollReason.BLUR,
    )
    assert roll.reason in refused, (roll.reason, roll.detail)


def _drawn_map(points: list[complex], sigma: float) -> PipMap:
    """A pip map with a Gaussian mark at each point (box sides about its centre), the marks
    added and the map scaled to a peak of 1."""
    yy, xx = np.mgrid[0:INPUT, 0:INPUT].astype(np.float32)
    p = np.zeros((INPUT, INPUT), np.float32)
    for z in points:
        x, y = INPUT / 2 + PX * z.real, INPUT / 2 + PX * z.imag
        p += np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * sigma**2))
    return PipMap(p / p.max(), np.eye(2, 3))


def test_map_spots_split_marks_run_together_at_their_peaks():
    """A small die's 6, its pips in each line run together into one long mark: one pip per
    peak, of one size."""
    a = 0.2 * np.exp(1j * np.radians(20))
    six = [a * z for z in LAYOUTS[6]]
    pip_map = _drawn_map(six, sigma=0.07 * PX)
    marks = cv2.connectedComponents((pip_map.p > PARAMS.pips.learned_split).astype(np.uint8))[0]
    assert marks - 1 < 6  # the marks did run together
    centres, diameters = map_spots(pip_map)
    assert len(centres) == 6
    found = centres[:, 0] + 1j * centres[:, 1]
    assert max(min(abs(found - z)) for z in six) < 0.03
    assert diameters.max() < PARAMS.pips.pip_ratio * diameters.min()


def test_the_maps_own_layout_frames_the_face():
    """The marks of a 5 turned 30 degrees, off the box's middle, lay out its face: centre
    and turn, in frame pixels (a box of 50 px at (100, 80))."""
    a, middle = 0.22 * np.exp(1j * np.radians(30)), 0.08 - 0.05j
    pip_map = _drawn_map([middle + a * z for z in LAYOUTS[5]], sigma=0.04 * PX)
    candidate = Candidate((100.0, 80.0), 50.0, 1.0)
    framed = lay_out(*map_spots(pip_map), candidate)
    assert framed is not None
    (x, y), angle = framed
    assert abs(x - (100 + 50 * middle.real)) < 1.5 and abs(y - (80 + 50 * middle.imag)) < 1.5
    assert min(abs(angle - 30) % 90, 90 - abs(angle - 30) % 90) < 3
