"""The strong level's cuts: a move is skipped only once its value is proven below the
best found, so the pruned search chooses what the full search chooses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import games
from companion.core import RaceGame
from companion.games.modern import Modern
from companion.randomplay import sampled_games
from companion.sphinx import SETTINGS, Level, LevelSettings, Sphinx


def _choices(name: str, count: int, seed: int) -> list[RaceGame[Any]]:
    """Positions of random play where the player to move chooses among several moves."""

    def several(game: RaceGame[Any]) -> bool:
        return game.position.throw is not None and len(game.legal_moves()) > 2

    return sampled_games(games.get(name), count, random.Random(seed), wanted=several, rate=0.1)


def _searcher(name: str, depth: int, *, prune: bool) -> Sphinx:
    sphinx = Sphinx(games.get(name), seed=1, clock=False)
    families: tuple[type[RaceGame[Any]], ...] = (RaceGame,) if prune else ()
    sphinx.settings = LevelSettings(
        depth, nodes=10**9, seconds=0.0, blunder_rate=0.0, prune=families
    )
    return sphinx


def _nodes_used(sphinx: Sphinx) -> int:
    return 10**9 - sphinx._nodes_left


@pytest.mark.parametrize(
    ("name", "depth", "count"),
    [
        ("senet-modern", 2, 12),
        ("senet-kendall", 2, 12),
        ("senet-migo", 2, 12),
        ("ur-finkel", 3, 6),
        ("ur-masters", 2, 12),
    ],
)
def test_the_pruned_search_chooses_the_full_searchs_move(name: str, depth: int, count: int) -> None:
    full = _searcher(name, depth, prune=False)
    pruned = _searcher(name, depth, prune=True)
    full_nodes = pruned_nodes = 0
    for game in _choices(name, count, seed=3):
        expected = full.hints(game)[0]
        full_nodes += _nodes_used(full)
        chosen = pruned.choose(game)
        pruned_nodes += _nodes_used(pruned)
        assert chosen == expected.move, game.fen()
    assert pruned_nodes < full_nodes  # the cuts happened


def test_the_pruned_search_values_its_best_move_exactly() -> None:
    full = _searcher("senet-modern", 2, prune=False)
    pruned = _searcher("senet-modern", 2, prune=True)
    for game in _choices("senet-modern", 5, seed=8):
        best = pruned._deepened(game, prune=True)[0]
        exact = full.hints(game)[0]
        assert best == exact
        assert best.value == pytest.approx(exact.value, abs=1e-9)


def test_the_strong_level_cuts_only_where_its_strength_was_measured() -> None:
    assert SETTINGS[Level.STRONG].prune == (Modern,)
    assert not SETTINGS[Level.NORMAL].prune and not SETTINGS[Level.EASY].prune


def test_hints_stay_exact_where_the_cuts_would_change_them() -> None:
    """Hints show the values of the runners-up too: they never come from the cut search."""
    changed = 0
    for game in _choices("senet-modern", 6, seed=4):
        full = _searcher("senet-modern", 2, prune=False).hints(game)
        pruned = _searcher("senet-modern", 2, prune=True)
        if pruned._deepened(game, prune=True) != full:  # runners-up only bounded here
            changed += 1
            assert pruned.hints(game) == full
    assert changed >= 1
