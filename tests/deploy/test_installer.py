"""scripts/install-pi against a fake root, with the system's commands replaced at the script's edge.

`fake_system/fake-command` stands in for apt-get, dpkg-query, getent, useradd, systemctl, python3
and the rest, keeping their state in files so that the second run sees what the first one did.
What this proves and what it does not: docs/deploy.md, "How the installer is tested".
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FAKE_COMMAND = Path(__file__).with_name("fake_system") / "fake-command"
STAND_INS = [
    "apt-get",
    "dpkg-query",
    "getent",
    "groupadd",
    "useradd",
    "usermod",
    "id",
    "systemctl",
    "findmnt",
    "mountpoint",
    "mount",
    "blkid",
    "python3",
]
PACKAGES = [
    "python3-venv",
    "python3-numpy",
    "python3-picamera2",
    "python3-lgpio",
    "libdrm2",
    "libgbm1",
    "libegl1",
    "libegl-mesa0",
    "libgles2",
    "libgl1-mesa-dri",
]
UNIT_SOURCE = "systemd/azar-kiosk.service"
MANAGER_CONF_SOURCE = "systemd/system.conf.d/azar-kiosk.conf"
UNIT = "etc/systemd/system/azar-kiosk.service"
CONFIG = "etc/azar-kiosk/config.toml"
VENV = "opt/azar-kiosk/venv"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    calls: list[str]

    @property
    def changes(self) -> list[str]:
        return [call.removeprefix("CHANGE ") for call in self.calls if call.startswith("CHANGE ")]


class FakePi:
    """A checkout, a fake root and a fake system state, all under one temporary folder."""

    def __init__(self, base: Path) -> None:
        self.checkout = base / "checkout"
        self.root = base / "root"
        self.state = base / "state"
        self.bin = base / "bin"
        for folder in (self.root, self.state, self.bin):
            folder.mkdir()
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        for name in ("kiosk", "vision", "hardware"):
            shutil.copytree(REPO / name, self.checkout / name, ignore=ignore)
        for name in ("pyproject.toml", "scripts/install-pi", UNIT_SOURCE, MANAGER_CONF_SOURCE):
            (self.checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, self.checkout / name)
        for name in STAND_INS:
            (self.bin / name).symlink_to(FAKE_COMMAND)
        # A fresh Raspberry Pi OS Lite: these groups exist, gpio is made missing on purpose, and
        # the login prompt is enabled on tty1.
        (self.state / "groups").write_text("video\nrender\ninput\n")
        (self.state / "enabled").write_text("getty@tty1.service\n")
        (self.root / "etc").mkdir()
        (self.root / "etc/fstab").write_text("proc /proc proc defaults 0 0\n")

    def run(self, *args: str, **fake_env: str) -> Run:
        log = self.state / "calls.log"
        log.unlink(missing_ok=True)
        env = {
            **os.environ,
            "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}",
            "ROOT": str(self.root),
            "FAKE_STATE": str(self.state),
            **fake_env,
        }
        result = subprocess.run(
            ["bash", str(self.checkout / "scripts/install-pi"), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        calls = log.read_text().splitlines() if log.exists() else []
        return Run(result.returncode, result.stdout, result.stderr, calls)

    def snapshot(self) -> dict[str, tuple[int, str]]:
        """Every path under the fake root with its mode and content hash (or link target)."""
        files = {}
        for path in sorted(self.root.rglob("*")):
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                content = "-> " + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                content = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                content = "dir"
            files[str(path.relative_to(self.root))] = (info.st_mode, content)
        return files

    def lines(self, name: str) -> list[str]:
        path = self.state / name
        return path.read_text().split() if path.exists() else []


@pytest.fixture
def pi(tmp_path: Path) -> FakePi:
    return FakePi(tmp_path)


def test_first_run_installs_everything(pi: FakePi) -> None:
    run = pi.run()

    assert run.returncode == 0, run.stderr
    assert sorted(pi.lines("packages")) == sorted(PACKAGES)
    assert "groupadd --system gpio" in run.changes
    assert "useradd" in " ".join(run.changes)
    assert sorted(g for m in pi.lines("members") for u, g in [m.split(":")] if u == "azar") == [
        "azar",
        "gpio",
        "input",
        "render",
        "video",
    ]
    assert f"python3 -m venv --system-site-packages {pi.root}/{VENV}" in run.changes
    pip_installs = [c for c in run.changes if c.startswith("python -m pip install")]
    assert pip_installs[0].endswith(f"--constraint {pi.root}/{VENV}/constraints.txt {pi.checkout}")
    assert (pi.root / VENV / "constraints.txt").read_text() == "numpy==1.24.2\n"
    assert (pi.root / UNIT).read_bytes() == (REPO / "systemd/azar-kiosk.service").read_bytes()
    assert (pi.root / CONFIG).read_bytes() == (REPO / "kiosk/config.example.toml").read_bytes()
    assert (pi.root / "etc/systemd/system.conf.d/azar-kiosk.conf").read_bytes() == (
        (REPO / MANAGER_CONF_SOURCE).read_bytes()
    )
    assert pi.lines("enabled") == ["azar-kiosk.service"]  # and the getty on tty1 is gone
    assert "warning:" in run.stderr and "overlay" in run.stderr  # no data partition given
    assert run.stdout.rstrip().endswith("done: azar-kiosk installed")


def test_second_run_changes_nothing(pi: FakePi) -> None:
    assert pi.run().returncode == 0
    before = pi.snapshot()
    state_before = {p.name: p.read_text() for p in pi.state.iterdir() if p.name != "calls.log"}

    again = pi.run()

    assert again.returncode == 0, again.stderr
    assert again.changes == []
    assert pi.snapshot() == before
    assert {p.name: p.read_text() for p in pi.state.iterdir() if p.name != "calls.log"} == (
        state_before
    )
    assert again.stdout.rstrip().endswith("done: nothing to change")
    assert "did:" not in again.stdout


def test_an_edited_config_is_never_overwritten(pi: FakePi) -> None:
    assert pi.run().returncode == 0
    edited = "# the museum's own settings\n[camera]\n"
    (pi.root / CONFIG).write_text(edited)

    again = pi.run()

    assert again.returncode == 0, again.stderr
    assert (pi.root / CONFIG).read_text() == edited


def test_an_update_reinstalls_the_package_and_restarts_the_running_kiosk(pi: FakePi) -> None:
    assert pi.run().returncode == 0
    (pi.state / "active").write_text("azar-kiosk.service\n")
    with (pi.checkout / "kiosk/__init__.py").open("a") as module:
        module.write("# a newer version\n")

    update = pi.run()

    assert update.returncode == 0, update.stderr
    assert [c.split(" --")[0] for c in update.changes] == [
        "python -m pip install",
        "python -m pip install",
        "systemctl restart azar-kiosk.service",
    ]


def test_a_changed_unit_is_reloaded(pi: FakePi) -> None:
    assert pi.run().returncode == 0
    (pi.root / UNIT).write_text("[Service]\nExecStart=/bin/old\n")

    update = pi.run()

    assert update.changes == ["systemctl daemon-reload"]
    assert (pi.root / UNIT).read_bytes() == (REPO / "systemd/azar-kiosk.service").read_bytes()


def test_it_refuses_to_install_onto_the_read_only_overlay(pi: FakePi) -> None:
    run = pi.run(FAKE_ROOT_FSTYPE="overlay")

    assert run.returncode != 0
    assert "overlay" in run.stderr and "disable_overlayfs" in run.stderr
    assert run.changes == []
    assert not (pi.root / "opt").exists()


def test_a_data_partition_goes_in_fstab_once_and_is_mounted(pi: FakePi) -> None:
    run = pi.run("--data-device", "/dev/sda1")

    assert run.returncode == 0, run.stderr
    fstab = (pi.root / "etc/fstab").read_text().splitlines()
    assert fstab[-1].startswith(
        "UUID=0a1b2c3d-4e5f-4a5b-8c7d-0123456789ab /var/lib/azar-kiosk ext4"
    )
    assert "mount /var/lib/azar-kiosk" in run.changes
    assert "warning:" not in run.stderr

    again = pi.run("--data-device", "/dev/sda1")

    assert again.changes == []
    assert (pi.root / "etc/fstab").read_text().splitlines() == fstab


def test_a_data_partition_never_hides_a_game_log_already_there(pi: FakePi) -> None:
    log = pi.root / "var/lib/azar-kiosk/games.sqlite3"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"SQLite format 3\x00 the morning's games")

    run = pi.run("--data-device", "/dev/sda1")

    assert run.returncode != 0
    assert "already holds data" in run.stderr
    assert "azar-kiosk" not in (pi.root / "etc/fstab").read_text()
    assert not [c for c in run.changes if c.startswith("mount")]
    assert log.read_bytes() == b"SQLite format 3\x00 the morning's games"


def test_a_data_partition_must_be_ext4(pi: FakePi) -> None:
    run = pi.run("--data-device", "/dev/sda1", FAKE_DATA_FSTYPE="vfat")

    assert run.returncode != 0
    assert "ext4" in run.stderr
    assert "azar-kiosk" not in (pi.root / "etc/fstab").read_text()


@pytest.mark.parametrize(
    ("debian_version", "pin"),
    [
        ("1:1.24.2-1+deb12u1", "numpy==1.24.2"),  # Bookworm
        ("1:1.26.4+ds-13", "numpy==1.26.4"),
        ("1:2.2.4+ds-1", "numpy==2.2.4"),  # Trixie
    ],
)
def test_numpy_is_pinned_to_the_apt_release(pi: FakePi, debian_version: str, pin: str) -> None:
    run = pi.run(FAKE_NUMPY_VERSION=debian_version)

    assert run.returncode == 0, run.stderr
    assert (pi.root / VENV / "constraints.txt").read_text() == pin + "\n"


def test_a_venv_without_system_packages_is_refused(pi: FakePi) -> None:
    (pi.root / VENV / "bin").mkdir(parents=True)
    (pi.root / VENV / "bin/python").symlink_to(FAKE_COMMAND)
    (pi.root / VENV / "pyvenv.cfg").write_text("include-system-site-packages = false\n")

    run = pi.run()

    assert run.returncode != 0
    assert "--system-site-packages" in run.stderr
    assert not [c for c in run.changes if "pip" in c]


def test_unknown_arguments_are_refused(pi: FakePi) -> None:
    run = pi.run("--frobnicate")

    assert run.returncode != 0
    assert "unknown argument: --frobnicate" in run.stderr
    assert run.changes == []


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_shell_scripts_pass_shellcheck() -> None:
    """Every shell script of the project: the installer, the two README commands and what
    they call, CI's entry point, and the tests' fake system command."""
    shell = [
        path
        for path in [*sorted((REPO / "scripts").iterdir()), REPO / ".ci/run"]
        if path.is_file()
        and path.read_text().startswith(("#!/bin/sh", "#!/usr/bin/env bash", "#!/bin/bash"))
    ]
    assert REPO / "scripts/install-pi" in shell and REPO / "scripts/test" in shell
    scripts = [*shell, FAKE_COMMAND]
    result = subprocess.run(
        ["shellcheck", *map(str, scripts)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout
