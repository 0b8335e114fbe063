"""Matches between players, to show the Sphinx is strong and not only fast.

Run: ``.venv/bin/python benchmarks/match.py [--games 1000] [--jobs 2] [NAME ...]``. For each
rule set it plays seeded games between each level and the one below it, and each level
against a random and a greedy player, seats alternating; it prints win rates with 95%
Wilson intervals and the Sphinx's time per decision (median, 99th percentile, worst).
Targets: each level beats the one below, strong beats greedy clearly, and every decision
takes under 200 ms on the development machine (1 s on a Raspberry Pi 4 core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from companion import games
from companion.core import IN, PASS, Move, RaceGame
from companion.randomplay import random_action
from companion.sphinx import Level, Sphinx
from companion.throwstats import wilson_interval

Chooser = Callable[[RaceGame[Any]], Move]
MAX_ACTIONS = 4000
CAPTURE_KEYS = frozenset({"swap", "capture", "eat", "hit"})
PAIRINGS = (
    ("easy", "random"),
    ("normal", "easy"),
    ("strong", "normal"),
    ("normal", "greedy"),
    ("strong", "greedy"),
)


@dataclass
class Tally:
    wins: int = 0
    games: int = 0
    decision_seconds: list[float] = field(default_factory=list)


def greedy_chooser(rng: random.Random) -> Chooser:
    """Capture when possible, else move the rearmost piece."""

    def choose(game: RaceGame[Any]) -> Move:
        legal = game.legal_moves()
        if legal == [PASS] or len(legal) == 1:
            return legal[0]
        captures = [m for m in legal if _captures(game, m)]
        if captures:
            return rng.choice(captures)
        return min(legal, key=lambda m: (m.start != IN, m.start))

    return choose


def _captures(game: RaceGame[Any], move: Move) -> bool:
    return any(r.rule.key in CAPTURE_KEYS for r in game.explain(move).rulings)


def _chooser(kind: str, rules: Any, seed: int, tally: Tally) -> Chooser:
    rng = random.Random(seed)
    if kind == "random":
        return lambda game: rng.choice(game.legal_moves())
    if kind == "greedy":
        return greedy_chooser(rng)
    return SphinxChooser(Sphinx(rules, level=Level(kind), seed=seed), tally)


class SphinxChooser:
    """The Sphinx as a player, timing its decisions."""

    def __init__(self, sphinx: Sphinx, tally: Tally) -> None:
        self.sphinx = sphinx
        self.tally = tally

    def __call__(self, game: RaceGame[Any]) -> Move:
        began = time.perf_counter()
        move = self.sphinx.choose(game)
        self.tally.decision_seconds.append(time.perf_counter() - began)
        return move


def play_block(name: str, first: str, second: str, seeds: range) -> Tally:
    """Games of ``first`` against ``second``; wins counted for ``first``."""
    rules = _rules(name)
    tally = Tally()
    for seed in seeds:
        dice = random.Random(seed)
        seated = (
            (first, _chooser(first, rules, seed, tally)),
            (second, _chooser(second, rules, seed + 1, Tally())),
        )
        first_side = seed % 2  # seats alternate
        game = rules.game()
        for _ in range(MAX_ACTIONS):  # Mehen's predators may roam for ever: a draw
            if game.is_over():
                break
            kind, player = seated[0] if game.position.turn == first_side else seated[1]
            if game.position.throw is None:
                _before_throw(game, kind, player, dice)
                continue
            game.push_fast(player(game))
        tally.games += 1
        tally.wins += game.winner() == first_side
    return tally


def _before_throw(game: RaceGame[Any], kind: str, player: Chooser, dice: random.Random) -> None:
    """Throw, or act instead where the rules allow it: the Sphinx weighs it, the random
    player acts at random play's rate, the greedy player always throws."""
    if kind == "random":
        random_action(game, dice)
        return
    option = ""
    if isinstance(player, SphinxChooser):
        move, option = player.sphinx.before_throw(game)
        if move is not None:
            game.push_fast(move)
            return
    options = game.throw_options(game.position)
    outcomes = options.get(option) or next(iter(options.values()))
    weights = [float(outcome.probability) for outcome in outcomes]
    game.throw(dice.choices(outcomes, weights)[0].throw)


def _rules(name: str) -> Any:
    """A rule set by name; ``mehen:31`` is Mehen on a board of 31 squares."""
    base, _, length = name.partition(":")
    rules = games.get(base)
    return rules.with_options({"length": length}) if length else rules


def run(name: str, first: str, second: str, count: int, jobs: int) -> Tally:
    block = max(1, count // (jobs * 4))
    blocks = [range(s, min(s + block, count)) for s in range(0, count, block)]
    total = Tally()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        args = ([name] * len(blocks), [first] * len(blocks), [second] * len(blocks), blocks)
        for tally in pool.map(play_block, *args):
            total.wins += tally.wins
            total.games += tally.games
            total.decision_seconds += tally.decision_seconds
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name in args.names or ["senet-migo", "senet-kendall"]:
        for first, second in PAIRINGS:
            tally = run(name, first, second, args.games, args.jobs)
            low, high = wilson_interval(tally.wins, tally.games)
            times = sorted(tally.decision_seconds) or [0.0]
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"{name:<14} {first:>6} vs {second:<6} {tally.wins / tally.games:6.1%} "
                f"[{low:.1%}, {high:.1%}] of {tally.games}; decision ms: median "
                f"{statistics.median(times) * 1e3:.1f}, p99 {p99 * 1e3:.1f}, "
                f"max {times[-1] * 1e3:.0f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
