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

Pictures read apart but of one set of implements (a labelled folder: ``companion vision
evaluate``; the pictures given to one ``companion vision read``) are judged so too, once
all are read, by the median fit of every die read in them (:func:`refused_for_font`):
over a whole folder, the learned fonts' medians ran 0.77-0.87 and the other fonts'
0.62-0.66, a wider gap than a game's last seven dice leave.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import replace

from vision.hand import SAME_THROW_OVERLAP
from vision.observation import Box, Implement, Kind, Observation, Reason, Refusal

# The median familiarity of the last dice read below which the d4 in play is not known.
# Each set read as one game, the median of 7 dice read went from 0.70 (the dev set) to 0.89
# in sets of the learned fonts (dev set, generated seeds 7, 3001, 9201, 9402, 9505), and
# from 0.57 to 0.681 in sets of stroke fonts (9501-9503, 9601): the level leans to
# refusing, as reading a die of another font costs more than refusing one.
# Judged from the first die read: waiting for three let a stroke font's wrong reading
# through at a game's start.
FAMILIAR_LEVEL = 0.70
FAMILIAR_WINDOW = 7  # the last dice read that the median is taken over
# Dice a game must have read (or throws it must have refused in a row for the font) before
# its refusals blame the font and ask for the d4 to be enrolled; before, a die is refused as
# unclear (throw again): read alone, 10 of the dev set's 51 dice read right fit the glyphs
# under the level, and most dice of a font never learned are not read at all.
FONT_TOLD_BY = 3
# Pictures read apart are judged once all are read, and only by this many dice read or more:
# a game goes on after its first die, refused or not; a single picture's die would be judged
# by itself, and 11 of the dev set's 51 dice read right fit the glyphs under the level.
PICTURES_FEWEST = 3


class FontInPlay:
    """How well the numerals of the last d4s read in a game (or of every d4 read in
    pictures of one set: :meth:`of_pictures`) fit the profile's glyphs.

    Only dice that the reading rules read tell it: a die found in part or fitted off fits
    any font loosely, and tells nothing of the font. ``window``: how many of the last dice
    read count; ``fewest``: how many must have been read for the font to be judged."""

    def __init__(self, *, window: int | None = FAMILIAR_WINDOW, fewest: int = 1) -> None:
        self._fits: deque[float] = deque(maxlen=window)
        self._last: Box | None = None
        self.fewest = fewest
        # The last throws refused in a row for the font (enough of them to blame it).
        self._doubted: deque[Box | None] = deque(maxlen=FONT_TOLD_BY)

    @classmethod
    def of_pictures(cls) -> FontInPlay:
        """The font of pictures read apart but of one set of implements (a labelled
        folder), judged by every die read in them once all are read (see
        :func:`refused_for_font`)."""
        return cls(window=None, fewest=PICTURES_FEWEST)

    def told(self, familiarity: float, where: Box | None = None) -> None:
        """A die lying at ``where`` was read, its numerals fitting the glyphs so well; a die
        read where the last one lay is the same throw read again (None: a picture of its
        own)."""
        last, self._last = self._last, where
        again = last is not None and where is not None and where.iou(last) >= SAME_THROW_OVERLAP
        if again and self._fits:
            self._fits[-1] = familiarity  # the same throw read again: it counts once
        else:
            self._fits.append(familiarity)
        if not self.unknown:
            self._doubted.clear()

    def doubted(self, where: Box | None = None) -> None:
        """A die lying at ``where`` was refused for the font (the same throw read again
        counts once)."""
        last = self._doubted[-1] if self._doubted else None
        if last is None or where is None or where.iou(last) < SAME_THROW_OVERLAP:
            self._doubted.append(where)

    @property
    def familiarity(self) -> float | None:
        """The median fit of the last dice read; None before any."""
        return statistics.median(self._fits) if self._fits else None

    @property
    def judged(self) -> bool:
        """Whether enough dice were read to judge the font."""
        return len(self._fits) >= max(1, self.fewest)

    @property
    def sure(self) -> bool:
        """Whether enough dice were read, or throws refused in a row for the font, to blame
        the font rather than one die's blur or fit."""
        return max(len(self._fits), len(self._doubted)) >= FONT_TOLD_BY

    @property
    def unknown(self) -> bool:
        """Whether the d4 in play is of a font the glyphs do not know."""
        return self.judged and (self.familiarity or 0.0) < FAMILIAR_LEVEL

    def why(self) -> str:
        """Why the d4s are refused, for people (the font unknown)."""
        count, familiarity = len(self._fits), self.familiarity or 0.0
        if count == 1:
            fit = f"the d4 read fits the profile's numerals by {familiarity:.2f}"
        else:
            last = "" if self._fits.maxlen is None else "last "
            fit = f"the {last}{count} d4s read fit the profile's numerals by {familiarity:.2f}"
            fit += " in the median"
        return f"{fit}, under the {FAMILIAR_LEVEL:.2f} of a font it knows"


def refused_for_font(observation: Observation, font: FontInPlay) -> Observation:
    """The observation of a picture read apart, with every numbered d4 read in it refused
    when the font of the pictures' d4s (``font``, told by all of them) is not known."""
    if not font.unknown:
        return observation
    dice = [item for item in observation.implements if _numbered_d4(item)]
    if not dice:
        return observation
    kept = tuple(item for item in observation.implements if not _numbered_d4(item))
    refused = tuple(Refusal(Reason.UNKNOWN_NUMERALS, die.box, font.why()) for die in dice)
    return replace(observation, implements=kept, refusals=observation.refusals + refused)


def _numbered_d4(item: Implement) -> bool:
    return item.kind is Kind.D4 and item.value is not None
