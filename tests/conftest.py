"""Test fixtures shared by the device tests."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games in-process save hundreds of times; flushing each to the disk only
    slows them down. The power-cut test (test_device_power.py) keeps fsync."""
    monkeypatch.setattr(os, "fsync", lambda descriptor: None)
