"""Small geometry of convex outlines shared by the reader and the generator."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray


def convex_gap(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """Distance between two convex polygons (corners, shape (n, 2)); 0 when they cross.

    Apart, the nearest points of two convex polygons include a corner of one of them."""
    if cv2.intersectConvexConvex(a, b)[0] > 0:
        return 0.0
    return min(
        min(abs(cv2.pointPolygonTest(b, (float(p[0]), float(p[1])), True)) for p in a),
        min(abs(cv2.pointPolygonTest(a, (float(p[0]), float(p[1])), True)) for p in b),
    )
