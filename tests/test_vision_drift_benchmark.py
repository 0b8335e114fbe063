"""The drift benchmark's changes do what their rows say."""

from __future__ import annotations

import numpy as np

from benchmarks.vision_drift import resampled, shifted


def _step() -> np.ndarray:
    """A dark left half and a light right half, three channels."""
    picture = np.zeros((6, 8, 3), np.uint8)
    picture[:, 4:] = 200
    return picture


def test_a_whole_pixel_shift_moves_the_picture_exactly() -> None:
    moved = shifted(1, 0)(_step())
    assert np.array_equal(moved[:, 5:], np.full((6, 3, 3), 200, np.uint8))
    assert np.array_equal(moved[:, 1:5], np.zeros((6, 4, 3), np.uint8))


def test_a_half_pixel_shift_samples_between_pixels() -> None:
    moved = shifted(0.5, 0)(_step())
    assert np.array_equal(moved[:, 4], np.full((6, 3), 100, np.uint8))  # half dark, half light
    assert np.array_equal(moved[:, 5:], np.full((6, 3, 3), 200, np.uint8))


def test_resampling_changes_the_empty_tray_too() -> None:
    drift = resampled(0.5, 0.5)
    assert drift.empty_too and drift.recalibrated
    assert drift.offset == (0, 0)  # the labels' boxes stay where they were
