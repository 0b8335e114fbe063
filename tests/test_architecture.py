"""The engine stays free of camera, OpenCV and hardware code (DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "companion"
FORBIDDEN = {"vision", "hardware", "cv2", "gpiozero", "luma", "picamera2", "numpy", "PIL"}
# The application modules that wire the camera to the games (they import vision lazily).
APPLICATION = {"vision_cli.py"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize(
    "path",
    sorted(p for p in ENGINE.rglob("*.py") if p.name not in APPLICATION),
    ids=lambda p: p.name,
)
def test_engine_module_imports_no_device_code(path: Path) -> None:
    assert not imported_modules(path) & FORBIDDEN
