"""Fault: systemd does not read its notify socket (busy, hung). The main loop must not wait."""

from __future__ import annotations

import socket
import tempfile
import threading
from pathlib import Path

from kiosk.sdnotify import notify


def test_a_full_notify_socket_costs_a_message_not_the_main_loop() -> None:
    with tempfile.TemporaryDirectory(prefix="azar-") as folder:  # sun_path holds 108 bytes
        path = str(Path(folder) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as nobody_reads:
            nobody_reads.bind(path)
            nobody_reads.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)  # the smallest queue
            answers: list[bool] = []

            def loop() -> None:  # far more pings than any receive queue holds
                for _ in range(5000):
                    answers.append(notify("WATCHDOG=1", {"NOTIFY_SOCKET": path}))

            pinger = threading.Thread(target=loop, daemon=True)
            pinger.start()
            pinger.join(timeout=60)  # a blocking send would never return: this only catches a hang
            assert not pinger.is_alive(), "notify blocked on a full socket"
            assert len(answers) == 5000
            assert answers[0] is True  # the first pings were delivered...
            assert answers[-1] is False  # ...then the queue was full and pings were dropped
            assert nobody_reads.recv(64) == b"WATCHDOG=1"
