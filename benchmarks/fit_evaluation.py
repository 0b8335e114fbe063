"""Fit a learnt evaluation's weights (companion/sphinx_learned.py) to the results of games.

Run: ``nice -n 10 .venv/bin/python -m benchmarks.fit_evaluation [--games 20000] NAME``.
It plays seeded games of the Sphinx against itself at one move ahead (with the easy
level's random errors, so that the positions vary), keeps every position where a player is
about to throw, and fits a logistic regression of "the player to move won" on the
difference of the two sides' features (Newton's method, a small L2 penalty). The games
are split: every fifth game only measures the fit (log loss), against the constant that
knows only the tempo. It prints the weights to paste into the model's definition; the
same command gives the same weights.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.match import SphinxChooser, Tally, _before_throw, rules_named
from companion.core import RaceGame, RuleSet
from companion.sphinx import Level, Sphinx, learnt_evaluator
from companion.sphinx_learned import LEARNT, Learnt

Matrix = npt.NDArray[np.float64]


@dataclass
class Sample:
    rows: list[list[float]]  # tempo (1.0), then the mover's features less the other's
    won: list[float]  # 1 if the player to move won, 0 if not, 1/2 for a draw


def play(
    rules: RuleSet, learnt: Learnt, seed: int, sample: Sample, *, level: Level, own: bool
) -> None:
    """One game of the Sphinx against itself; its positions before a throw into ``sample``.
    With ``own`` the players score leaves by ``learnt`` (as it is in the code)."""
    game = rules.game()
    dice = random.Random(seed)
    evaluator = learnt_evaluator(learnt) if own else None
    players = [
        SphinxChooser(
            Sphinx(rules, level=level, seed=seed * 2 + side, evaluator=evaluator, clock=False),
            Tally(),
        )
        for side in (0, 1)
    ]
    seen: list[tuple[int, list[float]]] = []
    while not game.is_over():
        position = game.position
        if position.throw is None:
            seen.append((position.turn, _row(learnt, game, position)))
            _before_throw(game, level.value, players[position.turn], dice)
        else:
            game.push_fast(players[position.turn](game))
    winner = game.winner()
    for turn, row in seen:
        sample.rows.append(row)
        sample.won.append(0.5 if winner is None else float(winner == turn))


def _row(learnt: Learnt, game: RaceGame[Any], position: Any) -> list[float]:
    mover = learnt.features(game.rules, position, position.turn)
    other = learnt.features(game.rules, position, 1 - position.turn)
    return [1.0, *(own - theirs for own, theirs in zip(mover, other, strict=True))]


def fit(rows: Matrix, won: Matrix, penalty: float) -> Matrix:
    """Logistic regression by Newton's method; the tempo (first column) is not penalised."""
    weights = np.zeros(rows.shape[1])
    ridge = penalty * np.eye(rows.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(50):
        chance = 1.0 / (1.0 + np.exp(-rows @ weights))
        gradient = rows.T @ (chance - won) + ridge @ weights
        hessian = (rows * (chance * (1 - chance))[:, None]).T @ rows + ridge
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-9:
            break
    return weights


def log_loss(rows: Matrix, won: Matrix, weights: Matrix) -> float:
    chance = np.clip(1.0 / (1.0 + np.exp(-rows @ weights)), 1e-12, 1 - 1e-12)
    return float(-np.mean(won * np.log(chance) + (1 - won) * np.log(1 - chance)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--penalty", type=float, default=1.0, help="L2 penalty")
    parser.add_argument(
        "--learnt", action="store_true", help="self-play with the learnt evaluation in the code"
    )
    parser.add_argument("--save", metavar="FILE", help="also write the weights as JSON")
    parser.add_argument(
        "--level", default="easy", choices=[level.value for level in Level], help="self-play"
    )
    args = parser.parse_args()
    rules = rules_named(args.name)
    learnt = LEARNT[rules.name]
    train, test = Sample([], []), Sample([], [])
    for seed in range(args.seed, args.seed + args.games):
        target = test if seed % 5 == 4 else train
        play(rules, learnt, seed, target, level=Level(args.level), own=args.learnt)
    rows, won = np.array(train.rows), np.array(train.won)
    weights = fit(rows, won, args.penalty)
    test_rows, test_won = np.array(test.rows), np.array(test.won)
    tempo_only = np.zeros_like(weights)
    tempo_only[0] = fit(rows[:, :1], won, 0.0)[0]
    print(
        f"{len(rows)} positions to fit, {len(test_rows)} to test; log loss on the test "
        f"games {log_loss(test_rows, test_won, weights):.4f} (tempo alone "
        f"{log_loss(test_rows, test_won, tempo_only):.4f})"
    )
    print(f"    tempo={weights[0]:.4f},")
    print("    weights=(")
    for name, weight in zip(learnt.names, weights[1:], strict=True):
        print(f"        {weight:.4f},  # {name}")
    print("    ),")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump({"tempo": weights[0], "weights": list(weights[1:])}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
