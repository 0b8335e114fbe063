"""The random player shared by benchmarks and soak runs."""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.core import Move
from companion.randomplay import random_game
from companion.throws import Throw


@pytest.mark.parametrize("name", ["senet-migo", "senet-kendall"])
def test_random_games_end_with_a_winner_after_throws_and_moves(name: str) -> None:
    game = random_game(games.get(name), random.Random(7))
    assert game.is_over()
    assert game.winner() in (0, 1)
    history = game.history
    assert isinstance(history[0], Throw)
    assert all(isinstance(action, Throw | Move) for action in history)
    throws = sum(isinstance(action, Throw) for action in history)
    assert throws == len(history) - throws  # every throw was followed by its move


def test_random_games_stop_at_the_cap() -> None:
    game = random_game(games.get("senet-migo"), random.Random(7), max_actions=10)
    assert len(game.history) == 10
    assert not game.is_over()


def test_the_same_seed_plays_the_same_game() -> None:
    first = random_game(games.get("senet-kendall"), random.Random(3))
    second = random_game(games.get("senet-kendall"), random.Random(3))
    assert first.history == second.history


def test_random_players_never_agree_to_end_a_mehen_game() -> None:
    rng = random.Random(5)
    game = random_game(games.get("mehen").with_options({"length": "20"}), rng, max_actions=3000)
    assert Move.parse("end") not in game.history
    assert len(game.history) > 100
