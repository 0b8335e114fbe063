"""Rendering: a pure function from a screen's view to a 128x64 1-bit image.

Everything is drawn with single pixels, axis-aligned lines and the bitmap fonts of
:mod:`companion.device.font`, never with Pillow's text or curve drawing, whose
rasterisation changes between versions: the same view gives the same image on the Pi
and in CI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image, ImageDraw

from companion.device.font import BOLD, SMALL, BitmapFont
from companion.device.view import (
    BlankScreen,
    BoardScreen,
    Cell,
    Grid,
    Highlight,
    Mark,
    MenuScreen,
    MessageScreen,
    Piece,
    ScoreScreen,
    View,
)

WIDTH, HEIGHT = 128, 64
HEADER_HEIGHT = 8
LINE = SMALL.line_height
FOOTER_Y = HEIGHT - LINE
MENU_ROW = 8
MENU_ROWS_SHOWN = 5
CELL_WIDTH, CELL_HEIGHT = 12, 9
ELLIPSIS = "..."

# Sprites: rows of '#' (lit) and '.' (dark), drawn centred in a cell.
Sprite = tuple[str, ...]
_PIECE_SPRITE: Sprite = (".####.", "#....#", "#....#", "#....#", "#....#", ".####.")
_DARK_SPRITE: Sprite = (".####.", "######", "######", "######", "######", ".####.")
_SAFE_SPRITE: Sprite = (".#.", "###", ".#.")
_WATER_SPRITE: Sprite = (".#...#.", "#.#.#.#", "...#...")

_MARK_SPRITES: dict[Mark, Sprite] = {Mark.SAFE: _SAFE_SPRITE, Mark.WATER: _WATER_SPRITE}


def render(view: View) -> Image.Image:
    """The image of a view, 128x64, mode "1"."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    _DRAWERS[type(view)](image, view)
    return image


# ----- primitives -------------------------------------------------------------------------
def _points(image: Image.Image, points: Iterable[tuple[int, int]], fill: int = 1) -> None:
    inside = [(x, y) for x, y in points if 0 <= x < WIDTH and 0 <= y < HEIGHT]
    if inside:
        ImageDraw.Draw(image).point(inside, fill=fill)


def _fill(image: Image.Image, x0: int, y0: int, x1: int, y1: int, fill: int = 1) -> None:
    """Fill the rectangle from (x0, y0) to (x1, y1), both included."""
    _points(image, ((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)), fill)


def _frame(image: Image.Image, x0: int, y0: int, x1: int, y1: int, fill: int = 1) -> None:
    edges = [(x, y0) for x in range(x0, x1 + 1)] + [(x, y1) for x in range(x0, x1 + 1)]
    edges += [(x0, y) for y in range(y0, y1 + 1)] + [(x1, y) for y in range(y0, y1 + 1)]
    _points(image, edges, fill)


def _sprite(image: Image.Image, x: int, y: int, rows: tuple[str, ...], fill: int = 1) -> None:
    _points(
        image,
        ((x + dx, y + dy) for dy, row in enumerate(rows) for dx, ch in enumerate(row) if ch == "#"),
        fill,
    )


def wrap(text: str, width: int = WIDTH - 2, font: BitmapFont = SMALL) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` pixels, at spaces where possible."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if font.width(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while font.width(word) > width:  # a word longer than a line: cut it
            cut = _longest_prefix(word, width, font)
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines


def _longest_prefix(word: str, width: int, font: BitmapFont) -> int:
    cut = len(word)
    while cut > 1 and font.width(word[:cut]) > width:
        cut -= 1
    return cut


def _fit(text: str, width: int, font: BitmapFont = SMALL) -> str:
    """The text, shortened with an ellipsis if it is wider than ``width``."""
    if font.width(text) <= width:
        return text
    while text and font.width(text + ELLIPSIS) > width:
        text = text[:-1]
    return text + ELLIPSIS


def _header(image: Image.Image, left: str, right: str = "") -> None:
    _fill(image, 0, 0, WIDTH - 1, HEADER_HEIGHT - 1)
    right_width = SMALL.width(right) + 2 if right else 0
    SMALL.draw(image, (2, 1), _fit(left, WIDTH - 4 - right_width), fill=0)
    if right:
        SMALL.draw(image, (WIDTH - right_width, 1), right, fill=0)


def _lines(
    image: Image.Image, y: int, texts: Iterable[str], *, bottom: int, inverted: int | None = None
) -> None:
    """Draw wrapped texts from ``y`` down to ``bottom``, the last visible line cut short."""
    rows: list[tuple[str, bool]] = []
    for index, text in enumerate(texts):
        rows.extend((line, index == inverted) for line in wrap(text) or [""])
    room = max((bottom - y) // LINE, 0)
    if len(rows) > room and room:
        last, flag = rows[room - 1]
        rows = [*rows[: room - 1], (_fit(last + ELLIPSIS, WIDTH - 2), flag)]
    for line, flag in rows[:room]:
        if flag:
            _fill(image, 0, y - 1, WIDTH - 1, y + LINE - 2)
        SMALL.draw(image, (1, y), line, fill=0 if flag else 1)
        y += LINE


# ----- the board --------------------------------------------------------------------------
def draw_grid(image: Image.Image, grid: Grid, top: int) -> int:
    """Draw the board picture with its top at ``top``; returns the y under it."""
    columns = max(len(row) for row in grid.rows)
    width = min(CELL_WIDTH, (WIDTH - 1) // columns)
    note_width = SMALL.width(grid.note) + 2 if grid.note else 0
    left = max((WIDTH - note_width - (columns * width + 1)) // 2, 0)
    for row_index, row in enumerate(grid.rows):
        for column, cell in enumerate(row):
            x = left + column * width
            y = top + row_index * CELL_HEIGHT
            _cell(image, cell, x, y, width)
    bottom = top + len(grid.rows) * CELL_HEIGHT
    if grid.note:
        note_x = left + columns * width + 3
        SMALL.draw(image, (note_x, top + (bottom - top - SMALL.height) // 2), grid.note)
    return bottom + 1


def _cell(image: Image.Image, cell: Cell, x: int, y: int, width: int) -> None:
    x1, y1 = x + width, y + CELL_HEIGHT
    if cell.mark is Mark.GAP:
        _points(
            image,
            ((px, py) for px in range(x, x1 + 1) for py in range(y, y1 + 1) if (px + py) % 2 == 0),
        )
        return
    _frame(image, x, y, x1, y1)
    ink = 1
    if cell.highlight in (Highlight.FROM, Highlight.CURSOR):
        _fill(image, x + 1, y + 1, x1 - 1, y1 - 1)
        ink = 0
    elif cell.highlight is Highlight.TO:
        _frame(image, x + 2, y + 2, x1 - 2, y1 - 2)
    centre_x, centre_y = x + (width + 1) // 2, y + (CELL_HEIGHT + 1) // 2
    if cell.piece is Piece.NONE:
        mark_sprite = _MARK_SPRITES.get(cell.mark)
        if mark_sprite is not None:
            _centred_sprite(image, centre_x, centre_y, mark_sprite, ink)
    elif cell.piece is Piece.OTHER:
        label = cell.label[:1]
        SMALL.draw(image, (centre_x - SMALL.width(label) // 2, y + 2), label, fill=ink)
    else:
        sprite = _PIECE_SPRITE if cell.piece is Piece.LIGHT else _DARK_SPRITE
        _centred_sprite(image, centre_x, centre_y, sprite, ink)


def _centred_sprite(
    image: Image.Image, centre_x: int, centre_y: int, rows: tuple[str, ...], ink: int
) -> None:
    x = centre_x - len(rows[0]) // 2
    y = centre_y - len(rows) // 2
    _sprite(image, x, y, rows, ink)


# ----- screens ----------------------------------------------------------------------------
def _board_screen(image: Image.Image, view: BoardScreen) -> None:
    _header(image, view.header, view.corner)
    y = HEADER_HEIGHT + 1
    if view.grid is not None:
        y = draw_grid(image, view.grid, y) + 1
    elif view.text_board:
        for line in view.text_board:
            SMALL.draw(image, (1, y), _fit(line, WIDTH - 2))
            y += LINE
    _lines(image, y, view.lines, bottom=HEIGHT + 1, inverted=view.inverted_line)


def _score_screen(image: Image.Image, view: ScoreScreen) -> None:
    _header(image, view.header, view.corner)
    scale = 4
    while scale > 1 and BOLD.width(view.score, scale=scale) > WIDTH - 4:
        scale -= 1
    score_width = BOLD.width(view.score, scale=scale)
    BOLD.draw(image, ((WIDTH - score_width) // 2, HEADER_HEIGHT + 2), view.score, scale=scale)
    consequence = _fit(view.consequence, WIDTH - 2, BOLD)
    y = HEADER_HEIGHT + 2 + 8 * scale + 3
    BOLD.draw(image, ((WIDTH - BOLD.width(consequence)) // 2, y), consequence)
    if view.footer:
        SMALL.draw(image, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _menu_screen(image: Image.Image, view: MenuScreen) -> None:
    _header(image, view.title, f"{view.selected + 1}/{len(view.items)}" if view.items else "")
    first = min(
        max(view.selected - MENU_ROWS_SHOWN // 2, 0), max(len(view.items) - MENU_ROWS_SHOWN, 0)
    )
    y = HEADER_HEIGHT + 2
    for index in range(first, min(first + MENU_ROWS_SHOWN, len(view.items))):
        chosen = index == view.selected
        if chosen:
            _fill(image, 0, y - 1, WIDTH - 1, y + MENU_ROW - 2)
        text = _fit(view.items[index], WIDTH - 8)
        SMALL.draw(image, (3, y), text, fill=0 if chosen else 1)
        y += MENU_ROW
    if view.footer:
        SMALL.draw(image, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _message_screen(image: Image.Image, view: MessageScreen) -> None:
    _header(image, view.title)
    bottom = FOOTER_Y if view.footer else HEIGHT + 1
    _lines(image, HEADER_HEIGHT + 2, view.lines, bottom=bottom)
    if view.footer:
        SMALL.draw(image, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _blank_screen(image: Image.Image, view: BlankScreen) -> None:
    if view.lit:
        _points(image, [view.dot])


_DRAWERS: dict[type[Any], Callable[[Image.Image, Any], None]] = {
    BoardScreen: _board_screen,
    ScoreScreen: _score_screen,
    MenuScreen: _menu_screen,
    MessageScreen: _message_screen,
    BlankScreen: _blank_screen,
}
