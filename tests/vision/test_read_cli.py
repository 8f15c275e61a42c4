"""`azar-kiosk read`: files it cannot open, synthetic frames; messages, never tracebacks."""

from __future__ import annotations

import json

import cv2
import synth

from kiosk.cli import main


def test_json_shape_and_sum(tmp_path, capsys):
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), synth.three_dice((2, 3, 6)))
    assert main(["read", "--json", str(image)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "ok" and answer["reason"] is None and answer["sum"] == 11
    assert sorted(d["value"] for d in answer["dice"]) == [2, 3, 6]


def test_expect_other_count_gives_reroll_line(tmp_path, capsys):
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), synth.three_dice((2, 3, 6)))
    assert main(["read", "--expect", "2", str(image)]) == 0
    assert "reroll, wrong_count" in capsys.readouterr().out


def test_unreadable_files_give_a_message_and_exit_1(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("not an image")
    assert main(["read", str(tmp_path / "missing.jpg"), str(text)]) == 1
    err = capsys.readouterr().err
    assert "missing.jpg: cannot read (no such file)" in err
    assert "notes.txt: cannot read" in err
    assert "Traceback" not in err


def test_debug_dir_gets_an_annotated_image(tmp_path, capsys):
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), synth.three_dice())
    assert main(["read", "--debug-dir", str(tmp_path / "dbg"), str(image)]) == 0
    written = cv2.imread(str(tmp_path / "dbg" / "roll.debug.png"))
    assert written is not None and written.shape == (480, 640, 3)
