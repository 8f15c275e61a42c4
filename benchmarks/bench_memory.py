"""Peak memory of the kiosk at a screen size (a Pi 3 kiosk should stay under 250 MB).

    .venv/bin/python benchmarks/bench_memory.py [--size 1280x720] [--seconds 60]

Runs the demo (the simulated tray read by the real reader, the rules, the log, every screen
through autoplay) in a process of its own, with a fresh data folder, and prints the process's
peak resident memory as the kernel counted it (getrusage's ru_maxrss of the child).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = str(Path(__file__).resolve().parent.parent)  # the child runs this checkout's code

TARGET_MB = 250


def peak_mb(size: str, seconds: float) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, KIOSK_DATA_DIR=data, PYTHONPATH=REPO)
        env.setdefault("SDL_VIDEODRIVER", "dummy")
        env.setdefault("SDL_AUDIODRIVER", "dummy")
        command = [sys.executable, "-m", "kiosk", "run", "--demo", "--windowed"]
        command += ["--size", size, "--autoplay", "--max-seconds", str(seconds)]
        child = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        return usage.ru_maxrss / 1024, child.returncode  # Linux counts kB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    mb, code = peak_mb(args.size, args.seconds)
    verdict = "under" if mb < TARGET_MB else "OVER"
    print(
        f"demo kiosk {args.size}, {args.seconds:g} s of autoplay: peak RSS {mb:.1f} MB "
        f"({verdict} the {TARGET_MB} MB target), exit code {code}"
    )
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
