"""Test-wide seams: no screen, no sound card, no GPIO header on the machines that run the tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run unless HYPOTHESIS_PROFILE=explore: a run
# that fails must fail again for whoever repeats it, and a landing must not hang on the draw.
# Failing examples found while exploring are kept in the tests (@example), so they stay checked.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def on_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        return False
    return "Raspberry Pi" in model


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if on_raspberry_pi():
        return
    skip = pytest.mark.skip(reason="needs a Raspberry Pi (camera or GPIO header)")
    for item in items:
        if "pi" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Every string the screens draw from now on (text lines and paragraphs)."""
    from kiosk.ui import draw

    seen: list[str] = []
    for name in ("text", "paragraph"):
        original = getattr(draw, name)

        def spy(surface, layout, string, *args, _original=original, **kwargs):
            seen.append(str(string))
            return _original(surface, layout, string, *args, **kwargs)

        monkeypatch.setattr(draw, name, spy)
    return seen
