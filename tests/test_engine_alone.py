"""The second test run, against Bookworm's library versions, leaves out only the tests of
the rules engine alone (engine_alone.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_alone import TESTS, of_the_engine_alone


@pytest.mark.parametrize("name", ["test_core.py", "test_notation_properties.py", "test_royalur.py"])
def test_tests_of_rules_and_notation_are_of_the_engine_alone(name: str) -> None:
    assert of_the_engine_alone(TESTS / name)


@pytest.mark.parametrize(
    "name",
    [
        "test_vision_d4.py",  # the vision package
        "test_cli.py",  # the command line reaches the camera and the device
        "test_device_games.py",  # through a helper (device_helpers.py)
        "test_sphinx_learned.py",  # numpy
        "test_drawn_once.py",  # a helper that draws scenes
    ],
)
def test_tests_of_anything_else_are_not(name: str) -> None:
    assert not of_the_engine_alone(TESTS / name)


def test_a_test_that_starts_this_environments_python_is_not(tmp_path: Path) -> None:
    module = tmp_path / "test_started.py"
    module.write_text("import subprocess, sys\nsubprocess.run([sys.executable, '-V'])\n")
    assert not of_the_engine_alone(module)
    module.write_text("from subprocess import run\nfrom sys import executable\nrun([executable])\n")
    assert not of_the_engine_alone.__wrapped__(module)
    module.write_text("import subprocess\nsubprocess.run(['bash', '-n', 'x.sh'])\n")
    assert of_the_engine_alone.__wrapped__(module)
