"""The Sphinx's time per decision, at every level, in every rule set.

Run: ``nice -n 10 .venv/bin/python -m benchmarks.sphinx [--positions 300] [NAME ...]``.
Positions come from seeded games of random play; only positions with a real choice count
(two legal moves or more, or a way to act instead of throwing). Each level decides as in
a match, with its node budget and no clock, so the figures measure the budget; times are
CPU seconds of this process. Target: the slowest decision within 200 ms on the
development machine (1 s on a Raspberry Pi 4 core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from benchmarks.match import DEFAULT_NAMES, rules_named
from companion.core import RaceGame, RuleSet
from companion.randomplay import sampled_games
from companion.sphinx import Level, Sphinx

TARGET_MS = 200.0


def positions(rules: RuleSet, count: int, seed: int) -> list[RaceGame[Any]]:
    """Games stopped at ``count`` positions where the player to move has a choice."""
    rng = random.Random(seed)
    return sampled_games(rules, count, rng, wanted=_has_choice, rate=0.2, instead_rate=0.1)


def _has_choice(game: RaceGame[Any]) -> bool:
    if game.position.throw is None:
        return (
            any(move.moves_a_piece for move in game.legal_moves())
            or len(game.throw_options(game.position)) > 1
        )
    return len(game.legal_moves()) > 1


def decision_ms(sphinx: Sphinx, game: RaceGame[Any]) -> float:
    began = time.process_time()
    if game.position.throw is None:
        sphinx.before_throw(game)
    else:
        sphinx.choose(game)
    return (time.process_time() - began) * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    print("| rule set | level | positions | median ms | p99 ms | max ms | within 200 ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    worst = 0.0
    for name in args.names or DEFAULT_NAMES:
        rules = rules_named(name)
        sample = positions(rules, args.positions, seed=1)
        for level in Level:
            sphinx = Sphinx(rules, level=level, seed=1, clock=False)
            times = sorted(decision_ms(sphinx, game) for game in sample)
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            worst = max(worst, times[-1])
            verdict = "yes" if times[-1] <= TARGET_MS else "**no**"
            print(
                f"| {name} | {level.value} | {len(times)} | {statistics.median(times):.1f} | "
                f"{p99:.1f} | {times[-1]:.1f} | {verdict} |",
                flush=True,
            )
    return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
