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


@pytest.mark.parametrize("name", ["senet-migo", "senet-kendall"])
def test_sticks_draw_exactly_as_random_choices_would(name: str) -> None:
    """StickTable.draw spares rng.choices its checks: same throws, same use of the rng."""
    table = games.get(name).throws
    ours, theirs = random.Random(11), random.Random(11)
    drawn = [table.draw(ours) for _ in range(500)]
    weights = [float(outcome.probability) for outcome in table.outcomes()]
    expected = [
        random_outcome.throw
        for random_outcome in (
            theirs.choices(table.outcomes(), weights=weights)[0] for _ in range(500)
        )
    ]
    assert drawn == expected
    assert ours.random() == theirs.random()


@pytest.mark.parametrize("name", ["senet-kendall", "mehen", "ur-finkel"])
def test_a_fast_throw_records_what_a_checked_throw_does(name: str) -> None:
    rules = games.get(name)
    checked, fast = rules.game(), rules.game()
    throw = checked.random_throw(random.Random(4))
    checked.throw(throw)
    fast.throw_fast(throw)
    assert fast.position == checked.position
    assert fast.history == checked.history == [throw]
    assert fast.pop() == throw
    assert fast.position == rules.game().position


@pytest.mark.parametrize("name", games.names())
def test_families_say_whether_they_can_move_instead_of_throwing(name: str) -> None:
    """Random games skip asking for moves instead of a throw where the flag says none."""
    game = games.get(name).game()
    offers = game.before_throw(game.position) is not None
    assert game.acts_before_throw == offers
    assert game.acts_before_throw == (name in {"mehen", "ur-tablet"})
