"""Calibration refuses a tray with something on its floor (it would be taken for felt)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import CalibrationError
from vision.markers import markers_available
from vision.synthetic import scene
from vision.tray import calibrate, require_empty, things_left_on_floor


@pytest.mark.parametrize("seed", range(6))
def test_an_empty_tray_passes(seed: int) -> None:
    cards = seed % 2 == 0 and markers_available()  # drawing the cards needs OpenCV 4.7
    empty = scene(seed, "sticks4", markers=cards).empty
    assert things_left_on_floor(calibrate(empty)) == []


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (3, "sticks3")])
def test_implements_left_on_the_floor_are_found(seed: int, kit: str) -> None:
    made = scene(seed, kit)
    found = things_left_on_floor(calibrate(made.frame))
    assert found
    boxes = [o["bbox"] for o in made.objects]
    for x0, y0, x1, y1 in found:  # each box lies over an implement
        assert any(x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1 for bx0, by0, bx1, by1 in boxes)
    with pytest.raises(CalibrationError, match="not empty"):
        require_empty(calibrate(made.frame))


def test_the_calibrate_command_refuses_a_tray_that_is_not_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0.png"), scene(2, "modern").frame)
    command = ["vision", "calibrate", "--source", str(tmp_path / "frames")]
    assert main([*command, "--out", str(tmp_path / "tray"), "--by", "outline"]) == 2
    assert "the tray is not empty" in capsys.readouterr().err
    assert not (tmp_path / "tray").exists()


def test_what_is_left_is_placed_in_the_pictures_own_pixels() -> None:
    """A camera of twice the working resolution: the message names the place in its
    pictures, not in the working ones."""
    made = scene(2, "modern")
    bigger = np.asarray(cv2.resize(made.frame, None, fx=2.0, fy=2.0), np.uint8)
    with pytest.raises(CalibrationError, match=r"around \((\d+), (\d+)\)") as raised:
        require_empty(calibrate(bigger))
    found = re.search(r"around \((\d+), (\d+)\)", str(raised.value))
    assert found is not None
    x, y = int(found[1]) / 2, int(found[2]) / 2
    boxes = [cast(list[int], o["bbox"]) for o in made.objects]
    assert any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)
