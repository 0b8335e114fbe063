"""senet-kendall: turns played through throw() and push().
The rule cases are in test_rule_cases.py, the throw tables in test_senet_throws.py.
"""

from __future__ import annotations

from companion import games
from companion.core import PASS, Move

NAME = "senet-kendall"


# ----- turns, through throw() and push() -----------------------------------------------


def test_no_move_without_a_pending_throw() -> None:
    game = games.get(NAME).game()
    assert game.legal_moves() == []
    game.throw(1)
    assert game.legal_moves() == [Move.parse("10-11")]


def test_opening_black_keeps_the_hand_then_white_starts_from_9() -> None:
    """K3: the first 1 takes black and plays 10-11; black throws again; white starts on 9."""
    game = games.get(NAME).game()
    game.throw("PPPP")  # seat 1: a 6, which counts for nothing in the opening
    game.push(PASS)
    game.throw("PMPP")  # seat 2: a 1, takes black
    game.push("10-11")
    assert game.fen() == "WBWBWBWBW./B........./.......... b - first 0/0"
    game.throw("MMMM")  # black: a 4, throws again
    game.push("11-15")
    game.throw("MMMP")  # black: a 3, then white's first move
    game.push("15-18")
    assert game.fen() == "WBWBWBWBW./.......B../.......... w - first 0/0"
    game.throw(3)
    assert game.legal_moves() == [Move.parse("9-12")]
    game.push("9-12")
    assert game.fen() == "WBWBWBWB../.W.....B../.......... b - play 0/0"


# ----- positions -------------------------------------------------------------------------


def test_board_data_follows_the_board_and_is_no_part_of_the_value() -> None:
    """Each side's pieces and walls are derived once per board, shared by the positions
    that differ in turn or throw only, and never make two equal positions differ."""
    game = games.get(NAME).game("WBWWW.B.../B...BW..B./.......... b - play 0/0")
    position = game.position
    assert position.pieces(1) == (2, 7, 11, 15, 19)
    assert position.wall(3, 0) == frozenset({3, 4, 5})
    thrown = position.with_turn(0, 2)
    assert thrown.board_data is position.board_data
    assert thrown.squares == ((1, 3, 4, 5, 16), (2, 7, 11, 15, 19))
    fresh = game.parse_position(game.format_position(position))
    assert fresh == position and hash(fresh) == hash(position)
    assert fresh.board_data == {}
    after, _ = game.apply(game.with_throw(position, game.rules.parse_throw("2")), Move(7, 9))
    assert after.pieces(1) == (2, 9, 11, 15, 19)
    assert after.board_data is not position.board_data
