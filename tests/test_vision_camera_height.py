"""The camera's height above the felt: it places a die's top point and sides in the
picture, and a camera nearer the tray than calibration assumes reads d4s wrong. Told by
calibration (the device's ``above_tray_mm``), by ``--camera-height`` on every command
that calibrates, or by a labelled scene's ``camera_height_mm``."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision import height
from vision.dataset import Scene, generated_d4s, load_scenes
from vision.errors import LabelsError
from vision.height import (
    FEWEST_CONVINCING,
    FEWEST_THROWS,
    HEIGHTS_MM,
    MOST_THROWS,
    HeightEstimate,
    HeightEvidence,
    HeightInPlay,
    bare_tops,
)
from vision.kit import kit_named
from vision.numerals import learn_glyphs
from vision.observation import MARKED, Observation
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import SyntheticScene, scene, write_set
from vision.tray import CAMERA_HEIGHT_MM, FLOOR_MM, LENS_ABOVE_FELT_MM, Tray, calibrate, read_image

NEARER_MM = 260.0
# Drawn with the camera at NEARER_MM, the d4s of these seeds are refused when read as if
# it were at the usual 380 mm (others were read wrong: seeds 27 and 28 with today's
# OpenCV), and read when told, under Bookworm's OpenCV 4.6 too (whose drawn glyphs are
# read less often at all).
NEAR_SEEDS = (53, 81)


@pytest.mark.parametrize("seed", NEAR_SEEDS)
def test_a_camera_told_its_height_reads_a_d4_seen_from_nearer(seed: int) -> None:
    made = scene(seed, "ur-nostick", camera_height_mm=NEARER_MM)
    kit = kit_named("ur-nostick")
    untold = Reader(calibrate(made.empty), default_profile()).read(made.frame, kit)
    assert untold.refused  # taken to be 380 mm
    observation = Reader(calibrate(made.empty, NEARER_MM), default_profile()).read(made.frame, kit)
    assert not observation.refused, observation.summary()
    [die] = observation.implements
    assert die.value == made.objects[0]["value"]


@pytest.mark.parametrize("seed", (27, 28))
def test_a_camera_nearer_than_told_reads_no_d4_wrong(seed: int) -> None:
    """Read as if from 380 mm, these d4s were read wrong (with today's OpenCV; Bookworm's
    draws them otherwise): their top point misplaced, one top numeral sharp enough to read
    and a little like another value (vision.numerals.LONE_TOP_SCORE)."""
    made = scene(seed, "ur-nostick", camera_height_mm=NEARER_MM)
    tray = calibrate(made.empty)  # 380 mm, not told
    observation = Reader(tray, default_profile()).read(made.frame, kit_named("ur-nostick"))
    assert [die.value for die in observation.implements] in ([], [made.objects[0]["value"]])


def _record(**more: object) -> dict[str, object]:
    record: dict[str, object] = {
        "image": "images/0.png",
        "tray": "trays/0.png",
        "kit": "sticks4",
        "expect": "read",
        "objects": [],
    }
    return record | more


def _labelled(folder: Path, **more: object) -> Path:
    made = scene(1, "sticks4")
    for part, picture in (("images", made.frame), ("trays", made.empty)):
        (folder / part).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / part / "0.png"), picture)
    (folder / "labels.jsonl").write_text(json.dumps(_record(**more)) + "\n", encoding="utf-8")
    return folder


def test_a_scenes_labels_say_its_cameras_height(tmp_path: Path) -> None:
    [told] = load_scenes(_labelled(tmp_path / "told", camera_height_mm=450))
    assert told.calibrated().camera_height_mm == 450
    assert told.calibrated(FLOOR_MM, 300.0).camera_height_mm == 450  # the scene's own
    [untold] = load_scenes(_labelled(tmp_path / "untold"))
    assert untold.camera_height_mm is None
    assert untold.calibrated(FLOOR_MM, 300.0).camera_height_mm == 300


def test_a_labelled_height_no_camera_has_is_named_with_its_line(tmp_path: Path) -> None:
    _labelled(tmp_path, camera_height_mm=20)
    with pytest.raises(LabelsError, match=r"line 1: camera_height_mm 20: the lens is 100 to"):
        load_scenes(tmp_path)


def test_evaluate_calibrates_with_the_height_given_and_says_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _untold(write_set(tmp_path / "set", 2, seed=4, trouble_share=0.0), tmp_path / "u")
    heights: list[float] = []
    real = Scene.calibrated

    def recorded(scene: Scene, floor_mm: tuple[float, float], camera_height_mm: float) -> Tray:
        tray = real(scene, floor_mm, camera_height_mm)
        heights.append(tray.camera_height_mm)
        return tray

    monkeypatch.setattr(Scene, "calibrated", recorded)
    assert main(["vision", "evaluate", str(folder), "--camera-height", "420"]) == 0
    assert heights == [420.0, 420.0]
    out = capsys.readouterr().out
    assert out.startswith(
        "trays calibrated as 400 x 300 mm inside (--floor-mm), the camera 420 mm above the "
        "felt (--camera-height)\n"
    )


def test_read_calibrates_an_empty_trays_picture_with_the_height_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(NEAR_SEEDS[0], "ur-nostick", camera_height_mm=NEARER_MM)
    cv2.imwrite(str(tmp_path / "frame.png"), made.frame)
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    args = ["vision", "read", str(tmp_path / "frame.png"), "--tray", str(tmp_path / "empty.png")]
    assert main([*args, "--expect", "ur-nostick", "--json", "--camera-height", "260"]) == 0
    [result] = json.loads(capsys.readouterr().out)
    assert result["read"] and result["implements"][0]["value"] == made.objects[0]["value"]


def test_a_height_against_a_calibration_of_another_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(2, "sticks4")
    calibrate(made.empty).save(tmp_path / "tray")  # 380 mm, not told
    cv2.imwrite(str(tmp_path / "frame.png"), made.frame)
    args = ["vision", "read", str(tmp_path / "frame.png"), "--tray", str(tmp_path / "tray")]
    assert main([*args, "--camera-height", "300"]) == 2
    assert "a camera 380 mm above the felt, not 300: calibrate again" in capsys.readouterr().err
    assert main([*args, "--camera-height", "380"]) == 0


def test_evaluate_draws_dice_seen_from_the_height_given_and_labels_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "near"
    args = ["vision", "evaluate", str(folder), "--synthetic", "6", "--seed", "7101"]
    assert main([*args, "--kit", "ur-nostick", "--camera-height", "260", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["silent_errors"] == 0 and sum(report["scenes"].values()) == 6
    assert report["calibrated_as"]["labelled_camera_height_mm"] == 6
    assert {scene.camera_height_mm for scene in load_scenes(folder)} == {NEARER_MM}
    assert main(["vision", "evaluate", str(folder)]) == 0  # read as the labels say
    assert (
        "felt (the usual); 6 scenes' labels say their camera's height\n" in capsys.readouterr().out
    )


def test_heights_no_camera_has_are_refused_alike_everywhere() -> None:
    from companion.vision_cli import _camera_height

    low, high = LENS_ABOVE_FELT_MM
    assert _camera_height(f"{low:g}") == low and _camera_height(f"{high:g}") == high
    for outside in (low - 1, high + 1):
        with pytest.raises(argparse.ArgumentTypeError, match="the lens is 100 to 2000 mm"):
            _camera_height(f"{outside:g}")
        with pytest.raises(ValueError, match="the lens is 100 to 2000 mm above the felt"):
            scene(1, "modern", camera_height_mm=outside)


@pytest.fixture(scope="module")
def drawn_from_300(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("near") / "set"
    # 32 throws, 18-19 with a far flat d4: 24 had 14, too few to convince under both
    # OpenCVs once the shadows reached the dice.
    return write_set(
        folder, 32, seed=7201, trouble_share=0.0, kits=("ur-nostick",), camera_height_mm=300.0
    )


def test_too_few_d4s_tell_no_height(drawn_from_300: Path) -> None:
    evidence = HeightEvidence()
    for few in load_scenes(drawn_from_300)[: FEWEST_THROWS - 1]:
        evidence.add(read_image(few.image), few.calibrated())
    assert evidence.estimate(CAMERA_HEIGHT_MM) is None


def _untold(labelled: Path, folder: Path) -> Path:
    """``labelled``'s scenes, their labels silent on the camera's height."""
    folder.mkdir()
    for part in ("images", "trays"):
        (folder / part).symlink_to(labelled / part)
    lines = (labelled / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    for record in records:
        record.pop("camera_height_mm", None)
    (folder / "labels.jsonl").write_text(
        "".join(json.dumps(record) + "\n" for record in records), encoding="utf-8"
    )
    return folder


def test_evaluate_measures_an_untold_height_and_uses_it_when_clear(
    drawn_from_300: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    untold = _untold(drawn_from_300, tmp_path / "untold")
    assert main(["vision", "evaluate", str(untold), "--json"]) == 0
    calibrated_as = json.loads(capsys.readouterr().out)["calibrated_as"]
    assert calibrated_as["camera_height_mm"] == pytest.approx(300.0, abs=20.0)
    measured = calibrated_as["camera_height_measured"]
    assert measured["used"] and measured["throws"] >= FEWEST_THROWS
    assert measured["fit_better_than_assumed"] > 4 * measured["fit_worse"]
    assert measured["height_mm"] == pytest.approx(300.0, abs=20.0)  # calibrated as from 380
    assert main(["vision", "evaluate", str(tmp_path / "x"), "--synthetic", "1",
                 "--camera-height", "auto"]) == 2  # fmt: skip
    assert "with --synthetic, --camera-height is the height drawn" in capsys.readouterr().err


def test_evaluate_keeps_the_usual_height_when_the_d4s_fit_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = write_set(tmp_path / "set", 8, seed=7301, trouble_share=0.0, kits=("ur-nostick",))
    untold = _untold(drawn, tmp_path / "untold")
    assert main(["vision", "evaluate", str(untold)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert " the camera 380 mm above the felt (the usual: " in first, first
    assert "throws' d4s fit " in first and "no better beyond chance (" in first, first
    assert main(["vision", "evaluate", str(untold), "--json"]) == 0
    calibrated_as = json.loads(capsys.readouterr().out)["calibrated_as"]
    measured = calibrated_as["camera_height_measured"]
    assert calibrated_as["camera_height_mm"] == 380.0 and not measured["used"]
    assert measured["height_mm"] == pytest.approx(380.0, abs=30.0)


@pytest.mark.parametrize(
    ("closer", "farther", "convincing"),
    [(8, 0, True), (7, 0, False), (11, 1, True), (10, 2, False), (29, 11, True), (16, 4, False)],
)
def test_a_height_is_used_only_where_the_throws_prefer_it_beyond_chance(
    closer: int, farther: int, convincing: bool
) -> None:
    estimate = HeightEstimate(300.0, closer + farther, 380.0, closer, farther)
    assert estimate.convincing is convincing  # a one-sided sign test at 0.5 %


def test_fits_that_tell_nothing_seldom_move_the_height() -> None:
    """The throws choose the height they test: with costs of noise alone, a test at 5 %
    would pass about a fifth of the time; the one used passes a few times in a hundred."""
    rng = np.random.default_rng(3)
    moved = 0
    for _ in range(300):
        evidence = HeightEvidence()
        for costs in 1.0 + rng.normal(0.0, 0.01, (MOST_THROWS, len(HEIGHTS_MM))):
            evidence.add_costs(costs)
        estimate = evidence.estimate(380.0)
        assert estimate is not None and estimate.throws == MOST_THROWS
        moved += estimate.convincing
    assert moved <= 15  # 5 %


def _game_filmed(folder: Path, drawn_from_mm: float, throws: int) -> None:
    """A folder of frames: the empty tray, then throws of the d4 drawn from
    ``drawn_from_mm``, each lying still for four frames and taken away (as BMP, which
    decodes fastest; a picture repeated is written once and linked)."""
    folder.mkdir()
    empty = folder / "0000.bmp"
    cv2.imwrite(
        str(empty), scene(0, "ur-nostick", tray_seed=5, camera_height_mm=drawn_from_mm).empty
    )
    index = 0
    for seed in range(1, throws + 1):
        made = scene(seed, "ur-nostick", tray_seed=5, camera_height_mm=drawn_from_mm)
        first = folder / f"{index + 1:04d}.bmp"
        cv2.imwrite(str(first), made.frame)
        for again in range(index + 2, index + 5):
            (folder / f"{again:04d}.bmp").hardlink_to(first)
        (folder / f"{index + 5:04d}.bmp").hardlink_to(empty)
        index += 5


def test_watch_measures_an_untold_height_from_the_throws_and_reads_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # How watch measures, says and uses a height (not the test's threshold): judged from
    # 12 throws, not 40, at 5 %, not 0.5 %, for time.
    monkeypatch.setattr(height, "MOST_THROWS", 12)
    monkeypatch.setattr(height, "CONVINCING_P", 0.05)
    _game_filmed(tmp_path / "film", NEARER_MM, 40)
    args = ["vision", "watch", "--source", str(tmp_path / "film"), "--expect", "ur-nostick"]
    assert main([*args, "--still", "2", "--averaged", "1"]) == 0
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith("the camera is")]
    assert len(said) == 1 and "mm above the felt, as " in said[0], out
    learned = float(said[0].split()[3])
    assert abs(learned - NEARER_MM) <= 10.0
    before, after = (part.count("): ") for part in out.split(said[0]))
    assert before >= height.MOST_THROWS and after > 0  # said as it is learned, mid-game


def test_read_of_pictures_of_one_tray_measures_an_untold_height(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    throws = [
        scene(7400 + index, "ur-nostick", tray_seed=77, camera_height_mm=300.0)
        for index in range(20)  # 12 with a d4 far enough from the middle to tell
    ]
    cv2.imwrite(str(tmp_path / "empty.png"), throws[0].empty)
    images = []
    for index, throw in enumerate(throws):
        images.append(str(tmp_path / f"{index:02d}.png"))
        cv2.imwrite(images[-1], throw.frame)
    # The generator's numerals as this OpenCV draws them (4.6, Bookworm's, draws a font the
    # shipped glyphs never learned), learned from dice of other throws.
    shipped = default_profile()
    learned = learn_glyphs(list(generated_d4s(16, seed=77)), "generated here")
    Profile("learned here", shipped.prototypes, shipped.glyphs + learned).save(tmp_path / "p")
    read = ["vision", "read", "--tray", str(tmp_path / "empty.png"), "--expect", "ur-nostick"]
    read += ["--profile", str(tmp_path / "p")]
    assert main([*read, "--json", *images]) == 0
    out, err = capsys.readouterr()
    assert "the camera is 300 mm above the felt, as " in err, err
    readings = json.loads(out)
    values = [item["value"] for reading in readings for item in reading["implements"]]
    shown = [throw.objects[0]["value"] for throw in throws]
    assert values == [value for value, r in zip(shown, readings, strict=True) if r["read"]]
    assert len(values) >= len(throws) - 2
    assert main([*read, "--camera-height", "300", *images]) == 0
    assert main([*read, "--each-alone", *images]) == 0
    assert "above the felt" not in capsys.readouterr().err  # told, or each picture alone


def test_a_picture_of_another_size_among_those_measured_stops_none_of_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    throws = [scene(7500 + index, "ur-nostick", tray_seed=78) for index in range(FEWEST_CONVINCING)]
    cv2.imwrite(str(tmp_path / "empty.png"), throws[0].empty)
    images = [str(tmp_path / "small.png")]
    cv2.imwrite(images[0], cv2.resize(throws[0].frame, None, fx=0.5, fy=0.5))
    for index, throw in enumerate(throws):
        images.append(str(tmp_path / f"{index:02d}.png"))
        cv2.imwrite(images[-1], throw.frame)
    read = ["vision", "read", "--tray", str(tmp_path / "empty.png"), "--expect", "ur-nostick"]
    assert main([*read, "--json", *images]) == 2  # one picture cannot be read
    reported = json.loads(capsys.readouterr().out)
    assert [report["image"] for report in reported] == images
    assert "error" in reported[0] and all("read" in report for report in reported[1:])


def _binary_throws(drawn_from_mm: float, count: int, first_seed: int) -> list[SyntheticScene]:
    return [
        scene(first_seed + index, "binary-d4", tray_seed=79, camera_height_mm=drawn_from_mm)
        for index in range(count)
    ]


def test_read_of_binary_d4_pictures_measures_an_untold_height(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # From 260 mm taken as 380, 37 % of such clean throws were refused and 2 of 825 dice
    # read wrong (docs/vision-rounds.md, round 42).
    throws = _binary_throws(NEARER_MM, 20, 7800)
    cv2.imwrite(str(tmp_path / "empty.png"), throws[0].empty)
    images = []
    for index, throw in enumerate(throws):
        images.append(str(tmp_path / f"{index:02d}.png"))
        cv2.imwrite(images[-1], throw.frame)
    read = ["vision", "read", "--tray", str(tmp_path / "empty.png"), "--expect", "binary-d4"]
    assert main([*read, "--json", *images]) == 0
    out, err = capsys.readouterr()
    said = [line for line in err.splitlines() if line.startswith("the camera is ")]
    assert len(said) == 1 and abs(float(said[0].split()[3]) - NEARER_MM) <= 30.0, err
    readings = json.loads(out)
    for throw, reading in zip(throws, readings, strict=True):
        read_faces = sorted(item["face"] for item in reading["implements"])
        assert not reading["read"] or read_faces == sorted(o["face"] for o in throw.objects)
    assert sum(reading["read"] for reading in readings) >= 16


def test_binary_d4s_tell_the_height_by_their_dice_read_marked_tip_down_alone() -> None:
    """A painted top point leans a fit to a camera farther than it is, whatever its height:
    fitted so, 40 throws of binary d4s drawn from 380 mm "measured" 560 (here 16 throws,
    402). The dice read with their marked tip down keep it."""
    throws = _binary_throws(CAMERA_HEIGHT_MM, 16, 7700)
    tray = calibrate(throws[0].empty)
    reader = Reader(tray, default_profile())
    bare, every = HeightEvidence(), HeightEvidence()
    for throw in throws:
        observation = reader.read(throw.frame, kit_named("binary-d4"))
        bare.add(throw.frame, tray, bare_tops(observation))
        every.add(throw.frame, tray, tuple(item.box for item in observation.implements))
    kept, leaning = bare.estimate(CAMERA_HEIGHT_MM), every.estimate(CAMERA_HEIGHT_MM)
    assert kept is not None and leaning is not None
    assert kept.chosen_mm == CAMERA_HEIGHT_MM
    assert abs(kept.height_mm - CAMERA_HEIGHT_MM) <= 30.0
    assert leaning.height_mm > kept.height_mm + 30.0


@pytest.mark.parametrize("resolution", [1.0, 1280 / 1200])  # the device's 1280 x 960 too
def test_a_binary_throw_tells_the_game_nothing_without_a_die_read_marked_tip_down(
    resolution: float,
) -> None:
    # The reader says where dice lie in the picture as taken, at its own scale: its dice
    # must be found among the blobs of the working frame all the same.
    made = scene(7700, "binary-d4", tray_seed=79, resolution=resolution)
    reader = Reader(calibrate(made.empty), default_profile())
    kit = kit_named("binary-d4")
    observation = reader.read(made.frame, kit)
    assert bare_tops(observation)  # this throw has a die read marked tip down
    marked_up = Observation(tuple(replace(item, face=MARKED) for item in observation.implements))
    in_play = HeightInPlay(CAMERA_HEIGHT_MM, needed=2)
    in_play.offer(made.frame, marked_up, kit)
    in_play.measure(reader)
    assert in_play.evidence.throws == 0
    in_play.offer(made.frame, observation, kit)
    in_play.measure(reader)
    assert in_play.evidence.throws == 1
