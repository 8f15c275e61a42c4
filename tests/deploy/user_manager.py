"""A real systemd service manager for tests: `systemd --user`, private to one temporary folder.

systemd refuses to start unless the machine was booted with it (/run/systemd/system exists), so
the manager runs in its own mount namespace (`unshare -m`, needs root) with a tmpfs over
/run/systemd holding that folder; nothing of the host is changed. Run as root, it applies the
sandboxing settings (ProtectSystem=, SystemCallFilter=...) as the system manager would. Units,
runtime files and state all live in a folder of its own, outside /tmp.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SYSTEMD = next(
    (p for p in ("/lib/systemd/systemd", "/usr/lib/systemd/systemd") if os.path.exists(p)), None
)

# A tmpfs over /run/systemd with what PID 1 would have put there: the "booted" marker, and the
# inaccessible nodes that sandboxing settings (ProtectHome=, ProtectKernelLogs=...) bind-mount.
START = """
set -e
mkdir -p /run/systemd
mount -t tmpfs tmpfs /run/systemd
mkdir /run/systemd/system /run/systemd/inaccessible
cd /run/systemd/inaccessible
mkdir -m 0 dir
: > reg
chmod 0 reg
mkfifo -m 0 fifo
mknod -m 0 chr c 0 0
mknod -m 0 blk b 0 0
python3 -c 'import os, stat; os.mknod("sock", stat.S_IFSOCK)'
chmod 0 sock
cd /
exec "$0" --user
"""


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


def private_folder() -> Path:
    """A folder outside /tmp: a service with PrivateTmp=yes must still reach the manager's
    notify socket and its state folder, as it reaches /run on a real system."""
    parent = next((p for p in ("/dev/shm", "/run", "/var/tmp") if os.access(p, os.W_OK)), None)
    return Path(tempfile.mkdtemp(prefix="azar-kiosk-systemd-", dir=parent))


class UserManager:
    """`systemd --user` in a folder of its own; `stop()` ends it and removes the folder."""

    def __init__(self) -> None:
        base = self.base = private_folder()
        self.runtime = base / "runtime"
        self.units = base / "config/systemd/user"
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(base / "home"),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "XDG_CONFIG_HOME": str(base / "config"),
            "XDG_DATA_HOME": str(base / "data"),
            "XDG_STATE_HOME": str(base / "state"),  # StateDirectory= of user units
            "XDG_CACHE_HOME": str(base / "cache"),  # CacheDirectory=
        }
        self.state = base / "state"
        self.cache = base / "cache"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if SYSTEMD is None or shutil.which("systemctl") is None or shutil.which("unshare") is None:
            raise Unavailable("systemd, systemctl or unshare is not installed")
        if os.geteuid() != 0:
            raise Unavailable("a private mount namespace for systemd needs root")
        self.runtime.mkdir(mode=0o700)
        self.units.mkdir(parents=True)
        (self.base / "home").mkdir()
        with (self.base / "manager.log").open("wb") as log:
            self.process = subprocess.Popen(
                ["unshare", "-m", "sh", "-c", START, SYSTEMD],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        if not wait_until(self.ready, timeout=30):
            detail = (self.base / "manager.log").read_text(errors="replace")[-500:]
            self.stop()
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
        if self.process is not None and self.process.poll() is None:
            self.systemctl("exit", check=False)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.send_signal(signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None
        shutil.rmtree(self.base, ignore_errors=True)
