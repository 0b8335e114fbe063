"""Cameras of other resolutions: pictures are read at the working scale, and told in their
own pixels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import CalibrationError
from vision.kit import kit_named
from vision.observation import Observation
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tray import WORKING_PX_PER_MM, Image, Tray, calibrate


def _resized(image: Image, factor: float) -> Image:
    smoothing = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(image, None, fx=factor, fy=factor, interpolation=smoothing))


def _read(frame: Image, empty: Image, kit: str) -> Observation:
    return Reader(calibrate(empty), default_profile()).read(frame, kit_named(kit))


def _values(observation: Observation) -> list[str]:
    assert not observation.refused, observation.summary()
    return sorted(item.shown for item in observation.implements)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_smaller_picture_reads_as_the_working_one(seed: int) -> None:
    """At 0.7 of the working resolution a d6's pips are too small for every threshold
    measured in pixels; resized to the working scale, they are counted."""
    made = scene(seed, "modern")
    small_frame, small_empty = _resized(made.frame, 0.7), _resized(made.empty, 0.7)
    expected = _values(_read(made.frame, made.empty, "modern"))
    assert _values(_read(small_frame, small_empty, "modern")) == expected


def test_boxes_are_told_in_the_pictures_own_pixels() -> None:
    made = scene(4, "sticks4")
    working = _read(made.frame, made.empty, "sticks4")
    larger = _read(_resized(made.frame, 1.5), _resized(made.empty, 1.5), "sticks4")
    assert _values(larger) == _values(working)
    for item in larger.implements:
        best = max(working.implements, key=lambda w: w.box.scaled(1.5).iou(item.box))
        assert best.box.scaled(1.5).iou(item.box) > 0.8


def test_the_tray_remembers_the_cameras_size(tmp_path: Path) -> None:
    made = scene(1, "sticks4")
    tray = calibrate(_resized(made.empty, 1.5))
    assert tray.px_per_mm == pytest.approx(WORKING_PX_PER_MM)
    assert tray.picture == (1800, 1350)
    assert tray.size == pytest.approx((1200, 900), abs=30)
    tray.save(tmp_path)
    loaded = Tray.load(tmp_path)
    assert loaded.scale == pytest.approx(tray.scale)
    assert loaded.picture == tray.picture
    with pytest.raises(CalibrationError, match="1200x900 but the tray was calibrated on 1800x1350"):
        Reader(loaded, default_profile()).read(made.frame)


def test_a_calibration_saved_before_the_working_scale_is_read_at_it(tmp_path: Path) -> None:
    """Such a calibration kept the empty tray as the camera took it, and no scale."""
    made = scene(1, "sticks4")
    taken = calibrate(made.empty)
    bigger = _resized(made.empty, 1.5)
    cv2.imwrite(str(tmp_path / "empty.png"), bigger)
    record = {"floor": (taken.floor * 1.5).tolist(), "px_per_mm": taken.px_per_mm * 1.5}
    (tmp_path / "tray.json").write_text(json.dumps(record), encoding="utf-8")
    loaded = Tray.load(tmp_path)
    assert loaded.px_per_mm == pytest.approx(WORKING_PX_PER_MM)
    assert loaded.picture == (1800, 1350)
    observation = Reader(loaded, default_profile()).read(_resized(made.frame, 1.5))
    assert _values(observation) == _values(_read(made.frame, made.empty, "sticks4"))


def test_a_picture_too_coarse_for_pips_is_refused_at_calibration() -> None:
    made = scene(1, "sticks4")
    with pytest.raises(CalibrationError, match="pixels per millimetre"):
        calibrate(_resized(made.empty, 0.5))
