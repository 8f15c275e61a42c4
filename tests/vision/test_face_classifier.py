"""The die-face classifier: drawn dice read right, blank tray rejected, real held-out floor."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import synth

from vision.face_classifier import (
    CALIBRATION,
    INPUT,
    MODELS,
    FaceClassifier,
    crop_die,
    softmax,
)

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "dice-photos"

# Colours the training never drew on purpose (training used random colours with a luma gap).
STYLES = synth.STYLES + (
    synth.Style(body=(160, 60, 20), pip=(250, 250, 250), tray=(120, 120, 120)),  # blue die
    synth.Style(body=(40, 200, 230), pip=(20, 20, 20), tray=(70, 40, 30)),  # yellow die
)


@pytest.fixture(scope="module")
def classifier() -> FaceClassifier:
    return FaceClassifier.load()


def drawn(value: int, style: synth.Style, side: float, angle: float) -> np.ndarray:
    frame = synth.tray(240, 240, style, seed=value)
    synth.draw_die(frame, synth.DrawnDie(value, (120.3, 119.6), side, angle), style)
    return crop_die(frame, (120.3, 119.6), side)


@pytest.mark.parametrize("style", STYLES, ids=lambda s: f"{s.body}-{s.pip}")
def test_drawn_dice_read_right(classifier, style):
    wrong = []
    for value in range(1, 7):
        for side, angle in ((40, 0), (48, 17), (64, 33), (56, 71)):
            answer, p = classifier.classify(drawn(value, style, side, angle))
            if answer != value:
                wrong.append((value, side, angle, answer, round(p, 2)))
    assert not wrong


def test_blank_tray_and_clutter_are_not_faces(classifier):
    for style in STYLES:
        answer, _ = classifier.classify(crop_die(synth.tray(200, 200, style), (100, 100), 48))
        assert answer is None
    # a piece of a six (two pips)
    frame = synth.tray(300, 300, synth.IVORY_ON_GREEN)
    synth.draw_die(frame, synth.DrawnDie(6, (100, 150), 48), synth.IVORY_ON_GREEN)
    assert classifier.classify(crop_die(frame, (100, 150), 20))[0] is None


def test_crops_between_two_dice_are_never_surely_read(classifier):
    """Two dice side by side, cropped anywhere between them at about a die's size (random
    colours, sizes, turns): never a face the reader's rule (every view agreeing, mean p 0.8)
    takes, and seldom even the likeliest answer of one view."""
    rng = np.random.default_rng(5)
    crops = []
    for k in range(150):
        style = synth.Style(*(tuple(int(c) for c in rng.integers(0, 256, 3)) for _ in range(3)))
        if abs(float(np.mean(style.body)) - float(np.mean(style.pip))) < 70:
            style = synth.Style(style.body, tuple(255 - c for c in style.body), style.tray)
        side, angle = rng.uniform(32, 64), rng.uniform(0, 90)
        turn = rng.uniform(0, 2 * np.pi)
        step = rng.uniform(1.0, 1.15) * side * np.array([np.cos(turn), np.sin(turn)])
        first = np.array([150.0, 150.0])
        frame = synth.tray(300, 300, style, seed=k)
        for centre in (first, first + step):
            die = synth.DrawnDie(int(rng.integers(1, 7)), tuple(centre), side, angle)
            synth.draw_die(frame, die, style)
        between = first + rng.uniform(0.3, 0.7) * step
        crops.append(crop_die(frame, tuple(between), side * rng.uniform(0.9, 1.4)))
    mean, agree = classifier.views(np.array(crops))
    value = mean.argmax(axis=1)
    sure = (value != 0) & (mean[np.arange(len(value)), value] >= 0.8) & agree
    assert not sure.any()
    raw = classifier.probabilities(np.array(crops)).argmax(axis=1)
    assert np.mean(raw != 0) <= 0.05


def test_cocked_die_is_not_a_face(classifier):
    frame = synth.tray(240, 240, synth.IVORY_ON_GREEN)
    synth.draw_die(frame, synth.DrawnDie(5, (120, 120), 48, 10, tilt=55), synth.IVORY_ON_GREEN)
    assert classifier.classify(crop_die(frame, (120, 120), 48))[0] is None


def test_any_patch_size_and_batch(classifier):
    style = synth.RED_ON_LIGHT
    frame = synth.tray(400, 300, style)
    boxes = [(100.0, 100.0, 48.0), (250.0, 150.0, 48.0), (330.0, 240.0, 48.0)]
    for value, (x, y, s) in zip((2, 4, 6), boxes, strict=True):
        synth.draw_die(frame, synth.DrawnDie(value, (x, y), s, 25), style)
    assert [a for a, _ in classifier.classify_boxes(frame, boxes)] == [2, 4, 6]
    assert classifier.classify_boxes(frame, []) == []
    big = crop_die(frame, (250, 150), 48)
    big = np.repeat(np.repeat(big, 2, axis=0), 2, axis=1)  # 96 px: resized to INPUT
    assert big.shape[0] == 2 * INPUT
    assert classifier.classify(big)[0] == 4


def test_each_view_is_the_crop_turned_or_mirrored(classifier):
    """The views are cut from the normalised crops (normalised once): each must be exactly what
    the network answers to the crop itself turned and mirrored so."""
    from vision.face_classifier import VIEWS

    style = synth.RED_ON_LIGHT
    crops = np.array([drawn(v, style, 44, 17.0 * v) for v in (2, 3, 6)])
    seen = classifier.view_logits(crops, len(VIEWS))
    for view, (k, mirrored) in enumerate(VIEWS):
        turned = np.rot90(crops, k, axes=(1, 2))[:, :, :: -1 if mirrored else 1]
        expected = classifier.logits(np.ascontiguousarray(turned))
        assert np.allclose(seen[view], expected[0], atol=1e-3), (k, mirrored)


def test_a_face_sure_in_its_first_view_is_answered_from_it_alone(classifier):
    """With `one_look`, a crop whose first view reads a face value that surely is answered
    from that view; every other crop (a blank tray, a die read less surely) gets exactly the
    answer of all its views."""
    style = synth.IVORY_ON_GREEN
    frame = synth.tray(400, 300, style)
    boxes = [(100.0, 100.0, 48.0), (250.0, 150.0, 48.0)]
    for value, (x, y, s) in zip((3, 5), boxes, strict=True):
        synth.draw_die(frame, synth.DrawnDie(value, (x, y), s, 25), style)
    crops = [crop_die(frame, (x, y), s) for x, y, s in boxes]
    crops += [crop_die(frame, (330.0, 250.0), 48.0), crop_die(frame, (175.0, 125.0), 40.0)]
    crops = np.array(crops)
    full, full_agree = classifier.views(crops)
    first, _ = classifier.views(crops, one_look=0.0)  # any face value in the first view
    one = classifier.view_logits(crops, 1) / classifier.temperature
    alone = np.array([softmax(z) for z in one]).mean(axis=0)
    early = alone.argmax(axis=1) != 0
    assert early[:2].all() and not early.all()  # the dice, not the blank tray
    assert np.allclose(first[early], alone[early])
    assert np.allclose(first[~early], full[~early])
    sure, agree = classifier.views(crops, one_look=1.01)  # never sure enough: all views
    assert np.allclose(sure, full) and (agree == full_agree).all()


@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
@pytest.mark.parametrize(
    ("name", "floor"),
    [("byler-d6-topdown", 0.9), ("skovy-two-dice", 0.9), ("damiantab-phone", 0.9)],
)
def test_real_held_out_accuracy_floor(classifier, name, floor):
    """Labelled dice of photos the networks never trained on: mostly right, and the reader's
    rule (all views agree, sure) answers most of them with at most 1% wrong."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from eval_face_classifier import evaluate, load_split

    _, held = load_split(DATA / name)
    dice, background = evaluate(classifier, held, np.random.default_rng(0))
    accuracy = np.mean([v == a for v, a, *_ in dice])
    assert accuracy >= floor
    confident = [(v, a) for v, a, p, _ in dice if a and p >= 0.99]
    assert sum(v != a for v, a in confident) <= 0.01 * len(dice)
    assert np.mean([a != 0 for a, _ in background]) <= 0.05
    sure = [(v, r) for v, _, _, r in dice if r]
    assert len(sure) >= 0.75 * len(dice)
    assert sum(v != r for v, r in sure) <= 0.01 * len(dice)


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_dir(), reason="real photo sets not present")
def test_calibrated_probabilities_mean_what_they_say(classifier):
    """Held-out real crops (labelled dice and bare table of three sets, never trained on nor
    calibrated on): the answers the classifier gives with p >= 0.9 are right at least nine
    times in ten, and their mean p is within 0.05 of the share right."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from eval_face_classifier import load_split, view_answers

    probs, labels = [], []
    for name in ("byler-d6-topdown", "skovy-two-dice", "damiantab-phone"):
        _, held = load_split(DATA / name)
        p, y = view_answers(classifier, held, np.random.default_rng(2))
        probs.append(p)
        labels.append(y)
    probs, labels = np.concatenate(probs), np.concatenate(labels)
    sure = probs.max(axis=1) >= 0.9
    right = probs.argmax(axis=1)[sure] == labels[sure]
    assert sure.mean() >= 0.8
    assert right.mean() >= 0.9
    assert abs(probs.max(axis=1)[sure].mean() - right.mean()) <= 0.05


def test_the_shipped_calibration_is_applied(classifier):
    record = json.loads(CALIBRATION.read_text())
    assert classifier.temperature == pytest.approx(record["temperature"])
    assert classifier.n_views == record["views"]
    crops = np.array([drawn(v, synth.IVORY_ON_GREEN, 48, 20) for v in range(1, 7)])
    raw = FaceClassifier.load(MODELS, None).each(crops).mean(axis=0)
    assert np.allclose(classifier.probabilities(crops).argmax(1), raw.argmax(1))
    if record["temperature"] != 1.0:
        assert not np.allclose(classifier.probabilities(crops), raw)


def test_bad_input_gives_a_clear_error(classifier, tmp_path):
    with pytest.raises(ValueError, match="die crop"):
        classifier.classify(np.zeros((0, 0, 3), np.uint8))
    with pytest.raises(FileNotFoundError, match="model missing"):
        FaceClassifier.load(tmp_path / "none.onnx")
    with pytest.raises(FileNotFoundError, match="calibration missing"):
        FaceClassifier.load(MODELS, tmp_path / "none.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"temperature": "warm"}')
    with pytest.raises(ValueError, match="calibration unreadable"):
        FaceClassifier.load(MODELS, broken)
