"""systemd's notify protocol (sd_notify(3)): one datagram to $NOTIFY_SOCKET.

A few lines of standard library instead of libsystemd bindings, which need compiling on the Pi.
Outside systemd (no NOTIFY_SOCKET) every call is a no-op, so the app can always call it. The
send never waits: the main loop calls it for the watchdog, and a notify socket whose queue is full
(systemd busy or hung) must cost a lost message, not a frozen screen.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(state: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send `state` (e.g. "READY=1", "WATCHDOG=1") to systemd. Returns False when not under it.

    Never raises: a lost notification costs at worst a watchdog restart, a crash would cost more.
    """
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.setblocking(False)
            sock.connect(address)
            sock.send(state.encode("utf-8"), socket.MSG_DONTWAIT)
    except (OSError, ValueError):  # queue full (BlockingIOError); bad text or NUL in a path
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between WATCHDOG=1 pings systemd expects (half its timeout), or None if unset."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        microseconds = int(usec)
    except ValueError:
        return None
    return microseconds / 2_000_000 if microseconds > 0 else None
