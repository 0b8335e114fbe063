"""The camera's focus: a frame blurrier than the empty tray calibrated is told, and refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.focus import BLURRED_PX, FocusCheck
from vision.observation import Reason
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tray import Image, calibrate


def _blurred(frame: Image, sigma: float) -> Image:
    return np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.uint8)


def _noisy(frame: Image, level: float, seed: int = 0) -> Image:
    noise = np.random.default_rng(seed).normal(0, level, frame.shape)
    return np.asarray(np.clip(frame + noise, 0, 255), np.uint8)


def _extra_blur(reader: Reader, frame: Image) -> float | None:
    foreground = reader.segmenter.foreground(frame)
    return reader.focus.extra_blur(foreground.frame, foreground.mask)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader(calibrate(scene(4, "ur").empty), default_profile())


def test_a_frame_as_sharp_as_the_empty_tray_is_not_blurred(reader: Reader) -> None:
    extra = _extra_blur(reader, scene(4, "ur").frame)
    assert extra is not None and abs(extra) < 0.3


@pytest.mark.parametrize("sigma", [1.0, 1.5, 2.0])
def test_a_blur_is_measured_in_working_pixels(reader: Reader, sigma: float) -> None:
    extra = _extra_blur(reader, _blurred(scene(4, "ur").frame, sigma))
    assert extra == pytest.approx(sigma, abs=0.2)


def test_noise_is_not_taken_for_blur(reader: Reader) -> None:
    extra = _extra_blur(reader, _noisy(scene(4, "ur").frame, 6))
    assert extra is not None and extra < 0


def test_patches_under_something_are_left_out() -> None:
    made = scene(4, "ur")
    tray = calibrate(made.empty)
    check = FocusCheck(tray.empty, tray.floor, tray.px_per_mm)
    frame = _blurred(made.frame, 1.5)
    everywhere = np.full(frame.shape[:2], 255, np.uint8)
    assert check.extra_blur(frame, everywhere) is None
    half_size = np.zeros((frame.shape[0] // 2, frame.shape[1] // 2), np.uint8)
    extra = check.extra_blur(frame, half_size)
    assert extra is not None and extra >= BLURRED_PX


def test_a_tray_without_edges_tells_nothing() -> None:
    tray = calibrate(scene(4, "ur").empty)
    flat = np.full_like(tray.empty, 120)
    check = FocusCheck(flat, tray.floor, tray.px_per_mm)
    assert not check.measurable
    assert check.extra_blur(flat, np.zeros(flat.shape[:2], np.uint8)) is None
    assert FocusCheck(tray.empty, tray.floor, tray.px_per_mm).measurable


@pytest.mark.parametrize(("seed", "kit"), [(4, "ur"), (5, "modern"), (3, "sticks4")])
def test_a_throw_seen_out_of_focus_is_refused_for_the_focus(seed: int, kit: str) -> None:
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    assert Reason.BLURRED not in {r.reason for r in reader.read(made.frame).refusals}
    observation = reader.read(_blurred(made.frame, 1.6))
    assert [r.reason for r in observation.refusals] == [Reason.BLURRED]
    assert not observation.implements
    assert "focus the camera" in observation.summary()


def test_a_frame_a_little_soft_is_read_as_it_is(reader: Reader) -> None:
    made = scene(4, "ur")
    soft = _blurred(made.frame, 0.5)
    assert Reason.BLURRED not in {r.reason for r in reader.read(soft).refusals}


def test_an_empty_tray_out_of_focus_is_told_empty(reader: Reader) -> None:
    observation = reader.read(_blurred(scene(4, "ur").empty, 1.6))
    assert [r.reason for r in observation.refusals] == [Reason.EMPTY]


def test_a_soft_lens_at_calibration_too_is_no_blur() -> None:
    """Frames and empty tray blurred alike (a lens soft from the start): nothing changed
    since calibration, and the throw is read as that camera allows."""
    made = scene(4, "ur")
    reader = Reader(calibrate(_blurred(made.empty, 1.2)), default_profile())
    observation = reader.read(_blurred(made.frame, 1.2))
    assert Reason.BLURRED not in {r.reason for r in observation.refusals}
