"""Golden real photos (../shared/data/dice-photos, next to the repository): no wrong reads."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import pytest

from vision.reader import read_roll
from vision.reading import RerollReason

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "dice-photos"
sys.path.insert(0, str(REPO / "benchmarks"))
from eval_photos import load_labels  # noqa: E402

pytestmark = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"real photo sets not found at {DATA} (checkout without ../shared)"
)


def labelled(set_name: str) -> dict[Path, list[tuple]]:
    """The labels, corrected by benchmarks/label_errata.csv (labels that contradict the photo)."""
    return load_labels(DATA / set_name, errata=True)


def test_label_errata_correct_a_value_and_add_a_missing_die():
    byler = labelled("byler-d6-topdown")
    images = {path.name: dice for path, dice in byler.items()}
    relabelled = [d for d in images["IMG_20191209_095439.jpg"] if d[1] <= 331 <= d[3]]
    assert any(d[0] == 4 and d[2] <= 387 <= d[4] for d in relabelled)
    added = images["IMG_20191208_112353.jpg"]
    assert len(added) == 25 and any(d[0] == 3 and d[1] <= 314 <= d[3] for d in added)


def wrong_values(roll, labels) -> list[str]:
    """Dice reported inside a labelled box with another value."""
    wrong = []
    for die in roll.dice:
        x, y = die.center
        for value, x0, y0, x1, y1 in labels:
            if x0 <= x <= x1 and y0 <= y <= y1 and die.value != value:
                wrong.append(f"read {die.value} at ({x:.0f}, {y:.0f}), labelled {value}")
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("set_name", ["skovy-two-dice", "byler-d6-topdown"])
def test_photos_are_never_announced_wrongly_and_dice_rarely_misread(set_name):
    """Every third photo: no wrong announcement; a die read wrong (reported in a reroll, where
    the learned second look misread a crowded die) stays under 1% of the labelled dice."""
    announced, misread, labelled_dice = [], [], 0
    for path, labels in list(labelled(set_name).items())[::3]:
        roll = read_roll(cv2.imread(str(path)), expect=None)
        labelled_dice += len(labels)
        misread += [f"{path.name}: {w}" for w in wrong_values(roll, labels)]
        if roll.ok and Counter(roll.values) != Counter(v for v, *_ in labels):
            announced.append(f"{path.name}: announced {sorted(roll.values)}")
    assert not announced, "\n".join(announced)
    assert len(misread) <= 0.01 * labelled_dice, "\n".join(misread)


def test_a_die_whose_body_the_pips_missed_is_never_silently_left_out():
    """A darker exposure of an oblique webcam photo: the pips find and read three dice, the
    fourth (a 6) shows no body; with any number of dice expected, the finder is asked too."""
    path = DATA / "matteop65-webcam-oblique/images/valid/valid_60.jpg"
    labels = labelled("matteop65-webcam-oblique")[path]
    frame = (cv2.imread(str(path)) * 0.6).astype("uint8")
    roll = read_roll(frame, expect=None)
    assert not wrong_values(roll, labels)
    assert not roll.ok or Counter(roll.values) == Counter(v for v, *_ in labels)


def test_golden_skovy_frame_reads_both_dice():
    path = DATA / "skovy-two-dice/images/train/WIN_20221210_14_49_18_Pro.jpg"
    labels = labelled("skovy-two-dice")[path]
    roll = read_roll(cv2.imread(str(path)), expect=None)
    assert sorted(d.value for d in roll.dice) == sorted(v for v, *_ in labels)
    assert not wrong_values(roll, labels)


def test_a_die_touching_the_frame_edge_with_its_top_in_view_is_read():
    """skovy 13_10_50: the cream 4 touches the top of the frame, all its pips in view."""
    path = DATA / "skovy-two-dice/images/train/WIN_20221211_13_10_50_Pro.jpg"
    labels = labelled("skovy-two-dice")[path]
    roll = read_roll(cv2.imread(str(path)), expect=None)
    assert roll.ok and sorted(roll.values) == [4, 4] == sorted(v for v, *_ in labels)
    assert not wrong_values(roll, labels)


def test_a_die_whose_outline_a_pip_bit_into_is_read_within_its_convex_hull():
    """skovy 13_08_50: the cream 3's body outline bends in around a pip at its edge, so the face
    found stopped short of that pip (refused, and with the glare on its rim, as glare); sought
    again within the outline's convex hull, the face holds all three pips and no glare on a
    pip place: read."""
    path = DATA / "skovy-two-dice/images/train/WIN_20221211_13_08_50_Pro.jpg"
    labels = labelled("skovy-two-dice")[path]
    roll = read_roll(cv2.imread(str(path)), expect=None)
    assert roll.ok and sorted(roll.values) == [2, 3] == sorted(v for v, *_ in labels)
    assert not wrong_values(roll, labels)


def test_the_end_of_a_chair_leg_is_not_taken_for_a_blurred_die():
    """skovy 13_07_25: the end of a dark strap by a chair's foot, marked faintly by the finder at
    two thirds of a die, has no pips; the classifier, asked at the dice's size, surely sees no
    face there, so it is clutter and both dice are read."""
    path = DATA / "skovy-two-dice/images/train/WIN_20221211_13_07_25_Pro.jpg"
    labels = labelled("skovy-two-dice")[path]
    roll = read_roll(cv2.imread(str(path)), expect=None)
    assert roll.ok and sorted(roll.values) == [4, 6] == sorted(v for v, *_ in labels)
    assert not wrong_values(roll, labels)


@pytest.mark.parametrize("name", ["valid_48.jpg", "valid_57.jpg"])
def test_a_white_one_the_finder_marks_by_its_pip_is_not_left_out(name):
    """A darker exposure of oblique webcam photos: the finder marks a white 1 on the pale desk by
    its pip alone, which the classifier (shown the pip enlarged) took for no face, and the roll
    was announced without the 1; seen at the dice's size, the 1 is there: a re-throw."""
    path = DATA / "matteop65-webcam-oblique/images/valid" / name
    labels = labelled("matteop65-webcam-oblique")[path]
    roll = read_roll((cv2.imread(str(path)) * 0.6).astype("uint8"), expect=None)
    assert not wrong_values(roll, labels)
    assert roll.reason is RerollReason.UNREADABLE and "(1?)" in roll.detail


def test_cli_reads_a_photo_as_json(tmp_path):
    path = DATA / "skovy-two-dice/images/train/WIN_20221210_14_49_18_Pro.jpg"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "read",
            "--json",
            "--expect",
            "any",
            "--debug-dir",
            str(tmp_path),
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert set(answer) == {"image", "status", "reason", "dice", "sum"}
    assert answer["image"] == str(path)
    for die in answer["dice"]:
        assert set(die) == {"value", "center", "size", "confidence"}
    assert len(list(tmp_path.glob("*.png"))) == 1
