"""kiosk.sdnotify over real unix datagram sockets, bound here the way systemd binds its own."""

from __future__ import annotations

import os
import socket
import struct
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.sdnotify import notify, watchdog_interval


@pytest.fixture
def listener() -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket on a short path (sun_path holds 108 bytes) and that path."""
    with tempfile.TemporaryDirectory(prefix="azar-") as folder:
        path = str(Path(folder) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(path)
            sock.settimeout(5)
            yield sock, path


def test_ready_reaches_a_socket_named_in_the_environment(
    listener: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)

    assert notify("READY=1") is True
    assert sock.recv(4096) == b"READY=1"


def test_each_call_is_one_datagram(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    env = {"NOTIFY_SOCKET": path}

    assert notify("READY=1\nSTATUS=attract screen", env)
    assert notify("WATCHDOG=1", env)

    assert sock.recv(4096) == b"READY=1\nSTATUS=attract screen"
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_the_sender_is_this_process(listener: tuple[socket.socket, str]) -> None:
    """systemd reads the sender's pid from the socket (SCM_CREDENTIALS): NotifyAccess=main
    accepts the message only from the service's main process, so it must not come from a child."""
    sock, path = listener
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)

    assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": path})

    data, ancillary, _flags, _address = sock.recvmsg(4096, socket.CMSG_SPACE(12))
    assert data == b"WATCHDOG=1"
    [(level, kind, credentials)] = ancillary
    assert (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS)
    pid, uid, gid = struct.unpack("iII", credentials[:12])
    assert (pid, uid, gid) == (os.getpid(), os.getuid(), os.getgid())


def test_an_abstract_socket_is_written_with_an_at_sign() -> None:
    name = f"azar-kiosk-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)

        assert notify("READY=1", {"NOTIFY_SOCKET": "@" + name}) is True
        assert sock.recv(4096) == b"READY=1"


def test_without_systemd_nothing_is_sent() -> None:
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": ""}) is False


def test_a_socket_that_is_gone_is_not_an_error(tmp_path: Path) -> None:
    assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False
    assert (
        notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@azar-kiosk-nobody-" + uuid.uuid4().hex}) is False
    )


def test_a_path_too_long_for_a_unix_socket_is_not_an_error() -> None:
    assert notify("READY=1", {"NOTIFY_SOCKET": "/" + "x" * 200}) is False


@settings(deadline=None, max_examples=200)
@given(state=st.text(), address=st.text())
def test_notify_never_raises(state: str, address: str) -> None:
    # Whatever the environment holds, the main loop must go on.
    assert notify(state, {"NOTIFY_SOCKET": address}) in (True, False)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),  # WatchdogSec=30 in the unit
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),  # not us
        ({"WATCHDOG_USEC": "1"}, 0.0000005),
        ({}, None),
        ({"WATCHDOG_USEC": ""}, None),
        ({"WATCHDOG_USEC": "thirty"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
    ],
)
def test_watchdog_interval_is_half_the_timeout(
    environ: dict[str, str], expected: float | None
) -> None:
    assert watchdog_interval(environ) == expected


def test_watchdog_interval_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "8000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)

    assert watchdog_interval() == 4.0
