"""Whole games through the device: scripted presses on gpiozero mock pins, a luma dummy
display, the event loop and the screens, for every rule set the device knows."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from device_helpers import make_app
from gpiozero.pins.mock import MockFactory

from companion import games, savefile
from companion.core import Move
from companion.device.app import App
from companion.device.events import Event, Press, SphinxAnswer
from companion.device.loop import EventLoop
from companion.device.render import render
from companion.device.screens import GameOver, Thinking
from companion.device.scripted import TablePlayer
from companion.device.throwsource import FakeThrows
from hardware.buttons import ButtonBoard
from hardware.display import dummy_display

HOLD = 0.05  # seconds: a long press in the tests
PINS = {"up": 5, "down": 6, "select": 13, "back": 19}


class Table:
    """Mock buttons wired to an event loop, pressed as a person would."""

    def __init__(self, app: App) -> None:
        self.display = dummy_display()
        self.loop = EventLoop(app, self.display)
        self.board = ButtonBoard(
            PINS,
            report=self.loop.report_button,
            hold_time=HOLD,
            bounce_time=None,
            pin_factory=MockFactory(),
        )

    def press(self, name: str, *, long: bool = False) -> None:
        pin: Any = self.board.buttons[name].pin
        pin.drive_low()
        if long:
            deadline = time.monotonic() + 2.0
            while self.loop.events.empty() and time.monotonic() < deadline:
                time.sleep(HOLD / 5)  # gpiozero's hold thread reports the long press
        pin.drive_high()
        self.loop.run_pending()

    def happen(self, event: Event) -> None:
        if isinstance(event, Press):
            self.press(event.key.value, long=event.long)
        else:
            self.loop.events.put(event)
            self.loop.run_pending()
        self.wait_for_the_sphinx()

    def wait_for_the_sphinx(self) -> None:
        """The Sphinx searches in the loop's worker thread: its answer is an event."""
        while isinstance(self.loop.app.screen, Thinking):
            self.loop.step(self.loop.events.get(timeout=10))


def play_through_buttons(app: App, *, seed: int, why_every: int = 0, hint_every: int = 0) -> Table:
    rng = random.Random(seed)
    table = Table(app)
    player = TablePlayer(rng, FakeThrows(rng), why_every=why_every, hint_every=hint_every)
    table.loop.show()
    try:
        for count in range(50_000):
            events = player.next_events(app)
            if not events:
                break
            for event in events:
                table.happen(event)
            if count % CHECK_SCREEN_EVERY == 0:
                assert table.display.image.tobytes() == render(app.view()).tobytes()
    finally:
        table.board.close()
    return table


# Seeds whose random games are short (a random player's Senet runs to 4000 presses).
GAMES = [
    ("senet-kendall", 8),
    ("senet-kendall", 3),
    ("senet-migo", 1),
    ("senet-migo", 4),
    ("senet-modern", 1),
    ("mehen", 2),
    ("ur-tablet", 1),
    ("ur-finkel", 1),
    ("ur-masters", 1),
]
CHECK_SCREEN_EVERY = 7  # events between comparisons of the display with a fresh render


def test_every_rule_set_is_played() -> None:
    assert {game for game, _ in GAMES} == set(games.names())


@pytest.mark.usefixtures("no_fsync")
@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_whole_game_through_mock_buttons(tmp_path: Path, game: str, seed: int) -> None:
    app = make_app(tmp_path, game=game)
    play_through_buttons(app, seed=seed)
    assert isinstance(app.screen, GameOver)
    assert app.game is not None and app.game.is_over()
    saved, _ = savefile.load(app.store.game_path)
    assert saved.fen() == app.game.fen()


@pytest.mark.usefixtures("no_fsync")
def test_long_presses_ask_why_during_a_game(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="senet-migo")
    asked: list[str] = []
    original = app.handle

    def spy(event: Event, now: float) -> None:
        if isinstance(event, Press) and event.long:
            asked.append(event.key.value)
        original(event, now)

    app.handle = spy  # type: ignore[method-assign]
    play_through_buttons(app, seed=1, why_every=25)
    assert asked and set(asked) == {"select"}
    assert isinstance(app.screen, GameOver)


def test_a_short_press_is_reported_on_release(tmp_path: Path) -> None:
    reported: list[tuple[str, bool]] = []
    board = ButtonBoard(
        PINS,
        report=lambda name, long: reported.append((name, long)),
        hold_time=HOLD,
        bounce_time=None,
        pin_factory=MockFactory(),
    )
    try:
        pin: Any = board.buttons["down"].pin
        pin.drive_low()
        assert reported == []
        pin.drive_high()
        assert reported == [("down", False)]
        pin.drive_low()
        time.sleep(HOLD * 4)
        pin.drive_high()
        assert reported == [("down", False), ("down", True)]  # nothing more on release
    finally:
        board.close()


# A person (random presses) against the Sphinx, one rule set per family: (rule set, its
# options, the seats, the seed). Mehen on a 30-square board keeps the game short.
SPHINX_GAMES = [
    ("senet-kendall", (), ("person", "easy"), 8),
    ("senet-modern", (), ("strong", "person"), 1),
    ("mehen", (("length", 30),), ("normal", "person"), 7),
    ("ur-tablet", (), ("person", "normal"), 1),
    ("ur-finkel", (), ("easy", "person"), 1),
]


@pytest.mark.usefixtures("no_fsync")
@pytest.mark.parametrize(("game", "options", "seats", "seed"), SPHINX_GAMES)
def test_whole_game_against_the_sphinx(
    tmp_path: Path,
    game: str,
    options: tuple[tuple[str, int], ...],
    seats: tuple[str, ...],
    seed: int,
) -> None:
    app = make_app(tmp_path, game=game, options=options, seats=seats, seed=seed)
    answers: dict[str, str] = {}
    original = app.handle

    def spy(event: Event, now: float) -> None:
        if isinstance(event, SphinxAnswer) and event.purpose == "move":
            answers[event.fen] = event.moves[0]
        original(event, now)

    app.handle = spy  # type: ignore[method-assign]
    play_through_buttons(app, seed=seed, hint_every=15)
    assert isinstance(app.screen, GameOver)
    assert app.game is not None and app.game.is_over()
    assert dict(app.settings.options) == dict(options)
    assert sphinx_moves_as_named(app, answers) >= 3


def sphinx_moves_as_named(app: App, answers: dict[str, str]) -> int:
    """Replays the game: each move played where the Sphinx had named one is that move."""
    assert app.game is not None
    replay = app.game.rules.game(app.start)
    checked = 0
    for action in app.game.history:
        named = answers.get(replay.fen())
        if isinstance(action, Move):
            if named is not None:
                assert str(action) == named, replay.fen()
                checked += 1
            replay.push(action)
        else:
            replay.throw(action)
    return checked
