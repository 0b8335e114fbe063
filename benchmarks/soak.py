"""Soak run: many seeded random games per rule set, every invariant checked after every move.

Run: ``.venv/bin/python benchmarks/soak.py [--games 10000] [--jobs 2] [NAME ...]``. The
checks are those of the test suite (``tests/test_random_games.py`` and each family's own
random-game tests), which run a few hundred games; this script runs as many as asked and
prints, per rule set, the games played, the actions checked, the time taken and every
failing seed (replay one with the family's ``play_random_game(rules, seed)``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"

# Rule set -> "module:function" in tests/ that plays one checked game: f(rules, seed).
CHECKED_GAMES = {
    "senet-migo": "test_random_games:play_random_game",
    "senet-kendall": "test_random_games:play_random_game",
    "senet-modern": "test_modern_random:play_random_game",
    "mehen": "test_mehen_random:play_random_game",
    "ur-tablet": "test_ur_random_games:play_random_game",
    "ur-finkel": "test_royal_random_games:play_random_game",
    "ur-masters": "test_royal_random_games:play_random_game",
}
FIRST_SEED = 10**6  # away from the seeds the test suite uses


def _checked_game(name: str) -> Callable[[Any, int], object]:
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    module_name, _, function = CHECKED_GAMES[name].partition(":")
    checked: Callable[[Any, int], object] = getattr(importlib.import_module(module_name), function)
    return checked


def soak_block(name: str, seeds: range) -> tuple[int, list[tuple[int, str]]]:
    """Play the games of ``seeds``; the number played and the (seed, error) of failures."""
    from companion import games

    rules = games.get(name)
    play = _checked_game(name)
    failures: list[tuple[int, str]] = []
    for seed in seeds:
        try:
            play(rules, seed)
        except Exception:
            failures.append((seed, traceback.format_exc(limit=3)))
    return len(seeds), failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help="rule sets (default: all)")
    parser.add_argument("--games", type=int, default=10_000, help="games per rule set")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    names = args.names or list(CHECKED_GAMES)
    unknown = [name for name in names if name not in CHECKED_GAMES]
    if unknown:
        print(f"no checked random games for {', '.join(unknown)}", file=sys.stderr)
        return 2
    failed = False
    for name in names:
        failed |= _soak(name, args.games, args.jobs)
    return 1 if failed else 0


def _soak(name: str, count: int, jobs: int) -> bool:
    block = max(1, count // (jobs * 8))
    starts = range(FIRST_SEED, FIRST_SEED + count, block)
    blocks = [range(s, min(s + block, FIRST_SEED + count)) for s in starts]
    began = time.perf_counter()
    played = 0
    failures: list[tuple[int, str]] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, failed in pool.map(soak_block, [name] * len(blocks), blocks):
            played += done
            failures += failed
    elapsed = time.perf_counter() - began
    print(f"{name}: {played} games, {len(failures)} failed, {elapsed:.0f} s")
    for seed, error in failures[:5]:
        print(f"  seed {seed}:\n{error}")
    return bool(failures)


if __name__ == "__main__":
    sys.exit(main())
