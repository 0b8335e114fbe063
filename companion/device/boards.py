"""How each family's board looks on the screen, and which moves "why?" asks about.

A family plugs in with a :class:`FamilyScreens` registered for its game class. A family
with none still works on the device: its board is shown as the engine's text
(``board_lines``) and "why?" offers the legal moves only. Every family of the engine has
one: Senet and Senet-Modern (the 3x10 board), Ur (the boards of U1, numbered pieces),
the Royal Game of Ur of today (the royal board) and Mehen (a stretch of the spiral).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from companion.core import IN, OFF, Move, RaceGame
from companion.device.view import Cell, Grid, Highlight, Mark, Piece
from companion.games import mehen_position as mehen
from companion.games import modern, royal, ur
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


def highlights_of(
    move: Move | None, cursor: int | None, *, on_board: Callable[[int], bool] = lambda s: True
) -> tuple[dict[int, Highlight], str]:
    """The squares to highlight for ``move`` (its steps' starts and ends) or ``cursor``,
    and the grid's note ("off" when a piece leaves the board)."""
    highlights: dict[int, Highlight] = {}
    note = ""
    for step in move.steps if move is not None else ():
        if not step.moves_a_piece:
            continue
        if step.start != IN and on_board(step.start):
            highlights[step.start] = Highlight.FROM
        if step.end == OFF:
            note = "off"
        elif on_board(step.end):
            highlights[step.end] = Highlight.TO
    if cursor is not None:
        highlights[cursor] = Highlight.CURSOR
    return highlights, note


def legal_from(game: AnyGame, square: int) -> list[Move]:
    """The legal moves in which the piece on ``square`` moves (first step or second)."""
    return [move for move in game.legal_moves() if any(step.start == square for step in move.steps)]


def _pair(lang: str, word: tuple[str, str], values: tuple[int, ...]) -> str:
    return f"{word[1] if lang == 'fr' else word[0]} {'-'.join(map(str, values))}"


# ----- Senet ------------------------------------------------------------------------------
SENET_ROWS = (range(1, 11), range(20, 10, -1), range(21, 31))  # as on the real board
OFF_WORD = ("off", "sortis")


class SenetScreens:
    """The 3x10 board in its boustrophedon order: row 2 runs right to left."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position = game.position
        rules = game.rules
        highlights, note = highlights_of(move, cursor)
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
        return _pair(lang, OFF_WORD, game.position.off)


register("Senet", SenetScreens)


# ----- Senet-Modern -----------------------------------------------------------------------
POINTS_WORD = ("pts", "pts")


class ModernScreens:
    """The 3x10 board of Senet; pieces carry their numbers (a piece borne off scores its
    number); the sun, the moon and the bird are drawn on their squares."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position, rules = game.position, game.rules
        assert isinstance(rules, modern.ModernRules)
        highlights, note = highlights_of(move, cursor)
        marks = {rules.sun: Mark.SUN, rules.moon: Mark.MOON, rules.bird: Mark.BIRD}
        rows = tuple(
            tuple(
                _numbered_cell(
                    position.board[square],
                    marks.get(square, Mark.PLAIN),
                    highlights.get(square, Highlight.NONE),
                )
                for square in row
            )
            for row in SENET_ROWS
        )
        return Grid(rows, note)

    def pieces(self, game: AnyGame) -> list[int]:
        turn = game.position.turn
        return [*game.position.squares(turn), *game.position.squares(1 - turn)]

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        """The legal moves of this piece, then its step by each die and by their sum."""
        dice = game.position.throw
        rules = game.rules
        if dice is None or not isinstance(rules, modern.ModernRules):
            return []
        counts = dict.fromkeys([*dice, sum(dice)] if len(dice) > 1 else list(dice))
        steps = [rules.step_moves[count][square] for count in counts]
        return [*legal_from(game, square), *steps]

    def counts(self, game: AnyGame, lang: str) -> str:
        position = game.position
        return _pair(lang, POINTS_WORD, (position.score(0), position.score(1)))


def _numbered_cell(code: int, mark: Mark, highlight: Highlight) -> Cell:
    """A square of Senet-Modern: its piece (colour and number) or its mark."""
    if not code:
        return Cell(mark=mark, highlight=highlight)
    piece = Piece.DARK if code & 1 else Piece.LIGHT
    return Cell(piece, mark, highlight, label=str(code >> 1))


register("Modern", ModernScreens)


# ----- Ur: the boards of U1 and the royal board of today ----------------------------------
ROWS = "123"  # row 1 is white's side, on top as the board lies between the players
TOKENS_WORD = ("tok", "jet")


def _board_rows(
    columns: str, cells: dict[str, Cell], highlighted: dict[str, Highlight], outside: Mark
) -> tuple[tuple[Cell, ...], ...]:
    """Rows 1-3 of a board of named cells (``D1``); cells not on the board are ``outside``."""
    return tuple(
        tuple(
            replace(
                cells.get(column + row, Cell(mark=outside)),
                highlight=highlighted.get(column + row, Highlight.NONE),
            )
            for column in columns
        )
        for row in ROWS
    )


def _cell_highlights(
    highlights: dict[int, Highlight], cell_of: Callable[[int], str]
) -> dict[str, Highlight]:
    return {cell_of(square): highlight for square, highlight in highlights.items()}


class UrScreens:
    """The late game of U1 on the board its position names (the Ur board or the tablet's),
    pieces numbered, the chance squares marked; tokens and the pot in the header."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position, rules = game.position, game.rules
        assert isinstance(rules, ur.UrRules)
        layout = ur.LAYOUTS[position.layout]
        side = position.turn
        cells = {name: Cell() for name in layout.cells}
        for square in rules.chance_squares:
            for owner in (ur.WHITE, ur.BLACK):
                cells[layout.cell(owner, square)] = Cell(mark=Mark.SAFE)
        for owner, pieces in enumerate(position.pieces):
            for number, square in enumerate(pieces, 1):
                if 1 <= square <= ur.TRACK:
                    piece = Piece.LIGHT if owner == ur.WHITE else Piece.DARK
                    cells[layout.cell(owner, square)] = Cell(piece, label=str(number))
        highlights, note = highlights_of(move, cursor, on_board=lambda s: 1 <= s <= ur.TRACK)
        shown = _cell_highlights(highlights, lambda square: layout.cell(side, square))
        outside = Mark.GAP if layout.name == "ur" else Mark.NOTHING
        return Grid(_board_rows(layout.columns, cells, shown, outside), note)

    def pieces(self, game: AnyGame) -> list[int]:
        """The mover's pieces on the track (squares of the mover's own track)."""
        position = game.position
        return sorted(s for s in position.pieces[position.turn] if 1 <= s <= ur.TRACK)

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        throw = game.position.throw
        if throw is None:
            return []
        end = square + throw
        return [*legal_from(game, square), Move(square, OFF if end == ur.BORNE_OFF else end)]

    def counts(self, game: AnyGame, lang: str) -> str:
        position = game.position
        return f"{_pair(lang, TOKENS_WORD, position.tokens)} pot {position.pot}"


register("Ur", UrScreens)


class RoyalUrScreens:
    """The royal board (3 rows, A-H, a gap in rows 1 and 3), rosettes marked."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position, rules = game.position, game.rules
        assert isinstance(rules, royal.RoyalUrRules)
        cells = {name: Cell() for name in (*rules.white_path, *rules.black_path)}
        for name in rules.rosettes:
            cells[name] = Cell(mark=Mark.SAFE)
        for owner, squares in enumerate(position.squares):
            piece = Piece.LIGHT if owner == royal.WHITE else Piece.DARK
            for square in squares:
                cells[rules.cell(owner, square)] = Cell(piece)
        on_track = lambda square: 1 <= square <= rules.length  # noqa: E731
        highlights, note = highlights_of(move, cursor, on_board=on_track)
        shown = _cell_highlights(highlights, lambda square: rules.cell(position.turn, square))
        return Grid(_board_rows(royal.COLUMNS, cells, shown, Mark.GAP), note)

    def pieces(self, game: AnyGame) -> list[int]:
        position = game.position
        return list(position.squares[position.turn])

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        throw = game.position.throw
        rules = game.rules
        if not throw or not isinstance(rules, royal.RoyalUrRules):
            return []
        end = square + throw
        return [*legal_from(game, square), Move(square, OFF if end == rules.length + 1 else end)]

    def counts(self, game: AnyGame, lang: str) -> str:
        return _pair(lang, OFF_WORD, game.position.off)


register("RoyalUr", RoyalUrScreens)


# ----- Mehen ------------------------------------------------------------------------------
MEHEN_COLUMNS = 8
MEHEN_ROWS = 3
MEHEN_WINDOW = MEHEN_COLUMNS * MEHEN_ROWS


class MehenScreens:
    """A stretch of the spiral (24 squares, snaking like the real track) around the move,
    the cursor or the mover's rearmost piece; each player's pieces by their letter,
    predators inverted; the tail and the centre, where many pieces stand, framed."""

    def grid(self, game: AnyGame, *, move: Move | None = None, cursor: int | None = None) -> Grid:
        position = game.position
        assert isinstance(position, mehen.MehenPosition)
        first = self.first_square(position, move, cursor)
        highlights, note = highlights_of(move, cursor)
        rows = []
        for row in range(MEHEN_ROWS):
            squares = [first + row * MEHEN_COLUMNS + column for column in range(MEHEN_COLUMNS)]
            if row % 2:
                squares.reverse()  # the track snakes, as it winds on the board
            rows.append(tuple(self._cell(position, square, highlights) for square in squares))
        last = min(first + MEHEN_WINDOW - 1, position.length)
        return Grid(tuple(rows), note or f"{first}-{last}")

    @staticmethod
    def first_square(position: mehen.MehenPosition, move: Move | None, cursor: int | None) -> int:
        """The first square of the stretch shown: a little before what matters."""
        if move is not None and move.moves_a_piece:
            ends = [s for s in (move.start, move.end) if s >= mehen.TAIL]
            anchor = min(ends) if ends else mehen.TAIL
        elif cursor is not None:
            anchor = cursor
        else:
            seat = position.turn
            mine = position.track_squares(seat)
            anchor = mehen.TAIL if position.tail[seat] or not mine else mine[0]
        highest = max(position.length - MEHEN_WINDOW + 1, mehen.TAIL)
        return min(max(anchor - 2, mehen.TAIL), highest)

    @staticmethod
    def _cell(position: mehen.MehenPosition, square: int, highlights: dict[int, Highlight]) -> Cell:
        highlight = highlights.get(square, Highlight.NONE)
        if square > position.length:
            return Cell(mark=Mark.NOTHING)
        for seat, predator in enumerate(position.predators):
            if predator == square:
                return Cell(Piece.PREDATOR, highlight=highlight, label=mehen.LETTERS[seat].upper())
        if square in (mehen.TAIL, position.length):
            counts = position.tail if square == mehen.TAIL else position.centre
            label = str(min(sum(counts), 9)) if sum(counts) else ""
            piece = Piece.OTHER if label else Piece.NONE
            return Cell(piece, Mark.END, highlight, label=label)
        letter = position.board[square - 1]
        if letter == mehen.EMPTY:
            return Cell(highlight=highlight)
        return Cell(Piece.OTHER, highlight=highlight, label=letter)

    def pieces(self, game: AnyGame) -> list[int]:
        """Squares with a piece or a predator, the mover's first, then seat by seat."""
        position = game.position
        seats = [(position.turn + k) % position.players for k in range(position.players)]
        squares: list[int] = []
        for seat in seats:
            predator = position.predators[seat]
            own = [*position.track_squares(seat), *([predator] if predator >= 1 else [])]
            squares.extend(s for s in own if s not in squares)
        return squares

    def moves_from(self, game: AnyGame, square: int) -> list[Move]:
        position = game.position
        throw = position.throw
        if throw is None:
            return []
        legal = legal_from(game, square)
        if position.predators[position.turn] == square:
            return legal or [Move(square, max(square - 2 * throw, mehen.TAIL), mehen.PREDATOR)]
        return [*legal, Move(square, square + throw)]

    def counts(self, game: AnyGame, lang: str) -> str:
        """Each player's running score (own pieces in play and pieces eaten), by letter."""
        position = game.position
        return " ".join(
            f"{mehen.LETTERS[seat]}{position.score(seat)}" for seat in range(position.players)
        )


register("Mehen", MehenScreens)
