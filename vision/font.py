"""Whether the numerals of the d4 in play are of a font the profile's glyphs know.

A d4's numerals are read by comparing them with glyphs learned from a few fonts. Numerals
of another font fit every glyph loosely, and may fit another value's glyph best, the same
way on every throw: generated dice in stroke fonts the shipped glyphs never learned were
read wrong in 0.4-7 % of their throws, a 3 as 2 or a 1 as 3, with margins the reading
rules accept (docs/vision.md, "Numerals of another font"). One die does not tell its font
from its blur or from a fit a little off, but a game's dice do: the shipped glyphs fit
the numerals of the fonts they learned by 0.77-0.87 in the median, those of stroke fonts
by 0.62-0.64. Once the d4s read in a game fit the glyphs too loosely, the d4 in play is
not one the profile knows: its throws are refused, and the player is asked to enrol it
(its own glyphs then read it; a new profile makes a new reader, and a new font in play).
"""

from __future__ import annotations

import statistics
from collections import deque

from vision.hand import SAME_THROW_OVERLAP
from vision.observation import Box

# The median familiarity of the last dice read below which the d4 in play is not known.
# Each set read as one game, the median of 7 dice read went from 0.70 (the dev set) to 0.89
# in sets of the learned fonts (dev set, generated seeds 7, 3001, 9201, 9402, 9505), and
# from 0.57 to 0.681 in sets of stroke fonts (9501-9503, 9601): the level leans to
# refusing, as reading a die of another font costs more than refusing one.
# Judged from the first die read: waiting for three let a stroke font's wrong reading
# through at a game's start.
FAMILIAR_LEVEL = 0.70
FAMILIAR_WINDOW = 7  # the last dice read that the median is taken over


class FontInPlay:
    """How well the numerals of the last d4s read in a game fit the profile's glyphs.

    Only dice that the reading rules read tell it: a die found in part or fitted off fits
    any font loosely, and tells nothing of the font."""

    def __init__(self) -> None:
        self._fits: deque[float] = deque(maxlen=FAMILIAR_WINDOW)
        self._last: Box | None = None

    def told(self, familiarity: float, where: Box) -> None:
        """A die lying at ``where`` was read, its numerals fitting the glyphs so well."""
        again = self._last is not None and where.iou(self._last) >= SAME_THROW_OVERLAP
        self._last = where
        if again and self._fits:
            self._fits[-1] = familiarity  # the same throw read again: it counts once
        else:
            self._fits.append(familiarity)

    @property
    def familiarity(self) -> float | None:
        """The median fit of the last dice read; None before any."""
        return statistics.median(self._fits) if self._fits else None

    @property
    def unknown(self) -> bool:
        """Whether the d4 in play is of a font the glyphs do not know."""
        familiarity = self.familiarity
        return familiarity is not None and familiarity < FAMILIAR_LEVEL
