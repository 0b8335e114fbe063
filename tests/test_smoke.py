"""The smallest whole game: both rule sets play a seeded random game to the end."""

import random

import pytest

from companion import games


@pytest.mark.parametrize("name", games.names())
def test_random_game_reaches_a_winner(name: str) -> None:
    game = games.get(name).game()
    rng = random.Random(7)
    while not game.is_over():
        game.throw(game.random_throw(rng))
        game.push(rng.choice(game.legal_moves()))
    assert game.winner() in (0, 1)
