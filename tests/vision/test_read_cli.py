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


def _png_header(path, width: int, height: int) -> None:
    """A PNG file that says it is width x height (its pixels never written)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1024)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat))


def test_a_huge_image_is_refused_before_decoding_and_the_next_is_read(tmp_path, capsys):
    huge = tmp_path / "huge.png"
    _png_header(huge, 20000, 20000)
    good = tmp_path / "roll.png"
    cv2.imwrite(str(good), synth.three_dice((2, 3, 6)))
    assert main(["read", "--json", str(huge), str(good)]) == 1
    out = capsys.readouterr()
    assert "huge.png: cannot read (20000x20000 is 400 megapixels" in out.err
    assert "Traceback" not in out.err
    assert json.loads(out.out)["sum"] == 11


def test_a_large_photo_is_read_at_a_reduced_decode_in_file_pixels(tmp_path, capsys):
    frame = synth.three_dice((1, 4, 5))
    large = tmp_path / "large.jpg"
    cv2.imwrite(str(large), cv2.resize(frame, (4000, 3000), interpolation=cv2.INTER_CUBIC))
    assert main(["read", "--json", str(large)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "ok" and sorted(d["value"] for d in answer["dice"]) == [1, 4, 5]
    small = json.loads(_read_json(tmp_path, frame, capsys))
    for big, little in zip(
        sorted(answer["dice"], key=lambda d: d["value"]),
        sorted(small["dice"], key=lambda d: d["value"]),
        strict=True,
    ):
        assert abs(big["center"][0] - 6.25 * little["center"][0]) < 0.02 * 4000
        assert abs(big["center"][1] - 6.25 * little["center"][1]) < 0.02 * 3000
        assert 1 / 1.6 < big["size"] / (6.25 * little["size"]) < 1.6  # not off by the decode


def _read_json(tmp_path, frame, capsys) -> str:
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), frame)
    assert main(["read", "--json", str(path)]) == 0
    return capsys.readouterr().out


def test_small_dice_on_black_felt_are_read_not_a_bad_frame(tmp_path, capsys):
    """Three 30 px white dice are 0.3% of a 1280x720 photo of black felt: the photo is read,
    not refused as a black frame (image.frame_problem)."""
    felt = synth.Style(body=(225, 225, 220), pip=(20, 20, 20), tray=(8, 8, 10))
    image = tmp_path / "felt.png"
    cv2.imwrite(str(image), synth.three_dice((1, 4, 5), felt, side=30.0, width=1280, height=720))
    assert main(["read", "--json", str(image)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "ok" and answer["sum"] == 10, answer
