"""The state folder: unreadable files are kept aside and reported, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from device_helpers import make_app

from companion.device.events import Key, Press
from companion.device.screens import Menu, Message
from companion.device.state import GAME_FILE, SETTINGS_FILE


@pytest.mark.parametrize("content", ["{not json", '{"format": 1}', "\x00\xff", ""])
def test_a_corrupt_game_is_kept_aside_and_reported(tmp_path: Path, content: str) -> None:
    (tmp_path / GAME_FILE).write_text(content, encoding="latin-1")
    app = make_app(tmp_path)
    assert isinstance(app.screen, Message)
    kept = list(tmp_path.glob(f"{GAME_FILE}.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="latin-1") == content
    assert kept[0].name in app.screen.lines[0]
    app.handle(Press(Key.SELECT), 1.0)
    assert isinstance(app.screen, Menu) and app.game is None


def test_corrupt_settings_are_kept_aside(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text('{"lang": 3}')
    app = make_app(tmp_path)
    defaults = app.store.load_settings(app.settings)
    assert defaults == app.settings
    assert any("settings" in problem for problem in app.store.problems)
    assert list(tmp_path.glob(f"{SETTINGS_FILE}.unreadable-*"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_save_that_fails_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tmp_path.chmod(0o500)
    try:
        app.handle(Press(Key.SELECT), 1.0)
        app.handle(Press(Key.SELECT), 1.0)  # "Start the game"
        assert isinstance(app.screen, Message)
    finally:
        tmp_path.chmod(0o700)


def test_a_save_that_fails_is_reported_even_as_root(tmp_path: Path) -> None:
    blocked = tmp_path / "state"
    blocked.write_text("a file where the folder should be")
    app = make_app(blocked)
    app.handle(Press(Key.SELECT), 1.0)  # new game
    app.handle(Press(Key.SELECT), 1.0)  # start it: the save fails
    assert isinstance(app.screen, Message)
    assert "could not be saved" in app.screen.lines[0]
