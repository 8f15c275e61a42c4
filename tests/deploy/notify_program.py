"""A stand-in for the kiosk's main loop, run as a service by tests/deploy/test_under_systemd.py.

It talks to systemd only through kiosk.sdnotify, like the app. Usage:
    notify_program.py STARTS_FILE MODE
Every start appends its pid to STARTS_FILE. MODE:
    ping           READY=1, then WATCHDOG=1 four times per watchdog period, forever
    hang           READY=1, two pings, then a hung loop (no more pings)
    child-pings    READY=1, then a child process pings while this main process hangs
    exit-N         READY=1, then exit with status N
    never-ready    never sends READY=1
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from kiosk.sdnotify import notify, watchdog_interval

CHILD = """
import os, sys, time
from kiosk.sdnotify import notify
parent = os.getppid()
while os.getppid() == parent:
    notify("WATCHDOG=1")
    time.sleep(0.2)
"""


def hang() -> None:
    while True:
        time.sleep(3600)


def main(starts_file: str, mode: str) -> int:
    with Path(starts_file).open("a") as starts:
        starts.write(f"{os.getpid()}\n")
    if mode == "never-ready":
        hang()
    notify("READY=1")
    period = watchdog_interval() or 1.0
    if mode == "ping":
        while True:
            notify("WATCHDOG=1")
            time.sleep(period / 2)
    if mode == "hang":
        for _ in range(2):
            notify("WATCHDOG=1")
            time.sleep(period / 2)
        hang()
    if mode == "child-pings":
        with open(f"{starts_file}.children", "a") as children:
            child = subprocess.Popen([sys.executable, "-c", CHILD])
            children.write(f"{child.pid}\n")
        hang()
    if mode.startswith("exit-"):
        return int(mode.removeprefix("exit-"))
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
