"""Screens in known states: the golden images of the tests and the user guide's pictures.

``python -m companion.device.gallery FOLDER`` writes each screen as a PNG (scaled up with
``--scale``). The tests compare the renderer's output with ``tests/golden/``;
regenerate those after a deliberate change with
``python -m companion.device.gallery tests/golden`` and look at them before committing.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from companion import games, throwlog
from companion.core import Move
from companion.device.app import App, DeviceInfo
from companion.device.events import CameraDone, Key, Press, ThrowRead
from companion.device.render import render
from companion.device.screens import (
    Calibrating,
    Choosing,
    Editor,
    EnrolChoice,
    Enrolling,
    Hints,
    Message,
    SettingsMenu,
    Setup,
    Taught,
    ThrowShown,
    Why,
)
from companion.device.sphinxturn import Purpose, ThinkRequest, think
from companion.device.state import Settings, StateStore
from companion.device.view import View
from companion.randomplay import random_action
from companion.sphinx import Level

# A game of Senet (Kendall) well under way, from a fixed seed; white is to throw.
MIDGAME_SEED = 7
MIDGAME_ACTIONS = 40


@contextmanager
def _app(lang: str = "en", *, game: str = "senet-kendall") -> Iterator[App]:
    with tempfile.TemporaryDirectory(prefix="companion-gallery-") as folder:
        app = App(
            StateStore(Path(folder)),
            settings=Settings(game=game, lang=lang),
            info=DeviceInfo(address=lambda: "192.168.1.20", camera=True),
            rng=random.Random(1),
        )
        yield app


def _midgame(app: App) -> None:
    rules = games.get(app.settings.game)
    game = rules.game()
    rng = random.Random(MIDGAME_SEED)
    for _ in range(MIDGAME_ACTIONS):
        random_action(game, rng)
    if game.position.throw is not None:
        game.push(game.legal_moves()[0])
    app.game, app.start = game, rules.game().fen()
    app.screen = app._play_screen()


def _menu(app: App) -> None:
    pass


def _await_throw(app: App) -> None:
    _midgame(app)


def _score(app: App) -> None:
    _midgame(app)
    app.handle(ThrowRead("MMMP"), 1.0)
    app.screen = ThrowShown(1.0)


def _moves(app: App) -> None:
    _score(app)
    app.handle(Press(Key.SELECT), 2.0)
    app.handle(Press(Key.DOWN), 3.0)


def _why(app: App) -> None:
    _moves(app)
    app.screen = Why(2)


def _game_over(app: App) -> None:
    rules = games.get(app.settings.game)
    app.game = rules.game("..B......./...B....../.......... w - play 5/3")
    app.start = app.game.fen()
    app.screen = app._play_screen()


def _settings(app: App) -> None:
    app.screen = SettingsMenu(1)


def _problem(app: App) -> None:
    problem = (
        "saved game /var/lib/companion/game.json cannot be read: Expecting value: line 1 "
        "column 1 (char 0). It was kept as game.json.unreadable-20250101-120000."
    )
    app.screen = Message("Problem", (problem,), app.screen)


def _setup(app: App) -> None:
    app.settings = replace(app.settings, seats=("person", "normal"))
    app.handle(Press(Key.SELECT), 1.0)  # New game: on its "start" line
    assert isinstance(app.screen, Setup)
    app.screen = replace(app.screen, cursor=app.screen.cursor - 1)


def _sphinx_seat_to_move(app: App) -> None:
    """The Sphinx (easy: no time budget, so the same move everywhere) plays the side to
    move of the midgame."""
    seats = ["person", "person"]
    seats[app.seat_to_move()] = "easy"
    app.settings = replace(app.settings, seats=tuple(seats))


def _sphinx_throw(app: App) -> None:
    _midgame(app)
    _sphinx_seat_to_move(app)
    app.screen = app._play_screen()


def _sphinx_move(app: App) -> None:
    _sphinx_throw(app)
    app.handle(ThrowRead("MMMP"), 1.0)
    app.handle(Press(Key.SELECT), 2.0)  # past the score: the Sphinx thinks
    answer = app.answer_here()
    assert answer is not None
    app.handle(answer, 3.0)


def _hints(app: App) -> None:
    """Hints at the first depth (the device asks for more within a time budget, which
    would make the picture depend on the machine's speed)."""
    _moves(app)
    game = app._game()
    request = ThinkRequest(Purpose.HINT, game.rules, game.fen(), Level.EASY, seed=1)
    answer = think(request)
    moves = tuple(Move.parse(move) for move in answer.moves)
    app.screen = Hints(moves, answer.values, index=1)


# A set of sticks that lands marked up a little more often than fair ones.
LOGGED_SCORES = (1,) * 21 + (2,) * 38 + (3,) * 27 + (4,) * 9 + (6,) * 5


def _stats(app: App) -> None:
    rules = games.get(app.settings.game)
    for score in LOGGED_SCORES:
        throw = rules.parse_throw(str(score))
        throwlog.record(app.store.throw_log_path, rules.name, throw, source="typed")
    app._show_stats()


def _stats_odds(app: App) -> None:
    _stats(app)
    app.handle(Press(Key.DOWN), 1.0)


def _edit(app: App) -> None:
    _midgame(app)
    app.screen = Editor(app._game().fen(), cursor=14)  # square 14


def _calibrate(app: App) -> None:
    app.screen = Calibrating()


def _enrol(app: App) -> None:
    app.screen = Enrolling(1, 4)  # the second picture: every stick plain face up


def _enrol_d4(app: App) -> None:
    app.screen = Enrolling(2, 1, taught=Taught.D4)  # the third picture: 3 at the top point


def _enrol_choice(app: App) -> None:
    choices = (Enrolling(0, 1, taught=Taught.D4), Enrolling(0, 1, taught=Taught.YESNO))
    app.screen = EnrolChoice(choices, 1)  # the Ur game's set: the yes/no stick chosen


def _enrol_retake(app: App) -> None:
    """The camera saw three of the four sticks lying flat."""
    app.screen = Enrolling(1, 4, waiting=True)
    app.handle(CameraDone("picture", 1, count=3), 1.0)


SCREENS: dict[str, Callable[[App], None]] = {
    "menu": _menu,
    "throw": _await_throw,
    "score": _score,
    "moves": _moves,
    "why": _why,
    "game-over": _game_over,
    "settings": _settings,
    "problem": _problem,
    "setup": _setup,
    "sphinx-throw": _sphinx_throw,
    "sphinx-move": _sphinx_move,
    "hints": _hints,
    "stats": _stats,
    "stats-odds": _stats_odds,
    "edit": _edit,
    "calibrate": _calibrate,
    "enrol": _enrol,
    "enrol-retake": _enrol_retake,
    "enrol-d4": _enrol_d4,
    "enrol-choice": _enrol_choice,
}
FRENCH = (
    "score",
    "moves",
    "why",
    "setup",
    "sphinx-move",
    "hints",
    "stats",
    "edit",
    "calibrate",
    "enrol",
    "enrol-retake",
    "enrol-d4",
    "enrol-choice",
)


@dataclass(frozen=True)
class BoardShot:
    """A family's board in a fixed position: the moves (the ``move``-th one chosen) or,
    with ``why`` set, "why?" about the ``why``-th piece."""

    game: str
    position: str
    move: int = 0
    why: int | None = None


BOARDS: dict[str, BoardShot] = {
    "modern-moves": BoardShot(
        "senet-modern", "B1........./...W4...B5../W3.B4....... w 1,6 off:W1 out:W2W5B2B3 play", 1
    ),
    "modern-why": BoardShot(
        "senet-modern",
        "B1........./...W4...B5../W3.B4....... w 1,6 off:W1 out:W2W5B2B3 play",
        why=1,
    ),
    "ur-moves": BoardShot("ur-tablet", "ur 1@7,2@12,3@11,4@-,5@- 1@4,2@x,3@-,4@-,5@- 1/4/45 b 3 -"),
    "ur-tablet-moves": BoardShot(
        "ur-tablet", "tablet 1@7,2@12,3@-,4@-,5@- 1@5,2@10,3@x,4@-,5@- 10/12/28 w 3 -", 1
    ),
    "royal-moves": BoardShot("ur-finkel", "WW..W.W......./...B.B....B.B. b 3 3/3 0/0", 1),
    "mehen-moves": BoardShot(
        "mehen",
        "40 y/b1gyrbg5bgb1r7g1g7gyB1/rRbby r:0:on:-,b:0:on:rrryy,g:0:wait:-,y:0:wait:- r 1 play",
        2,
    ),
    "mehen-why": BoardShot(
        "mehen",
        "40 y/b1gyrbg5bgb1r7g1g7gyB1/rRbby r:0:on:-,b:0:on:rrryy,g:0:wait:-,y:0:wait:- r 1 play",
        why=1,
    ),
}


def _board(app: App, shot: BoardShot) -> None:
    game = games.get(shot.game).game(shot.position)
    app.game, app.start = game, shot.position
    app.screen = Choosing(shot.move) if shot.why is None else Why(shot.why)


def views() -> dict[str, View]:
    """Every gallery screen by name: ``moves``, and ``moves-fr`` for the French ones."""
    shown: dict[str, View] = {}
    for name, arrange in SCREENS.items():
        languages = ("en", "fr") if name in FRENCH else ("en",)
        for lang in languages:
            with _app(lang) as app:
                arrange(app)
                shown[name if lang == "en" else f"{name}-{lang}"] = app.view()
    for name, shot in BOARDS.items():
        with _app(game=shot.game) as app:
            _board(app, shot)
            shown[name] = app.view()
    return shown


def write(folder: Path, *, scale: int = 1) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, view in views().items():
        image = render(view)
        if scale > 1:
            image = image.resize(
                (image.width * scale, image.height * scale), Image.Resampling.NEAREST
            )
        path = folder / f"{name}.png"
        image.save(path)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the device's screens as PNG files.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args(argv)
    for path in write(args.folder, scale=args.scale):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
