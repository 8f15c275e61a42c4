"""`azar-kiosk watch`: a recorded video of throws on the simulated tray, read as the kiosk would.

The recording is made the way an exhibit builder would make one: a camera over the tray, a
video file (MJPEG in AVI, which every OpenCV build writes), the tray's calibration saved by the
calibration code. The camera shakes a little and adds noise, as a real one does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.sim.recording import film
from kiosk.cli import main
from vision.calibration import Calibration


def film_throws(path: Path, throws: int, seed: int, **kwargs) -> tuple[list, Calibration]:
    """film(): the values thrown, and the calibration staff make of the tray (its outline and
    empty frame, no die size)."""
    recording = film(path, throws, seed, **kwargs)
    return recording.thrown, Calibration(recording.tray, None, recording.empty)


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> tuple[Path, Path, list[tuple[int, ...]]]:
    folder = tmp_path_factory.mktemp("recording")
    video = folder / "tray.avi"
    thrown, calibration = film_throws(video, throws=3, seed=21)
    calibration.save(folder / "calibration")
    return video, folder / "calibration", thrown


def test_watch_answers_each_throw_once_in_the_documented_json(recording, capsys) -> None:
    video, calibration, thrown = recording
    assert main(["watch", str(video), "--json", "--calibration", str(calibration)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(thrown)  # one answer per throw, none while the tray is empty
    for line, values in zip(lines, thrown, strict=True):
        assert set(line) == {"frame", "time", "status", "reason", "dice", "sum"}
        assert line["status"] in ("ok", "reroll")
        if line["status"] == "ok":
            assert line["reason"] is None
            assert tuple(sorted(d["value"] for d in line["dice"])) == values
            assert line["sum"] == sum(values)
            for die in line["dice"]:
                assert set(die) == {"value", "center", "size", "confidence"}
                assert 0 <= die["confidence"] <= 1
        else:
            assert line["sum"] is None and isinstance(line["reason"], str)
    assert sum(line["status"] == "ok" for line in lines) >= 2
    times = [line["time"] for line in lines]
    assert times == sorted(times)


def test_watch_prints_a_line_per_answer_and_takes_a_calibration_file(recording, capsys) -> None:
    video, calibration, thrown = recording
    assert main(["watch", str(video), "--calibration", str(calibration / "calibration.json")]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == len(thrown)
    assert all(line.startswith("frame ") for line in lines)
    # three throws are too few to learn the tray's faces from: the end says how far it got
    assert "Learning the size of the dice's top faces (" in out.err
    assert "of 30 dice read)." in out.err


def test_watch_debug_dir_holds_each_answers_frame_with_its_dice_boxed(
    recording, tmp_path, capsys
) -> None:
    """An exhibit builder sees why a throw was refused: each answer's frame, annotated."""
    from vision.debug import GREEN

    video, calibration, thrown = recording
    debug = tmp_path / "debug"
    argv = ["watch", str(video), "--json", "--calibration", str(calibration)]
    assert main([*argv, "--debug-dir", str(debug)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(thrown)
    assert sorted(p.name for p in debug.iterdir()) == [
        f"frame-{line['frame']:06d}.png" for line in lines
    ]
    for line in lines:
        drawn = cv2.imread(str(debug / f"frame-{line['frame']:06d}.png"))
        assert drawn.shape == (480, 640, 3)
        for die in line["dice"]:  # each die read is boxed in green on its own frame, above
            (x, y), size = die["center"], die["size"]  # its face (the box is the die's)
            above = drawn[round(y - 1.2 * size) : round(y - 0.4 * size), round(x)]
            assert (np.abs(above.astype(int) - GREEN).max(axis=1) < 40).any()
    assert any(line["dice"] for line in lines)


def test_watch_says_so_when_its_debug_dir_cannot_be_made(recording, tmp_path, capsys) -> None:
    video, calibration, _ = recording
    taken = tmp_path / "taken"
    taken.write_text("a file where the folder should be")
    argv = ["watch", str(video), "--calibration", str(calibration), "--debug-dir", str(taken)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert f"cannot create {taken}" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_watch_reads_a_folder_of_frames(tmp_path, capsys) -> None:
    video = tmp_path / "tray.avi"
    thrown, calibration = film_throws(video, throws=1, seed=4)
    folder = tmp_path / "frames"
    folder.mkdir()
    capture = cv2.VideoCapture(str(video))
    index = 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        cv2.imwrite(str(folder / f"{index:05d}.png"), frame)
        index += 1
    (folder / "notes.txt").write_text("not a frame")
    (folder / "99999.png").write_bytes(b"broken")
    calibration.save(tmp_path / "calibration")
    args = ["watch", str(folder), "--json", "--calibration", str(tmp_path / "calibration")]
    assert main(args) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 1
    assert "99999.png: skipped" in out.err


def test_watch_without_a_calibration_says_it_does_not_read_as_the_kiosk(recording, capsys):
    video, _, thrown = recording
    assert main(["watch", str(video)]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == len(thrown)  # the answers on stdout, as ever
    assert "No calibration given" in out.err and "--calibration" in out.err


def test_watch_says_why_it_cannot_read_a_source(tmp_path, capsys) -> None:
    assert main(["watch", str(tmp_path / "missing.avi")]) == 1
    assert "no such file" in capsys.readouterr().err
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"\0" * 1000)
    assert main(["watch", str(junk)]) == 1
    assert "cannot watch" in capsys.readouterr().err


def test_watch_reads_with_what_the_kiosk_learnt_and_writes_nothing(recording, capsys) -> None:
    """The kiosk keeps what its reader learnt of the tray's faces beside the calibration
    (vision/tray_faces.py): `watch` reads with it, as the kiosk would, and never writes it."""
    from vision.calibration import FACES_FILE
    from vision.tray_faces import TrayFaces, save_faces

    video, calibration, thrown = recording
    assert main(["watch", str(video), "--json", "--calibration", str(calibration)]) == 0
    capsys.readouterr()
    assert not (calibration / FACES_FILE).exists()  # learnt while watching, not kept
    tiny = TrayFaces(sizes=(10.0,) * 30, window=(0.96, 1.1))
    save_faces(calibration, tiny)  # faces a fifth of these dice's: no flat die fits them
    kept = (calibration / FACES_FILE).read_bytes()
    try:
        assert main(["watch", str(video), "--json", "--calibration", str(calibration)]) == 0
        out = capsys.readouterr()
        lines = [json.loads(line) for line in out.out.splitlines()]
        assert len(lines) == len(thrown)
        assert all(line["status"] == "reroll" for line in lines)
        assert "top faces measure 10 px a side, too small to tell a leaning die" in out.err
        assert (calibration / FACES_FILE).read_bytes() == kept
    finally:
        (calibration / FACES_FILE).unlink()


def test_a_throw_at_rest_under_a_shadow_is_answered_though_the_camera_shakes(
    tmp_path, capsys
) -> None:
    """The camera shakes by up to 2 px between frames all through the rest. Undoing a shake of
    a tenth of a work pixel changes the picture's dim edge by less than its noise: where that
    was taken for "not the camera", the shake was motion, the settle timer restarted every few
    frames, and this throw (seed 5, a visitor's shadow over the tray) had no answer at all."""
    video = tmp_path / "shadow.avi"
    thrown, calibration = film_throws(video, throws=1, seed=5, shadows=True)
    calibration.save(tmp_path / "calibration")
    argv = ["watch", str(video), "--json", "--calibration", str(tmp_path / "calibration")]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["status"] for line in lines] == ["ok"]
    assert tuple(sorted(die["value"] for die in lines[0]["dice"])) == thrown[0]


def test_throws_filmed_by_a_camera_shaking_2_px_a_frame_are_all_answered(tmp_path, capsys):
    """The camera moves by up to 2 px each way every frame (up to 4 px from one frame to the
    next: a hand-held phone, twice what a throw gives a table). Undoing each shake leaves a
    few 2x2 patches changed at the pips' edges; counted as motion, the dice of the second
    throw (seed 8) never looked still for the settling time, and it had no answer."""
    video = tmp_path / "shaky.avi"
    thrown, calibration = film_throws(video, throws=2, seed=8, shake=2.0)
    calibration.save(tmp_path / "calibration")
    argv = ["watch", str(video), "--json", "--calibration", str(tmp_path / "calibration")]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["status"] for line in lines] == ["ok", "ok"]
    read = [tuple(sorted(die["value"] for die in line["dice"])) for line in lines]
    assert read == thrown


def test_watch_answers_throws_under_a_visitors_shadow_as_without(tmp_path, capsys) -> None:
    """A visitor leaning over the tray as the dice are thrown: the same throws, filmed with and
    without the shadow, get the same answers (before, a shadow was "dice heaped": overlap)."""
    answers = []
    for shadows in (False, True):
        video = tmp_path / f"shadows-{shadows}.avi"
        thrown, calibration = film_throws(video, throws=4, seed=8, shadows=shadows)
        calibration.save(tmp_path / f"calibration-{shadows}")
        args = [
            "watch",
            str(video),
            "--json",
            "--calibration",
            str(tmp_path / f"calibration-{shadows}"),
        ]
        assert main(args) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        answers.append([(line["status"], line["reason"], line["sum"]) for line in lines])
    plain, shaded = answers
    assert len(plain) == 4 and any(status == "ok" for status, _, _ in plain)
    assert shaded == plain


def test_a_recording_from_a_camera_knocked_since_calibration_is_read_as_before(
    tmp_path, capsys
) -> None:
    """The camera was knocked 9 px right and 6 up after the tray was calibrated: the same
    throws get the same answers as from the camera where it was (the reader follows it,
    vision/tray_shift.py); before, dice near the wall were `cut`."""
    answers = []
    for knock in ((0.0, 0.0), (9.0, -6.0)):
        video = tmp_path / f"knock-{knock[0]:.0f}.avi"
        thrown, calibration = film_throws(video, throws=4, seed=8, knock=knock)
        folder = tmp_path / f"calibration-{knock[0]:.0f}"
        calibration.save(folder)
        assert main(["watch", str(video), "--json", "--calibration", str(folder)]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        answers.append([(line["status"], line["reason"], line["sum"]) for line in lines])
    where_calibrated, knocked = answers
    assert len(where_calibrated) == 4 and any(s == "ok" for s, _, _ in where_calibrated)
    assert knocked == where_calibrated


@pytest.mark.parametrize("seed", [8, 7])
def test_a_visitor_leaning_over_the_tray_after_a_ruling_is_no_throw(
    seed: int, tmp_path, capsys
) -> None:
    """After each throw a visitor leans over the tray to look at the dice and leaves: the
    recording still gets one answer per throw, each the dice thrown or a reroll, none "the
    dice did not move" (before, one now and then as the shadow came or went; with seed 7 the
    shadow's edge lay along a die's edge, whose line of pixels the light did not explain)."""
    video = tmp_path / "lean.avi"
    thrown, calibration = film_throws(video, throws=4, seed=seed, lean=True)
    calibration.save(tmp_path / "calibration")
    args = ["watch", str(video), "--json", "--calibration", str(tmp_path / "calibration")]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(thrown)
    assert all(line["reason"] != "not_moved" for line in lines)
    for line, values in zip(lines, thrown, strict=True):
        if line["status"] == "ok":
            assert tuple(sorted(d["value"] for d in line["dice"])) == values


def _cut(video: Path, to: Path, *parts: range) -> float:
    """The frames of `video` whose indices lie in `parts`, in order, written to `to` (MJPEG);
    its frame rate. Read a frame at a time: a recording held whole is hundreds of MB. A part
    ending at sys.maxsize runs to the recording's end."""
    capture = cv2.VideoCapture(str(video))
    rate = capture.get(cv2.CAP_PROP_FPS)
    writer = None
    index = 0
    while (read := capture.read())[0]:
        frame = read[1]
        if any(index in part for part in parts):
            if writer is None:
                fourcc = cv2.VideoWriter_fourcc(*"MJPG")
                size = (frame.shape[1], frame.shape[0])
                writer = cv2.VideoWriter(str(to), fourcc, rate, size)
            writer.write(frame)
        index += 1
    capture.release()
    # each part lies in the recording (one ending at sys.maxsize runs to its end)
    for part in parts:
        assert part.start < index and (part.stop <= index or part.stop == sys.maxsize)
    assert writer is not None
    writer.release()
    return rate


def test_watch_says_which_change_has_no_answer_when_the_recording_ends_mid_throw(
    tmp_path, capsys
) -> None:
    video = tmp_path / "tray.avi"
    recording = film(video, throws=2, seed=4)
    Calibration(recording.tray, None, recording.empty).save(tmp_path / "calibration")
    args = ["--calibration", str(tmp_path / "calibration")]
    cut = tmp_path / "cut.avi"
    rate = _cut(video, cut, range(recording.starts[1] + 10))  # the second throw's dice rolling
    assert main(["watch", str(cut), *args]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 1  # the first throw's answer
    said = [line for line in out.err.splitlines() if line.startswith("no answer")]
    assert len(said) == 1 and "still changing" in said[0]
    since = float(said[0].split("from ")[1].split(" s")[0])
    thrown = recording.starts[1] / rate  # the dice were cleared away half a second before
    assert thrown - 0.6 <= since <= thrown
    _cut(video, cut, range(recording.starts[1] - 16))  # ends at rest, before the dice are cleared
    assert main(["watch", str(cut), *args]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 1 and "no answer" not in out.err


def test_watch_says_when_dice_at_rest_were_moved_before_their_reads_agreed(
    tmp_path, capsys
) -> None:
    """The first throw's dice are taken away one frame before the vote would have answered:
    no answer line for it, and stderr says when those dice came to rest. The second throw is
    answered as ever."""
    video = tmp_path / "tray.avi"
    recording = film(video, throws=2, seed=4)
    Calibration(recording.tray, None, recording.empty).save(tmp_path / "calibration")
    args = ["--json", "--calibration", str(tmp_path / "calibration")]
    assert main(["watch", str(video), *args]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(answers) == 2
    answered = answers[0]["frame"]  # the frame the first throw's vote was complete on
    cleared = recording.starts[1] - 10  # the tray bare again, before the second throw
    cut = tmp_path / "cut.avi"
    rate = _cut(video, cut, range(answered), range(cleared, sys.maxsize))
    assert main(["watch", str(cut), *args]) == 0
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()]
    assert [tuple(sorted(d["value"] for d in a["dice"])) for a in lines] == [recording.thrown[1]]
    said = [line for line in out.err.splitlines() if "at rest from" in line]
    assert len(said) == 1 and "before 3 in a row agreed" in said[0], out.err
    since = float(said[0].split("from ")[1].split(" s")[0])
    assert recording.starts[0] / rate < since < answered / rate


def test_a_hand_held_video_is_read_without_a_calibration(tmp_path, capsys) -> None:
    """A phone held over a table: the camera wanders and turns slowly as well as shaking, and
    nobody calibrated anything. Each throw is answered once, right or refused, never wrong."""
    video = tmp_path / "phone.avi"
    recording = film(video, throws=3, seed=6, hand=0.3)
    assert main(["watch", str(video), "--json"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ends = [*recording.starts[1:], 1 << 30]
    right = 0
    for values, start, end in zip(recording.thrown, recording.starts, ends, strict=True):
        own = [a for a in answers if start <= a["frame"] < end]
        assert len(own) == 1 and own[0]["reason"] != "not_moved"
        if own[0]["status"] == "ok":
            assert tuple(sorted(d["value"] for d in own[0]["dice"])) == values
            right += 1
    assert right >= 2


def test_a_tray_seen_whole_is_not_one_die_whose_pips_are_the_dice(tmp_path, capsys) -> None:
    """Without a calibration the finder marks the whole tray, rim and all, as one large die
    too. The third throw here (seed 7) shows 1, 1 and 4: the two dice showing 1 passed for
    that die's pips, and the tray was read as one die showing 3 by both readings (refused
    only because the classifier was not sure). Dice showing 1 have a die's square face
    around their pip, which a pip has not: the three dice are read."""
    video = tmp_path / "phone.avi"
    recording = film(video, throws=3, seed=7, hand=0.3)
    assert recording.thrown[2] == (1, 1, 4)
    assert main(["watch", str(video), "--json"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    third = [a for a in answers if a["frame"] >= recording.starts[2]]
    assert [a["status"] for a in third] == ["ok"], third
    assert sorted(d["value"] for d in third[0]["dice"]) == [1, 1, 4]


def test_watch_says_once_when_the_tray_looks_as_if_moving_for_too_long(tmp_path, capsys) -> None:
    """A picture that changes every frame (a shaking camera, a codec's flicker) for longer
    than dice roll: said once on stderr, with when it began, as the kiosk tells its staff."""
    from kiosk.worker import RESTLESS_SECONDS

    folder = tmp_path / "frames"
    folder.mkdir()
    rng = np.random.default_rng(5)
    fps = 10
    for i in range(int((RESTLESS_SECONDS + 3) * fps)):
        noise = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
        cv2.imwrite(str(folder / f"{i:05d}.png"), noise)
    assert main(["watch", str(folder), "--fps", str(fps)]) == 0
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "looked as if moving" in line]
    assert len(said) == 1 and said[0].startswith("from 0.00 s"), err
    assert f"for {RESTLESS_SECONDS:.0f} s" in said[0]
