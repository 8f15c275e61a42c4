"""systemd/azar-kiosk.service: systemd's own verifier, and the settings the kiosk depends on.

`systemd-analyze verify` loads the unit as systemd would and checks every key and every
dependency. It needs the ExecStart binary to exist, so the unit, unchanged, is verified inside a
fake root (--root) that holds a copy of the host's system units and an executable at the
ExecStart path.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .unitfile import REPO, SECTIONS, UNIT, single

SYSTEM_UNITS = next(
    (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
    None,
)
SERVICE = SECTIONS["Service"]


def verify(root: Path, unit_text: str) -> subprocess.CompletedProcess[str]:
    """Run `systemd-analyze verify` on `unit_text` installed under `root`."""
    (root / "usr/lib/systemd").mkdir(parents=True, exist_ok=True)
    if not (root / "usr/lib/systemd/system").exists():
        shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    unit = root / "etc/systemd/system/azar-kiosk.service"
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(unit_text)
    return subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "/etc/systemd/system/azar-kiosk.service"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def fake_exec_start(root: Path) -> None:
    binary = root / single("Service", "ExecStart").split()[0].lstrip("/")
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or SYSTEM_UNITS is None,
    reason="systemd-analyze is not installed (Debian: apt-get install systemd)",
)


@needs_systemd
def test_systemd_verifies_the_unit(tmp_path: Path) -> None:
    fake_exec_start(tmp_path)

    result = verify(tmp_path, UNIT.read_text())

    # verify exits 0 on unknown keys or bad values, only warning: any output is a failure.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_systemd
@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (("WatchdogSec=30", "WatchdogSec=30\nWatchDogSecs=30"), "Unknown key"),
        (("StandardInput=tty-force", "StandardInput=console"), "Failed to parse"),
        (("Type=notify", "Type=notify-ish"), "Failed to parse"),
    ],
)
def test_the_verifier_catches_a_broken_unit(
    tmp_path: Path, change: tuple[str, str], complaint: str
) -> None:
    """The check above is worth something: the same call complains about these mistakes."""
    fake_exec_start(tmp_path)
    broken = UNIT.read_text().replace(*change)
    assert broken != UNIT.read_text()

    result = verify(tmp_path, broken)

    assert complaint in result.stdout + result.stderr


@needs_systemd
def test_the_verifier_needs_the_program_to_exist(tmp_path: Path) -> None:
    result = verify(tmp_path, UNIT.read_text())

    assert result.returncode != 0
    assert "/opt/azar-kiosk/venv/bin/azar-kiosk" in result.stdout + result.stderr


def test_systemd_waits_for_ready_and_watches_the_main_loop() -> None:
    assert single("Service", "Type") == "notify"
    assert single("Service", "NotifyAccess") == "main"
    assert int(single("Service", "WatchdogSec")) > 0


def test_it_restarts_forever() -> None:
    assert single("Service", "Restart") == "always"
    assert single("Unit", "StartLimitIntervalSec") == "0"


def test_it_runs_the_installed_kiosk_with_the_installed_config() -> None:
    installer = (REPO / "scripts/install-pi").read_text()
    assert "VENV=/opt/azar-kiosk/venv\n" in installer
    assert "CONFIG_DIR=/etc/azar-kiosk\n" in installer
    assert single("Service", "ExecStart") == (
        "/opt/azar-kiosk/venv/bin/azar-kiosk run --config /etc/azar-kiosk/config.toml"
    )


def test_the_data_directory_is_the_one_the_app_is_told() -> None:
    assert single("Service", "StateDirectory") == "azar-kiosk"
    assert "KIOSK_DATA_DIR=/var/lib/azar-kiosk" in SERVICE["Environment"]
    assert single("Unit", "RequiresMountsFor") == "/var/lib/azar-kiosk"


def test_it_draws_on_the_console_with_kmsdrm_and_owns_tty1() -> None:
    assert "SDL_VIDEODRIVER=kmsdrm" in SERVICE["Environment"]
    assert single("Service", "TTYPath") == "/dev/tty1"
    assert single("Service", "StandardInput").startswith("tty")
    assert "getty@tty1.service" in single("Unit", "Conflicts").split()
    # With a TTY on stdin, output would go to the visitors' screen unless sent elsewhere.
    assert single("Service", "StandardOutput") == "journal"
    assert single("Service", "StandardError") == "journal"


def test_it_runs_as_azar_with_the_device_groups() -> None:
    assert single("Service", "User") == "azar"
    groups = set(single("Service", "SupplementaryGroups").split())
    assert groups == {"video", "render", "input", "gpio"}
    installer = (REPO / "scripts/install-pi").read_text()
    assert "SERVICE_GROUPS=(video render input gpio)" in installer


@pytest.mark.parametrize(
    "setting", ["PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"]
)
def test_hardening_leaves_the_devices_open(setting: str) -> None:
    """Each of these closes /dev/dri, the camera or /dev/gpiochip (docs/deploy.md)."""
    assert setting not in SERVICE
