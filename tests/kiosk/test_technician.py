"""The technician's maintenance panel: version, uptime, restarts today, the last errors, free
disk, CPU temperature and throttling (a fake sysfs folder and a fake vcgencmd stand in for the
Pi), and the button and light test on gpiozero's mock pins."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.board import Board, decode_throttled
from hardware.buttons import ButtonEvent
from hardware.lights import GpioLights
from kiosk.cli import version
from kiosk.config import LightsConfig
from kiosk.health import ERRORS_FILE, STARTS_FILE, restarts_today, starts
from kiosk.table import Kiosk
from tests.kiosk.tables import headless_table


def fake_pi(folder, temp: str = "48312\n", throttled: str | None = "throttled=0x50005\n"):
    """A sysfs folder with the Pi's thermal zone, and a vcgencmd that answers `throttled`."""
    zone = folder / "sys" / "class" / "thermal" / "thermal_zone0"
    zone.mkdir(parents=True)
    (zone / "temp").write_text(temp)
    asked: list[tuple[str, ...]] = []

    def vcgencmd(*args: str) -> str | None:
        asked.append(args)
        return throttled

    return Board(folder / "sys", vcgencmd), asked


def test_the_board_reads_the_pi_temperature_and_throttling(tmp_path) -> None:
    board, asked = fake_pi(tmp_path)
    assert board.temperature() == pytest.approx(48.312)
    throttling = board.throttling()
    assert asked == [("get_throttled",)]
    assert throttling.raw == 0x50005 and not throttling.ok
    assert throttling.flags == (
        "under-voltage now",
        "throttled now",
        "under-voltage since boot",
        "throttled since boot",
    )
    assert decode_throttled("throttled=0x0").ok
    assert decode_throttled("error=1 error_msg=...") is None


def test_off_a_pi_the_board_says_nothing(tmp_path) -> None:
    board = Board(tmp_path, lambda *args: None)
    assert board.temperature() is None and board.throttling() is None
    broken, _ = fake_pi(tmp_path / "broken", temp="hot\n", throttled="garbage")
    assert broken.temperature() is None and broken.throttling() is None


def test_restarts_today_count_the_starts_of_this_day_only() -> None:
    now = time.mktime((2026, 12, 1, 15, 0, 0, 0, 0, -1))
    yesterday = now - 24 * 3600
    text = f"{yesterday:.0f}\n{now - 3600:.0f}\nnot a time\n{now - 60:.0f}\n{now:.0f}\n"
    assert restarts_today(starts(text), now) == 2  # three starts today: two were restarts
    assert restarts_today([], now) == 0


@pytest.fixture
def kiosk(tmp_path):
    k = headless_table(tmp_path)
    yield k
    k.log.close()


def press(kiosk: Kiosk, *buttons: str, kind: str = "press") -> None:
    for button in buttons:
        kiosk.events.put(ButtonEvent(button, kind, kiosk.clock()))
        kiosk.frame(0.0)


def choose_tool(kiosk: Kiosk, name: str) -> None:
    """The staff's way in (hold ok, the code), then right until the tool is chosen."""
    press(kiosk, "ok", kind="hold")
    press(kiosk, *kiosk.config.staff.presses)
    assert kiosk.staff and kiosk.scene.name == "maintenance"
    for _ in range(12):
        if kiosk.scene.tool == name:
            return
        press(kiosk, "right")
    raise AssertionError(f"no tool {name}")


def run_kiosk(data, seconds: float = 2.0) -> subprocess.CompletedProcess:
    """The kiosk itself (not the demo: no calibration, no camera), for a moment."""
    env = dict(os.environ, KIOSK_DATA_DIR=str(data), SDL_VIDEODRIVER="dummy")
    env.update(SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock")
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "run", "--size", "800x480", "--max-seconds", str(seconds)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_technician_reads_restarts_errors_and_version(tmp_path, kiosk, drawn) -> None:
    data = tmp_path / "data"
    for _ in range(2):  # started, stopped, started again: one restart today
        done = run_kiosk(data)
        assert done.returncode == 0, done.stderr
    assert len((data / STARTS_FILE).read_text().splitlines()) == 2
    errors = (data / ERRORS_FILE).read_text()
    assert "the tray is not calibrated" in errors  # the kiosk's own warning, kept
    assert "Traceback" not in errors
    kiosk.data_dir = data
    choose_tool(kiosk, "health")
    kiosk.scenes["maintenance"].board, _ = fake_pi(tmp_path / "pi")
    press(kiosk, "ok")  # Run: read the facts again, with the Pi's sensors
    kiosk.render()
    shown = "\n".join(drawn)
    assert f"Version: {version()}" in shown
    assert "Restarts today: 1" in shown
    assert "Running for: 0 min" in shown
    assert "CPU temperature: 48.3 °C" in shown
    assert "Throttling: under-voltage now, throttled now" in shown
    assert "WARNING kiosk.app: the tray is not calibrated" in shown
    assert "Free disk: " in shown and "not available" not in shown.split("Free disk: ")[1][:15]


def test_off_a_pi_the_panel_says_not_available(kiosk, drawn, tmp_path) -> None:
    choose_tool(kiosk, "health")
    kiosk.scenes["maintenance"].board = Board(tmp_path / "no-sysfs", lambda *args: None)
    press(kiosk, "ok")
    kiosk.render()
    shown = "\n".join(drawn)
    assert "CPU temperature: not available" in shown
    assert "Throttling: not available" in shown
    assert "Restarts today: 0" in shown and "Last errors: none" in shown


def test_version_command_prints_the_installed_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"azar-kiosk {version()}"
    assert version()[0].isdigit()  # installed: a real version, not "unknown"


def test_the_button_and_light_test_lights_each_button_and_its_led(kiosk) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    lights = GpioLights(LightsConfig(), pin_factory=factory)
    kiosk.lights = lights
    seat1, seat2 = factory.pin(17), factory.pin(27)
    try:
        choose_tool(kiosk, "lights")
        scene = kiosk.scene
        press(kiosk, "ok")  # Run: the test begins
        assert scene.testing and scene.lit is None
        press(kiosk, "left")
        assert scene.lit == "left" and scene.tool == "lights"  # lit, not "previous tool"
        assert (seat1.state, seat2.state, lights.is_waiting) == (True, False, False)
        kiosk.test_clock.t += 3
        press(kiosk, "right")
        assert scene.lit == "right" and scene.tool == "lights"
        assert (seat1.state, seat2.state, lights.is_waiting) == (False, True, False)
        kiosk.test_clock.t += 3  # 6 s since the test began, 3 since the last press: still on
        press(kiosk, "ok")
        assert scene.lit == "ok" and scene.testing
        assert (seat1.state, seat2.state, lights.is_waiting) == (False, False, True)
        assert scene.view()[-2:] == ("ok", True)  # what the screen draws follows
        kiosk.test_clock.t += 5.1  # no press for 5 s: the test ends, the LEDs as before
        kiosk.frame(1 / 30)
        assert not scene.testing and scene.lit is None
        assert (seat1.state, seat2.state, lights.is_waiting) == (False, False, False)
        press(kiosk, "right")  # the buttons choose tools again
        assert scene.tool != "lights"
    finally:
        lights.close()
        factory.reset()
