"""The screens' state machine: throws, moves, undo, why, messages, saver, settings."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from device_helpers import make_app

from companion import games
from companion.device.app import App
from companion.device.events import (
    CameraBack,
    CameraFailed,
    Effect,
    Key,
    Press,
    Stop,
    ThrowRead,
    ThrowRefused,
    Tick,
)
from companion.device.screens import (
    AwaitThrow,
    Choosing,
    ConfirmShutdown,
    Goodbye,
    Menu,
    Message,
    Saver,
    SettingsMenu,
    ThrowShown,
    Why,
)
from companion.device.view import BlankScreen, BoardScreen, ScoreScreen
from companion.randomplay import random_action

SELECT, DOWN, UP, BACK = (Press(k) for k in (Key.SELECT, Key.DOWN, Key.UP, Key.BACK))
HOLD_SELECT, HOLD_BACK = Press(Key.SELECT, long=True), Press(Key.BACK, long=True)


@pytest.fixture
def app(tmp_path: Path) -> App:
    app = make_app(tmp_path)
    app.handle(SELECT, 1.0)  # "New game"
    app.handle(SELECT, 1.0)  # "Start the game", as set up
    return app


def saved_actions(app: App) -> list[str]:
    return list(json.loads(app.store.game_path.read_text())["actions"])


def test_new_game_waits_for_a_throw(app: App) -> None:
    assert isinstance(app.screen, AwaitThrow)
    assert app.game is not None and app.game.fen().startswith("WBWBWBWBWB")


def test_a_throw_read_shows_the_score_then_the_moves(app: App) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    assert isinstance(app.screen, ThrowShown)
    assert app.take_effects() == [Effect.BEEP]
    view = app.view()
    assert isinstance(view, ScoreScreen) and view.score == "1"
    assert view.consequence == "Play again"
    app.handle(Tick(), 2.5)
    assert isinstance(app.screen, ThrowShown)  # still shown
    app.handle(Tick(), 4.0)
    assert isinstance(app.screen, Choosing)
    assert saved_actions(app) == ["throw 1"]


def test_select_confirms_the_move_and_saves_it(app: App) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    app.handle(SELECT, 3.0)
    app.handle(SELECT, 4.0)
    assert saved_actions(app) == ["throw 1", "move 10-11"]
    assert isinstance(app.screen, AwaitThrow)


def test_back_undoes_the_move_then_the_throw(app: App) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    app.handle(SELECT, 3.0)
    app.handle(SELECT, 4.0)
    app.handle(BACK, 5.0)
    assert isinstance(app.screen, Choosing)
    assert saved_actions(app) == ["throw 1"]
    app.handle(BACK, 6.0)
    assert isinstance(app.screen, AwaitThrow)
    assert saved_actions(app) == []
    app.handle(BACK, 7.0)
    assert isinstance(app.screen, Message)  # nothing to undo: said, not a crash


def test_a_misread_throw_is_taken_back_from_the_score(app: App) -> None:
    app.handle(ThrowRead("MMPP"), 2.0)
    app.handle(BACK, 3.0)
    assert isinstance(app.screen, AwaitThrow)
    assert saved_actions(app) == []


def test_throw_by_hand_cycles_the_outcomes(app: App) -> None:
    choices = app.hand_choices()
    app.handle(DOWN, 2.0)
    app.handle(SELECT, 3.0)
    assert app.game is not None
    assert app.game.history[-1] == choices[1].throw


def test_dev_mode_offers_a_random_throw(tmp_path: Path) -> None:
    app = make_app(tmp_path, dev_mode=True)
    app.handle(SELECT, 1.0)  # New game
    app.handle(SELECT, 1.0)  # Start the game
    assert app.hand_choices()[0].label == "random"
    app.handle(SELECT, 2.0)
    assert isinstance(app.screen, ThrowShown)


def test_why_explains_any_piece_with_its_rule(app: App) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    app.handle(SELECT, 3.0)
    app.handle(SELECT, 4.0)  # 10-11: black opens
    app.handle(ThrowRead("MMPP"), 5.0)
    app.handle(SELECT, 6.0)
    app.handle(HOLD_SELECT, 7.0)
    assert isinstance(app.screen, Why)
    view = app.view()
    assert isinstance(view, BoardScreen)
    assert view.lines[1].startswith("[")  # the rule id
    app.handle(DOWN, 8.0)
    app.handle(BACK, 9.0)
    assert isinstance(app.screen, Choosing)


def test_a_refused_throw_is_reported(app: App) -> None:
    app.handle(ThrowRefused("stick on its edge: throw again"), 2.0)
    assert isinstance(app.screen, Message)
    assert "edge" in app.screen.lines[0]
    app.handle(SELECT, 3.0)
    assert isinstance(app.screen, AwaitThrow)


def test_a_bad_reading_is_a_message_not_a_crash(app: App) -> None:
    app.handle(ThrowRead("MMXP"), 2.0)
    assert isinstance(app.screen, Message)
    assert app.game is not None and not app.game.history


def test_camera_failure_and_recovery(app: App) -> None:
    app.handle(CameraFailed("no frame for 5 s"), 2.0)
    assert isinstance(app.screen, Message) and not app.camera_ok
    app.handle(SELECT, 3.0)
    view = app.view()
    assert isinstance(view, BoardScreen) and "No camera" in view.lines[0]
    app.handle(SELECT, 4.0)  # a throw entered by hand
    assert isinstance(app.screen, ThrowShown)
    app.handle(CameraBack(), 5.0)
    assert app.camera_ok


def test_news_from_the_camera_waits_behind_a_problem_found_at_start(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{not a saved game", encoding="utf-8")
    app = make_app(tmp_path)
    assert isinstance(app.screen, Message) and "game" in " ".join(app.screen.lines)
    app.handle(CameraFailed("no frame for 5 s"), 1.0)
    assert isinstance(app.screen, Message) and "game" in " ".join(app.screen.lines)
    app.handle(SELECT, 2.0)
    assert isinstance(app.screen, Message) and "no frame" in " ".join(app.screen.lines)


def test_a_throw_seen_while_moving_pieces_is_ignored(app: App) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    app.handle(SELECT, 3.0)
    app.handle(ThrowRead("MMPP"), 4.0)
    assert isinstance(app.screen, Choosing)
    assert saved_actions(app) == ["throw 1"]


def test_the_screen_saver_comes_and_a_press_only_wakes(tmp_path: Path) -> None:
    app = make_app(tmp_path, saver_after=60)
    app.handle(Tick(), 61.0)
    assert isinstance(app.screen, Saver)
    assert isinstance(app.view(), BlankScreen)
    app.handle(SELECT, 62.0)
    assert isinstance(app.screen, Menu)  # the press woke the screen, chose nothing
    assert app.game is None


def test_holding_back_opens_the_menu_and_back_resumes(app: App) -> None:
    app.handle(HOLD_BACK, 2.0)
    assert isinstance(app.screen, Menu)
    app.handle(BACK, 3.0)
    assert isinstance(app.screen, AwaitThrow)


def test_settings_change_and_are_saved(app: App) -> None:
    app.handle(HOLD_BACK, 2.0)
    for _ in range(5):  # Resume, Edit the position, New game, Language, Throw statistics, Settings
        app.handle(DOWN, 3.0)
    app.handle(SELECT, 4.0)
    assert isinstance(app.screen, SettingsMenu)
    app.handle(SELECT, 5.0)  # contrast
    assert Effect.CONTRAST in app.take_effects()
    app.handle(DOWN, 6.0)
    app.handle(SELECT, 7.0)  # dev mode
    saved = json.loads(app.store.settings_path.read_text())
    assert saved["dev_mode"] is True and saved["contrast"] == 32


def test_language_switch(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.handle(DOWN, 1.0)  # New game, Language
    app.handle(SELECT, 2.0)
    assert app.settings.lang == "fr"
    app.handle(UP, 3.0)
    app.handle(SELECT, 4.0)
    app.handle(SELECT, 4.0)  # "Commencer la partie"
    app.handle(ThrowRead("MPPP"), 5.0)
    view = app.view()
    assert isinstance(view, ScoreScreen) and view.consequence == "Rejouez"


def test_shut_down_asks_first(app: App) -> None:
    app.screen = SettingsMenu(7)
    app.handle(SELECT, 2.0)
    assert isinstance(app.screen, ConfirmShutdown)
    app.handle(BACK, 3.0)
    assert isinstance(app.screen, SettingsMenu)
    app.handle(SELECT, 4.0)
    app.handle(SELECT, 5.0)
    assert isinstance(app.screen, Goodbye) and app.finished
    assert app.take_effects() == [Effect.SHUTDOWN, Effect.FINISHED]


def test_stop_says_safe_to_unplug(app: App) -> None:
    app.handle(Stop("SIGTERM"), 2.0)
    assert isinstance(app.screen, Goodbye) and app.finished


def test_resumes_the_saved_game_at_boot(app: App, tmp_path: Path) -> None:
    app.handle(ThrowRead("MPPP"), 2.0)
    app.handle(SELECT, 3.0)
    resumed = make_app(tmp_path)
    assert resumed.game is not None and app.game is not None
    assert resumed.game.fen() == app.game.fen()
    assert isinstance(resumed.screen, Choosing)


def test_a_lone_senet_modern_piece_may_be_thrown_one_die_by_hand(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="senet-modern")
    rng = random.Random(4)
    game = games.get("senet-modern").game()
    while not (game.position.throw is None and len(game.position.squares(game.position.turn)) == 1):
        if game.is_over():
            game = games.get("senet-modern").game()
        random_action(game, rng)
    app.game, app.start = game, games.get("senet-modern").game().fen()
    throws = [choice.throw for choice in app.hand_choices() if choice.throw is not None]
    assert {t.score for t in throws if len(t.dice) == 1} == {1, 2, 3, 4, 5, 6}  # N6: one die
    assert any(len(t.dice) == 2 for t in throws)


def test_the_settings_keys_name_the_menu_lines(app: App) -> None:
    from companion.device.app import SETTING_KEYS

    labels = [label for label, _ in app.settings_items()]
    assert len(labels) == len(SETTING_KEYS)
    for key in ("calibrate", "enrol", "shut-down"):  # the lines the screens come back to
        assert labels[SETTING_KEYS.index(key)] == app._t(key)


def test_the_address_is_looked_up_again_only_when_old() -> None:
    from companion.device.run import _looked_up_every

    calls: list[int] = []

    def look_up() -> str:
        calls.append(1)
        return f"10.0.0.{len(calls)}"

    address = _looked_up_every(60.0, look_up)
    assert [address(), address()] == ["10.0.0.1", "10.0.0.1"]
    assert len(calls) == 1
    assert _looked_up_every(0.0, look_up)() == "10.0.0.2"
