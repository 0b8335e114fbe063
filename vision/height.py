"""The camera's height above the felt, told by the d4s it sees.

A d4's top point appears moved away from the point below the lens by its height over the
lens's height less its own (``Tray.lift``): the nearer the lens, the farther out. The fit
of a die (``vision.tetra``) looks for the top point near where the camera's height puts
it, and explains the picture less well where that height is wrong. So each throw's d4s
lying flat away from the middle (a die near the point below the lens shows little of
it) are fitted as seen from each of a range of heights, and the heights' costs, each over
the throw's best, are averaged over the throws: the lowest, refined between its
neighbours, is the height. Generated throws drawn from 260, 300 and 380 mm and the
development set (37-39 cm) each fitted best at their own (docs/vision-rounds.md, round 37).

Binary d4s (painted tips) tell it only by the dice read with their marked tip down: a
painted top point draws the fit towards a camera farther than it is, whatever its height
(round 42). Their throws are read first, at the height assumed, to know which those are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from vision.kit import Kit
from vision.observation import PLAIN, Box, Kind, Observation, Reason
from vision.segment import Blob, Segmenter
from vision.shapes import Shape, classify
from vision.tetra import fit_tetras, unexplained
from vision.tray import Image, Tray

if TYPE_CHECKING:
    from vision.reader import Reader

HEIGHTS_MM = tuple(float(height) for height in range(240, 561, 20))
FAR_MM = 90.0  # from the point below the lens: nearer, a die's top point moves too little
FEWEST_THROWS = 5  # throws with such a die, for a height to be told
MOST_THROWS = 40  # enough: more only cost time


# A sign test's chance of as many throws preferring a height by luck. The throws pick the
# height they then test, so a test at 5 % fires far more often than 5 % on fits that tell
# nothing: simulated over 40 throws whose costs are noise alone, about 20 % of the time;
# at 0.5 %, about 2 % (docs/vision-rounds.md, round 38).
CONVINCING_P = 0.005
# Throws telling the height below which none can prefer another one beyond chance (all of
# them preferring it: a chance of 2 ** -throws).
FEWEST_CONVINCING = math.ceil(-math.log2(CONVINCING_P))


@dataclass(frozen=True)
class HeightEstimate:
    """The height the throws' d4s fit best, against the one the trays were calibrated as."""

    height_mm: float
    throws: int  # the throws whose d4s told it
    assumed_mm: float  # the height the trays were calibrated as
    closer: int = 0  # throws fitted better at the fitted height nearest height_mm than assumed
    farther: int = 0  # and worse

    @property
    def convincing(self) -> bool:
        """The throws prefer the measured height to the assumed one beyond chance (a
        one-sided sign test, :data:`CONVINCING_P`): the averaged costs alone can be
        carried by a few throws whose fits are off at every height."""
        return _sign_test(self.closer, self.farther) < CONVINCING_P

    @property
    def chosen_mm(self) -> float:
        """The height to read from: the measured one to 10 mm (about its spread) where it
        is convincing, else the one assumed."""
        return float(round(self.height_mm, -1)) if self.convincing else self.assumed_mm


class HeightEvidence:
    """The costs of throws' far flat d4s fitted at each height, gathered one throw at a
    time (a game's throws, or a folder's pictures)."""

    def __init__(self, heights: tuple[float, ...] = HEIGHTS_MM) -> None:
        self.heights = heights
        self._costs: list[NDArray[np.float64]] = []  # each throw's, over its best

    @property
    def throws(self) -> int:
        return len(self._costs)

    @property
    def enough(self) -> bool:
        return self.throws >= MOST_THROWS

    def add(self, picture: Image, tray: Tray, bare_tops: tuple[Box, ...] | None = None) -> bool:
        """The throw's d4s fitted at every height; False when it has none lying flat away
        from the middle (it tells nothing). ``bare_tops``: the throw is of binary d4s, and
        these the boxes of those read with the marked tip down (:func:`bare_tops`)."""
        costs = fit_costs(picture, tray, self.heights, bare_tops)
        if costs is None:
            return False
        self.add_costs(costs)
        return True

    def add_costs(self, costs: NDArray[np.float64]) -> None:
        """A throw's costs, one per height (:func:`fit_costs`)."""
        self._costs.append(costs / max(float(costs.min()), 1e-9))

    def estimate(self, assumed_mm: float) -> HeightEstimate | None:
        """The height that explains the throws best, or None before
        :data:`FEWEST_THROWS`."""
        if self.throws < FEWEST_THROWS:
            return None
        costs = np.asarray(self._costs)
        heights = np.asarray(self.heights)
        best = _lowest(heights, costs.sum(axis=0))
        at_best = costs[:, int(np.argmin(np.abs(heights - best)))]
        at_assumed = costs[:, int(np.argmin(np.abs(heights - assumed_mm)))]
        closer = int(np.count_nonzero(at_best < at_assumed))
        farther = int(np.count_nonzero(at_best > at_assumed))
        return HeightEstimate(best, self.throws, assumed_mm, closer, farther)


class HeightInPlay:
    """A device's throws teaching the camera's height when it was not told: once
    :data:`MOST_THROWS` of them showed a d4 lying flat away from the middle, the height
    they fit, where they fit it better than the one assumed beyond chance (one test, as
    ``evaluate`` makes of a folder), rounded to 10 mm. Each throw costs its d4s fitted at
    every height (about 0.14 s on the development machine, ``benchmarks.vision``): the
    device measures after the reading is shown, while the players move."""

    def __init__(
        self, assumed_mm: float, heights: tuple[float, ...] = HEIGHTS_MM, needed: int | None = None
    ) -> None:
        """``needed``: the throws measured before the height is judged (:data:`MOST_THROWS`)."""
        self.assumed_mm = assumed_mm
        self.evidence = HeightEvidence(heights)
        self.needed = MOST_THROWS if needed is None else needed
        self.estimate: HeightEstimate | None = None  # once measured
        # The last throw read that may tell it, with its binary d4s' bare tops (None: a
        # numbered d4's throw).
        self._pending: tuple[Image, tuple[Box, ...] | None] | None = None

    @property
    def learning(self) -> bool:
        return self.estimate is None

    def offer(self, picture: Image, observation: Observation, kit: Kit | None) -> None:
        """A throw just read, kept to be measured (:meth:`measure`) when it may tell the
        height: one of a kit with d4s, not refused for a hand, a tray unlike its own or
        blur (whatever else refused it, a d4 lying flat still shows the height); of binary
        d4s, one with a die read with its marked tip down."""
        unseen = {Reason.HAND, Reason.UNLIKE_TRAY, Reason.BLURRED}
        if not self.learning or kit is None or not kit.d4:
            return
        if any(refusal.reason in unseen for refusal in observation.refusals):
            return
        bare = bare_tops(observation) if kit.binary_d4 else None
        if bare != ():
            self._pending = (picture, bare)

    def measure(self, reader: Reader) -> float | None:
        """Measure the throw last offered (its d4s fitted at every height: once its
        reading is shown). Once the throws have judged the height, ``reader`` reads as
        from the one they chose (the one assumed, or one they tell apart from it) and it
        is returned, to be kept (the judgement too: ``Tray.height_judged``); else None."""
        pending, self._pending = self._pending, None
        if pending is None or not self._judged_by(*pending, reader.tray):
            return None
        assert self.estimate is not None  # judged
        reader.seen_from(self.estimate.chosen_mm)
        return self.estimate.chosen_mm

    def _judged_by(self, picture: Image, bare: tuple[Box, ...] | None, tray: Tray) -> bool:
        """Whether the height is judged at this throw, the last needed."""
        if not self.learning or not self.evidence.add(picture, tray, bare):
            return False
        if self.evidence.throws >= self.needed:
            self.estimate = self.evidence.estimate(self.assumed_mm)
        return not self.learning


def fit_costs(
    picture: Image,
    tray: Tray,
    heights: tuple[float, ...],
    bare_tops: tuple[Box, ...] | None = None,
) -> NDArray[np.float64] | None:
    """Per height, how much of the picture the fits of its far flat d4s leave unexplained
    (None: no such die). ``bare_tops``: binary d4s, fitted as the reader fits them, and
    only the dice lying at these boxes (read with the marked tip down)."""
    foreground = Segmenter(tray).foreground(picture)
    dice = [blob for blob in foreground.blobs if _far_flat_d4(blob, tray)]
    if bare_tops is not None:
        # The reader tells where dice lie in the picture as taken (another scale, a keystone
        # straightened, a tray followed): each blob is placed there as it places them.
        placed = [tray.in_picture(foreground.placed(blob.box)) for blob in dice]
        dice = [
            blob
            for blob, box in zip(dice, placed, strict=True)
            if any(box.iou(bare) > 0.5 for bare in bare_tops)
        ]
    if not dice:
        return None
    frame = foreground.frame
    binary = bare_tops is not None
    costs = []
    for height in heights:
        seen_from = replace(tray, camera_height_mm=height)
        fits = fit_tetras(frame, dice, seen_from, painted=binary, alike=binary)
        costs.append(unexplained(frame, dice, tray, fits))
    return np.asarray(costs)


def bare_tops(observation: Observation) -> tuple[Box, ...]:
    """Where the binary d4s read with their marked tip down lie: the dice that tell the
    camera's height (a painted top point leans their fit to a farther camera)."""
    return tuple(
        item.box for item in observation.implements if item.kind is Kind.D4 and item.face == PLAIN
    )


def _far_flat_d4(blob: Blob, tray: Tray) -> bool:
    call = classify(blob)
    if call.shape is not Shape.FLAT or call.kind is not Kind.D4:
        return False
    below = np.asarray(tray.below_lens)
    return float(np.hypot(*(np.asarray(blob.centre) - below))) / tray.px_per_mm >= FAR_MM


def _lowest(heights: NDArray[np.float64], costs: NDArray[np.float64]) -> float:
    """The height of the lowest cost, between grid points by a parabola through it and
    its neighbours (the grid's end when it is lowest there)."""
    best = int(np.argmin(costs))
    if best in (0, len(costs) - 1):
        return float(heights[best])
    left, middle, right = costs[best - 1 : best + 2]
    curvature = left - 2 * middle + right
    step = float(heights[1] - heights[0])
    shift = 0.5 * (left - right) / curvature if curvature > 0 else 0.0
    return float(heights[best] + shift * step)


def _sign_test(wins: int, losses: int) -> float:
    """The chance of ``wins`` or more of ``wins + losses`` fair coin tosses (ties left
    out): 1 with none tossed."""
    tossed = wins + losses
    return float(sum(math.comb(tossed, k) for k in range(wins, tossed + 1)) / 2**tossed)
