"""How much of a Senet game the players can steer: choices, the last piece's lottery, leads.

Run: ``nice -n 10 .venv/bin/python -m benchmarks.luck [--games 200] [--first easy]
[--second random] [NAME ...]`` (Senet rule sets only).

For seeded games between two players (seats alternating, as in ``benchmarks.match``) it
reports:

- the share of decisions with a real choice (two legal moves or more);
- the share of each player's throws taken with a single piece left on the board, where
  there is nothing to choose (Migo's lone last piece waits on the exits for one exact throw
  and otherwise falls into the water, S7-S9);
- how often the player who first bears off k pieces goes on to win, for every k: if a
  lead bought by good play early hardly decides the game, no evaluation can win much.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.match import Chooser, Tally, _chooser, _play, rules_named
from companion.core import RaceGame
from companion.errors import CompanionError
from companion.games.senet import SenetPosition


@dataclass
class Luck:
    decisions: int = 0
    choices: int = 0
    lone_pieces: int = 0
    games: int = 0
    # k -> games where some player bore off k pieces first, and those that player won
    first_to: Counter[int] = field(default_factory=Counter)
    first_to_won: Counter[int] = field(default_factory=Counter)


def measure(name: str, first: str, second: str, games: int) -> Luck:
    rules = rules_named(name)
    luck = Luck()
    for seed in range(games):
        game = rules.game()
        seated = [
            (first, _chooser(first, rules, seed, Tally())),
            (second, _chooser(second, rules, seed * 8 + 1, Tally())),
        ]
        if seed % 2:
            seated.reverse()
        leaders: dict[int, int] = {}  # k -> the side that first bore off k pieces
        counted = [(kind, _counting(chooser, luck, leaders)) for kind, chooser in seated]
        _play(game, counted, random.Random(seed))
        winner = game.winner() if game.is_over() else None
        luck.games += 1
        for k, side in leaders.items():
            luck.first_to[k] += 1
            luck.first_to_won[k] += side == winner
    return luck


def _counting(chooser: Chooser, luck: Luck, leaders: dict[int, int]) -> Chooser:
    def choose(game: RaceGame[Any]) -> Any:
        position = game.position
        assert isinstance(position, SenetPosition)
        side = position.turn
        luck.lone_pieces += len(position.pieces(side)) == 1
        for k in range(1, position.off[side] + 1):
            leaders.setdefault(k, side)
        legal = game.legal_moves()
        luck.decisions += 1
        luck.choices += len(legal) > 1
        return chooser(game)

    return choose


def report(name: str, first: str, second: str, luck: Luck) -> str:
    lines = [
        f"{name}: {first} vs {second}, {luck.games} games, {luck.decisions} throws to move",
        f"  with a choice of moves: {luck.choices / luck.decisions:.1%}",
        f"  with a single piece left on the board: {luck.lone_pieces / luck.decisions:.1%}",
    ]
    for k in sorted(luck.first_to):
        won = luck.first_to_won[k] / luck.first_to[k]
        lines.append(f"  first to bear off {k}: wins {won:.1%} of {luck.first_to[k]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", default="easy")
    parser.add_argument("--second", default="random")
    parser.add_argument("names", nargs="*", default=["senet-migo", "senet-kendall"])
    args = parser.parse_args(argv)
    for name in args.names:
        try:
            position = rules_named(name).game().position
        except CompanionError as error:
            parser.error(str(error))
        if not isinstance(position, SenetPosition):
            parser.error(f"{name}: only the Senet rule sets (migo, kendall) are measured")
    for name in args.names:
        luck = measure(name, args.first, args.second, args.games)
        print(report(name, args.first, args.second, luck), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
