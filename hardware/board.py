"""The board's own health: CPU temperature and the firmware's throttling flags.

On a Raspberry Pi the temperature is in sysfs (`/sys/class/thermal/thermal_zone0/temp`, in
thousandths of a degree) and the throttling flags come from `vcgencmd get_throttled`. Off the
Pi neither exists and the answers are None ("not available"), never an error: the maintenance
screen must draw on a laptop too. Tests hand in a fake sysfs folder and a fake vcgencmd.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

THERMAL_ZONE = "class/thermal/thermal_zone0/temp"
VCGENCMD_SECONDS = 2.0  # vcgencmd answers in milliseconds; a hung firmware call must not hang us

# Bits of `vcgencmd get_throttled` (Raspberry Pi documentation): now (0-3), since boot (16-19).
THROTTLE_BITS = {
    0: "under-voltage now",
    1: "ARM frequency capped now",
    2: "throttled now",
    3: "soft temperature limit now",
    16: "under-voltage since boot",
    17: "ARM frequency capped since boot",
    18: "throttled since boot",
    19: "soft temperature limit since boot",
}


@dataclass(frozen=True)
class Throttling:
    """The firmware's flags: `raw` as vcgencmd printed it and what each set bit means."""

    raw: int
    flags: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.raw == 0


def decode_throttled(text: str) -> Throttling | None:
    """`throttled=0x50005` -> its flags; None for anything vcgencmd would not print."""
    _, _, value = text.strip().partition("=")
    try:
        raw = int(value, 16)
    except ValueError:
        return None
    return Throttling(raw, tuple(name for bit, name in THROTTLE_BITS.items() if raw >> bit & 1))


def _vcgencmd(*args: str) -> str | None:
    """vcgencmd's answer, or None where there is no vcgencmd (not a Pi) or it fails."""
    program = shutil.which("vcgencmd")
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, *args], capture_output=True, text=True, timeout=VCGENCMD_SECONDS
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


class Board:
    """Reads the board's temperature and throttling. `sysfs` and `vcgencmd` are seams."""

    def __init__(
        self,
        sysfs: str | Path = "/sys",
        vcgencmd: Callable[..., str | None] = _vcgencmd,
    ) -> None:
        self.sysfs = Path(sysfs)
        self.vcgencmd = vcgencmd

    def temperature(self) -> float | None:
        """The CPU temperature in °C, or None when the board does not say."""
        try:
            text = (self.sysfs / THERMAL_ZONE).read_text(encoding="ascii")
            return int(text.strip()) / 1000
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def throttling(self) -> Throttling | None:
        """The firmware's throttling flags, or None off a Raspberry Pi."""
        answer = self.vcgencmd("get_throttled")
        return decode_throttled(answer) if answer else None
