"""Rendering: a pure function from a screen's view to a 128x64 1-bit image.

Everything is drawn with single pixels, axis-aligned lines and the bitmap fonts of
:mod:`companion.device.font`, never with Pillow's text or curve drawing, whose
rasterisation changes between versions: the same view gives the same image on the Pi
and in CI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from PIL import Image

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

_SUN_SPRITE: Sprite = ("#.#.#", ".###.", "##.##", ".###.", "#.#.#")
_MOON_SPRITE: Sprite = (".###", "##..", "#...", "##..", ".###")
_BIRD_SPRITE: Sprite = ("#.....#", ".#...#.", "..#.#..", "...#...")
_END_SPRITE: Sprite = ("#####", "#...#", "#.#.#", "#...#", "#####")

_MARK_SPRITES: dict[Mark, Sprite] = {
    Mark.SAFE: _SAFE_SPRITE,
    Mark.WATER: _WATER_SPRITE,
    Mark.SUN: _SUN_SPRITE,
    Mark.MOON: _MOON_SPRITE,
    Mark.BIRD: _BIRD_SPRITE,
    Mark.END: _END_SPRITE,
}
TOKEN_HALF = 3  # a numbered piece: a 7x7 box around its number


def render(view: View) -> Image.Image:
    """The image of a view, 128x64, mode "1"."""
    canvas = Canvas()
    _DRAWERS[type(view)](canvas, view)
    return canvas.image()


# ----- primitives -------------------------------------------------------------------------
class Canvas:
    """One byte per pixel (0 or 255), turned into a 1-bit image at the end."""

    def __init__(self) -> None:
        self.pixels = bytearray(WIDTH * HEIGHT)

    def image(self) -> Image.Image:
        grey = Image.frombytes("L", (WIDTH, HEIGHT), bytes(self.pixels))
        return grey.convert("1", dither=Image.Dither.NONE)

    def put(self, points: Iterable[tuple[int, int]], fill: int = 1) -> None:
        value = 255 if fill else 0
        pixels = self.pixels
        for x, y in points:
            if 0 <= x < WIDTH and 0 <= y < HEIGHT:
                pixels[y * WIDTH + x] = value

    def fill(self, x0: int, y0: int, x1: int, y1: int, fill: int = 1) -> None:
        """Fill the rectangle from (x0, y0) to (x1, y1), both included."""
        x0, x1 = max(x0, 0), min(x1, WIDTH - 1)
        if x1 < x0:
            return
        run = bytes([255 if fill else 0]) * (x1 - x0 + 1)
        for y in range(max(y0, 0), min(y1, HEIGHT - 1) + 1):
            self.pixels[y * WIDTH + x0 : y * WIDTH + x1 + 1] = run

    def frame(self, x0: int, y0: int, x1: int, y1: int, fill: int = 1) -> None:
        self.fill(x0, y0, x1, y0, fill)
        self.fill(x0, y1, x1, y1, fill)
        self.fill(x0, y0, x0, y1, fill)
        self.fill(x1, y0, x1, y1, fill)

    def sprite(self, x: int, y: int, rows: Sprite, fill: int = 1) -> None:
        self.put(_sprite_points(rows, x, y), fill)

    def text(
        self, font: BitmapFont, xy: tuple[int, int], text: str, *, scale: int = 1, fill: int = 1
    ) -> None:
        self.put(font.points(xy, text, scale=scale), fill)


def _sprite_points(rows: Sprite, x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in _sprite_offsets(rows)]


@cache
def _sprite_offsets(rows: Sprite) -> tuple[tuple[int, int], ...]:
    return tuple((dx, dy) for dy, row in enumerate(rows) for dx, ch in enumerate(row) if ch == "#")


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


def _header(canvas: Canvas, left: str, right: str = "") -> None:
    canvas.fill(0, 0, WIDTH - 1, HEADER_HEIGHT - 1)
    right_width = SMALL.width(right) + 2 if right else 0
    canvas.text(SMALL, (2, 1), _fit(left, WIDTH - 4 - right_width), fill=0)
    if right:
        canvas.text(SMALL, (WIDTH - right_width, 1), right, fill=0)


def _lines(
    canvas: Canvas, y: int, texts: Iterable[str], *, bottom: int, inverted: int | None = None
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
            canvas.fill(0, y - 1, WIDTH - 1, y + LINE - 2)
        canvas.text(SMALL, (1, y), line, fill=0 if flag else 1)
        y += LINE


# ----- the board --------------------------------------------------------------------------
def draw_grid(canvas: Canvas, grid: Grid, top: int) -> int:
    """Draw the board picture with its top at ``top``; returns the y under it."""
    columns = max(len(row) for row in grid.rows)
    note_width = SMALL.width(grid.note) + 2 if grid.note else 0
    width = min(CELL_WIDTH, (WIDTH - 1 - note_width) // columns)
    left = max((WIDTH - note_width - (columns * width + 1)) // 2, 0)
    for row_index, row in enumerate(grid.rows):
        for column, cell in enumerate(row):
            x = left + column * width
            y = top + row_index * CELL_HEIGHT
            _cell(canvas, cell, x, y, width)
    bottom = top + len(grid.rows) * CELL_HEIGHT
    if grid.note:
        note_x = left + columns * width + 3
        canvas.text(SMALL, (note_x, top + (bottom - top - SMALL.height) // 2), grid.note)
    return bottom + 1


def _cell(canvas: Canvas, cell: Cell, x: int, y: int, width: int) -> None:
    x1, y1 = x + width, y + CELL_HEIGHT
    if cell.mark is Mark.NOTHING:
        return
    if cell.mark is Mark.GAP:
        canvas.put(
            ((px, py) for px in range(x, x1 + 1) for py in range(y, y1 + 1) if (px + py) % 2 == 0),
        )
        return
    canvas.frame(x, y, x1, y1)
    ink = 1
    if cell.highlight in (Highlight.FROM, Highlight.CURSOR):
        canvas.fill(x + 1, y + 1, x1 - 1, y1 - 1)
        ink = 0
    elif cell.highlight is Highlight.TO:
        canvas.frame(x + 2, y + 2, x1 - 2, y1 - 2)
    centre_x, centre_y = x + (width + 1) // 2, y + (CELL_HEIGHT + 1) // 2
    if cell.piece is Piece.NONE:
        mark_sprite = _MARK_SPRITES.get(cell.mark)
        if mark_sprite is not None:
            _centred_sprite(canvas, centre_x, centre_y, mark_sprite, ink)
    elif cell.piece is Piece.OTHER:
        label = cell.label[:1]
        canvas.text(SMALL, (centre_x - SMALL.width(label) // 2, y + 2), label, fill=ink)
    elif cell.label:  # a numbered piece, or a predator: its label in a box
        _token(canvas, cell, centre_x, centre_y, ink)
    else:
        sprite = _PIECE_SPRITE if cell.piece is Piece.LIGHT else _DARK_SPRITE
        _centred_sprite(canvas, centre_x, centre_y, sprite, ink)


def _token(canvas: Canvas, cell: Cell, centre_x: int, centre_y: int, ink: int) -> None:
    """A light piece: its label in a frame; a dark piece or a predator: inverted."""
    x0, y0 = centre_x - TOKEN_HALF, centre_y - TOKEN_HALF
    x1, y1 = centre_x + TOKEN_HALF, centre_y + TOKEN_HALF
    label = cell.label[:1]
    if cell.piece is Piece.LIGHT:
        canvas.frame(x0, y0, x1, y1, ink)
        text_ink = ink
    else:
        canvas.fill(x0, y0, x1, y1, ink)
        text_ink = 1 - ink
    canvas.text(SMALL, (centre_x - SMALL.width(label) // 2, y0), label, fill=text_ink)


def _centred_sprite(
    canvas: Canvas, centre_x: int, centre_y: int, rows: tuple[str, ...], ink: int
) -> None:
    x = centre_x - len(rows[0]) // 2
    y = centre_y - len(rows) // 2
    canvas.sprite(x, y, rows, ink)


# ----- screens ----------------------------------------------------------------------------
def _board_screen(canvas: Canvas, view: BoardScreen) -> None:
    _header(canvas, view.header, view.corner)
    y = HEADER_HEIGHT + 1
    if view.grid is not None:
        y = draw_grid(canvas, view.grid, y) + 1
    elif view.text_board:
        for line in view.text_board:
            canvas.text(SMALL, (1, y), _fit(line, WIDTH - 2))
            y += LINE
    _lines(canvas, y, view.lines, bottom=HEIGHT + 1, inverted=view.inverted_line)


def _score_screen(canvas: Canvas, view: ScoreScreen) -> None:
    _header(canvas, view.header, view.corner)
    scale = 4
    while scale > 1 and BOLD.width(view.score, scale=scale) > WIDTH - 4:
        scale -= 1
    score_width = BOLD.width(view.score, scale=scale)
    canvas.text(BOLD, ((WIDTH - score_width) // 2, HEADER_HEIGHT + 2), view.score, scale=scale)
    consequence = _fit(view.consequence, WIDTH - 2, BOLD)
    y = HEADER_HEIGHT + 2 + 8 * scale + 3
    canvas.text(BOLD, ((WIDTH - BOLD.width(consequence)) // 2, y), consequence)
    if view.footer:
        canvas.text(SMALL, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _menu_screen(canvas: Canvas, view: MenuScreen) -> None:
    _header(canvas, view.title, f"{view.selected + 1}/{len(view.items)}" if view.items else "")
    first = min(
        max(view.selected - MENU_ROWS_SHOWN // 2, 0), max(len(view.items) - MENU_ROWS_SHOWN, 0)
    )
    y = HEADER_HEIGHT + 2
    for index in range(first, min(first + MENU_ROWS_SHOWN, len(view.items))):
        chosen = index == view.selected
        if chosen:
            canvas.fill(0, y - 1, WIDTH - 1, y + MENU_ROW - 2)
        text = _fit(view.items[index], WIDTH - 8)
        canvas.text(SMALL, (3, y), text, fill=0 if chosen else 1)
        y += MENU_ROW
    if view.footer:
        canvas.text(SMALL, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _message_screen(canvas: Canvas, view: MessageScreen) -> None:
    _header(canvas, view.title)
    bottom = FOOTER_Y if view.footer else HEIGHT + 1
    _lines(canvas, HEADER_HEIGHT + 2, view.lines, bottom=bottom)
    if view.footer:
        canvas.text(SMALL, (1, FOOTER_Y), _fit(view.footer, WIDTH - 2))


def _blank_screen(canvas: Canvas, view: BlankScreen) -> None:
    if view.lit:
        canvas.put([view.dot])


_DRAWERS: dict[type[Any], Callable[[Canvas, Any], None]] = {
    BoardScreen: _board_screen,
    ScoreScreen: _score_screen,
    MenuScreen: _menu_screen,
    MessageScreen: _message_screen,
    BlankScreen: _blank_screen,
}
