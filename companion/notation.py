"""Small helpers shared by the notation readers."""

from __future__ import annotations

MAX_DIGITS = 9  # no square, score or count in any rule set comes near; int() refuses huge ones


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number of at most MAX_DIGITS digits 0-9.

    ``str.isdigit`` alone also accepts characters such as '²' that ``int`` refuses.
    """
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def squares_holding(board: str, piece: str) -> tuple[int, ...]:
    """Squares (numbered from 1) of a board string, one character a square, that hold
    ``piece``, in order."""
    squares = []
    index = board.find(piece)
    while index >= 0:
        squares.append(index + 1)
        index = board.find(piece, index + 1)
    return tuple(squares)
