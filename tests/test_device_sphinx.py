"""The device's new-game screen, the Sphinx's turn, hints and the throw statistics."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from device_helpers import make_app

from companion import throwlog
from companion.core import END, Move
from companion.device.app import App
from companion.device.events import CameraBack, Effect, Key, Press, SphinxAnswer, ThrowRead
from companion.device.loop import EventLoop
from companion.device.screens import (
    AwaitThrow,
    Choosing,
    Editor,
    Hints,
    Menu,
    Message,
    Setup,
    SphinxMove,
    Stats,
    Thinking,
)
from companion.device.sphinxturn import Purpose, agrees_to_end, seat_of_side
from companion.device.state import SETTINGS_FILE, Settings, StateStore
from companion.device.view import BoardScreen, MenuScreen, MessageScreen
from companion.randomplay import random_action
from hardware.display import dummy_display

SELECT, DOWN, UP, BACK = (Press(k) for k in (Key.SELECT, Key.DOWN, Key.UP, Key.BACK))
HOLD_UP = Press(Key.UP, long=True)


def setup_line(app: App, prefix: str) -> int:
    """Move the new-game screen's cursor to the line starting with ``prefix``."""
    assert isinstance(app.screen, Setup)
    labels = [label for label, _ in app.setup_items(app.screen.draft)]
    target = next(i for i, label in enumerate(labels) if label.startswith(prefix))
    while app.screen.cursor != target:
        app.handle(DOWN, 1.0)
    return target


def started(app: App) -> App:
    app.handle(SELECT, 1.0)  # New game
    app.handle(SELECT, 1.0)  # Start the game
    return app


# ----- setting up a game -------------------------------------------------------------------
def test_new_game_screen_sets_rules_options_first_seat_and_the_sphinx(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.handle(SELECT, 1.0)
    assert isinstance(app.screen, Setup)
    while app.screen.draft.game != "mehen":
        setup_line(app, "Rules")
        app.handle(SELECT, 1.0)
    setup_line(app, "Players")
    app.handle(SELECT, 1.0)  # 2 -> 3
    setup_line(app, "Board")
    app.handle(SELECT, 1.0)  # 88 -> 100
    setup_line(app, "First")
    app.handle(SELECT, 1.0)  # seat 2 starts
    setup_line(app, "Seat 3")
    app.handle(SELECT, 1.0)  # a person -> the Sphinx, easy
    assert "Seat 3: Sphinx, easy" in [label for label, _ in app.setup_items(app.screen.draft)]
    setup_line(app, "Start")
    app.handle(SELECT, 1.0)
    assert app.game is not None
    assert app.game.rules.players == 3 and app.game.rules.length == 100  # type: ignore[attr-defined]
    assert app.settings.seats == ("person", "person", "easy") and app.settings.first == 1
    saved = json.loads(app.store.settings_path.read_text())
    assert saved["seats"] == ["person", "person", "easy"]
    assert saved["options"] == [["players", 3], ["length", 100]]


def test_back_leaves_the_new_game_screen_without_changing_the_settings(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.handle(SELECT, 1.0)
    setup_line(app, "Seat 2")
    app.handle(SELECT, 1.0)
    app.handle(BACK, 1.0)
    assert isinstance(app.screen, Menu) and app.settings.seats == () and app.game is None


def test_the_seat_chosen_to_start_plays_the_starting_side(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="ur-finkel", seats=("person", "easy"))
    app.settings = Settings(game="ur-finkel", first=1, seats=("person", "easy"))
    started(app)
    assert app.seat_to_move() == 1
    assert isinstance(app.screen, AwaitThrow)  # no choice before its throw in Finkel
    view = app.view()
    assert isinstance(view, BoardScreen) and view.header.startswith("Sphinx")
    assert "Throw for the Sphinx" in view.lines


def test_senet_colours_follow_who_threw_the_first_one() -> None:
    from companion import games

    rules = games.get("senet-kendall")
    game = rules.game()
    start = game.fen()
    rng = random.Random(4)
    while game.position.phase.value == "opening":
        random_action(game, rng)
    thrower = game.history[-2]  # the 1 that ended the opening
    assert str(thrower) == "1"
    opening_turns = len([a for a in game.history if isinstance(a, Move)])
    first_to_one = (opening_turns - 1) % 2  # seats throw in turn in the opening
    opener = rules.opener  # type: ignore[attr-defined]
    assert seat_of_side(game, start, 0, opener) == first_to_one
    assert seat_of_side(game, start, 1, opener) == 1 - first_to_one


def test_resumed_game_keeps_its_sphinx(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="ur-finkel", seats=("easy", "person"))
    started(app)
    assert app.sphinx_to_move() is not None
    store = StateStore(tmp_path)
    resumed = App(store, settings=store.load_settings(Settings()), info=app.info)
    assert resumed.settings.seats == ("easy", "person") and resumed.settings.game == "ur-finkel"
    assert resumed.sphinx_to_move() is not None


@pytest.mark.parametrize(
    ("record", "named"),
    [
        ({"seats": ["person", "wizard"]}, "seats"),
        ({"options": [["players", 9]]}, "players"),
        ({"options": [["players", "3"]]}, "players"),
        ({"game": "mehen", "first": 4}, "first"),
    ],
)
def test_bad_seats_and_options_in_the_settings_are_set_aside(
    tmp_path: Path, record: dict[str, object], named: str
) -> None:
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(record))
    store = StateStore(tmp_path)
    assert store.load_settings(Settings()) == Settings()
    assert named in store.problems[0]


# ----- the Sphinx's turn -------------------------------------------------------------------
def test_a_message_over_the_sphinx_thinking_asks_it_nothing_new(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", seats=("easy", "person")))
    app.handle(ThrowRead("2"), 2.0)
    app.handle(SELECT, 3.0)  # past the score
    assert Effect.THINK in app.take_effects()
    asked = app.request
    app.handle(CameraBack(), 4.0)  # news from the camera while the Sphinx thinks
    app.handle(SELECT, 5.0)  # read: back to the Sphinx thinking
    assert isinstance(app.screen, Thinking)
    assert Effect.THINK not in app.take_effects() and app.request is asked


def test_the_sphinx_names_its_move_and_the_players_confirm_it(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", seats=("easy", "person")))
    app.handle(ThrowRead("2"), 2.0)
    app.handle(SELECT, 3.0)  # past the score
    assert isinstance(app.screen, Thinking)
    assert Effect.THINK in app.take_effects() and app.request is not None
    answer = app.answer_here()
    assert answer is not None and answer.purpose == "move"
    app.handle(answer, 4.0)
    assert isinstance(app.screen, SphinxMove)
    assert app.screen.move in app.moves()
    view = app.view()
    assert isinstance(view, BoardScreen)
    assert view.lines[0] == f"Sphinx plays {app.screen.move}:"
    move = app.screen.move
    app.handle(SELECT, 5.0)
    assert app.game is not None and app.game.history[-1] == move
    assert isinstance(app.screen, AwaitThrow) and app.sphinx_to_move() is None


def test_back_while_the_sphinx_thinks_undoes_the_throw_and_its_late_answer_is_ignored(
    tmp_path: Path,
) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", seats=("easy", "person")))
    app.handle(ThrowRead("2"), 2.0)
    app.handle(SELECT, 3.0)
    assert isinstance(app.screen, Thinking)
    late = app.answer_here()
    assert late is not None
    app.handle(BACK, 4.0)
    assert isinstance(app.screen, AwaitThrow)
    app.handle(late, 5.0)
    assert isinstance(app.screen, AwaitThrow)


def test_the_loop_runs_the_search_in_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.device.loop as device_loop
    from companion.device.sphinxturn import think as search

    searched_in: list[threading.Thread] = []

    def recorded(request: Any) -> SphinxAnswer:
        searched_in.append(threading.current_thread())
        return search(request)

    monkeypatch.setattr(device_loop, "think", recorded)
    app = started(make_app(tmp_path, game="senet-modern", seats=("strong", "person")))
    loop = EventLoop(app, dummy_display())
    loop.step(ThrowRead("3,5"))
    loop.step(SELECT)
    assert isinstance(app.screen, Thinking)
    answer = loop.events.get(timeout=10)
    assert isinstance(answer, SphinxAnswer) and answer.moves
    assert [thread.name for thread in searched_in] == ["sphinx"]
    assert searched_in[0] is not threading.main_thread()
    loop.step(answer)
    assert isinstance(app.screen, SphinxMove)


def test_before_its_throw_the_sphinx_decides_between_paying_and_throwing(
    tmp_path: Path,
) -> None:
    app = started(make_app(tmp_path, game="ur-tablet", seats=("normal", "person")))
    assert isinstance(app.screen, Thinking) and app.screen.purpose == Purpose.BEFORE.value
    assert app.game is not None
    answer = app.answer_here()
    assert answer is not None and answer.option in ("die", "die+stick")
    assert all(Move.parse(move) in app.game.legal_moves() for move in answer.moves)


def test_before_its_throw_the_sphinx_says_how_to_throw(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-tablet", seats=("normal", "person")))
    assert isinstance(app.screen, Thinking)
    answer = SphinxAnswer("before", app.screen.fen, (), (), "die+stick")
    app.handle(answer, 2.0)
    assert isinstance(app.screen, AwaitThrow)
    assert all(choice.move is None for choice in app.hand_choices())  # it chose already
    view = app.view()
    assert isinstance(view, BoardScreen)
    assert view.lines[0] == f"Throw for the Sphinx: {answer.option}"


def test_a_move_instead_of_a_throw_is_named_and_confirmed(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-tablet", seats=("normal", "person")))
    assert isinstance(app.screen, Thinking) and app.game is not None
    pay = next(move for move in app.game.rules.game().legal_moves() if move.kind == "pay")
    app.handle(SphinxAnswer("before", app.screen.fen, (str(pay),), (), "die"), 2.0)
    assert isinstance(app.screen, SphinxMove) and app.screen.move == pay
    app.handle(SELECT, 3.0)
    assert app.game.history == [pay]


def mehen_position_where_red_loses_by_ending() -> str:
    from companion import games

    rules = games.get("mehen").with_options({"length": "30"})
    rng = random.Random(5)
    for _ in range(200):
        game = rules.game()
        while not game.is_over():
            random_action(game, rng)
            position = game.position
            if position.throw is None and END in game.legal_moves() and position.turn == 1:
                ended = game.apply(position, END, explain=False)[0]
                if game.winner_of(ended) == 1:
                    return game.fen()
    raise AssertionError("no such position")


def test_the_sphinx_refuses_to_end_a_mehen_game_it_would_lose(tmp_path: Path) -> None:
    from companion import games

    app = started(make_app(tmp_path, game="mehen", seats=("normal", "person")))
    fen = mehen_position_where_red_loses_by_ending()
    app.game = games.get("mehen").game(fen)
    app.start = app.game.fen()
    assert not agrees_to_end(app.game, 0) and agrees_to_end(app.game, 1)
    app.settings = Settings(game="mehen", seats=("normal", "person"), first=1)
    app.screen = app._play_screen()
    assert isinstance(app.screen, AwaitThrow) and app.sphinx_to_move() is None
    choices = app.hand_choices()
    app.screen = AwaitThrow(next(i for i, c in enumerate(choices) if c.move == END))
    app.handle(SELECT, 2.0)
    assert isinstance(app.screen, Message) and "does not agree" in app.screen.lines[0]
    assert app.game.fen() == fen


# ----- hints -------------------------------------------------------------------------------
def test_holding_up_shows_the_best_moves_and_select_goes_to_the_one_shown(
    tmp_path: Path,
) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", lang="fr"))
    app.handle(ThrowRead("2"), 2.0)
    app.handle(SELECT, 3.0)
    assert isinstance(app.screen, Choosing)
    app.handle(HOLD_UP, 4.0)
    assert isinstance(app.screen, Thinking) and app.screen.purpose == "hint"
    answer = app.answer_here()
    assert answer is not None
    app.handle(answer, 5.0)
    assert isinstance(app.screen, Hints)
    hints = app.screen
    assert 1 <= len(hints.moves) <= 3 and list(hints.values) == sorted(hints.values)[::-1]
    view = app.view()
    assert isinstance(view, BoardScreen) and view.header == "Que jouerais-je ?"
    assert view.lines[0].startswith(f"1. {hints.moves[0]}")
    app.handle(DOWN, 6.0)
    app.handle(SELECT, 7.0)
    chosen = hints.moves[1 % len(hints.moves)]
    assert app.screen == Choosing(app.moves().index(chosen))


# ----- throw statistics --------------------------------------------------------------------
def open_stats(app: App) -> MessageScreen:
    app.screen = Menu()
    labels = [label for label, _ in app.menu_items()]
    app.screen = Menu(labels.index("Throw statistics"))
    app.handle(SELECT, 9.0)
    assert isinstance(app.screen, Stats)
    view = app.view()
    assert isinstance(view, MessageScreen)
    return view


def test_throws_read_or_entered_are_logged_but_random_ones_are_not(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, dev_mode=True))
    app.handle(ThrowRead("MPPP"), 2.0)  # the camera: 1
    app.handle(SELECT, 3.0)
    app.handle(SELECT, 4.0)
    assert isinstance(app.screen, AwaitThrow)
    assert app.hand_choices()[0].label == "random"
    app.handle(SELECT, 5.0)  # a random throw: not logged
    logged = throwlog.read(app.store.throw_log_path, "senet-kendall")
    assert logged.scores == [1]
    assert "1 throws logged" in open_stats(app).lines


def test_statistics_flag_a_set_no_independent_sticks_explain(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    rules = app.settings.rules()
    for score in (1,) * 100 + (3,) * 100:  # only one or three marked faces: no real sticks
        throwlog.record(
            app.store.throw_log_path, rules.name, rules.parse_throw(str(score)), source="typed"
        )
    view = open_stats(app)
    assert view.lines[0] == "200 throws logged"
    assert view.lines[-1].startswith("!")
    assert any(line.startswith("fair: p=") and not line.endswith("!") for line in view.lines)
    assert any(line.startswith("indep.: p=") and line.endswith("!") for line in view.lines)
    app.handle(DOWN, 10.0)
    odds = app.view()
    assert isinstance(odds, MessageScreen) and odds.title.endswith("2/2")
    app.handle(BACK, 11.0)
    assert isinstance(app.screen, Menu)


def test_statistics_of_two_dice_test_each_face_and_the_pairs(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="senet-modern")
    rules = app.settings.rules()
    assert "No throw logged" in open_stats(app).lines[0]
    for _ in range(40):  # a die that never shows 1 or 2 and always pairs up alike
        for pair in ("3,3", "4,4", "5,5", "6,6"):
            throwlog.record(
                app.store.throw_log_path, rules.name, rules.parse_throw(pair), source="typed"
            )
    view = open_stats(app)
    assert view.lines[0] == "160 throws, 320 dice"
    assert any(line.startswith("fair: p=") and line.endswith("!") for line in view.lines)
    assert view.lines[-1].startswith("!")
    app.handle(DOWN, 10.0)
    faces = app.view()
    assert isinstance(faces, MessageScreen) and faces.title.endswith("2/2")
    assert faces.lines[1].split()[:3] == ["1", "17%", "0%"]


def test_statistics_of_the_ur_die_and_stick(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="ur-tablet")
    rules = app.settings.rules()
    for die in (1, 2, 3, 4) * 20:
        throw = rules.parse_throw(f"{die}+yes" if die % 2 else f"{die}+no")  # follows the die
        throwlog.record(app.store.throw_log_path, rules.name, throw, source="typed")
    lines = open_stats(app).lines
    assert lines[0] == "80 throws, 80 dice"
    assert any(line.startswith("stick yes 50%") for line in lines)
    assert any(line.startswith("stick/die: p=") and line.endswith("!") for line in lines)


def test_menu_lists_the_statistics(tmp_path: Path) -> None:
    view = make_app(tmp_path).view()
    assert isinstance(view, MenuScreen) and "Throw statistics" in view.items


# ----- editing the position ----------------------------------------------------------------
HOLD_SELECT, HOLD_DOWN = Press(Key.SELECT, long=True), Press(Key.DOWN, long=True)


def open_editor(app: App) -> Editor:
    app.screen = Menu()
    labels = [label for label, _ in app.menu_items()]
    app.screen = Menu(labels.index("Edit the position"))
    app.handle(SELECT, 9.0)
    assert isinstance(app.screen, Editor)
    return app.screen


def test_a_senet_piece_is_moved_and_the_game_goes_on_from_there(tmp_path: Path) -> None:
    app = started(make_app(tmp_path))
    assert app.game is not None
    app.game = app.game.rules.game("WBWBWBWBWB/........../.......... w - play 0/0")
    open_editor(app)
    view = app.view()
    assert isinstance(view, BoardScreen) and view.header == "Edit: square 1"
    assert view.lines[0].startswith("[W]")
    for _ in range(3):  # W, B, /, . : the characters of Senet's board, backwards
        app.handle(DOWN, 10.0)
    app.handle(HOLD_SELECT, 11.0)  # white has a piece too few
    assert isinstance(app.screen, Message) and "4 pieces" in app.screen.lines[0]
    app.handle(SELECT, 12.0)
    for _ in range(11):
        app.handle(SELECT, 12.0)
    view = app.view()
    assert isinstance(view, BoardScreen) and view.header == "Edit: square 11"
    for _ in range(3):
        app.handle(UP, 13.0)
    app.handle(HOLD_SELECT, 14.0)
    assert app.game.fen() == ".BWBWBWBWB/W........./.......... w - play 0/0"
    assert isinstance(app.screen, AwaitThrow) and app.game.history == []
    saved = json.loads(app.store.game_path.read_text())
    assert saved["position"] == app.game.fen() and saved["start"] == saved["position"]


def test_a_text_that_is_no_position_is_refused_with_the_engines_message(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-finkel"))
    before = app.game.fen() if app.game is not None else ""
    open_editor(app)
    app.handle(HOLD_DOWN, 10.0)  # delete the first square: a row too short
    app.handle(HOLD_SELECT, 11.0)
    assert isinstance(app.screen, Message) and app.screen.title == "Problem"
    assert app.game is not None and app.game.fen() == before
    app.handle(SELECT, 12.0)
    assert isinstance(app.screen, Editor) and len(app.screen.text) == len(before) - 1


def test_editing_the_side_to_move_keeps_the_seats_on_their_sides(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", seats=("person", "easy")))
    assert app.sphinx_to_move() is None  # white: seat 1, a person
    editing = open_editor(app)
    turn = editing.text.index(" w ") + 1
    while isinstance(app.screen, Editor) and app.screen.cursor != turn:
        app.handle(SELECT, 10.0)
    app.handle(UP, 10.0)  # w -> ... the next letter seen there: b
    assert isinstance(app.screen, Editor) and app.screen.text[turn] == "b"
    app.handle(HOLD_SELECT, 11.0)
    assert app.game is not None and app.game.position.turn == 1
    assert app.sphinx_to_move() is not None  # black: still the Sphinx's side


def test_when_the_sphinx_cannot_decide_the_players_choose_for_it(tmp_path: Path) -> None:
    app = started(make_app(tmp_path, game="ur-finkel", seats=("easy", "person")))
    app.handle(ThrowRead("2"), 2.0)
    app.handle(SELECT, 3.0)
    assert isinstance(app.screen, Thinking)
    refused = SphinxAnswer("move", app.screen.fen, problem="no evaluation for this family")
    app.handle(refused, 4.0)
    assert isinstance(app.screen, Message) and app.screen.lines == (refused.problem,)
    app.handle(SELECT, 5.0)
    assert isinstance(app.screen, Choosing)


def test_a_refusal_of_the_engine_comes_back_as_the_answers_problem() -> None:
    from companion import games
    from companion.device.sphinxturn import ThinkRequest, think
    from companion.sphinx import Level

    rules = games.get("ur-finkel")
    fen = rules.game().fen()  # no throw pending: no move to choose yet
    answer = think(ThinkRequest(Purpose.MOVE, rules, fen, Level.EASY, seed=1))
    assert answer.moves == () and "throw first" in answer.problem


@pytest.mark.parametrize(
    ("game", "position", "squares"),
    [
        ("senet-kendall", "W.B......./........../.......... w - play 4/4", {0: 1, 2: 3, 11: 11}),
        (
            "senet-modern",
            "W5B5W4B4W3B3W2B2W1B1/........../.......... w - off:- out:- play",
            {0: 1, 1: 1, 2: 2, 19: 10, 21: 11, 32: 21},
        ),
    ],
)
def test_the_editor_names_the_square_under_the_cursor(
    game: str, position: str, squares: dict[int, int]
) -> None:
    from companion import games
    from companion.device.editor import board_square

    played = games.get(game).game(position)
    for cursor, square in squares.items():
        assert board_square(played, position, cursor) == square, cursor
    assert board_square(played, position, position.index(" ") + 1) is None


def test_the_keyboard_holds_up_for_hints_and_down_for_the_editor(tmp_path: Path) -> None:
    import io

    from companion.device.events import Stop
    from companion.device.run import read_keys

    loop = EventLoop(make_app(tmp_path), dummy_display())
    read_keys(io.StringIO("hxq"), loop)
    presses = [loop.events.get_nowait() for _ in range(3)]
    assert presses == [HOLD_UP, Press(Key.DOWN, long=True), Stop("keyboard")]
