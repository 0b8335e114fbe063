"""Device speed and memory: first screen, RSS after a 200-move game, button to screen,
render time, the Sphinx's decisions on the device and buttons while it searches.

Run: ``.venv/bin/python benchmarks/device.py [--json]``. Targets on the development
machine: first screen under 2 s, RSS under 120 MB after a 200-move game, button to
screen under 50 ms, a decision of the Sphinx under 200 ms (every rule set and level,
what the device asks: its move, and its choice before a throw where the rules offer one),
button to screen under 50 ms while the Sphinx searches in its worker thread. The first
screen and the memory are measured in fresh processes (``--child``), so the figures
include Python's start and every import. Wall-clock figures: run on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion import games
from companion.device import gallery
from companion.device.app import App, DeviceInfo
from companion.device.events import Event, Key, Press
from companion.device.loop import EventLoop
from companion.device.render import render
from companion.device.screens import Choosing
from companion.device.scripted import TablePlayer
from companion.device.sphinxturn import Purpose, ThinkRequest, decides_before_throw, think
from companion.device.state import Settings, StateStore
from companion.device.throwsource import FakeThrows
from companion.randomplay import sampled_games
from companion.sphinx import Level
from companion.throws import Throw
from hardware.buttons import ButtonBoard
from hardware.display import dummy_display

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {
    "first_screen_s": 2.0,
    "rss_mb_after_200_moves": 120.0,
    "button_to_screen_ms": 50.0,
    "sphinx_decision_ms_slowest": 200.0,
    "button_while_sphinx_searches_ms": 50.0,
}
MOVES = 200
PRESSES = 300
SPHINX_POSITIONS = 8  # per rule set, each decided at every level
SPHINX_POSITION_RATE = 0.05  # a random game's positions kept: from a few games, not one


def _app(folder: Path, seed: int = 1) -> App:
    return App(
        StateStore(folder),
        settings=Settings(),
        info=DeviceInfo(camera=True),
        rng=random.Random(seed),
    )


# ----- measured in a fresh process ---------------------------------------------------------
def child_first_screen() -> None:
    with tempfile.TemporaryDirectory() as folder:
        loop = EventLoop(_app(Path(folder)), dummy_display())
        loop.show()
    print("shown", flush=True)


def child_memory() -> None:
    """Play through the screens until 200 moves were confirmed; print the peak RSS."""
    with tempfile.TemporaryDirectory() as folder:
        app = _app(Path(folder))
        loop = EventLoop(app, dummy_display())
        rng = random.Random(5)
        player = TablePlayer(rng, FakeThrows(rng))
        earlier_games = 0  # moves of games already over (a short game starts another)
        game, moves = app.game, 0
        while earlier_games + moves < MOVES:
            for event in player.next_events(app) or [Press(Key.SELECT)]:
                loop.step(event)
            if app.game is not game:
                earlier_games, game = earlier_games + moves, app.game
            moves = _moves_in(app)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"rss {peak_kb / 1024:.1f}", flush=True)


def _moves_in(app: App) -> int:
    history = app.game.history if app.game is not None else []
    return sum(1 for action in history if not isinstance(action, Throw))


def first_screen_seconds() -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, str(Path(__file__)), "--child", "first-screen"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def rss_after_moves() -> float:
    result = subprocess.run(
        [sys.executable, str(Path(__file__)), "--child", "memory"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(result.stdout.split()[-1])


# ----- measured here -------------------------------------------------------------------------
def button_to_screen_ms() -> list[float]:
    """From the release of a mock pin to the new screen on the dummy display."""
    with tempfile.TemporaryDirectory() as folder:
        app = _app(Path(folder), seed=2)
        display = dummy_display()
        loop = EventLoop(app, display)
        board = ButtonBoard(
            {"up": 5, "down": 6, "select": 13, "back": 19},
            report=loop.report_button,
            bounce_time=None,
            pin_factory=MockFactory(),
        )
        _reach_a_choice(app, loop)
        pin: Any = board.buttons["down"].pin
        timings = []
        for _ in range(PRESSES):
            pin.drive_low()
            start = time.perf_counter()
            pin.drive_high()
            loop.run_pending()
            timings.append((time.perf_counter() - start) * 1000)
        board.close()
        return timings


def _reach_a_choice(app: App, loop: EventLoop) -> None:
    """Play until the players choose among several moves."""
    rng = random.Random(3)
    player = TablePlayer(rng, FakeThrows(rng))
    while not (isinstance(app.screen, Choosing) and len(app.moves()) > 2):
        events: list[Event] = player.next_events(app)
        for event in events:
            loop.step(event)


def sphinx_decision_ms() -> dict[str, float]:
    """The slowest decision per rule set and level, from positions of random games."""
    slowest: dict[str, float] = {}
    for name in games.names():
        rules = games.get(name)
        sampled = sampled_games(
            rules,
            SPHINX_POSITIONS,
            random.Random(1),
            wanted=lambda game: True,
            rate=SPHINX_POSITION_RATE,
        )
        for level in Level:
            worst = 0.0
            for seed, start in enumerate(sampled):
                game = rules.game(start.position)  # thrown on below: a copy per level
                rng = random.Random(seed)
                if game.position.throw is None:
                    if decides_before_throw(game):
                        worst = max(worst, _think_ms(Purpose.BEFORE, game, level))
                    game.throw(game.random_throw(rng))
                worst = max(worst, _think_ms(Purpose.MOVE, game, level))
            slowest[f"{name}/{level.value}"] = worst
    return slowest


def _think_ms(purpose: Purpose, game: Any, level: Level) -> float:
    request = ThinkRequest(purpose, game.rules, game.fen(), level, seed=1)
    start = time.perf_counter()
    think(request)
    return (time.perf_counter() - start) * 1000


def button_while_searching_ms() -> list[float]:
    """Button to screen while a strong search runs in another thread all along."""
    busy = threading.Event()

    def search() -> None:
        rules = games.get("senet-modern")
        game = rules.game()
        game.throw(rules.parse_throw("3,5"))
        while not busy.is_set():
            think(ThinkRequest(Purpose.MOVE, rules, game.fen(), Level.STRONG, seed=1))

    worker = threading.Thread(target=search, daemon=True)
    worker.start()
    try:
        return button_to_screen_ms()
    finally:
        busy.set()
        worker.join()


def render_ms() -> dict[str, float]:
    timings: dict[str, float] = {}
    for name, view in gallery.views().items():
        samples = []
        for _ in range(50):
            start = time.perf_counter()
            render(view)
            samples.append((time.perf_counter() - start) * 1000)
        timings[name] = statistics.median(samples)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=("first-screen", "memory"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "first-screen":
        child_first_screen()
        return 0
    if args.child == "memory":
        child_memory()
        return 0
    firsts = [first_screen_seconds() for _ in range(3)]
    presses = button_to_screen_ms()
    renders = render_ms()
    decisions = sphinx_decision_ms()
    busy_presses = button_while_searching_ms()
    results = {
        "first_screen_s": statistics.median(firsts),
        "rss_mb_after_200_moves": rss_after_moves(),
        "button_to_screen_ms": statistics.median(presses),
        "button_to_screen_ms_p95": statistics.quantiles(presses, n=20)[-1],
        "render_ms_median": statistics.median(renders.values()),
        "render_ms_slowest": max(renders.values()),
        "sphinx_decision_ms_slowest": max(decisions.values()),
        "button_while_sphinx_searches_ms": statistics.median(busy_presses),
    }
    slowest = max(decisions, key=lambda key: decisions[key])
    print(f"slowest Sphinx decision: {slowest}", file=sys.stderr)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            target = TARGETS.get(key)
            verdict = "" if target is None else ("  ok" if value < target else "  OVER TARGET")
            limit = f" (target < {target})" if target is not None else ""
            print(f"{key:<28} {value:8.2f}{limit}{verdict}")
    return 0 if all(results[key] < limit for key, limit in TARGETS.items()) else 1


if __name__ == "__main__":
    sys.exit(main())
