"""A stick's face measured across it (vision.features.face_width_mm): the longest band of
one colour, which tells a flat stick from one on its edge."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.features import _longest_run, face_width_mm
from vision.segment import Segmenter
from vision.synthetic import scene
from vision.tray import calibrate


def _longest_run_counted(close: np.ndarray) -> tuple[int, int]:
    """The same answer as ``_longest_run``, counted cell by cell."""
    best = (0, 0)
    for column in range(close.shape[1]):
        run = 0
        for row in range(close.shape[0] + 1):
            if row < close.shape[0] and close[row, column]:
                run += 1
                continue
            if run > best[1]:
                best = (row - run, run)
            run = 0
    return best


@given(arrays(np.bool_, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_the_longest_run_is_the_first_of_the_longest_runs_of_any_column(
    close: np.ndarray,
) -> None:
    assert _longest_run(close) == _longest_run_counted(close)


def test_a_table_without_a_run_has_an_empty_one() -> None:
    assert _longest_run(np.zeros((5, 3), bool)) == (0, 0)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_flat_stick_shows_its_face_and_one_on_its_edge_a_narrow_side(seed: int) -> None:
    drawn = scene(seed, "sticks4", "on-edge")
    tray = calibrate(drawn.empty)
    foreground = Segmenter(tray).foreground(drawn.frame)
    objects = drawn.label["objects"]
    assert isinstance(objects, list)
    widths: dict[str, list[float]] = {"flat": [], "edge": []}
    for blob in foreground.blobs:
        middle = ((blob.box.x0 + blob.box.x1) / 2, (blob.box.y0 + blob.box.y1) / 2)
        (stick,) = [
            item
            for item in objects
            if item["bbox"][0] <= middle[0] <= item["bbox"][2]
            and item["bbox"][1] <= middle[1] <= item["bbox"][3]
        ]
        kind = "edge" if stick["face"] == "edge" else "flat"
        widths[kind].append(face_width_mm(foreground.frame, blob, tray.px_per_mm))
    # The generator's sticks are 16 mm wide and 6 mm thick.
    assert len(widths["flat"]) == 3 and len(widths["edge"]) == 1
    assert all(13.0 <= width <= 18.0 for width in widths["flat"]), widths
    assert 4.0 <= widths["edge"][0] <= 8.0, widths
