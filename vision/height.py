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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.observation import Kind
from vision.segment import Blob, Segmenter
from vision.shapes import Shape, classify
from vision.tetra import fit_tetras, unexplained
from vision.tray import Image, Tray

HEIGHTS_MM = tuple(float(height) for height in range(240, 561, 20))
FAR_MM = 90.0  # from the point below the lens: nearer, a die's top point moves too little
FEWEST_THROWS = 5  # throws with such a die, for a height to be told
MOST_THROWS = 40  # enough: more only cost time


@dataclass(frozen=True)
class HeightEstimate:
    height_mm: float
    throws: int  # the throws whose d4s told it


def camera_height(
    throws: Iterable[tuple[Image, Tray]], heights: tuple[float, ...] = HEIGHTS_MM
) -> HeightEstimate | None:
    """The lens's height above the felt that best explains the d4s of ``throws`` (each a
    picture and its calibrated tray, of any height), or None when fewer than
    :data:`FEWEST_THROWS` show a d4 lying flat away from the middle."""
    totals = np.zeros(len(heights))
    counted = 0
    for picture, tray in throws:
        costs = fit_costs(picture, tray, heights)
        if costs is None:
            continue
        totals += costs / max(float(costs.min()), 1e-9)
        counted += 1
        if counted >= MOST_THROWS:
            break
    if counted < FEWEST_THROWS:
        return None
    return HeightEstimate(_lowest(np.asarray(heights), totals), counted)


def fit_costs(picture: Image, tray: Tray, heights: tuple[float, ...]) -> NDArray[np.float64] | None:
    """Per height, how much of the picture the fits of its far flat d4s leave unexplained
    (None: no such die)."""
    foreground = Segmenter(tray).foreground(picture)
    dice = [blob for blob in foreground.blobs if _far_flat_d4(blob, tray)]
    if not dice:
        return None
    frame = foreground.frame
    costs = []
    for height in heights:
        fits = fit_tetras(frame, dice, replace(tray, camera_height_mm=height))
        costs.append(unexplained(frame, dice, tray, fits))
    return np.asarray(costs)


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
