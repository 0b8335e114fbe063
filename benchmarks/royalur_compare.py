"""Our engine against royalur 0.0.6 on the same rules: speed, and legal moves over many games.

Run: ``.venv/bin/python benchmarks/royalur_compare.py [--seconds S] [--games N] [--json]``.

- Speed: complete random games per second of ours and of royalur on the Finkel rules (and
  the Masters rules), in the same process, in alternating rounds so that a busy machine
  slows both alike; the ratio ours/theirs is the figure to watch (target: at least 3).
  Each engine plays as its own users would: ours with ``throw(random_throw)``,
  ``legal_moves`` and ``push_fast``; royalur with ``roll_dice()``, ``find_available_moves``
  and ``make_move``; the move is chosen at random among the legal ones.
- Agreement: ``--games N`` seeded random games per rule set, both engines driven with the
  same throws and moves, legal moves and positions compared after every action (the
  comparison of ``tests/royalur_bridge.py``; the suite plays fewer).

royalur is a test-only dependency (the ``dev`` extra); the engine never imports it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from royalur_bridge import compare_games, royalur_game

from companion import games
from companion.games.royal import RoyalUrRules


def our_random_games(name: str, seconds: float, seed: int = 1) -> tuple[int, float]:
    """Random games of ours played in about ``seconds``: (games, elapsed seconds)."""
    rules = games.get(name)
    rng = random.Random(seed)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = rules.game()
        while not game.is_over():
            game.throw(game.random_throw(rng))
            game.push_fast(rng.choice(game.legal_moves()))
        played += 1
    return played, time.perf_counter() - start


def their_random_games(name: str, seconds: float, seed: int = 1) -> tuple[int, float]:
    """Random games of royalur played in about ``seconds``: (games, elapsed seconds)."""
    rng = random.Random(seed)
    random.seed(seed)  # royalur's dice draw from the module's global generator
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = royalur_game(name)
        while not game.is_finished():
            if game.is_waiting_for_roll():
                game.roll_dice()
            else:
                game.make_move(rng.choice(game.find_available_moves()))
        played += 1
    return played, time.perf_counter() - start


def games_per_second(
    play: Callable[[str, float, int], tuple[int, float]], name: str, seconds: float, rounds: int
) -> float:
    played = elapsed = 0.0
    for index in range(rounds):
        n, t = play(name, seconds / rounds, index)
        played += n
        elapsed += t
    return played / elapsed


def speed(name: str, seconds: float, rounds: int = 6) -> dict[str, float]:
    """Games per second of both engines, measured in alternating rounds."""
    ours = theirs = 0.0
    per_round = seconds / rounds
    for _ in range(rounds):
        ours += games_per_second(our_random_games, name, per_round, 1)
        theirs += games_per_second(their_random_games, name, per_round, 1)
    ours, theirs = ours / rounds, theirs / rounds
    return {"ours_games_per_s": ours, "royalur_games_per_s": theirs, "ratio": ours / theirs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=6.0, help="per engine and rule set")
    parser.add_argument("--games", type=int, default=1000, help="compared games per rule set")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    for name in ("ur-finkel", "ur-masters"):
        report[name] = speed(name, args.seconds)
        if args.games:
            start = time.perf_counter()
            rules = games.get(name)
            assert isinstance(rules, RoyalUrRules)
            summary = compare_games(rules, range(args.games))
            report[name]["compared"] = summary.as_dict()
            report[name]["compare_seconds"] = time.perf_counter() - start
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, row in report.items():
        print(
            f"{name}: ours {row['ours_games_per_s']:.0f} games/s, royalur "
            f"{row['royalur_games_per_s']:.0f} games/s, ratio {row['ratio']:.2f}"
        )
        if "compared" in row:
            print(f"  compared with royalur: {row['compared']} ({row['compare_seconds']:.1f} s)")


if __name__ == "__main__":
    main()
