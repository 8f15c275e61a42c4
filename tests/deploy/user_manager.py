"""A real systemd service manager for tests: `systemd --user`, private to one temporary folder.

systemd refuses to start unless the machine was booted with it (/run/systemd/system exists), so
the manager runs in its own mount namespace (`unshare -m`, needs root) with an empty tmpfs over
/run/systemd holding that folder; nothing of the host is changed. Units, runtime files and
state all live under the temporary folder.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

SYSTEMD = next(
    (p for p in ("/lib/systemd/systemd", "/usr/lib/systemd/systemd") if os.path.exists(p)), None
)

START = (
    "mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && "
    'mkdir /run/systemd/system && exec "$0" --user'
)


class Unavailable(Exception):
    """This machine cannot run a systemd user manager (the reason is the message)."""


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    """Poll `condition` until it holds; False after `timeout` seconds (a generous bound only)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


class UserManager:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.runtime = base / "runtime"
        self.units = base / "config/systemd/user"
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(base / "home"),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "XDG_CONFIG_HOME": str(base / "config"),
            "XDG_DATA_HOME": str(base / "data"),
            "XDG_STATE_HOME": str(base / "state"),
            "XDG_CACHE_HOME": str(base / "cache"),
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if SYSTEMD is None or shutil.which("systemctl") is None or shutil.which("unshare") is None:
            raise Unavailable("systemd, systemctl or unshare is not installed")
        if os.geteuid() != 0:
            raise Unavailable("a private mount namespace for systemd needs root")
        self.runtime.mkdir(mode=0o700)
        self.units.mkdir(parents=True)
        (self.base / "home").mkdir()
        log = (self.base / "manager.log").open("wb")
        self.process = subprocess.Popen(
            ["unshare", "-m", "sh", "-c", START, SYSTEMD],
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
        if not wait_until(self.ready, timeout=30):
            self.stop()
            detail = (self.base / "manager.log").read_text(errors="replace")[-500:]
            raise Unavailable(f"systemd --user did not come up: {detail}")

    def ready(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            return False
        return self.systemctl("show", "-p", "Version", check=False).returncode == 0

    def systemctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["systemctl", "--user", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=check,
        )

    def show(self, unit: str, prop: str) -> str:
        return self.systemctl("show", "-p", prop, "--value", unit).stdout.strip()

    def install(self, name: str, text: str) -> None:
        (self.units / name).write_text(text)
        self.systemctl("daemon-reload")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.systemctl("exit", check=False)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.send_signal(signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None
