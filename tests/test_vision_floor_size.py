"""Trays of other sizes: calibration is told the tray's inside, and refuses a floor whose
proportions are not the tray's rather than measure every implement wrong."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from vision.dataset import load_scenes
from vision.errors import CalibrationError, LabelsError
from vision.kit import kit_named
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import PX_PER_MM, SIZE, SyntheticScene, check_drawable, scene, write_set
from vision.tray import FLOOR_MM, Tray, calibrate

SMALL = (320.0, 240.0)  # the proportions of the usual tray, four fifths of its size
NARROW = (400.0, 250.0)


def _truth(made: SyntheticScene) -> list[str]:
    return sorted(str(o.get("face", o.get("value"))) for o in made.objects)


def _read(made: SyntheticScene, tray: Tray, kit: str) -> list[str]:
    observation = Reader(tray, default_profile()).read(made.frame, kit_named(kit))
    assert not observation.refused, observation.summary()
    return sorted(item.shown for item in observation.implements)


@pytest.mark.parametrize(("seed", "kit"), [(2, "sticks4"), (2, "sticks3"), (3, "modern")])
def test_a_smaller_tray_told_its_size_is_read(seed: int, kit: str) -> None:
    made = scene(seed, kit, floor_mm=SMALL)
    tray = calibrate(made.empty, floor_mm=SMALL)
    assert tray.px_per_mm == pytest.approx(PX_PER_MM, rel=0.03)
    assert tray.floor_mm == SMALL
    assert _read(made, tray, kit) == _truth(made)


def test_a_tray_of_other_proportions_is_not_calibrated_as_the_usual_one() -> None:
    made = scene(4, "sticks4", floor_mm=NARROW)
    with pytest.raises(CalibrationError, match=r"1\.6\d times as long as wide.*--floor-mm"):
        calibrate(made.empty)
    assert calibrate(made.empty, floor_mm=NARROW).px_per_mm == pytest.approx(PX_PER_MM, rel=0.03)


def test_the_usual_trays_proportions_pass_with_a_strip_lost_to_a_wall() -> None:
    """The development set's floors measure 0.966-1.057 of the tray's proportions."""
    shaded = scene(5, "sticks4").empty.copy()
    (width, height), (long_mm, short_mm) = SIZE, FLOOR_MM
    left, top = round((width - long_mm * PX_PER_MM) / 2), round((height - short_mm * PX_PER_MM) / 2)
    right = left + round(long_mm * PX_PER_MM)
    shaded[top : top + round(20 * PX_PER_MM), left:right] = (70, 110, 140)  # the wall's shade
    assert calibrate(shaded).px_per_mm == pytest.approx(PX_PER_MM, rel=0.01)


def test_a_floor_no_tray_has_is_refused() -> None:
    with pytest.raises(CalibrationError, match="each side is 100 to 2000 mm"):
        calibrate(scene(5, "sticks4").empty, floor_mm=(400.0, 30.0))


def test_the_floors_size_is_kept_with_the_calibration(tmp_path: Path) -> None:
    made = scene(6, "sticks4", floor_mm=SMALL)
    calibrate(made.empty, floor_mm=(240.0, 320.0)).save(tmp_path / "tray")
    assert Tray.load(tmp_path / "tray").floor_mm == SMALL  # long side first
    record = json.loads((tmp_path / "tray" / "tray.json").read_text(encoding="utf-8"))
    del record["floor_mm"]  # a calibration saved before trays had a size
    (tmp_path / "tray" / "tray.json").write_text(json.dumps(record), encoding="utf-8")
    assert Tray.load(tmp_path / "tray").floor_mm == FLOOR_MM


def test_the_generator_draws_only_floors_that_fit_its_picture() -> None:
    check_drawable(SMALL)
    with pytest.raises(ValueError, match="cannot be drawn"):
        scene(1, "sticks4", floor_mm=(600.0, 300.0))


def test_the_generator_draws_no_floor_whose_walls_leave_the_picture() -> None:
    with pytest.raises(ValueError, match="cannot be drawn"):
        check_drawable((480.0, 360.0))  # calibration finds no wall round it
    assert calibrate(scene(1, "ur", floor_mm=(470.0, 350.0)).empty, floor_mm=(470.0, 350.0))


def test_a_throw_with_no_room_left_for_its_last_stick_is_drawn_again() -> None:
    # Seed 2's sticks, laid one after another on this floor, leave the third no room.
    made = scene(2, "sticks3", floor_mm=(200.0, 150.0))
    assert [item["kind"] for item in made.objects] == ["stick"] * 3


def test_a_kit_too_large_for_the_floor_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="no room for a throw of sticks4 on a floor of 200"):
        scene(1, "sticks4", floor_mm=(200.0, 150.0))
    out = tmp_path / "set"
    args = ["vision", "evaluate", str(out), "--synthetic", "3", "--kit", "sticks4"]
    assert main([*args, "--floor-mm", "200x150"]) == 2
    assert "draw a larger floor" in capsys.readouterr().err
    assert not (out / "images").exists() and not (out / "labels.jsonl").exists()


def test_calibrate_command_takes_the_floors_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), scene(7, "sticks4", floor_mm=NARROW).empty)
    args = ["vision", "calibrate", "--source", str(tmp_path / "empty"), "--by", "outline"]
    assert main([*args, "--out", str(tmp_path / "tray")]) == 2
    assert "give the tray's inside size (--floor-mm" in capsys.readouterr().err
    assert not (tmp_path / "tray").exists()
    assert main([*args, "--out", str(tmp_path / "tray"), "--floor-mm", "250x400"]) == 0
    assert "by its outline (400 x 250 mm inside): 2.4" in capsys.readouterr().out


def test_a_floor_size_that_is_not_one_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["vision", "read", "x.png", "--tray", "t.png", "--floor-mm", "400 by 300"])
    assert exit_.value.code == 2
    assert "LONGxSHORT millimetres, e.g. 400x300" in capsys.readouterr().err


def test_read_calibrates_an_empty_trays_picture_of_the_size_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(8, "sticks4", floor_mm=NARROW)
    cv2.imwrite(str(tmp_path / "frame.png"), made.frame)
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    args = ["vision", "read", str(tmp_path / "frame.png"), "--tray", str(tmp_path / "empty.png")]
    assert main([*args, "--expect", "sticks4", "--json"]) == 2
    assert "1.6" in capsys.readouterr().err
    assert main([*args, "--expect", "sticks4", "--json", "--floor-mm", "400x250"]) == 0
    [result] = json.loads(capsys.readouterr().out)
    assert result["read"], result


def test_evaluate_draws_and_reads_trays_of_the_size_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "small"
    args = ["vision", "evaluate", str(folder), "--synthetic", "4", "--seed", "3", "--json"]
    assert main([*args, "--floor-mm", "320x240"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["silent_errors"] == 0 and report["objects"] > 0
    assert {scene.floor_mm for scene in load_scenes(folder)} == {SMALL}
    assert main(["vision", "evaluate", str(tmp_path / "x"), "--synthetic", "1", "--floor-mm",
                 "900x600"]) == 2  # fmt: skip
    assert "--floor-mm: a floor of 900 x 600 mm cannot be drawn" in capsys.readouterr().err


def test_labels_with_a_floor_no_tray_has_say_where(tmp_path: Path) -> None:
    record = {
        "image": "images/0.png",
        "tray": "trays/0.png",
        "kit": "sticks4",
        "expect": "read",
        "objects": [],
        "floor_mm": [400],
    }
    (tmp_path / "labels.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(LabelsError, match=r"labels\.jsonl, line 1"):
        load_scenes(tmp_path)


def test_evaluate_refuses_the_scenes_of_a_tray_it_cannot_calibrate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One tray of other proportions, its size not in the labels: its scene is refused
    with the reason, the others are read."""
    folder = write_set(tmp_path / "set", 3, seed=3, trouble_share=0.0)
    narrow = scene(9, "sticks4", floor_mm=NARROW).empty
    cv2.imwrite(str(folder / "trays" / "00001.png"), narrow)
    assert main(["vision", "evaluate", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["refusal_reasons"]["calibration"] == 1
    assert report["scenes"] == {"read/correct": 2, "read/refused": 1}
    assert "00001.png: read, refused (calibration: the floor seen is 1.6" in report["mistakes"][0]


def test_a_floor_size_against_a_calibration_of_another_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--floor-mm with a calibration folder is not silently ignored."""
    made = scene(10, "sticks4")
    calibrate(made.empty).save(tmp_path / "tray")
    cv2.imwrite(str(tmp_path / "frame.png"), made.frame)
    args = ["vision", "read", str(tmp_path / "frame.png"), "--tray", str(tmp_path / "tray")]
    assert main([*args, "--floor-mm", "450x320"]) == 2
    assert "is of a tray of 400 x 300 mm, not 450 x 320" in capsys.readouterr().err
    assert main([*args, "--floor-mm", "300x400"]) == 0  # the same size, either way round


def test_a_calibration_with_a_floor_no_tray_has_is_a_clear_error(tmp_path: Path) -> None:
    calibrate(scene(10, "sticks4").empty).save(tmp_path / "tray")
    path = tmp_path / "tray" / "tray.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["floor_mm"] = [400, 0]
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"cannot be read: a tray floor of 400 x 0 mm"):
        Tray.load(tmp_path / "tray")
