"""Imports point inward: the rules know nothing of ours, vision and hardware know no kiosk."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"kiosk", "vision", "hardware"}

# package (or sub-package) -> top-level names of ours it must not import
FORBIDDEN = {
    "kiosk/rules": {"kiosk.ui", "kiosk.app", "vision", "hardware"},
    "vision": {"kiosk", "hardware"},
    "hardware": {"kiosk", "vision"},
    # The table's game and the staff's statistics are not drawing: no screen code in them.
    "kiosk/match.py": {"kiosk.ui", "kiosk.app", "pygame", "hardware", "vision"},
    "kiosk/stats.py": {"kiosk.ui", "kiosk.app", "pygame", "hardware", "vision"},
    # A logged game as plain values: no storage, no screen (kiosk.gamelog keeps them).
    "kiosk/records.py": {"kiosk.gamelog", "kiosk.ui", "kiosk.app", "sqlite3", "pygame"},
    # The frame loop knows the table only by its Protocols, and nothing of the parts.
    "kiosk/loop.py": {"kiosk.app", "kiosk.table", "kiosk.ui", "hardware", "vision"},
    "kiosk/staff.py": {"kiosk.ui", "kiosk.app", "kiosk.table", "pygame", "hardware", "vision"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(package: str) -> list[Path]:
    path = ROOT / package
    return [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_inward(package: str) -> None:
    bad = []
    for path in python_files(package):
        for name in imported_modules(path):
            for banned in FORBIDDEN[package]:
                if name == banned or name.startswith(banned + "."):
                    bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_rules_use_only_the_standard_library() -> None:
    import sys

    bad = []
    for path in python_files("kiosk/rules"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or name.startswith("kiosk.rules"):
                continue
            bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)
