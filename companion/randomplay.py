"""Random play, the same for every rule set: benchmarks, soak runs and demonstrations.

A random player throws with the rule set's exact odds and picks a legal move at random.
Where a rule set lets a player move a piece instead of throwing (Ur: pay to enter a piece),
the player does so at the given rate, so that every rule gets exercised.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.core import Action, RaceGame, RuleSet

INSTEAD_OF_THROWING_RATE = 0.25


def random_action(
    game: RaceGame[Any], rng: random.Random, *, instead_rate: float = INSTEAD_OF_THROWING_RATE
) -> Action:
    """Play one random action, a throw or a move, with ``push_fast``; returns it."""
    if game.position.throw is None:
        # Moves that replace the throw and move a piece (Ur's paid entry); never Mehen's
        # 'end', which the players agree on and a random game has no reason to.
        if game.acts_before_throw:
            instead = [move for move in game.legal_moves() if move.moves_a_piece]
            if instead and rng.random() < instead_rate:
                move = rng.choice(instead)
                game.push_fast(move)
                return move
        throw = game.random_throw(rng)
        game.throw_fast(throw)  # drawn from the rule set's own table: nothing to check
        return throw
    move = rng.choice(game.legal_moves())
    game.push_fast(move)
    return move


def random_game(rules: RuleSet, rng: random.Random, *, max_actions: int = 100_000) -> RaceGame[Any]:
    """A game played at random to its end, or until ``max_actions`` throws and moves."""
    game = rules.game()
    for _ in range(max_actions):
        if game.is_over():
            break
        random_action(game, rng)
    return game


def sampled_games(
    rules: RuleSet,
    count: int,
    rng: random.Random,
    *,
    wanted: Callable[[RaceGame[Any]], bool],
    rate: float,
    instead_rate: float = INSTEAD_OF_THROWING_RATE,
) -> list[RaceGame[Any]]:
    """``count`` games set up at positions of random play that are ``wanted``, each kept
    at ``rate`` (so that they come from many games, not the first few)."""
    found: list[RaceGame[Any]] = []
    game = rules.game()
    while len(found) < count:
        if game.is_over():
            game = rules.game()
        if wanted(game) and rng.random() < rate:
            found.append(rules.game(game.position))
        random_action(game, rng, instead_rate=instead_rate)
    return found
