"""Instructions per batch of random games, counted by valgrind's callgrind: a figure that a
loaded machine does not blur, to compare the engine before and after a change.

Run: ``.venv/bin/python -m benchmarks.instructions [--games N] [RULE_SET ...]``. Each rule
set is played twice under callgrind, with N random games (seed 2, after one warm-up game)
and with none; the difference leaves imports out. Needs ``valgrind`` on PATH; slow (about
half a minute for 10 Kendall games).
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys

from companion import games
from companion.randomplay import random_game

WARM_UP_SEED = 99
SEED = 2
_COLLECTED = re.compile(r"Collected : (\d+)")


def play(name: str, count: int) -> None:
    """The games counted: one to warm caches up, then ``count`` seeded ones."""
    rules = games.get(name)
    random_game(rules, random.Random(WARM_UP_SEED))
    rng = random.Random(SEED)
    for _ in range(count):
        random_game(rules, rng)


def instructions(name: str, count: int) -> int:
    """Instructions callgrind counts for a run of ``play(name, count)``."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "benchmarks.instructions",
        "--play",
        name,
        "--games",
        str(count),
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stderr
    found = _COLLECTED.search(output)
    if found is None:
        raise SystemExit(f"callgrind gave no count for {name}:\n{output}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="rule sets (default: all)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--play", help=argparse.SUPPRESS)  # the run callgrind counts
    args = parser.parse_args()
    if args.play:
        play(args.play, args.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    for name in args.names or games.names():
        played = instructions(name, args.games) - instructions(name, 0)
        print(f"{name:<15}{played / 1e6:>10.0f}M instructions for {args.games} games")


if __name__ == "__main__":
    main()
