"""What a screen shows, as plain values: the input of the pure renderer.

The screens' state machine builds one of these views from the game and its own state;
:func:`companion.device.render.render` draws it. A view knows nothing of rule sets:
each family says how its board looks as a :class:`Grid` (see
:mod:`companion.device.boards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Piece(Enum):
    NONE = ""
    LIGHT = "light"  # white pieces, Ur's first player
    DARK = "dark"  # black pieces, Ur's second player
    OTHER = "other"  # a third colour and more (Mehen), drawn with the player's letter
    PREDATOR = "predator"  # Mehen's lion: the player's letter, inverted


class Mark(Enum):
    """What an empty square shows."""

    PLAIN = ""
    SAFE = "safe"  # a refuge, a rosette
    WATER = "water"
    GAP = "gap"  # no square here (Ur's board has holes)
    NOTHING = "nothing"  # outside the board: nothing drawn (the tablet board's tail)
    SUN = "sun"  # Senet-Modern's special squares
    MOON = "moon"
    BIRD = "bird"
    END = "end"  # Mehen's tail and centre, where many pieces stand


class Highlight(Enum):
    NONE = ""
    FROM = "from"  # the piece that moves
    TO = "to"  # where it lands
    CURSOR = "cursor"  # the square "why?" asks about


@dataclass(frozen=True)
class Cell:
    piece: Piece = Piece.NONE
    mark: Mark = Mark.PLAIN
    highlight: Highlight = Highlight.NONE
    label: str = ""  # a piece's number (Ur, Senet-Modern), a player's letter (Mehen)


@dataclass(frozen=True)
class Grid:
    """A small picture of the real board: rows of cells as the players see them."""

    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""  # a word drawn right of the grid, e.g. "off" when a piece leaves


@dataclass(frozen=True)
class BoardScreen:
    """The board with a header line and a few lines of text under it."""

    header: str
    grid: Grid | None
    corner: str = ""  # right end of the header: the throw, "2/5"
    lines: tuple[str, ...] = ()
    text_board: tuple[str, ...] = ()  # a family with no grid yet: its board in text
    inverted_line: int | None = None  # index in ``lines`` shown inverted (a choice)


@dataclass(frozen=True)
class ScoreScreen:
    """A throw just read: the score in large type and what follows from it."""

    header: str
    score: str
    consequence: str
    footer: str = ""
    corner: str = ""


@dataclass(frozen=True)
class MenuScreen:
    title: str
    items: tuple[str, ...]
    selected: int
    footer: str = ""


@dataclass(frozen=True)
class MessageScreen:
    title: str
    lines: tuple[str, ...]
    footer: str = ""


@dataclass(frozen=True)
class BlankScreen:
    """The screen saver: a dot that wanders so no pixel stays lit."""

    dot: tuple[int, int] = (0, 0)
    lit: bool = field(default=True)


View = BoardScreen | ScoreScreen | MenuScreen | MessageScreen | BlankScreen


def describe(view: View) -> list[str]:
    """The text of a view, for transcripts and logs (the board as notation is elsewhere)."""
    if isinstance(view, BoardScreen):
        head = f"[{view.header}]" + (f" {view.corner}" if view.corner else "")
        marked = [
            f"> {line}" if index == view.inverted_line else line
            for index, line in enumerate(view.lines)
        ]
        return [head, *view.text_board, *marked]
    if isinstance(view, ScoreScreen):
        return [f"[{view.header}]", f"{view.score}  {view.consequence}", view.footer]
    if isinstance(view, MenuScreen):
        items = [
            f"{'>' if i == view.selected else ' '} {item}" for i, item in enumerate(view.items)
        ]
        return [f"[{view.title}]", *items]
    if isinstance(view, MessageScreen):
        return [f"[{view.title}]", *view.lines, *([view.footer] if view.footer else [])]
    return ["(screen saver)"]
