"""The hand of a d4's numbering, and the hand of the d4 in play as its readings tell it.

A top-read d4 may be numbered in two ways that are mirror images of each other, not turns
of one another: seen from above with the 4 on top, its base corners' 1, 2 and 3 run
clockwise or counterclockwise. A die's hand never changes, and a set's dice share their
maker's, but one throw does not tell it reliably: a numbering and its mirror image differ
by two base corners swapped, which blurred numerals fit about as well. The readings of
the die in play do tell it, one confident reading after another; numerals that leave a
throw unread may then be weighed against the numberings of that hand alone
(``vision.numerals.judged``).
"""

from __future__ import annotations

from enum import Enum

from vision.observation import Box

# Throws in a row whose confident readings tell one hand before it is used: a die of the
# other hand tells its own hand in nearly every confident reading (its numbering's best
# fit, read by its numerals alone), so it cannot arm the wrong one.
HAND_ARMING = 5
# A die read again where it lay (its box overlapping the last one's this much) is the same
# throw read again, as a settled throw is until readings agree: it tells nothing new.
SAME_THROW_OVERLAP = 0.5


class Hand(Enum):
    """How a d4 is numbered: with the 4 on top, its base corners' 1, 2 and 3 run clockwise
    or counterclockwise, seen from above."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


def hand_of(top: int, corners: tuple[int, int, int]) -> Hand:
    """The hand of a numbering: the top value, then the base corners' values clockwise
    seen from above (as ``vision.tetra.Tetra.base`` lists them).

    Turning a die moves its values round by a permutation of even parity, so the parity of
    the values so listed is the hand's: (4, 1, 2, 3), clockwise, is odd."""
    order = (top, *corners)
    swaps = sum(a > b for i, a in enumerate(order) for b in order[i + 1 :])
    return Hand.CLOCKWISE if swaps % 2 else Hand.COUNTERCLOCKWISE


class HandInPlay:
    """The hand of the d4 in play, once confident readings of ``HAND_ARMING`` throws in a
    row told it; forgotten when a reading tells the other hand (another die in play, or a
    throw that tells it wrong), or a die fits the other hand far better than this one."""

    def __init__(self) -> None:
        self._told: Hand | None = None
        self._run = 0
        self._last: Box | None = None

    @property
    def hand(self) -> Hand | None:
        """The hand to weigh unread numerals with; None until the die in play showed it."""
        return self._told if self._run >= HAND_ARMING else None

    def told(self, hand: Hand | None, where: Box) -> None:
        """A die read by its numerals alone, lying at ``where``, told ``hand`` (None: its
        numerals fit both hands about as well, and tell nothing)."""
        if hand is None:
            return
        again = self._last is not None and where.iou(self._last) >= SAME_THROW_OVERLAP
        self._last = where
        if hand is not self._told:
            self._told, self._run = hand, 1
        elif not again:
            self._run += 1

    def forget(self) -> None:
        self._told, self._run, self._last = None, 0, None
