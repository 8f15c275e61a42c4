"""Reading systemd/azar-kiosk.service in tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd/azar-kiosk.service"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections of a unit file, each key with every value it was given (Environment= repeats)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


SECTIONS = parse_unit(UNIT.read_text())


def single(section: str, key: str) -> str:
    """The one value of `key` in the installed unit (fails if it is missing or repeated)."""
    [value] = SECTIONS[section][key]
    return value
