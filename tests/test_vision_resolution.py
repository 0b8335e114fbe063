"""Throws drawn as a camera of more (or fewer) pixels than the development set's takes them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.kit import kit_named
from vision.numerals import Glyph
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tray import calibrate


def _what(item: dict[str, object]) -> dict[str, object]:
    """A labelled implement without where it lies."""
    return {key: value for key, value in item.items() if key not in ("bbox", "top", "base")}


@pytest.mark.parametrize(("seed", "kit"), [(3, "ur"), (4, "modern"), (5, "sticks4")])
def test_a_throw_drawn_with_twice_the_pixels_is_the_same_throw(
    seed: int, kit: str, synthetic_d4_glyphs: tuple[Glyph, ...]
) -> None:
    usual, sharp = scene(seed, kit), scene(seed, kit, resolution=2.0)
    assert sharp.frame.shape == (1800, 2400, 3) and sharp.empty.shape == (1800, 2400, 3)
    assert [_what(item) for item in usual.objects] == [_what(item) for item in sharp.objects]
    for item, twice in zip(usual.objects, sharp.objects, strict=True):
        assert np.allclose(np.asarray(twice["bbox"]), 2 * np.asarray(item["bbox"]), atol=3)
    tray = calibrate(sharp.empty)
    assert tray.scale == pytest.approx(0.5, abs=0.03)
    # Glyphs of the running OpenCV's drawing: its versions draw the generator's fonts apart.
    profile = Profile("d4", default_profile().prototypes, synthetic_d4_glyphs)
    observation = Reader(tray, profile).read(sharp.frame, kit_named(kit))
    assert not observation.refusals


def test_the_generated_resolution_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match=r"a resolution of 5 cannot be drawn: 0\.75 to 3"):
        scene(1, "ur", resolution=5.0)
    out = tmp_path / "drawn"
    assert main(["vision", "evaluate", str(out), "--synthetic", "2", "--resolution", "5"]) == 2
    assert "--resolution 5: from 0.75 to 3" in capsys.readouterr().err
    for resolution in ("2", "0"):  # a zero is an option given too, not one left out
        assert main(["vision", "evaluate", str(out), "--resolution", resolution]) == 2
        assert "give --synthetic N too" in capsys.readouterr().err
    assert not out.exists()


def test_a_set_drawn_with_more_pixels_is_measured_with_its_numerals_read_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sharp"
    args = ["vision", "evaluate", str(out), "--synthetic", "2", "--kit", "ur-nostick"]
    assert main([*args, "--resolution", "2", "--detail-numerals", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["objects"] >= 2
    drawn = cv2.imread(str(out / "images" / "00000.png"))
    assert drawn is not None and drawn.shape == (1800, 2400, 3)
