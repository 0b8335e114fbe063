"""A camera tilted from looking straight down sees the tray's rectangular floor as a
keystone: the far side shorter than the near one. The floor's four sides, fitted as lines
to its outline, give the homography that makes it a rectangle again (the top-down view
every measurement assumes).

A camera turned about its lens moves every point of the picture by one homography, high or
low, so the rectified picture is what a camera looking straight down from where it stands
would take, and what stands above the floor still appears moved away from the floor's
point below the lens, as ``Tray.lift`` says; that point is no longer the picture's middle
(``point_below_lens``).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]
Points = NDArray[np.float64]

# A floor is rectified when opposite sides differ by more than this share of their length
# (half the difference over the mean). The development set's empty trays, photographed
# with the camera tilted under 2 degrees, measure 0-2 % (3.1 % once, an outline that took
# in part of a wall of the felt's colour); their copies tilted 8 degrees more
# (``benchmarks.stress_copies --tilt 8``) 3.9-6.8 %; generated trays tilted 4 degrees
# 2.8 %, 8 degrees 5.5 %. Below it, a floor is read as a rectangle, as it always was.
KEYSTONE_SHARE = 0.025
# A camera tilted more than 30 degrees looks at the tray rather than down on it: a point
# below the lens found farther off is the sign of corners found wrong.
MOST_TILT = float(np.tan(np.radians(30.0)))
# The middle of each side is fitted: marker cards and rounded corners lie at its ends.
SIDE_MIDDLE = (0.15, 0.85)
SIDE_SLANT = 0.1  # a slanted side's farthest from its bounding rectangle's, of its length
SIDE_REACH = 4.0  # pixels of the outline from the line first fitted to a side


def floor_corners(outline: Points) -> Points | None:
    """The floor's four corners (in the order ``cv2.boxPoints`` gives its bounding
    rectangle's): where lines fitted to the middles of its sides meet. ``outline``: the
    floor's outline, every pixel of it (``cv2.CHAIN_APPROX_NONE``). None when a side has
    too few points to fit."""
    box = cv2.boxPoints(cv2.minAreaRect(outline.astype(np.float32))).astype(np.float64)
    lines = []
    for index in range(4):
        start, end = box[index], box[(index + 1) % 4]
        # A keystone's slanted sides leave the bounding rectangle's by up to a tenth of
        # its length: a first line from the points that near, then one from those on it.
        line = _side_line(outline, start, end, SIDE_SLANT * float(np.hypot(*(end - start))))
        if line is not None:
            point, direction = line
            line = _side_line(outline, point, point + direction, SIDE_REACH, along=False)
        if line is None:
            return None
        lines.append(line)
    corners = []
    for index in range(4):
        (p, d), (q, e) = lines[index - 1], lines[index]
        steps = np.linalg.solve(np.column_stack([d, -e]), q - p)
        corners.append(p + steps[0] * d)
    return np.asarray(corners, np.float64)


def _side_line(
    outline: Points, start: Points, end: Points, reach: float, *, along: bool = True
) -> tuple[Points, Points] | None:
    """A line (a point and a unit direction) fitted to the outline's points within
    ``reach`` of the line through ``start`` and ``end``, in the middle of that side (with
    ``along``: ``start`` and ``end`` are its ends)."""
    length = float(np.hypot(*(end - start)))
    unit = (end - start) / max(length, 1e-9)
    relative = outline - start
    near = np.abs(relative @ np.array([-unit[1], unit[0]])) < reach
    if along:
        share = relative @ unit / max(length, 1e-9)
        near &= (share > SIDE_MIDDLE[0]) & (share < SIDE_MIDDLE[1])
    if np.count_nonzero(near) < 10:
        return None
    fitted = cv2.fitLine(outline[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
    vx, vy, x0, y0 = (float(v) for v in fitted.ravel())
    return np.array([x0, y0]), np.array([vx, vy])


def keystone_share(corners: Points) -> float:
    """Half the difference of opposite sides over their mean, the larger of the two pairs."""
    sides = [float(np.hypot(*(corners[(i + 1) % 4] - corners[i]))) for i in range(4)]
    return max(
        abs(sides[0] - sides[2]) / (sides[0] + sides[2]),
        abs(sides[1] - sides[3]) / (sides[1] + sides[3]),
    )


def rectifying(corners: Points) -> Matrix | None:
    """The homography (picture pixels to picture pixels) that takes a keystone floor to the
    rectangle of its mean sides, about the same middle and turned as it is; None when the
    floor is a rectangle already (see ``KEYSTONE_SHARE``)."""
    if keystone_share(corners) <= KEYSTONE_SHARE:
        return None
    middle = corners.mean(axis=0)
    first = ((corners[1] - corners[0]) + (corners[2] - corners[3])) / 2
    second = ((corners[3] - corners[0]) + (corners[2] - corners[1])) / 2
    along = first / np.hypot(*first)
    across = np.array([-along[1], along[0]])
    across *= float(second @ across)  # the floor is a rectangle: its sides square
    half_first, half_second = first / 2, across / 2
    target = np.array(
        [
            middle - half_first - half_second,
            middle + half_first - half_second,
            middle + half_first + half_second,
            middle - half_first + half_second,
        ]
    )
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target.astype(np.float32))
    return np.asarray(matrix, np.float64)


def moved(points: Points, matrix: Matrix) -> Points:
    """``points`` (n, 2) where the homography ``matrix`` takes them."""
    placed = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), matrix)
    return np.asarray(placed.reshape(-1, 2), np.float64)


def point_below_lens(
    rectify: Matrix, focal_px: float, centre: tuple[float, float]
) -> tuple[float, float]:
    """Where the floor's point below the lens appears in the picture: the vanishing point
    of vertical lines, for a camera whose lens's axis passes through ``centre`` (the
    picture's middle), its pixels square, its focal length ``focal_px`` (the floor's
    scale times the lens's height above it). ``rectify`` straightens the floor (see
    ``rectifying``): its last row is the floor's horizon, and the vertical's vanishing
    point is that line seen through the lens (``K K^T l``)."""
    lens = np.array([[focal_px, 0, centre[0]], [0, focal_px, centre[1]], [0, 0, 1]])
    seen = lens @ lens.T @ rectify[2]
    if abs(seen[2]) < 1e-12:
        return centre
    point = (float(seen[0] / seen[2]), float(seen[1] / seen[2]))
    if np.hypot(point[0] - centre[0], point[1] - centre[1]) > focal_px * MOST_TILT:
        return centre  # no camera looking down at a tray: corners found wrong
    return point
