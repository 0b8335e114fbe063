"""Board pictures of every family: where pieces are drawn, what a move highlights, what
"why?" answers for each piece, and what the header counts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from device_helpers import make_app

from companion import games
from companion.core import RaceGame
from companion.device.boards import FamilyScreens, legal_from, screens_for
from companion.device.render import render
from companion.device.screens import Choosing, Why
from companion.device.view import BoardScreen, Cell, Grid, Highlight, Mark, Piece
from companion.randomplay import random_action

AnyGame = RaceGame[Any]
SIX_PLAYERS = (
    "30 rbbgggkk/bkyry1bb3w1g1w2b5Kww1/rrrRgywWkkk "
    "r:0:on:-,b:0:wait:-,g:0:wait:-,y:0:wait:-,w:0:on:-,k:0:on:rgyyyw r - play"
)


def _family(game: AnyGame) -> FamilyScreens:
    family = screens_for(game)
    assert family is not None, f"{type(game).__name__} has no board picture"
    return family


def _cells(grid: Grid) -> list[Cell]:
    return [cell for row in grid.rows for cell in row]


def _positions(name: str, seed: int, count: int) -> list[AnyGame]:
    """Games of ``name`` at ``count`` moments with a throw pending, from random play."""
    rules = games.get(name)
    game = rules.game()
    rng = random.Random(seed)
    found: list[AnyGame] = []
    for _ in range(4000):
        if game.is_over() or len(found) == count:
            break
        if game.position.throw is not None:
            found.append(rules.game(game.fen()))
        random_action(game, rng)
    return found


@pytest.mark.parametrize("name", games.names())
def test_every_family_draws_its_board_and_answers_why(name: str, tmp_path: Path) -> None:
    app = make_app(tmp_path, game=name)
    checked = 0
    for game in _positions(name, seed=3, count=25):
        family = _family(game)
        app.game, app.start = game, game.fen()
        moves = game.legal_moves()
        for index, move in enumerate(moves[:4]):
            grid = family.grid(game, move=move)
            highlights = {cell.highlight for cell in _cells(grid)}
            if move.moves_a_piece and move.start > 0:
                assert Highlight.FROM in highlights, f"{name} {game.fen()} {move}"
            app.screen = Choosing(index)
            view = app.view()
            assert isinstance(view, BoardScreen) and view.grid is not None
            render(view)
        for index, square in enumerate(family.pieces(game)):
            candidates = family.moves_from(game, square)
            explained = [game.explain(move) for move in candidates]
            may_move = bool(legal_from(game, square))
            assert any(e.legal for e in explained) == may_move, f"{name} {game.fen()} {square}"
            app.screen = Why(index)
            render(app.view())
            checked += 1
    assert checked > 10


def test_senet_modern_pieces_carry_their_numbers_and_the_special_squares() -> None:
    game = games.get("senet-modern").game(
        "B1........./...W4...B5../W3.B4....... w 1,6 off:W1 out:W2W5B2B3 play"
    )
    family = _family(game)
    grid = family.grid(game)
    top, middle, bottom = grid.rows
    assert top[0] == Cell(Piece.DARK, Mark.SUN, label="1")  # B1 on the sun
    assert middle[6] == Cell(Piece.LIGHT, label="4")  # square 14: the row runs 20 -> 11
    assert (bottom[5].mark, bottom[6].mark) == (Mark.MOON, Mark.BIRD)  # 26, 27
    assert family.counts(game, "en") == "pts 1-0"  # white bore off piece 1
    pair = game.legal_moves()[1]
    assert str(pair) == "14-15,21-27"
    lit = family.grid(game, move=pair)
    assert lit.rows[1][6].highlight is Highlight.FROM and lit.rows[1][5].highlight is Highlight.TO
    assert lit.rows[2][0].highlight is Highlight.FROM and lit.rows[2][6].highlight is Highlight.TO


@pytest.mark.parametrize(
    ("position", "white_one", "outside"),
    [
        ("ur 1@7,2@12,3@11,4@-,5@- 1@4,2@x,3@-,4@-,5@- 1/4/45 b 3 -", (1, 2), Mark.GAP),
        ("tablet 1@7,2@12,3@-,4@-,5@- 1@5,2@10,3@x,4@-,5@- 10/12/28 w 3 -", (1, 2), Mark.NOTHING),
    ],
)
def test_ur_boards_of_u1(position: str, white_one: tuple[int, int], outside: Mark) -> None:
    game = games.get("ur-tablet").game(position)
    family = _family(game)
    grid = family.grid(game)
    row, column = white_one  # white's track square 7 is C2 on both boards
    assert grid.rows[row][column] == Cell(Piece.LIGHT, label="1")
    assert grid.rows[0][4].mark is outside  # E1: no cell on either board
    assert grid.rows[0][0].mark is Mark.SAFE  # A1: white's square 4, a chance square
    assert "pot" in family.counts(game, "en")
    assert len(grid.rows[1]) == (8 if position.startswith("ur") else 12)


def test_royal_ur_board_and_a_capture() -> None:
    game = games.get("ur-finkel").game("WW..W.W......./...B.B....B.B. b 3 3/3 0/0")
    family = _family(game)
    capture = game.legal_moves()[1]
    grid = family.grid(game, move=capture)
    assert str(capture) == "4-7"
    assert grid.rows[2][0].highlight is Highlight.FROM  # black's square 4: A3
    assert grid.rows[1][2].highlight is Highlight.TO and grid.rows[1][2].piece is Piece.LIGHT
    assert sum(cell.mark is Mark.GAP for cell in _cells(grid)) == 4
    assert family.counts(game, "fr") == "sortis 0-0"


def test_mehen_shows_six_players_and_predators_around_the_move() -> None:
    game = games.get("mehen").game(
        "40 y/b1gyrbg5bgb1r7g1g7gyB1/rRbby r:0:on:-,b:0:on:rrryy,g:0:wait:-,y:0:wait:- r 1 play"
    )
    family = _family(game)
    predator_move = game.legal_moves()[2]
    assert str(predator_move) == "p40-38"
    grid = family.grid(game, move=predator_move)
    assert grid.note == "17-40"
    labels = {cell.label: cell.piece for cell in _cells(grid) if cell.label}
    assert labels["R"] is Piece.PREDATOR and labels["B"] is Piece.PREDATOR
    assert {"g", "y"} <= set(labels)
    six = games.get("mehen").game(SIX_PLAYERS)
    near_tail = _cells(_family(six).grid(six))  # from the tail: red's rearmost piece is there
    near_centre = _cells(_family(six).grid(six, cursor=26))
    letters = {c.label for c in near_tail + near_centre if c.piece is Piece.OTHER}
    assert set("rbgywk") <= letters
    assert [c.label for c in near_centre if c.piece is Piece.PREDATOR] == ["K", "R"]
    assert family.counts(game, "en") == "r3 b11 g6 y4"
