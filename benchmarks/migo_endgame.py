"""Senet-Migo's last pieces, solved exactly: does the Sphinx's evaluation play them well?

Run: ``nice -n 10 .venv/bin/python -m benchmarks.migo_endgame [--pieces 3]``.

White's last ``pieces`` pieces race home alone: black's two remaining pieces stand on
squares 2 and 3, where they protect each other (S4) and never move, so nothing but the
exits (S6-S8), the water's last resort (S9) and the backward moves (S10) is in play. Every
move comes from the engine. Value iteration gives the exact expected number of turns (a
throw of 2 or 3 passes the hand; 1, 4 and 5 throw again, T2) to bear them all off, playing
perfectly, and the same for a player who takes, with each throw, the move the Sphinx's
evaluation ranks first one move ahead (its easy level without errors; the opponent cannot
answer here, so deeper levels see the same). The report gives both, where they differ
most, and what a lone last piece costs from each exit square.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion import games
from companion.core import PASS
from companion.games.senet import Phase, Senet, SenetPosition, SenetRules
from companion.sphinx import evaluate_senet

State = tuple[int, ...]  # white's squares, ascending; () once every piece is off
PARKED = (2, 3)  # black's two pieces: a protected pair that never moves
PIECES = 7
SOLVED = 1e-9  # value iteration stops once no value changes by more than this


@dataclass(frozen=True)
class Choice:
    after: State
    evaluation: float  # white's evaluation of the position after the move


@dataclass(frozen=True)
class Branch:
    probability: float
    turns: float  # 1 when the throw passes the hand, 0 when it throws again
    choices: tuple[Choice, ...]  # empty: no move (the throw passes)


@dataclass(frozen=True)
class Solution:
    perfect: dict[State, float]  # expected turns to bear off, played perfectly
    spread: dict[State, float]  # their standard deviation
    by_evaluation: dict[State, float]  # expected turns, played by the evaluation
    decisions: int  # throws with two moves or more, over every state
    wrong: int  # of those, where the evaluation's move is not a best one
    cost: float  # turns the evaluation's moves lose, summed over those decisions


def solve_endgame(pieces: int) -> Solution:
    """Every state of ``pieces`` white pieces or fewer, solved."""
    rules = games.get("senet-migo")
    assert isinstance(rules, SenetRules)
    game = rules.game()
    assert isinstance(game, Senet)
    free = [square for square in range(1, 31) if square not in (*PARKED, rules.water)]
    states = [
        combination
        for count in range(1, pieces + 1)
        for combination in itertools.combinations(free, count)
    ]
    branches = {state: _branches(game, rules, state) for state in states}
    perfect = _iterate(branches, lambda choices, values: min(values[c.after] for c in choices))
    by_evaluation = _iterate(
        branches, lambda choices, values: values[max(choices, key=_evaluation).after]
    )
    decisions = wrong = 0
    cost = 0.0
    for state in states:
        for branch in branches[state]:
            if len(branch.choices) < 2:
                continue
            decisions += 1
            best = min(perfect[choice.after] for choice in branch.choices)
            lost = perfect[max(branch.choices, key=_evaluation).after] - best
            wrong += lost > 1e-6
            cost += lost
    spread = _spread(branches, perfect)
    return Solution(perfect, spread, by_evaluation, decisions, wrong, cost)


def _evaluation(choice: Choice) -> float:
    return choice.evaluation


def _branches(game: Senet, rules: SenetRules, state: State) -> list[Branch]:
    board = ["."] * 30
    for square in PARKED:
        board[square - 1] = "B"
    for square in state:
        board[square - 1] = "W"
    off = (PIECES - len(state), PIECES - len(PARKED))
    base = SenetPosition("".join(board), 0, Phase.PLAY, None, off)
    branches = []
    for outcome in rules.throws.outcomes():
        thrown = game.with_throw(base, outcome.throw)
        game.position = thrown
        choices = tuple(_choice(game, thrown, move) for move in game.legal_moves() if move != PASS)
        turns = 0.0 if outcome.throw.extra_turn else 1.0
        branches.append(Branch(float(outcome.probability), turns, choices))
    return branches


def _choice(game: Senet, position: SenetPosition, move: Any) -> Choice:
    after = game.apply(position, move, explain=False)[0]
    squares = tuple(index + 1 for index, piece in enumerate(after.board) if piece == "W")
    assert after.board.count("B") == len(PARKED)  # black's pair is never attacked
    return Choice(squares, evaluate_senet(game, after)[0])


Policy = Callable[[Sequence[Choice], dict[State, float]], float]


def _fixed_point(
    states: Sequence[State],
    start: dict[State, float],
    update: Callable[[State, dict[State, float]], float],
) -> dict[State, float]:
    """Value iteration: ``update`` each state in turn, in place, until none moves by more
    than SOLVED."""
    values = dict(start)
    change = 1.0
    while change > SOLVED:
        change = 0.0
        for state in states:
            new = update(state, values)
            change = max(change, abs(new - values[state]))
            values[state] = new
    return values


def _iterate(branches: dict[State, list[Branch]], policy: Policy) -> dict[State, float]:
    def expected_turns(state: State, values: dict[State, float]) -> float:
        return sum(
            branch.probability
            * (branch.turns + (policy(branch.choices, values) if branch.choices else values[state]))
            for branch in branches[state]
        )

    start = {**dict.fromkeys(branches, 0.0), (): 0.0}
    return _fixed_point(list(branches), start, expected_turns)


def _spread(branches: dict[State, list[Branch]], perfect: dict[State, float]) -> dict[State, float]:
    """Standard deviation of the turns, played perfectly: E[T^2] for T = turns of this
    throw + T after it, by the same iteration."""

    def expected_square(state: State, squares: dict[State, float]) -> float:
        total = 0.0
        for branch in branches[state]:
            after = state
            if branch.choices:
                after = min(branch.choices, key=lambda c: perfect[c.after]).after
            turns = branch.turns
            total += branch.probability * (
                turns * turns + 2 * turns * perfect[after] + squares[after]
            )
        return total

    squares = _fixed_point(list(branches), dict.fromkeys(perfect, 0.0), expected_square)
    return {state: max(0.0, squares[state] - perfect[state] ** 2) ** 0.5 for state in perfect}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--pieces", type=int, default=2, choices=(1, 2, 3), help="white's pieces left"
    )
    args = parser.parse_args()
    solution = solve_endgame(args.pieces)
    perfect, by_evaluation = solution.perfect, solution.by_evaluation
    print("| white's pieces | perfect play: turns | sd | the evaluation's play: turns |")
    print("| --- | ---: | ---: | ---: |")
    shown: list[State] = [(1,), (20,), (25,), (26,), (28,), (29,), (30,)]
    if args.pieces >= 2:
        shown += [(25, 26), (26, 28), (26, 29), (28, 29), (29, 30)]
    if args.pieces >= 3:
        shown += [(26, 28, 29), (28, 29, 30), (24, 26, 29)]
    for state in shown:
        print(
            f"| {', '.join(map(str, state))} | {perfect[state]:.2f} | "
            f"{solution.spread[state]:.1f} | {by_evaluation[state]:.2f} |"
        )
    near = [state for state in perfect if state and min(state) >= 20]
    gaps = sorted(near, key=lambda state: by_evaluation[state] - perfect[state])
    mean_perfect = sum(perfect[state] for state in near) / len(near)
    mean_evaluation = sum(by_evaluation[state] for state in near) / len(near)
    print(
        f"\nEvery piece on 20-30 ({len(near)} states): {mean_perfect:.2f} turns played "
        f"perfectly, {mean_evaluation:.2f} by the evaluation; worst: "
        + ", ".join(f"{state} {by_evaluation[state] - perfect[state]:+.2f}" for state in gaps[-3:])
    )
    if not solution.decisions:  # a lone piece never has two moves to choose from
        print("No decision with a choice.")
        return 0
    print(
        f"Decisions with a choice: {solution.decisions}; the evaluation's move is not a "
        f"best one in {solution.wrong}, losing {solution.cost / solution.decisions:.3f} "
        "turns a decision on average"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
