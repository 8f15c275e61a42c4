"""What the technician asks of a kiosk: is it up, has it been restarting, what went wrong,
is the card filling, is the Pi too hot or under-powered, which version runs.

The kiosk keeps two small files in its data folder so the answers survive a restart (which is
when they matter): `starts.log`, one line per start, and `errors.log`, its warnings and errors,
one line each (rotated at `ERRORS_BYTES`). `gather` reads them with the board's sensors into a
`Health`; the maintenance screen only draws it.
"""

from __future__ import annotations

import logging
import logging.handlers
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hardware.board import Board, Throttling

log = logging.getLogger(__name__)

STARTS_FILE = "starts.log"
ERRORS_FILE = "errors.log"
STARTS_KEPT = 400  # lines kept in starts.log: days of restarts, a few kB
ERRORS_BYTES = 256_000  # errors.log rotates to errors.log.1 past this size
ERRORS_SHOWN = 5


@dataclass(frozen=True)
class Health:
    version: str
    uptime_seconds: float
    restarts_today: int
    last_errors: tuple[str, ...]
    free_bytes: int | None  # on the data folder's file system
    temperature: float | None  # °C; None off a Pi
    throttling: Throttling | None  # None off a Pi


def record_start(folder: Path, now: float | None = None) -> None:
    """Add this start to `starts.log`, keeping the newest STARTS_KEPT lines."""
    path = Path(folder) / STARTS_FILE
    stamp = time.time() if now is None else now
    try:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        lines = [*lines[-(STARTS_KEPT - 1) :], f"{stamp:.0f}"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        log.warning("cannot record the start in %s: %s", path, error)


def starts(text: str) -> list[float]:
    """The start times in `starts.log`; a damaged line is skipped."""
    times = []
    for line in text.splitlines():
        try:
            times.append(float(line))
        except ValueError:
            continue
    return times


def restarts_today(times: Iterable[float], now: float) -> int:
    """Starts on today's (local) date beyond the first one of the day."""
    today = time.localtime(now)[:3]
    return max(0, sum(time.localtime(t)[:3] == today for t in times) - 1)


class OneLine(logging.Formatter):
    """A record on one line: time, level, where, message, and the exception's last line."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.created))
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message = f"{message}: {type(error).__name__}: {error}"
        text = " ".join(message.split())
        return f"{stamp} {record.levelname} {record.name}: {text}"


def keep_errors(folder: Path) -> logging.Handler | None:
    """Copy the kiosk's warnings and errors into `errors.log` (the journal keeps them all)."""
    path = Path(folder) / ERRORS_FILE
    try:
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=ERRORS_BYTES, backupCount=1, encoding="utf-8"
        )
    except OSError as error:
        log.warning("cannot keep errors in %s: %s", path, error)
        return None
    handler.setLevel(logging.WARNING)
    handler.setFormatter(OneLine())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, OneLine)]:
        root.removeHandler(old)  # started again in one process (tests): one file at a time
        old.close()
    root.addHandler(handler)
    return handler


def last_errors(text: str, n: int = ERRORS_SHOWN) -> tuple[str, ...]:
    """The newest `n` lines of `errors.log`, newest first."""
    lines = [line for line in text.splitlines() if line.strip()]
    return tuple(reversed(lines[-n:]))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def free_bytes(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def gather(folder: Path, uptime_seconds: float, board: Board | None, version: str) -> Health:
    """Every fact the maintenance screen shows, read now (`board` None: this machine's)."""
    folder = Path(folder)
    board = board or Board()
    return Health(
        version=version,
        uptime_seconds=uptime_seconds,
        restarts_today=restarts_today(starts(_read(folder / STARTS_FILE)), time.time()),
        last_errors=last_errors(_read(folder / ERRORS_FILE)),
        free_bytes=free_bytes(folder),
        temperature=board.temperature(),
        throttling=board.throttling(),
    )


def duration(seconds: float) -> str:
    """Uptime as a technician reads it: "3 d 04 h", "2 h 05 min", "7 min"."""
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours:02d} h"
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min"


def size(n: int) -> str:
    """Bytes as "1.4 GB", "512 MB"."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def light_for(lights, button: str) -> None:
    """Light the LED that belongs to `button` alone, the others off: the seat LEDs by the side
    buttons, the "throw the dice" LED for ok."""
    lights.show_turn({"left": 0, "right": 1}.get(button))
    lights.waiting(button == "ok")
