"""Matches between players, to show the Sphinx is strong and not only fast.

Run: ``nice -n 10 .venv/bin/python -m benchmarks.match [--games 1000] [--jobs 2] [NAME ...]``.
For each rule set it plays seeded games between each level and the one below it, and the
Sphinx against a random and a greedy player, seats alternating (rotating round a table of
more players); it prints win rates with 95% Wilson intervals and the Sphinx's time per
decision (median, 99th percentile, worst), before a throw and after one.

A NAME is a rule set, with options after a colon: ``mehen:31`` is Mehen on a board of 31
squares, ``mehen:players=4`` a table of four where the first player faces three of the
second kind (``mehen:31,players=4`` both). The Sphinx plays with its node budgets and no
clock (``Sphinx(..., clock=False)``): the same seeds give the same games on any machine.
Decision times are CPU seconds of the deciding process (``time.process_time``), so that other
work on the machine does not inflate them.

Targets: each level beats the one below, strong beats greedy clearly, and every decision
takes under 200 ms on the development machine (1 s on a Raspberry Pi 4 core).
``--markdown`` prints the rows of docs/sphinx.md's table.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from companion import games
from companion.core import END, IN, PASS, Move, RaceGame, RuleSet
from companion.games.mehen_position import MehenPosition
from companion.randomplay import random_action
from companion.sphinx import Level, Sphinx
from companion.throwstats import wilson_interval

Chooser = Callable[[RaceGame[Any]], Move]
MAX_ACTIONS = 4000  # Mehen's predators may roam for ever: such a game is a draw
CAPTURE_KEYS = frozenset({"swap", "capture", "eat", "hit"})
PAIRINGS = (
    ("easy", "random"),
    ("normal", "easy"),
    ("strong", "normal"),
    ("normal", "greedy"),
    ("strong", "greedy"),
)
DEFAULT_NAMES = (
    "senet-migo",
    "senet-kendall",
    "senet-modern",
    "mehen",
    "mehen:players=4",
    "ur-tablet",
    "ur-finkel",
    "ur-masters",
)


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    games: int = 0
    decision_seconds: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.games += other.games
        self.decision_seconds += other.decision_seconds


def greedy_chooser(rng: random.Random, *, foremost: bool = False) -> Chooser:
    """The issue's greedy player: capture when possible (at random among captures), else
    move the rearmost piece (entering a piece counts as moving the rearmost); with
    ``foremost`` (the player ``greedy-front``), the foremost piece instead."""

    def choose(game: RaceGame[Any]) -> Move:
        legal = game.legal_moves()
        if legal == [PASS] or len(legal) == 1:
            return legal[0]
        pieces = [move for move in legal if move.moves_a_piece]
        captures = [move for move in pieces if _captures(game, move)]
        if captures:
            return rng.choice(captures)
        if foremost:
            return max(pieces or legal, key=lambda move: (move.start != IN, move.start))
        return min(pieces or legal, key=lambda move: (move.start != IN, move.start))

    return choose


def _captures(game: RaceGame[Any], move: Move) -> bool:
    return any(r.rule.key in CAPTURE_KEYS for r in game.explain(move).rulings)


class SphinxChooser:
    """The Sphinx as a player, timing its decisions in CPU seconds."""

    def __init__(self, sphinx: Sphinx, tally: Tally) -> None:
        self.sphinx = sphinx
        self.tally = tally

    def __call__(self, game: RaceGame[Any]) -> Move:
        began = time.process_time()
        move = self.sphinx.choose(game)
        self.tally.decision_seconds.append(time.process_time() - began)
        return move

    def before_throw(self, game: RaceGame[Any]) -> tuple[Move | None, str]:
        began = time.process_time()
        decision = self.sphinx.before_throw(game)
        self.tally.decision_seconds.append(time.process_time() - began)
        return decision


def _chooser(kind: str, rules: RuleSet, seed: int, tally: Tally) -> Chooser:
    rng = random.Random(seed)
    if kind == "random":
        return lambda game: rng.choice(game.legal_moves())
    if kind.startswith("greedy"):
        return greedy_chooser(rng, foremost=kind == "greedy-front")
    return SphinxChooser(Sphinx(rules, level=Level(kind), seed=seed, clock=False), tally)


def play_block(name: str, first: str, second: str, seeds: Sequence[int]) -> Tally:
    """Games of ``first`` against a table of ``second``; wins counted for ``first``, whose
    seat moves round the table from one seed to the next."""
    rules = rules_named(name)
    tally = Tally()
    for seed in seeds:
        game = rules.game()
        players: int = getattr(game.position, "players", rules.players)
        first_seat = seed % players
        seated = [
            (first, _chooser(first, rules, seed, tally))
            if seat == first_seat
            else (second, _chooser(second, rules, seed * 8 + seat + 1, Tally()))
            for seat in range(players)
        ]
        _play(game, seated, random.Random(seed))
        winner = game.winner() if game.is_over() else None
        tally.games += 1
        tally.wins += winner == first_seat
        tally.draws += winner is None
    return tally


def _play(game: RaceGame[Any], seated: list[tuple[str, Chooser]], dice: random.Random) -> None:
    for _ in range(MAX_ACTIONS):
        if game.is_over():
            return
        kind, player = seated[game.position.turn]
        if game.position.throw is None:
            if _scores_settled(game.position):
                game.push_fast(END)
                return
            _before_throw(game, kind, player, dice)
        else:
            game.push_fast(player(game))
    if game.position.throw is None and END in game.legal_moves():
        game.push_fast(END)  # the cap: the players agree to stop and count (M10)


def _scores_settled(position: Any) -> bool:
    """Mehen: no predator can eat any more (every simple piece has reached the centre or
    been eaten), so no score can change; the players agree to end and count (M10). A
    player who is behind would otherwise keep their predator on the board for ever."""
    if not isinstance(position, MehenPosition):
        return False
    return not any(
        position.track_squares(seat) or position.tail[seat] or position.to_enter[seat]
        for seat in range(position.players)
    )


def _before_throw(game: RaceGame[Any], kind: str, player: Chooser, dice: random.Random) -> None:
    """Throw, or act instead where the rules allow it: the Sphinx weighs it, the random
    player acts at random play's rate, the greedy player always throws."""
    if kind == "random":
        random_action(game, dice)
        return
    option = ""
    if isinstance(player, SphinxChooser):
        move, option = player.before_throw(game)
        if move is not None:
            game.push_fast(move)
            return
    options = game.throw_options(game.position)
    outcomes = options.get(option) or next(iter(options.values()))
    weights = [float(outcome.probability) for outcome in outcomes]
    game.throw(dice.choices(outcomes, weights)[0].throw)


def rules_named(name: str) -> RuleSet:
    """A rule set by name with options: ``mehen:31``, ``mehen:players=4``, ``mehen:31,players=4``
    (a bare number is the board's length)."""
    base, _, text = name.partition(":")
    options: dict[str, str] = {}
    for part in filter(None, text.split(",")):
        key, equals, value = part.partition("=")
        options.update({key: value} if equals else {"length": key})
    rules = games.get(base)
    return rules.with_options(options) if options else rules


def run(name: str, first: str, second: str, count: int, jobs: int, seed: int = 0) -> Tally:
    """``count`` games from seed ``seed`` on, in blocks spread over ``jobs`` processes."""
    block = max(1, count // (jobs * 4))
    seeds = range(seed, seed + count)
    blocks = [seeds[start : start + block] for start in range(0, count, block)]
    total = Tally()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        args = ([name] * len(blocks), [first] * len(blocks), [second] * len(blocks), blocks)
        for tally in pool.map(play_block, *args):
            total.add(tally)
    return total


@dataclass(frozen=True)
class Result:
    name: str
    first: str
    second: str
    players: int
    games: int
    wins: int
    draws: int
    low: float
    high: float
    decisions: int
    median_ms: float
    p99_ms: float
    max_ms: float
    minutes: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def target(self) -> float:
        """The win rate of an even match: one in the number of players."""
        return 1 / self.players

    def line(self) -> str:
        return (
            f"{self.name:<16} {self.first:>6} vs {self.second:<6} {self.rate:6.1%} "
            f"[{self.low:.1%}, {self.high:.1%}] of {self.games} ({self.draws} drawn, even "
            f"{self.target:.0%}); decision ms: median {self.median_ms:.1f}, p99 "
            f"{self.p99_ms:.1f}, max {self.max_ms:.0f}; {self.minutes:.1f} min"
        )

    def markdown(self) -> str:
        verdict = "yes" if self.low > self.target else "**no**"
        timing = (
            f"{self.median_ms:.1f} | {self.p99_ms:.0f} | {self.max_ms:.0f}"
            if self.decisions
            else "- | - | -"
        )
        return (
            f"| {self.name} | {self.first} vs {self.second} | {self.games} | {self.wins} | "
            f"{self.rate:.1%} | {self.low:.1%} to {self.high:.1%} | {self.target:.0%} | "
            f"{verdict} | {timing} |"
        )


def measure(name: str, first: str, second: str, count: int, jobs: int, seed: int = 0) -> Result:
    began = time.monotonic()
    tally = run(name, first, second, count, jobs, seed)
    low, high = wilson_interval(tally.wins, tally.games)
    times = sorted(tally.decision_seconds) or [0.0]
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return Result(
        name=name,
        first=first,
        second=second,
        players=getattr(rules_named(name).game().position, "players", 2),
        games=tally.games,
        wins=tally.wins,
        draws=tally.draws,
        low=low,
        high=high,
        decisions=len(tally.decision_seconds),
        median_ms=statistics.median(times) * 1e3,
        p99_ms=p99 * 1e3,
        max_ms=times[-1] * 1e3,
        minutes=(time.monotonic() - began) / 60,
    )


TABLE_HEAD = (
    "| rule set | pairing | games | wins | win rate | 95% interval | even | beats it? "
    "| median ms | p99 ms | max ms |",
    "| --- | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |",
)


def table(path: str) -> list[str]:
    """The markdown table of saved results; runs of one pairing on other seeds add up
    (the median and 99th percentile shown are the worst of the runs')."""
    merged: dict[tuple[str, str, str], Result] = {}
    with open(path, encoding="utf-8") as saved:
        for line in saved:
            result = Result(**json.loads(line))
            key = (result.name, result.first, result.second)
            merged[key] = _merged(merged[key], result) if key in merged else result
    return [*TABLE_HEAD, *(result.markdown() for result in merged.values())]


def _merged(one: Result, other: Result) -> Result:
    wins, games = one.wins + other.wins, one.games + other.games
    low, high = wilson_interval(wins, games)
    return replace(
        one,
        games=games,
        wins=wins,
        draws=one.draws + other.draws,
        low=low,
        high=high,
        decisions=one.decisions + other.decisions,
        median_ms=max(one.median_ms, other.median_ms),
        p99_ms=max(one.p99_ms, other.p99_ms),
        max_ms=max(one.max_ms, other.max_ms),
        minutes=one.minutes + other.minutes,
    )


def games_for(first: str, second: str, args: argparse.Namespace) -> int:
    """Cheap pairings play ``--games``; pairings with the strong level ``--strong-games``."""
    count: int = args.strong_games if "strong" in (first, second) else args.games
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--strong-games", type=int, default=300, help="games per strong pairing")
    parser.add_argument(
        "--pairing",
        action="append",
        metavar="FIRST-SECOND",
        help="only these, e.g. strong-greedy-front",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--json", metavar="FILE", help="append each result as a JSON line")
    parser.add_argument("--markdown", action="store_true", help="table rows for docs/sphinx.md")
    parser.add_argument(
        "--table", metavar="FILE", help="only print the table of results saved with --json"
    )
    args = parser.parse_args()
    if args.table:
        print("\n".join(table(args.table)))
        return 0
    pairings = [tuple(p.split("-", 1)) for p in args.pairing] if args.pairing else PAIRINGS
    for name in args.names or DEFAULT_NAMES:
        for first, second in pairings:
            count = games_for(first, second, args)
            result = measure(name, first, second, count, args.jobs, args.first_seed)
            print(result.markdown() if args.markdown else result.line(), flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps(vars(result)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
