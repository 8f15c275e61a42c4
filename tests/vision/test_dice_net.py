"""The die finder: where it points on drawn frames and real photos, at every scale, and its
failures (pips of a large die are not dice; a missing model says so; the cost is bounded)."""

from __future__ import annotations

import csv
import logging
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest
import synth

from vision import dice_net, reader
from vision.dice_net import find_dice
from vision.face_classifier import FaceClassifier
from vision.params import PARAMS
from vision.reader import read_roll
from vision.reading import RerollReason

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "dice-photos"
SURE_DIE = 0.3  # the heat at which the reader takes a candidate (the classifier then judges it)


@pytest.mark.parametrize("style", synth.STYLES, ids=lambda s: f"body{s.body}")
def test_points_at_each_drawn_die_and_nowhere_else(style):
    dice = [
        synth.DrawnDie(2, (150, 160), 44, 12),
        synth.DrawnDie(5, (340, 300), 50, 40),
        synth.DrawnDie(6, (500, 140), 40, 71),
    ]
    frame = synth.scene(dice, style, uneven=0.3)
    found = [c for c in find_dice(frame) if c.p_die >= SURE_DIE]
    assert len(found) == 3
    for die in dice:
        near = [c for c in found if np.hypot(*np.subtract(c.centre, die.centre)) < 0.3 * die.side]
        assert len(near) == 1, die
        assert 0.8 * die.side <= near[0].size <= 1.7 * die.side  # its box: up to 1.41 sides
    faces = FaceClassifier.load().classify_boxes(frame, [(*c.centre, c.size) for c in found])
    assert sorted(v for v, _ in faces) == [2, 5, 6]


def test_a_bare_tray_has_no_die():
    for style in synth.STYLES:
        assert not [c for c in find_dice(synth.tray(640, 480, style)) if c.p_die >= SURE_DIE]


def test_small_dice_are_read_again_larger():
    """Dice 20 px wide in a big frame: the second pass at a larger scale finds them whole."""
    frame = synth.three_dice((1, 4, 6), side=20.0, width=1280, height=720)
    found = [c for c in find_dice(frame) if c.p_die >= SURE_DIE]
    assert len(found) == 3
    assert all(0.8 * 20 <= c.size <= 1.7 * 20 for c in found)  # its box: up to 1.41 sides


@pytest.mark.parametrize(
    ("side", "width", "height"),
    [(20, 1280, 720), (60, 1280, 960), (150, 1200, 1000), (300, 1300, 1300)],
)
def test_finds_dice_from_20_to_300_px_without_being_told_their_size(side, width, height):
    """Three drawn dice, no die size given: each found once, its size about right, and no
    other sure candidate (a pip of a large die taken for a small die would be one)."""
    values = (6, 5, 4)
    frame = synth.three_dice(values, side=float(side), width=width, height=height)
    found = [c for c in find_dice(frame) if c.p_die >= SURE_DIE]
    places = [
        (0.25 * width, 0.35 * height),
        (0.55 * width, 0.6 * height),
        (0.78 * width, 0.3 * height),
    ]
    assert len(found) == 3, [(c.centre, c.size, c.p_die) for c in found]
    for place in places:
        near = [c for c in found if np.hypot(*np.subtract(c.centre, place)) < 0.3 * side]
        assert len(near) == 1, place
        assert 0.7 * side <= near[0].size <= 1.8 * side  # its box: up to 1.41 sides


def test_the_known_die_size_fixes_the_scale():
    """With a calibration's die size the frame is read once, at that scale: 150 px dice found."""
    frame = synth.three_dice((1, 2, 3), side=150.0, width=1200, height=1000)
    found = [c for c in find_dice(frame, die=150.0) if c.p_die >= SURE_DIE]
    assert len(found) == 3
    assert len(dice_net.levels(frame.shape, 150.0)) == 1


def test_a_small_frame_is_also_read_enlarged_and_a_large_one_never():
    """The finest level sees at most `long_side` pixels a side: a frame under that / 2.53 is
    read enlarged too (its dice of 10-16 px are then in the net's band, not at its edge), a
    larger one at its own size or smaller, so that the cost stays bounded whatever comes in."""
    small, photo = dice_net.levels((320, 320, 3), None), dice_net.levels((1209, 907, 3), None)
    assert small[0] > 2.0 and max(small) * 320 <= PARAMS.candidates.long_side
    assert (
        len(photo) == PARAMS.candidates.levels and max(photo) * 1209 <= PARAMS.candidates.long_side
    )
    assert dice_net.levels((640, 640, 3), None)[0] == 1.0


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
def test_small_touching_dice_in_a_small_photo_are_not_left_out():
    """byler IMG_20191209_095740.jpg at half size (320 px, dice 15-17 px, two of them
    touching): read at its own size the finder took one of the pair for an echo of the other
    and the photo was answered a die short; read enlarged too, every die is marked."""
    path = DATA / "byler-d6-topdown/images/train/IMG_20191209_095740.jpg"
    frame = cv2.resize(cv2.imread(str(path)), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    found = [c for c in find_dice(frame) if c.p_die >= SURE_DIE]
    assert any(abs(c.centre[0] - 160) < 8 and abs(c.centre[1] - 165) < 8 for c in found)
    roll = read_roll(frame, expect=None)
    assert not roll.ok or sorted(roll.values) == [1, 1, 2, 3, 4, 4, 5, 6, 6], roll


def test_noise_gives_a_bounded_answer_and_bad_frames_a_clear_error():
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (1300, 1300, 3), np.uint8)
    assert len(find_dice(noise)) <= PARAMS.candidates.max_candidates
    with pytest.raises(ValueError, match="BGR uint8"):
        find_dice(np.zeros((100, 100), np.uint8))


def dev_images(set_name: str) -> dict[Path, list]:
    """The development part (every image but each fourth, by path) and its boxes."""
    labels: dict[Path, list] = defaultdict(list)
    with open(DATA / set_name / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = DATA / set_name / "images" / row["split"] / row["image"]
            labels[path].append(tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    paths = sorted(labels)
    return {p: labels[p] for i, p in enumerate(paths) if i % 4 != 3}


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
@pytest.mark.parametrize("name", ["dice37.jpg", "dice26.jpg"])
def test_pips_of_a_large_six_are_not_dice(name):
    """Phone photos of one large 6 (280 and 240 px, development part of damiantab-phone): the
    finder points at the die once, at about its size, and at none of its pips (weak marks
    away from the die, on the carpet, are the classifier's to turn down)."""
    ((path, boxes),) = [(p, b) for p, b in dev_images("damiantab-phone").items() if p.name == name]
    ((x0, y0, x1, y1),) = boxes
    found = [
        c
        for c in find_dice(cv2.imread(str(path)))
        if c.p_die >= SURE_DIE and x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1
    ]
    assert len(found) == 1, [(c.centre, round(c.size), round(c.p_die, 2)) for c in found]
    (die,) = found
    assert x0 <= die.centre[0] <= x1 and y0 <= die.centre[1] <= y1
    assert 0.7 <= die.size / np.sqrt((x1 - x0) * (y1 - y0)) <= 1.4


def held_out(set_name: str) -> dict[Path, list]:
    labels: dict[Path, list] = defaultdict(list)
    with open(DATA / set_name / "annotations.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            path = DATA / set_name / "images" / row["split"] / row["image"]
            labels[path].append(tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    paths = sorted(labels)
    return {p: labels[p] for i, p in enumerate(paths) if i % 4 == 3}


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
def test_finds_held_out_byler_dice():
    """Photos the finder never trained on: most dice found, few points at no die."""
    labelled = found = extra = 0
    for path, boxes in held_out("byler-d6-topdown").items():
        candidates = [c for c in find_dice(cv2.imread(str(path))) if c.p_die >= SURE_DIE]
        labelled += len(boxes)
        hit = set()
        for c in candidates:
            inside = [
                i
                for i, (x0, y0, x1, y1) in enumerate(boxes)
                if x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1 and i not in hit
            ]
            if inside:
                hit.add(inside[0])
            else:
                extra += 1
        found += len(hit)
    assert found >= 0.9 * labelled
    assert extra <= 0.3 * labelled  # the face classifier turns these down (tests above)


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
def test_finds_held_out_phone_dice_of_every_size_at_their_size():
    """Phone photos the finder never trained on (damiantab-phone, held out): dice of 60 to
    300 px, where a pyramid's levels meet as well as inside their bands, are marked at about
    their size (half to twice the label's box), and hardly a pip of theirs is taken for a die."""
    labelled = found = pips = 0
    for path, boxes in held_out("damiantab-phone").items():
        candidates = [c for c in find_dice(cv2.imread(str(path))) if c.p_die >= 0.5]
        for x0, y0, x1, y1 in boxes:
            side = np.sqrt((x1 - x0) * (y1 - y0))
            inside = [c for c in candidates if x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1]
            labelled += 1
            found += any(0.5 <= c.size / side <= 2.0 for c in inside)
            pips += sum(c.size < 0.5 * side for c in inside)
    assert found >= 0.9 * labelled, (found, labelled)
    assert pips <= 0.15 * labelled, (pips, labelled)


def test_a_missing_model_refuses_every_roll_and_says_so_once(monkeypatch, tmp_path, caplog):
    """Two readings must agree: with the finder's model gone, nothing is announced on the pips
    alone; the roll says why, and the log says it once, not on every frame."""
    monkeypatch.setattr(dice_net, "MODEL", tmp_path / "none.onnx")
    with pytest.raises(FileNotFoundError, match="die finder model missing"):
        find_dice(synth.tray())
    reader._unavailable.cache_clear()
    frame = synth.three_dice((2, 3, 6))
    with caplog.at_level(logging.WARNING, logger="vision.reader"):
        rolls = [read_roll(frame, expect=3) for _ in range(3)]
    assert all(roll.reason is RerollReason.UNREADABLE and not roll.dice for roll in rolls)
    assert "models are missing" in rolls[0].detail
    warnings = [r for r in caplog.records if "reader unavailable" in r.getMessage()]
    assert len(warnings) == 1


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
@pytest.mark.parametrize(
    ("set_name", "name", "noise"),
    [
        ("damiantab-phone", "dice01.jpg", 0.0),
        ("damiantab-phone", "dice01.jpg", 6.0),
        ("byler-d6-topdown", "IMG_20191209_100039.jpg", 0.0),
    ],
)
def test_a_die_with_its_pips_marked_and_a_group_of_dice_are_told_apart(set_name, name, noise):
    """Development photos where the net marks a large box with smaller marks on it: five
    120 px dice whose pips it marks as surely as the dice (the die is kept, its pips are
    not), also with sensor noise (the classifier then calls a pip seen close a face of some
    value, never surely), and a box over a group of six small dice (the dice are kept, the
    box is not)."""
    ((path, boxes),) = [(p, b) for p, b in dev_images(set_name).items() if p.name == name]
    frame = cv2.imread(str(path))
    if noise:
        grain = np.random.default_rng(7).normal(0.0, noise, frame.shape)
        frame = np.clip(frame + grain, 0, 255).astype(np.uint8)
    found = [c for c in find_dice(frame) if c.p_die >= PARAMS.candidates.min_host]
    for x0, y0, x1, y1 in boxes:
        inside = [c for c in found if x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1]
        side = np.sqrt((x1 - x0) * (y1 - y0))
        assert any(0.7 <= c.size / side <= 1.6 for c in inside), (x0, y0, inside)
        assert not [c for c in inside if c.size < 0.5 * side], (x0, y0, inside)  # no pips
    largest = max(np.sqrt((x1 - x0) * (y1 - y0)) for x0, y0, x1, y1 in boxes)
    assert all(c.size < 2.5 * largest for c in found)  # no box over a group


@pytest.mark.parametrize("face_in", ["large", "small"])
def test_of_two_echoes_of_one_die_the_one_showing_a_face_stands(face_in):
    """Two levels mark one place at sizes twice apart, the smaller more surely: a die past the
    finer level's band, whose face or pip that level marks as a die, or a box over a group
    that the coarser level marks. The classifier (here a stand-in giving each box's face
    probability) tells which: the box it sees a face in stands, whichever is surer."""
    small = dice_net.Candidate((300.0, 200.0), 39.0, 0.82)
    large = dice_net.Candidate((301.0, 198.0), 78.0, 0.76)
    shown: list[list[float]] = []

    def is_face(boxes):
        if boxes:  # the large marks with smaller ones on them: none here
            shown.append([size for *_, size in boxes])
        faces = [(size > 50) == (face_in == "large") for *_, size in boxes]
        return [(0.99 if face else 0.02, None) for face in faces]

    kept = dice_net._merge([small, large], is_face, PARAMS.candidates, None)
    assert kept == [large if face_in == "large" else small]
    assert shown == [[39.0, 78.0]]  # asked once, about the two


def test_of_two_echoes_of_about_one_size_the_surer_stands_unasked():
    surer = dice_net.Candidate((300.0, 200.0), 50.0, 0.82)
    echo = dice_net.Candidate((302.0, 201.0), 60.0, 0.76)

    def is_face(boxes):
        assert not boxes, "echoes of about one size need no classifier"
        return []

    assert dice_net._merge([echo, surer], is_face, PARAMS.candidates, None) == [surer]


def test_the_classifier_is_shown_a_bounded_number_of_echoes_a_frame():
    """Noise, clutter: every mark may have an echo of another size. The classifier is asked
    about at most `max_hosts` pairs, whatever the frame holds."""
    marks = []
    for i in range(20):
        centre = (60.0 * i + 30.0, 100.0)
        marks += [dice_net.Candidate(centre, 20.0, 0.9), dice_net.Candidate(centre, 40.0, 0.8)]
    asked = []

    def is_face(boxes):
        asked.extend(boxes)
        return [(0.5, None)] * len(boxes)

    kept = dice_net._merge(marks, is_face, PARAMS.candidates, None)
    assert len(asked) == 2 * PARAMS.candidates.max_hosts
    assert len(kept) == 20


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
def test_a_large_die_filmed_hand_held_is_found_whole_in_every_frame():
    """A development photo of five ivory dice on carpet (the 1 about 80 px), as a hand-held
    phone films it (benchmarks/eval_filmed.py's camera: shake, wander, noise, exposure): the
    finest level, past whose band the die lies, marks its middle as a die of 39 px, as surely
    as the next level marks it whole; read in that small box the 1 showed no face to the
    classifier and the roll was refused as leaning in one frame of three."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from eval_filmed import Camera, frame_size, scaled

    (path,) = [p for p in dev_images("damiantab-phone") if p.name == "dice14.jpg"]
    photo = cv2.imread(str(path))
    scene = scaled(photo, frame_size(photo))
    camera = Camera(frame_size(scene), 1)
    for i in range(18):
        frame = camera(scene)
        if i % 3 == 0:
            roll = read_roll(frame, expect=None)
            assert roll.ok and sorted(d.value for d in roll.dice) == [1, 2, 3, 4, 5], (i, roll)
