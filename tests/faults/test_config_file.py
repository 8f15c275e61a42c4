"""Fault: the configuration file is missing, half-written, damaged or wrong. The kiosk shows a
calm message for staff naming the problem (it stays up, so systemd does not loop restarting
it) and writes the same sentence to the journal (stderr), never a traceback."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import cli

CASES = {
    # name: (file content, or None for no file, or "dir" for a folder; what the message says)
    "missing": (None, "does not exist"),
    "half-written": (b'[camera]\nkind = "us', "not valid TOML"),
    "cut inside a table name": (b"[kiosk]\nlanguage = 'fr'\n[cam", "not valid TOML"),
    "damaged bytes": (b"[kiosk]\n\xff\xfe\x00\x81\x9c", "damaged"),
    "zeros after a power cut": (b"\x00" * 512, "not valid TOML"),
    "a wrong value": (b'[kiosk]\nlanguage = "de"\n', "kiosk.language"),
    "a misspelt key": (b"[camera]\nresolutoin = [640, 480]\n", "camera.resolutoin"),
    "a folder": ("dir", "cannot read"),
    "a pipe (would hang)": ("fifo", "not a regular file"),
    "a device without end": ("/dev/zero", "not a regular file"),
    "arrays nested deep": (b"[kiosk]\nlanguage = " + b"[" * 100_000, "nested too deep"),
    "a NUL in a path": (b'[kiosk]\ndata_dir = "/var/lib/a\\u0000b"\n', "kiosk.data_dir"),
    "an unknown game": (b'[game]\ndefault_game = "chess"\n', "game.default_game"),
    "an unknown variant": (b'[game]\nvariant = "zara"\n', "game.variant"),
    "a misspelt key, suggested": (
        b"[camera]\nresolutoin = [640, 480]\n",
        "did you mean resolution",
    ),
    "two problems at once": (b'[kiosk]\nlanguage = "de"\n[vision]\nvotes = 0\n', "vision.votes"),
}


@pytest.fixture(autouse=True)
def fresh_fonts():
    """The error screen ends with pygame.quit(), which a process does once; fonts cached by an
    earlier screen in this test process would be dead, so each case starts and ends clean."""
    from kiosk.ui import draw

    draw.font.cache_clear()
    draw.rendered.cache_clear()
    yield
    draw.font.cache_clear()
    draw.rendered.cache_clear()


def write_case(folder: Path, content) -> Path:
    path = folder / "kiosk.toml"
    if isinstance(content, str) and content.startswith("/"):
        return Path(content)
    if content == "fifo":
        os.mkfifo(path)
    elif content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    return path


@pytest.mark.parametrize("case", CASES)
def test_a_bad_config_file_is_explained_on_screen_and_in_the_journal(
    tmp_path, case, drawn, caplog
) -> None:
    content, says = CASES[case]
    path = write_case(tmp_path, content)
    caplog.set_level(logging.INFO)
    code = cli.main(["run", "--config", str(path), "--max-seconds", "0.5", "--size", "800x480"])
    assert code == 2
    assert "The table is out of order. Please tell the staff." in drawn
    assert any(says in line for line in drawn), drawn  # the reason, on the screen
    journal = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(says in line for line in journal), journal  # and in the journal
    assert not any(r.exc_info for r in caplog.records)


def test_a_damaged_config_file_stops_no_process_with_a_traceback(tmp_path) -> None:
    path = write_case(tmp_path, CASES["damaged bytes"][0])
    result = subprocess.run(
        [sys.executable, "-m", "kiosk", "run", "--config", str(path), "--max-seconds", "0.5"],
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", KIOSK_DATA_DIR=str(tmp_path / "data")),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "damaged" in result.stderr
    assert "Traceback" not in result.stderr
