"""The run command end to end, headless: systemd notifications over a real socket, and a broken
configuration file shown calmly instead of a traceback."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path


def run_kiosk(tmp_path: Path, *args: str, env: dict | None = None):
    environ = dict(
        os.environ,
        KIOSK_DATA_DIR=str(tmp_path / "data"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        **(env or {}),
    )
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "run", *args],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_ready_and_watchdog_reach_systemd(tmp_path: Path) -> None:
    address = str(tmp_path / "notify")
    messages: list[str] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(0.2)

        def listen() -> None:  # read as systemd does: a unix datagram queue is short
            while True:
                try:
                    messages.append(sock.recv(256).decode())
                except TimeoutError:
                    if not kiosk.is_alive():
                        return
                except OSError:
                    return

        kiosk = threading.Thread(
            target=lambda: results.append(
                run_kiosk(
                    tmp_path,
                    "--demo",
                    "--max-seconds",
                    "2",
                    "--size",
                    "800x480",
                    env={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "400000"},
                )
            )
        )
        results: list = []
        kiosk.start()
        listen()
        kiosk.join()
    result = results[0]
    assert result.returncode == 0, result.stderr[-2000:]
    assert messages[0] == "READY=1"
    assert messages.count("WATCHDOG=1") >= 3  # every 0.2 s for 2 s, allowing a slow start
    assert messages[-1] == "STOPPING=1"
    assert "Traceback" not in result.stderr


def test_broken_config_is_explained_not_crashed(tmp_path: Path) -> None:
    config = tmp_path / "kiosk.toml"
    config.write_text("[kiosk]\nlanguage = 'de'\n")
    result = run_kiosk(
        tmp_path, "--config", str(config), "--max-seconds", "0.5", "--size", "800x480"
    )
    assert result.returncode == 2
    assert "kiosk.language" in result.stderr
    assert "Traceback" not in result.stderr


def test_without_camera_or_buttons_the_kiosk_still_runs(tmp_path: Path) -> None:
    """Not a demo and no Pi camera here: the kiosk starts, says the camera is lost, goes on."""
    result = run_kiosk(
        tmp_path, "--max-seconds", "2", "--size", "800x480", env={"GPIOZERO_PIN_FACTORY": "mock"}
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "camera lost" in result.stderr.lower()
    assert "tray is not calibrated" in result.stderr  # staff are told, on screen and in the log
    assert "Traceback" not in result.stderr


def test_calibrate_command_saves_a_calibration(tmp_path: Path) -> None:
    import cv2

    from kiosk.ui.screenshots import TrayPictures
    from vision.calibration import Calibration

    pictures = TrayPictures()
    pictures.tray.clear()
    photo = tmp_path / "empty.png"
    cv2.imwrite(str(photo), pictures.tray.read().image)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "calibrate",
            "--image",
            str(photo),
            "--data-dir",
            str(tmp_path / "data"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "saved" in result.stdout
    assert Calibration.load(tmp_path / "data").tray is not None
    missing = subprocess.run(
        [sys.executable, "-m", "kiosk", "calibrate", "--image", str(tmp_path / "no.png")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


class Notifications:
    """A notify socket as systemd holds one: what the kiosk sends, as it arrives."""

    def __init__(self, path: Path) -> None:
        self.address = str(path)
        self.messages: list[str] = []
        self.ready = threading.Event()
        self.done = threading.Event()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.address)
        self.sock.settimeout(0.2)
        self.listener = threading.Thread(target=self._listen, daemon=True)
        self.listener.start()

    def _listen(self) -> None:
        while True:
            try:
                message = self.sock.recv(256).decode()
            except TimeoutError:
                if self.done.is_set():
                    return  # the kiosk has exited and its queue is read to the end
                continue
            self.messages.append(message)
            if message == "READY=1":
                self.ready.set()

    def close(self) -> None:
        """After the kiosk has exited: everything it sent is in `messages`."""
        self.done.set()
        self.listener.join(timeout=10)
        self.sock.close()


def start_demo(tmp_path: Path, notify: Notifications) -> subprocess.Popen:
    environ = dict(
        os.environ,
        KIOSK_DATA_DIR=str(tmp_path / "data"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        NOTIFY_SOCKET=notify.address,
    )
    return subprocess.Popen(
        [sys.executable, "-m", "kiosk", "run", "--demo", "--size", "800x480"],
        env=environ,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_sigterm_stops_the_kiosk_cleanly(tmp_path: Path) -> None:
    """systemd's stop of a kiosk that is showing its screen (it said READY=1): exit 0."""
    notify = Notifications(tmp_path / "notify")
    process = start_demo(tmp_path, notify)
    try:
        assert notify.ready.wait(timeout=120), "the kiosk never said it was ready"
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
        notify.close()
    assert process.returncode == 0, stderr[-2000:]
    assert notify.messages[-1] == "STOPPING=1"
    assert "Traceback" not in stderr


def test_sigterm_while_the_kiosk_starts_stops_it_cleanly(tmp_path: Path) -> None:
    """systemd may stop a kiosk that is still starting (a restart asked for at boot): the stop
    waits for the start, closes everything and exits 0, without drawing a frame."""
    notify = Notifications(tmp_path / "notify")
    process = start_demo(tmp_path, notify)
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)
        lines.put("")  # the end

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        while not seen or "starting the demo" not in seen[-1]:  # its SIGTERM is heeded now
            seen.append(lines.get(timeout=120))
            assert seen[-1], "the kiosk ended without saying it was starting"
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        reader.join(timeout=10)
    finally:
        process.kill()
        notify.close()
    while not lines.empty():
        seen.append(lines.get())
    stderr = "".join(seen)
    assert process.returncode == 0, stderr[-2000:]
    assert "READY=1" not in notify.messages, "the stop came after the first frame"
    assert notify.messages == ["STOPPING=1"]
    assert "Traceback" not in stderr
