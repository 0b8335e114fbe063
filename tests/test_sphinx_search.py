"""The Sphinx's search budget and the evaluations fixed for Migo's exits and Mehen's predators."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from companion import games
from companion.core import Move, RaceGame
from companion.games.senet import SenetRules
from companion.sphinx import SETTINGS, Level, Sphinx, _exit_values


def _midgame(name: str, seed: int) -> RaceGame[Any]:
    rules = games.get(name)
    game = rules.game()
    rng = random.Random(seed)
    for _ in range(40):
        game.throw(game.random_throw(rng))
        game.push_fast(rng.choice(game.legal_moves()))
    game.throw(game.random_throw(rng))
    return game


def test_without_the_clock_the_same_position_gets_the_same_hints() -> None:
    game = _midgame("senet-kendall", seed=5)
    first = Sphinx(game.rules, level=Level.STRONG, clock=False).hints(game)
    again = Sphinx(game.rules, level=Level.STRONG, clock=False).hints(game)
    assert first == again
    assert len(first) == len(game.legal_moves())


def test_a_search_past_its_budget_keeps_the_last_completed_depth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _midgame("senet-kendall", seed=7)
    while len(game.legal_moves()) < 2:
        game = _midgame("senet-kendall", seed=random.Random(len(game.fen())).randrange(99))
    one_move_ahead = Sphinx(game.rules, level=Level.EASY).hints(game)
    monkeypatch.setitem(SETTINGS, Level.STRONG, replace(SETTINGS[Level.STRONG], nodes=3))
    starved = Sphinx(game.rules, level=Level.STRONG, clock=False).hints(game)
    assert starved == one_move_ahead
    monkeypatch.setitem(SETTINGS, Level.STRONG, replace(SETTINGS[Level.STRONG], nodes=0))
    unlimited = Sphinx(game.rules, level=Level.STRONG, clock=False).hints(game)
    assert [h.value for h in unlimited] != [h.value for h in one_move_ahead]


def test_migo_values_a_piece_by_the_throws_it_still_needs() -> None:
    rules = games.get("senet-migo")
    assert isinstance(rules, SenetRules)
    values = _exit_values(rules)
    off = values[0]
    assert values[1] < values[10] < values[20] < values[26]  # the track counts forward
    assert off > max(values[1:])  # borne off is worth most
    assert values[26] > values[25] + 5  # on 26 a piece waits for one exact throw only
    assert values[29] > values[28] and values[29] > values[30]  # a 2 is the likeliest throw
    assert values[27] == 0  # no piece rests in the water


def test_a_mehen_predator_with_nothing_to_eat_heads_for_the_tail() -> None:
    # Every simple piece is on the centre or eaten; blue leads 7 to 5 and its predator,
    # on 12, can leave only with an exact throw past the tail.
    rules = games.get("mehen")
    position = "88 -/10B75/rrrrbbbbb r:0:out:b,b:0:on:rr b {} play"
    sphinx = Sphinx(rules, level=Level.NORMAL, clock=False)
    assert sphinx.choose(rules.game(position.format(6))) == Move.parse("p12-off")  # it wins
    assert sphinx.choose(rules.game(position.format(1))) == Move.parse("p12-10")
