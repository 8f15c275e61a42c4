"""The unit under a real systemd: notify, watchdog, restarts and the sandbox.

A private `systemd --user` manager (tests/deploy/user_manager.py) runs, under units made from
systemd/azar-kiosk.service:
- a stand-in for the kiosk's main loop (notify_program.py), with the unit's Type=,
  NotifyAccess=, Restart=, StartLimitIntervalSec= and Python environment as they are, and
  WatchdogSec=, RestartSec= and TimeoutStartSec= shortened so that a test takes seconds;
- the kiosk itself in demo mode, plainly and inside the unit's whole sandbox.
User=, the groups, the TTY and the devices need the system manager and a Pi: not run here.
Waits poll with generous bounds; nothing asserts on how fast the machine is.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .unitfile import REPO, SECTIONS, single
from .user_manager import Unavailable, UserManager, wait_until

PROGRAM = Path(__file__).with_name("notify_program.py")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def manager() -> Iterator[UserManager]:
    manager = UserManager()
    try:
        manager.start()
    except Unavailable as reason:
        pytest.skip(f"no systemd service manager here: {reason}")
    yield manager
    manager.stop()


def python_environment() -> list[str]:
    """The unit's own PYTHON* settings (PYTHONFAULTHANDLER puts the hung stack in the log)."""
    return [v for v in SECTIONS["Service"]["Environment"] if v.startswith("PYTHON")]


class Service:
    """One unit under the test manager, with the pids its program recorded at each start."""

    def __init__(self, manager: UserManager, folder: Path, name: str) -> None:
        self.manager = manager
        self.name = name
        self.starts_file = folder / f"{name}.starts"
        self.stderr = folder / f"{name}.stderr"

    def starts(self) -> list[int]:
        if not self.starts_file.exists():
            return []
        return [int(pid) for pid in self.starts_file.read_text().split()]

    def show(self, prop: str) -> str:
        return self.manager.show(self.name, prop)

    def restarts(self) -> int:
        return int(self.show("NRestarts") or 0)

    def clean_up(self) -> None:
        self.manager.systemctl("stop", self.name, check=False)
        self.manager.systemctl("reset-failed", self.name, check=False)
        children = Path(f"{self.starts_file}.children")
        pids = self.starts() + (
            [int(p) for p in children.read_text().split()] if children.exists() else []
        )
        for pid in pids:
            try:
                if str(PROGRAM) in Path(f"/proc/{pid}/cmdline").read_text() or children.exists():
                    os.kill(pid, signal.SIGKILL)
            except (FileNotFoundError, ProcessLookupError):
                pass


@pytest.fixture
def service(manager: UserManager, tmp_path: Path) -> Iterator[Callable[..., Service]]:
    made: list[Service] = []

    def make(
        mode: str,
        *,
        start_limit: bool = True,
        watchdog: int = 4,
        timeout_start: int = 3,
        command: str | None = None,
        environment: tuple[str, ...] = (),
    ) -> Service:
        name = f"kiosk-{len(made)}-{mode}.service"
        unit = Service(manager, tmp_path, name)
        lines = ["[Unit]"]
        if start_limit:
            lines.append(f"StartLimitIntervalSec={single('Unit', 'StartLimitIntervalSec')}")
        lines += [
            "[Service]",
            f"Type={single('Service', 'Type')}",
            f"NotifyAccess={single('Service', 'NotifyAccess')}",
            f"Restart={single('Service', 'Restart')}",
            *(f"Environment={value}" for value in python_environment()),
            f"Environment=PYTHONPATH={REPO}",
            f"WatchdogSec={watchdog}",
            "RestartSec=0.2",
            f"TimeoutStartSec={timeout_start}",
            *(f"Environment={value}" for value in environment),
            f"ExecStart={command or f'{sys.executable} {PROGRAM} {unit.starts_file} {mode}'}",
            f"StandardError=append:{unit.stderr}",
        ]
        manager.install(name, "\n".join(lines) + "\n")
        made.append(unit)
        return unit

    yield make
    for unit in made:
        unit.clean_up()


def test_ready_starts_the_kiosk_and_its_pings_keep_it_running(service) -> None:
    kiosk = service("ping")

    # Type=notify: `systemctl start` returns once READY=1 has arrived.
    kiosk.manager.systemctl("start", kiosk.name)

    assert (kiosk.show("ActiveState"), kiosk.show("SubState")) == ("active", "running")
    pings = {kiosk.show("WatchdogTimestampMonotonic")}

    def pinged_twice_more() -> bool:
        pings.add(kiosk.show("WatchdogTimestampMonotonic"))
        return len(pings) >= 3

    # systemd stamps the time of each WATCHDOG=1 it accepts.
    assert wait_until(pinged_twice_more)
    assert kiosk.restarts() == 0
    assert len(kiosk.starts()) == 1


def test_a_hung_main_loop_is_killed_and_restarted(service) -> None:
    kiosk = service("hang")
    kiosk.manager.systemctl("start", kiosk.name)

    assert wait_until(lambda: len(kiosk.starts()) >= 2)

    assert kiosk.restarts() >= 1
    first, second = kiosk.starts()[:2]
    assert first != second
    log = kiosk.stderr.read_text()
    assert "Fatal Python error: Aborted" in log  # the watchdog's SIGABRT
    assert "in hang" in log  # the stack of the hung loop, for the journal


def test_pings_from_a_child_process_do_not_count(service) -> None:
    """NotifyAccess=main: only the kiosk's main process can keep the watchdog quiet."""
    kiosk = service("child-pings")
    kiosk.manager.systemctl("start", kiosk.name)

    assert wait_until(lambda: len(kiosk.starts()) >= 2)
    assert kiosk.restarts() >= 1


@pytest.mark.parametrize("status", [0, 1])
def test_it_restarts_forever_whatever_the_exit(service, status: int) -> None:
    kiosk = service(f"exit-{status}")
    kiosk.manager.systemctl("start", "--no-block", kiosk.name)

    # systemd's default would give up after 5 starts in 10 s.
    assert wait_until(lambda: kiosk.restarts() >= 8)
    assert kiosk.show("ActiveState") != "failed"


def test_without_start_limit_interval_zero_systemd_would_give_up(service) -> None:
    """The same crashing kiosk, minus the unit's StartLimitIntervalSec=0: the check above bites."""
    kiosk = service("exit-1", start_limit=False)
    kiosk.manager.systemctl("start", "--no-block", kiosk.name)

    # With Restart=always, "failed" means systemd stopped restarting it.
    assert wait_until(lambda: kiosk.show("ActiveState") == "failed")
    assert kiosk.restarts() < 8, kiosk.show("Result")


def test_a_kiosk_that_never_gets_ready_is_restarted(service) -> None:
    kiosk = service("never-ready")
    kiosk.manager.systemctl("start", "--no-block", kiosk.name)

    assert wait_until(lambda: len(kiosk.starts()) >= 2)
    assert kiosk.restarts() >= 1


@pytest.mark.skipif(
    importlib.util.find_spec("kiosk.app") is None,
    reason="the kiosk application (kiosk/app.py) is not there yet",
)
def test_the_kiosk_itself_reports_ready_and_pings_the_watchdog(service, tmp_path: Path) -> None:
    """The real application, in demo mode on SDL's dummy video driver instead of KMSDRM."""
    kiosk = service(
        "app",
        timeout_start=120,  # a generous bound for a slow machine; READY normally takes a second
        command=f"{sys.executable} -m kiosk run --demo --max-seconds 600",
        environment=(
            "SDL_VIDEODRIVER=dummy",
            "SDL_AUDIODRIVER=dummy",
            "GPIOZERO_PIN_FACTORY=mock",
            f"KIOSK_DATA_DIR={tmp_path / 'data'}",
        ),
    )

    kiosk.manager.systemctl("start", kiosk.name)  # returns when the kiosk has sent READY=1

    assert (kiosk.show("ActiveState"), kiosk.show("SubState")) == ("active", "running")
    pings = {kiosk.show("WatchdogTimestampMonotonic")}

    def pinged_twice_more() -> bool:
        pings.add(kiosk.show("WatchdogTimestampMonotonic"))
        return len(pings) >= 3

    assert wait_until(pinged_twice_more)
    assert kiosk.restarts() == 0


# Settings that need the system manager and a Pi (a user, its groups, a VT), or that the test
# replaces: output to a file, the demo command, shorter times.
NOT_IN_A_USER_MANAGER = {
    "User",
    "Group",
    "SupplementaryGroups",
    "TTYPath",
    "StandardInput",
    "TTYReset",
    "TTYVHangup",
    "StandardOutput",
    "StandardError",
    "ExecStart",
    "WatchdogSec",
    "TimeoutStartSec",
    "RestartSec",
}


UNDER_TMP = any(
    Path(p).resolve().is_relative_to("/tmp") for p in (REPO, sys.executable, sys.prefix)
)


def sandboxed_unit(manager: UserManager, log: Path, probe: str | None = None) -> str:
    """The real unit's [Service] section, running the kiosk in demo mode on SDL's dummy driver,
    or, given `probe`, a shell command once."""
    lines = ["[Service]"]
    for key, values in SECTIONS["Service"].items():
        if key in NOT_IN_A_USER_MANAGER or (probe and key in ("Type", "Restart")):
            continue
        for value in values:
            if key == "Environment":
                name = value.partition("=")[0]
                value = {
                    "SDL_VIDEODRIVER": "SDL_VIDEODRIVER=dummy",
                    # Where StateDirectory= and CacheDirectory= point for a user manager.
                    "KIOSK_DATA_DIR": f"KIOSK_DATA_DIR={manager.state}/azar-kiosk",
                    "XDG_CACHE_HOME": f"XDG_CACHE_HOME={manager.cache}/azar-kiosk",
                }.get(name, value)
            if key == "ProtectHome" and Path(sys.executable).resolve().is_relative_to("/root"):
                value = "read-only"  # this machine's Python lives under /root (pyenv)
            if key == "PrivateTmp" and UNDER_TMP:
                # A checkout (and its .venv) under /tmp, which PrivateTmp= would hide from the
                # service: bind it back in, read-only, on top of the private /tmp.
                lines.append(f"BindReadOnlyPaths={REPO}")
            lines.append(f"{key}={value}")
    lines += [
        "Environment=SDL_AUDIODRIVER=dummy",
        "Environment=GPIOZERO_PIN_FACTORY=mock",
        f"Environment=PYTHONPATH={REPO}",
        "WatchdogSec=10",
        "TimeoutStartSec=120",
        "RestartSec=1",
        *(
            [f"ExecStart=/bin/sh -c '{probe}'", "Type=oneshot"]
            if probe
            else [f"ExecStart={sys.executable} -m kiosk run --demo --autoplay --max-seconds 600"]
        ),
        f"StandardOutput=append:{log}",
        f"StandardError=append:{log}",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(
    importlib.util.find_spec("kiosk.app") is None,
    reason="the kiosk application (kiosk/app.py) is not there yet",
)
def test_the_kiosk_runs_inside_the_units_sandbox(manager: UserManager) -> None:
    """ProtectSystem=strict, SystemCallFilter=, RestrictAddressFamilies= and the rest, as in
    the unit: the kiosk still starts, plays (autoplay) and writes its game log. The devices
    (DRM, camera, GPIO) are not on this machine; hardware.md and deploy.md cover those."""
    log = manager.base / "sandboxed.log"
    manager.install("sandboxed.service", sandboxed_unit(manager, log))
    try:
        manager.systemctl("start", "--no-block", "sandboxed.service")

        assert wait_until(
            lambda: manager.show("sandboxed.service", "SubState") == "running", 150
        ), log.read_text() if log.exists() else "no output"
        game_log = manager.state / "azar-kiosk/games.sqlite3"
        assert wait_until(lambda: game_log.exists() and game_log.stat().st_size > 0)
        pings = {manager.show("sandboxed.service", "WatchdogTimestampMonotonic")}

        def pinged_again() -> bool:
            pings.add(manager.show("sandboxed.service", "WatchdogTimestampMonotonic"))
            return len(pings) >= 2

        assert wait_until(pinged_again)
        assert manager.show("sandboxed.service", "NRestarts") == "0"
        assert "Traceback" not in log.read_text()
    finally:
        manager.systemctl("stop", "sandboxed.service", check=False)


def test_the_sandbox_is_really_applied(manager: UserManager) -> None:
    """The check above means something: under the same settings, writing to the checkout
    fails (ProtectSystem=strict) while the state folder is writable."""
    probe = REPO / f"sandbox-probe-{os.getpid()}"
    log = manager.base / "probe.log"
    state = manager.state / "azar-kiosk/probe"
    command = f"touch {state} && echo state-ok; touch {probe} || echo checkout-read-only"
    manager.install("probe.service", sandboxed_unit(manager, log, probe=command))

    manager.systemctl("start", "probe.service", check=False)

    try:
        output = log.read_text()
        assert "state-ok" in output and "checkout-read-only" in output, output
        assert not probe.exists()
    finally:
        probe.unlink(missing_ok=True)
