"""How each family's board looks on the screen, and which moves "why?" asks about.

A family plugs in with a :class:`FamilyScreens` registered for its game class. A family
with none yet still works on the device: its board is shown as the engine's text
(``board_lines``) and "why?" offers the legal moves only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from companion.core import OFF, Move, RaceGame
from companion.device.view import Cell, Grid, Highlight, Mark, Piece
from companion.games.senet import SenetRules

AnyGame = RaceGame[Any]


class FamilyScreens(Protocol):
    """What the screens need from a family beyond the engine's API."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        """The board, with the squares of ``move`` (or the ``cursor`` square) highlighted."""

    def pieces(self, game: AnyGame) -> list[int]:
        """Squares holding a piece, the mover's first: what "why?" can point at."""

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        """The moves a piece on ``square`` could make with the pending throw, legal or not."""

    def counts(self, game: AnyGame, lang: str) -> str:
        """What the game keeps count of, in a few characters ("off 2-1")."""


_REGISTRY: dict[str, Callable[[], FamilyScreens]] = {}


def register(family_name: str, factory: Callable[[], FamilyScreens]) -> None:
    """Register the screens of a family, by its game class name (``Senet``)."""
    _REGISTRY[family_name] = factory


def screens_for(game: AnyGame) -> FamilyScreens | None:
    factory = _REGISTRY.get(type(game).__name__)
    return factory() if factory is not None else None


# ----- Senet ------------------------------------------------------------------------------
SENET_ROWS = (range(1, 11), range(20, 10, -1), range(21, 31))  # as on the real board


class SenetScreens:
    """The 3x10 board in its boustrophedon order: row 2 runs right to left."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position = game.position
        rules = game.rules
        highlights: dict[int, Highlight] = {}
        note = ""
        if move is not None:
            for step in move.steps:
                if step.moves_a_piece:
                    highlights[step.start] = Highlight.FROM
                    if step.end == OFF:
                        note = "off"
                    else:
                        highlights[step.end] = Highlight.TO
        if cursor is not None:
            highlights[cursor] = Highlight.CURSOR
        rows = tuple(
            tuple(self._cell(position.board, rules, square, highlights) for square in row)
            for row in SENET_ROWS
        )
        return Grid(rows, note)

    @staticmethod
    def _cell(board: str, rules: Any, square: int, highlights: dict[int, Highlight]) -> Cell:
        piece = {"W": Piece.LIGHT, "B": Piece.DARK}.get(board[square - 1], Piece.NONE)
        mark = Mark.PLAIN
        if square == rules.water:
            mark = Mark.WATER
        elif square in rules.refuges:
            mark = Mark.SAFE
        return Cell(piece, mark, highlights.get(square, Highlight.NONE))

    def pieces(self, game: AnyGame) -> list[int]:
        mine, theirs = (
            game.position.squares[game.position.turn],
            game.position.squares[1 - game.position.turn],
        )
        return [*mine, *theirs]

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        throw = game.position.throw
        rules = game.rules
        if throw is None or not isinstance(rules, SenetRules):
            return []
        moves = [Move(square, rules.forward_end(square, throw))]
        if square > throw:
            moves.append(Move(square, square - throw))
        return moves

    def counts(self, game: AnyGame, lang: str) -> str:
        white, black = game.position.off
        return f"{'sortis' if lang == 'fr' else 'off'} {white}-{black}"


register("Senet", SenetScreens)
