"""Bitmap fonts drawn pixel by pixel, so that a screen is the same image on every machine.

The glyphs come from luma.core (a dependency of the display driver): its 3x5 ``TINY_FONT``
for text and its 8x8 code page 437 font for headings and large numbers. Pillow's own text
rendering changes between versions; setting pixels ourselves does not, so the golden
images of the tests hold on the Pi's Pillow 9.4 and on a current one alike.

The tiny font has no accents: French letters are composed from the base letter and a
mark on the free row above it (or a cedilla below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from luma.core.legacy import font as luma_fonts

Columns = tuple[int, ...]  # one int per pixel column, bit j set = pixel in row j

# Marks of composed letters: (column as a fraction of the glyph's width, row).
_ACUTE, _GRAVE, _CIRCUMFLEX, _DIAERESIS, _CEDILLA = "acute", "grave", "circ", "diaer", "cedil"
_COMPOSED: Mapping[str, tuple[str, str]] = {
    "é": ("e", _ACUTE),
    "è": ("e", _GRAVE),
    "ê": ("e", _CIRCUMFLEX),
    "ë": ("e", _DIAERESIS),
    "à": ("a", _GRAVE),
    "â": ("a", _CIRCUMFLEX),
    "î": ("i", _CIRCUMFLEX),
    "ï": ("i", _DIAERESIS),
    "ô": ("o", _CIRCUMFLEX),
    "û": ("u", _CIRCUMFLEX),
    "ù": ("u", _GRAVE),
    "ü": ("u", _DIAERESIS),
    "ç": ("c", _CEDILLA),
    "É": ("E", _ACUTE),
    "È": ("E", _GRAVE),
    "À": ("A", _GRAVE),
    "Ç": ("C", _CEDILLA),
}
# Typographic characters shown as their plain equivalents.
_PLAIN: Mapping[str, str] = {
    "«": '"',
    "»": '"',
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "…": "...",
    "\u00a0": " ",
    "\u202f": " ",
    "°": "o",
    "·": ".",
    "×": "x",
}


def plain_text(text: str) -> str:
    """The text with typographic characters replaced by ones every font here has."""
    return "".join(_PLAIN.get(ch, ch) for ch in text)


def _trimmed(columns: Sequence[int]) -> Columns:
    """The glyph without blank columns on either side, plus one blank column after it."""
    used = [index for index, column in enumerate(columns) if column]
    if not used:
        return ()
    return (*columns[used[0] : used[-1] + 1], 0)


def _with_mark(base: Columns, mark: str) -> Columns:
    columns = list(base)
    drawn = max(len(columns) - 1, 1)  # the last column is the spacing
    if mark == _CEDILLA:
        columns[drawn // 2] |= 1 << 6
        return tuple(columns)
    spots = {
        _ACUTE: [drawn - 1],
        _GRAVE: [0],
        _CIRCUMFLEX: [drawn // 2],
        _DIAERESIS: [0, drawn - 1],
    }[mark]
    for spot in spots:
        columns[spot] |= 1
    return tuple(columns)


@dataclass(frozen=True)
class BitmapFont:
    """A proportional bitmap font: glyph columns by character."""

    name: str
    glyphs: Mapping[str, Columns]
    height: int
    line_height: int

    def columns(self, ch: str) -> Columns:
        return self.glyphs.get(ch) or self.glyphs["?"]

    def width(self, text: str, *, scale: int = 1) -> int:
        """Width in pixels, the spacing after the last glyph not counted."""
        total = sum(len(self.columns(ch)) for ch in plain_text(text))
        return max(total - 1, 0) * scale

    def points(self, xy: tuple[int, int], text: str, *, scale: int = 1) -> list[tuple[int, int]]:
        """The lit pixels of ``text`` drawn with its top left corner at ``xy``."""
        x, y = xy
        points: list[tuple[int, int]] = []
        for ch in plain_text(text):
            columns = self.columns(ch)
            points.extend((x + dx, y + dy) for dx, dy in _unit_points(columns, scale))
            x += len(columns) * scale
        return points


@cache
def _unit_points(columns: Columns, scale: int) -> tuple[tuple[int, int], ...]:
    points: list[tuple[int, int]] = []
    for index, column in enumerate(columns):
        for row in range(8):
            if column >> row & 1:
                points.extend(
                    (index * scale + sx, row * scale + sy)
                    for sx in range(scale)
                    for sy in range(scale)
                )
    return tuple(points)


def _printable() -> list[str]:
    return [chr(code) for code in range(32, 127)]


def _tiny_font() -> BitmapFont:
    table = luma_fonts.TINY_FONT
    glyphs: dict[str, Columns] = {ch: _trimmed(table[ord(ch)]) for ch in _printable()}
    glyphs[" "] = (0, 0, 0)
    for ch, (base, mark) in _COMPOSED.items():
        glyphs[ch] = _with_mark(glyphs[base], mark)
    return BitmapFont("tiny", glyphs, height=7, line_height=7)


def _bold_font() -> BitmapFont:
    table = luma_fonts.CP437_FONT
    glyphs: dict[str, Columns] = {}
    for ch in [*_printable(), *_COMPOSED]:
        try:
            code = ch.encode("cp437")[0]
        except UnicodeEncodeError:
            continue
        glyphs[ch] = _trimmed(table[code])
    glyphs[" "] = (0, 0, 0, 0)
    for ch, (base, _) in _COMPOSED.items():
        glyphs.setdefault(ch, glyphs[base])  # capitals with accents: not in CP437
    return BitmapFont("bold", glyphs, height=8, line_height=9)


SMALL = _tiny_font()
BOLD = _bold_font()
