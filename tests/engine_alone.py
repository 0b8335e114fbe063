"""Which test modules test the rules engine alone: they import nothing but the standard
library, the test tools, the engine's modules and helpers of their own kind. Their results
cannot depend on the libraries that ``./dev test`` runs the suite again against
(Raspberry Pi OS Bookworm's numpy, OpenCV, Pillow, gpiozero and luma), so that second run
leaves them out (``COMPANION_PINNED_RUN=1``, see conftest.py). A module that imports
anything else, or that cannot be told, is run in both."""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
ENGINE = ROOT / "companion"
DEVICE = ENGINE / "device"
COMMAND = ENGINE / "cli.py"  # the composition root: reaches the device, lazily
# Application modules: the camera wired to the games (vision imported lazily), and the
# text demo, which asks the device's board knowledge what each piece could try.
APPLICATION = {"vision_cli.py", "demo.py"}
# The engine's own modules, which test_architecture.py keeps free of the device, the
# camera pipeline and their libraries.
ENGINE_MODULES = sorted(
    p
    for p in ENGINE.rglob("*.py")
    if DEVICE not in p.parents and p != COMMAND and p.name not in APPLICATION
)
_ENGINE_FILES = frozenset(ENGINE_MODULES)
TEST_TOOLS = {"pytest", "hypothesis", "royalur", "_pytest"}


def imported(tree: ast.Module) -> set[str]:
    """Every module the parsed module ``tree`` imports, at any depth of its code; ``from a
    import b`` names both ``a`` and ``a.b`` (``b`` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _starts_python(tree: ast.Module, names: set[str]) -> bool:
    """Whether the code (``names``: what it imports) reads ``sys.executable``, to start
    this environment's Python: imported from ``sys``, or read from it."""
    return "sys.executable" in names or any(
        isinstance(node, ast.Attribute)
        and node.attr == "executable"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
        for node in ast.walk(tree)
    )


def _engine_module(name: str) -> bool | None:
    """Whether the project module ``name`` is of the engine (None: no such file, e.g.
    a class or function imported from a module)."""
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path in _ENGINE_FILES
    return None


@cache
def of_the_engine_alone(path: Path) -> bool:
    """Whether the test module (or test helper) at ``path`` imports only the standard
    library, the test tools, the engine and test helpers that do the same, and starts
    no Python of the environment it runs in (``sys.executable``: it may run anything)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = imported(tree)
    if _starts_python(tree, names):
        return False
    for name in names:
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in TEST_TOOLS:
            continue
        if top == "companion":
            if _engine_module(name) is False:
                return False
            continue
        helper = TESTS / f"{top}.py"
        if helper.is_file() and helper != path and of_the_engine_alone(helper):
            continue
        return False
    return True
