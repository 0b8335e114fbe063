"""The engine stays free of camera, OpenCV and hardware code (DESIGN.md), and only the
device package reaches the hardware and the camera pipeline."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from engine_alone import COMMAND, DEVICE, ENGINE_MODULES, ROOT, imported

HARDWARE = ROOT / "hardware"
FORBIDDEN = {"vision", "hardware", "cv2", "gpiozero", "luma", "picamera2", "numpy", "PIL"}
LAZY_ONLY = {"picamera2", "gpiozero", "luma.oled"}  # imported inside functions only


def imported_modules(path: Path, *, depth: int = 1) -> set[str]:
    """Every module ``path`` imports, at any depth of its code, cut to ``depth`` parts."""
    names = imported(ast.parse(path.read_text(encoding="utf-8")))
    return {".".join(name.split(".")[:depth]) for name in names}


def module_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_command_line_imports_the_device_only_when_asked() -> None:
    assert not imported_modules(COMMAND) & FORBIDDEN
    assert not {name for name in module_level_imports(COMMAND) if "device" in name}


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.name)
def test_engine_module_imports_no_device_code(path: Path) -> None:
    assert not imported_modules(path) & FORBIDDEN
    assert "companion.device" not in imported_modules(path, depth=2)


@pytest.mark.parametrize("path", sorted(HARDWARE.rglob("*.py")), ids=lambda p: p.name)
def test_hardware_knows_nothing_of_the_screens_or_the_games(path: Path) -> None:
    imported = imported_modules(path, depth=2)
    assert not {name for name in imported if name.startswith("companion.")} - {"companion.errors"}
    assert "vision" not in imported_modules(path)


@pytest.mark.parametrize(
    "path",
    sorted([*HARDWARE.rglob("*.py"), *DEVICE.rglob("*.py")]),
    ids=lambda p: p.name,
)
def test_drivers_are_imported_only_where_they_are_used(path: Path) -> None:
    top = module_level_imports(path)
    assert not {name for name in top for lazy in LAZY_ONLY if name.startswith(lazy)}
