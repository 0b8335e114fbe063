"""ur-finkel and ur-masters against royalur 0.0.6, the implementation DECISIONS.md names.

Both engines play the same seeded random games (same throws, same moves); the legal moves
and the whole position must agree after every action. The suite plays GAMES_IN_SUITE games
per rule set; ``benchmarks/royalur_compare.py --games 1000`` plays the full comparison.
What the comparison found is written up in docs/royalur.md.
"""

from __future__ import annotations

import ast
import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
from cases_reader import Kind, read_cases
from royalur import Game, PlayerType
from royalur.model import PathType
from royalur_bridge import (
    cell_of,
    compare_game,
    compare_games,
    royalur_game,
    royalur_moves,
    tile_of,
)

from companion import games
from companion.core import PASS
from companion.games.royal import BLACK, WHITE, RoyalUrRules

NAMES = ("ur-finkel", "ur-masters")
GAMES_IN_SUITE = 150
ENGINE = Path(__file__).resolve().parent.parent / "companion"


def rules_of(name: str) -> RoyalUrRules:
    rules = games.get(name)
    assert isinstance(rules, RoyalUrRules)
    return rules


# ----- the two representations -------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_tracks_and_cells_are_royalurs_paths(name: str) -> None:
    rules = rules_of(name)
    theirs = royalur_game(name).rules.settings.paths
    for side, player_path in ((WHITE, theirs.light), (BLACK, theirs.dark)):
        assert [cell_of(tile) for tile in player_path] == list(rules.paths[side])
        for square, tile in enumerate(player_path, start=1):
            assert tile_of(rules.cell(side, square)) == tile
            assert rules.square(side, cell_of(tile)) == square


@pytest.mark.parametrize("name", NAMES)
def test_settings_are_royalurs(name: str) -> None:
    rules = rules_of(name)
    settings = royalur_game(name).rules.settings
    assert {cell_of(tile) for tile in settings.board_shape.rosettes} == rules.rosettes
    assert settings.safe_rosettes == rules.safe_rosettes
    assert settings.rosettes_grant_extra_rolls == rules.rosette_extra_throw
    assert not settings.captures_grant_extra_rolls
    assert settings.starting_piece_count == rules.pieces
    assert royalur_game(name).get_turn() == (PlayerType.LIGHT, PlayerType.DARK)[rules.first]


@pytest.mark.parametrize("name", NAMES)
def test_throw_probabilities_are_royalurs(name: str) -> None:
    dice = royalur_game(name).dice
    ours = rules_of(name).throws.score_probabilities()
    assert dice.get_max_roll_value() == max(ours)
    theirs = dice.get_roll_probabilities()
    assert {score: Fraction(p) for score, p in enumerate(theirs)} == dict(ours)


def test_the_masters_settings_use_the_masters_path() -> None:
    """royalur's create_masters docstring says "Bell's path"; its settings use Masters'."""
    assert "Bell's path" in (Game.create_masters.__doc__ or "")
    paths = royalur_game("ur-masters").rules.settings.paths
    assert paths.is_equivalent(PathType.MASTERS.create_path_pair())


# ----- games side by side -------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_royalur_after_every_action(name: str) -> None:
    summary = compare_games(rules_of(name), range(GAMES_IN_SUITE))
    assert summary.differences == []
    assert summary.games == GAMES_IN_SUITE
    # The games went through what the rules are about, for both sides.
    assert summary.passes > 0 and summary.captures > 0
    assert min(summary.wins) > 0


@pytest.mark.parametrize("name", NAMES)
def test_the_comparison_finds_a_changed_rule(name: str) -> None:
    """A house rule that royalur does not play shows up as a difference: the comparison
    can fail."""
    rules = rules_of(name)
    changed = dataclasses.replace(rules, safe_rosettes=not rules.safe_rosettes)
    summary = compare_games(changed, range(20))
    assert summary.differences, "rosettes safe or not made no difference in 20 games"
    assert "moves:" in summary.differences[0]


def test_one_game_counts_its_actions() -> None:
    from royalur_bridge import Summary

    summary = Summary()
    compare_game(rules_of("ur-finkel"), 7, summary)
    assert summary.games == 1 and summary.actions > 100 and sum(summary.wins) == 1


@pytest.mark.parametrize("name", NAMES)
def test_case_file_positions_have_royalurs_legal_moves(name: str) -> None:
    """Every position of tests/cases/NAME.txt with a throw pending, as royalur sees it."""
    rules = rules_of(name)
    checked = 0
    for case in read_cases(name):
        if case.kind is Kind.INVALID or case.position == "new":
            continue
        game = rules.game(case.position)
        throw = game.position.throw
        if throw is None or game.is_over():
            continue
        ours = sorted(str(move) for move in game.legal_moves() if move != PASS)
        assert royalur_moves(rules, game.position, throw) == ours, case.name
        checked += 1
    assert checked >= 20


# ----- royalur stays out of the engine ------------------------------------------------------
@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: p.name)
def test_the_engine_never_imports_royalur(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(not a.name.startswith("royalur") for a in node.names), path
        elif isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("royalur"), path


def test_royalur_rules_have_no_paths_so_the_bridge_plays_move_objects() -> None:
    """royalur 0.0.6's RuleSet.paths lacks its return (docs/royalur.md): Game.make_move(tile)
    cannot find an entering move; the bridge hands royalur its own Move objects instead."""
    game = royalur_game("ur-finkel")
    assert game.rules.paths is None
    game.roll_dice(2)
    (entering,) = game.find_available_moves()
    with pytest.raises(RuntimeError):
        game.make_move(entering.dest)
    game.make_move(entering)
    assert game.get_turn() == PlayerType.DARK
