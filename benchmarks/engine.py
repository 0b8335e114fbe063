"""Engine speed: legal move generation on mid-game positions, random games per second.

Run: ``.venv/bin/python benchmarks/engine.py [--seconds S] [--json]``. Figures are for one
core (the engine is single-threaded): CPU seconds of this process (``time.process_time``),
so that other work on the machine does not inflate them. The interpreter matters as much
as the code: the first line names it (``.venv-bookworm/bin/python`` runs Debian's own
3.11 where there is one, the build Raspberry Pi OS ships). Targets on the development
machine: legal moves under 20 microseconds (median), at least 300 random games per second
for senet-kendall.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from dataclasses import is_dataclass, replace
from typing import Any

from companion import games
from companion.core import Move, RaceGame
from companion.randomplay import random_game, sampled_games

AnyGame = RaceGame[Any]
OPENING_ACTIONS = 20  # positions are sampled after this many throws and moves
MAX_ACTIONS = 100_000  # random Mehen games can go on while predators roam: cap them


def midgame_positions(name: str, count: int, seed: int = 1) -> list[Any]:
    """Positions with a throw pending, sampled from seeded random games past the opening
    (one position in seven)."""

    def wanted(game: AnyGame) -> bool:
        return game.position.throw is not None and len(game.history) > OPENING_ACTIONS

    found = sampled_games(games.get(name), count, random.Random(seed), wanted=wanted, rate=1 / 7)
    return [game.position for game in found]


def legal_moves_times(name: str, positions: list[Any], repeat: int = 50) -> list[float]:
    """Seconds per legal_moves call for each position, from a fresh position object
    each time, so derived data (piece lists, walls) is computed as in play."""
    game = games.get(name).game()
    times = []
    for position in positions:
        # Dataclass positions cache derived data: copy them; named tuples hold none.
        fresh = is_dataclass(position)
        copies = [replace(position) if fresh else position for _ in range(repeat)]
        start = time.process_time()
        for copy in copies:
            game.position = copy
            game.legal_moves()
        times.append((time.process_time() - start) / repeat)
    return times


def random_games_per_second(name: str, seconds: float, seed: int = 2) -> tuple[float, float]:
    """Complete random games per second, and mean actions (moves and passes) per game."""
    rules = games.get(name)
    rng = random.Random(seed)
    played = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = random_game(rules, rng, max_actions=MAX_ACTIONS)
        actions += sum(1 for action in game.history if isinstance(action, Move))
        played += 1
    elapsed = time.process_time() - start
    return played / elapsed, actions / played


def interpreter() -> str:
    """Which Python ran the figures: its version, build and path."""
    build = " ".join(platform.python_build())
    return f"{platform.python_version()} ({build}; {platform.python_compiler()}) {sys.executable}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per random-game run")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, dict[str, float]] = {}
    for name in games.names():
        times = legal_moves_times(name, midgame_positions(name, args.positions))
        rate, length = random_games_per_second(name, args.seconds)
        report[name] = {
            "legal_moves_median_us": statistics.median(times) * 1e6,
            "legal_moves_p90_us": statistics.quantiles(times, n=10)[-1] * 1e6,
            "random_games_per_s": rate,
            "actions_per_game": length,
            "us_per_action": 1e6 / (rate * length),
        }
    if args.json:
        print(json.dumps({"python": interpreter(), "rule_sets": report}, indent=2))
        return
    print(f"Python: {interpreter()}")
    print(
        f"{'rule set':<15}{'legal µs (median)':>18}{'p90':>8}{'games/s':>10}{'actions/game':>14}"
        f"{'µs/action':>11}"
    )
    for name, row in report.items():
        print(
            f"{name:<15}{row['legal_moves_median_us']:>18.1f}{row['legal_moves_p90_us']:>8.1f}"
            f"{row['random_games_per_s']:>10.0f}{row['actions_per_game']:>14.0f}"
            f"{row['us_per_action']:>11.1f}"
        )


if __name__ == "__main__":
    main()
