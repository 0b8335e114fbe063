"""Test fixtures shared by the tests, and generated scenes drawn once per test process."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from engine_alone import of_the_engine_alone
from scene_helpers import drawn_once

from vision import synthetic

if TYPE_CHECKING:
    from vision.numerals import Glyph

# Before the test modules import it (conftest.py is imported first); write_set and the
# evaluate command's generated sets draw through it too.
synthetic.scene = drawn_once(synthetic.scene)


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games in-process save hundreds of times; flushing each to the disk only
    slows them down. The power-cut test (test_device_power.py) keeps fsync."""
    monkeypatch.setattr(os, "fsync", lambda descriptor: None)


@pytest.fixture(scope="session")
def synthetic_d4_glyphs() -> tuple[Glyph, ...]:
    """Glyphs of the generated d4s' numerals, learned once for every vision test."""
    from vision.dataset import generated_d4s
    from vision.numerals import learn_glyphs

    return learn_glyphs(list(generated_d4s(20, seed=91)), "synthetic")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the run against Bookworm's library versions (``./dev test`` sets
    COMPANION_PINNED_RUN=1), the tests of the engine alone are left to the first run: no
    library pinned there is theirs (engine_alone.py)."""
    if os.environ.get("COMPANION_PINNED_RUN") != "1":
        return
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        (left if of_the_engine_alone(item.path) else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
