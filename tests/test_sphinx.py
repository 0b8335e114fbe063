"""The Sphinx: legal choices, hints, winning moves, and strength against a random player."""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.core import Move
from companion.errors import TurnError
from companion.sphinx import Level, Sphinx


def test_hints_rank_every_legal_move_best_first() -> None:
    rules = games.get("senet-kendall")
    game = rules.game()
    rng = random.Random(4)
    for _ in range(30):  # into the game, past the opening
        game.throw(game.random_throw(rng))
        game.push_fast(rng.choice(game.legal_moves()))
    game.throw(game.random_throw(rng))
    hints = Sphinx(rules, level=Level.NORMAL).hints(game)
    assert sorted(str(h.move) for h in hints) == sorted(str(m) for m in game.legal_moves())
    values = [hint.value for hint in hints]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("level", [Level.NORMAL, Level.STRONG])
def test_looking_ahead_finds_the_faster_way_home(level: Level) -> None:
    # White: pieces on 24 and 30, three borne off; a 4 (extra throw). Bearing off from 30
    # looks best one move ahead, but leaves 24, which no throw can bear off (K6: past 30).
    # 24-28 instead leaves 28 and 30, and every throw then bears a piece off.
    rules = games.get("senet-kendall")
    game = rules.game("BB......../........../...W.....W w 4 play 3/3")
    assert set(game.legal_moves()) == {Move.parse("24-28"), Move.parse("30-off")}
    assert Sphinx(rules, level=Level.EASY).hints(game)[0].move == Move.parse("30-off")
    assert Sphinx(rules, level=level, seed=1).choose(game) == Move.parse("24-28")


def test_the_same_seed_makes_the_same_choices() -> None:
    rules = games.get("senet-migo")
    choices = []
    for _ in range(2):
        game = rules.game()
        rng = random.Random(8)
        sphinx = Sphinx(rules, level=Level.EASY, seed=3)
        picked = []
        for _ in range(60):
            game.throw(game.random_throw(rng))
            move = sphinx.choose(game)
            picked.append(move)
            game.push_fast(move)
        choices.append(picked)
    assert choices[0] == choices[1]


def test_asking_before_the_throw_is_an_error() -> None:
    rules = games.get("senet-migo")
    with pytest.raises(TurnError, match="throw first"):
        Sphinx(rules).choose(rules.game())


def test_normal_beats_a_random_player() -> None:
    rules = games.get("senet-kendall")
    wins = 0
    games_played = 16
    for seed in range(games_played):
        rng = random.Random(seed)
        sphinx = Sphinx(rules, level=Level.NORMAL, seed=seed)
        sphinx_side = seed % 2
        game = rules.game()
        while not game.is_over():
            game.throw(game.random_throw(rng))
            mine = game.position.turn == sphinx_side
            move = sphinx.choose(game) if mine else rng.choice(game.legal_moves())
            game.push_fast(move)
        wins += game.winner() == sphinx_side
    assert wins >= 12, f"the Sphinx won {wins} of {games_played}"


@pytest.mark.parametrize("name", games.names())
def test_the_sphinx_plays_every_rule_set_legally(name: str) -> None:
    rules = games.get(name)
    rng = random.Random(11)
    game = rules.game()
    sphinx = Sphinx(rules, level=Level.NORMAL, seed=2)
    for _ in range(40):
        if game.is_over():
            break
        if game.position.throw is None:
            move, option = sphinx.before_throw(game)
            assert option in game.throw_options(game.position)
            if move is not None:
                assert move in game.legal_moves()
                game.push(move)
                continue
            game.throw(game.random_throw(rng))
            continue
        move = sphinx.choose(game)
        assert move in game.legal_moves(), (move, game.fen())
        game.push(move)


def test_before_a_throw_the_sphinx_pays_to_enter_only_when_it_beats_throwing() -> None:
    rules = games.get("ur-tablet")
    game = rules.game()  # the start: paying 2 tokens enters piece 1 at once
    sphinx = Sphinx(rules, level=Level.NORMAL, seed=1)
    instead, option = sphinx.before_throw(game)
    assert option in game.throw_options(game.position)
    if instead is None:
        with pytest.raises(TurnError, match="throw first"):
            sphinx.choose(game)
    else:
        assert sphinx.choose(game) == instead
        assert instead in game.legal_moves()


def test_the_sphinx_never_proposes_to_end_a_mehen_game() -> None:
    rules = games.get("mehen")
    game = rules.game()
    assert Move.parse("end") in game.legal_moves()  # the players may agree to end
    sphinx = Sphinx(rules, level=Level.NORMAL, seed=1)
    assert sphinx.hints(game) == []
    with pytest.raises(TurnError, match="throw first"):
        sphinx.choose(game)
