"""``companion vision ...`` from the command line, on generated images: no camera needed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from companion.cli import main
from vision.sources import is_stream
from vision.synthetic import PX_PER_MM, scene, write_set
from vision.tray import read_image


@pytest.fixture
def modern_throw(tmp_path: Path) -> tuple[Path, Path]:
    """A generated throw of two d6s and its empty tray, as image files: (throw, empty)."""
    made = scene(4, "modern")
    cv2.imwrite(str(tmp_path / "throw.png"), made.frame)
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    return tmp_path / "throw.png", tmp_path / "empty.png"


def test_read_prints_the_observation_as_json(
    modern_throw: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(4, "modern")
    throw, empty = modern_throw
    args = ["vision", "read", str(throw), "--tray", str(empty)]
    assert main([*args, "--expect", "modern", "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["image"].endswith("throw.png")
    if record["read"]:
        values = sorted(i["value"] for i in record["implements"])
        assert values == sorted(o["value"] for o in made.objects)
    else:
        assert record["refusals"][0]["message"]


def test_calibrate_then_read_with_a_game_gives_a_throw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(7, "sticks4")
    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), made.empty)
    cv2.imwrite(str(tmp_path / "throw.png"), made.frame)
    assert (
        main(
            [
                "vision",
                "calibrate",
                "--source",
                str(tmp_path / "empty"),
                "--out",
                str(tmp_path / "tray"),
            ]
        )
        == 0
    )
    assert (tmp_path / "tray" / "tray.json").is_file()
    assert "px/mm" in capsys.readouterr().out
    args = ["vision", "read", str(tmp_path / "throw.png"), "--tray", str(tmp_path / "tray")]
    assert main([*args, "--game", "senet-kendall", "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["read"] == ("throw" in record)


def test_evaluate_counts_every_labelled_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_set(tmp_path / "set", 6, seed=3)
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    assert (
        main(
            ["vision", "evaluate", str(folder), "--json", "--mistakes", str(tmp_path / "mistakes")]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["objects"] == sum(len(label["objects"]) for label in labels)
    assert len(list((tmp_path / "mistakes").glob("*.png"))) == len(report["mistakes"])


def _generated_labels(
    folder: Path, capsys: pytest.CaptureFixture[str], option: str, sizes: tuple[str, str]
) -> list[dict[str, Any]]:
    """The labels of a set written and read by ``evaluate --synthetic`` with a size option;
    then that option in the wrong order, with a size of 0, or without ``--synthetic``,
    must be messages."""
    args = ["vision", "evaluate", str(folder), "--synthetic", "12", "--seed", "5", "--json"]
    assert main([*args, option, *sizes]) == 0
    assert json.loads(capsys.readouterr().out)["objects"] > 0
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    for wrong in ((sizes[1], sizes[0]), ("0", sizes[0])):
        assert main([*args, option, *wrong]) == 2
        message = f"{option} {' '.join(wrong)}: two sizes in mm, the smaller first"
        assert message in capsys.readouterr().err
    assert main(["vision", "evaluate", str(folder), option, *sizes]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err
    return labels


def test_evaluate_generates_d4s_of_the_edges_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = _generated_labels(tmp_path / "set", capsys, "--d4-edge-mm", ("18", "19"))
    drawn = [o for label in labels for o in label["objects"] if "base" in o]
    assert drawn
    for die in drawn:
        base = np.asarray(die["base"])
        edges_px = np.hypot(*(base - np.roll(base, 1, axis=0)).T)
        assert np.all((edges_px >= 18 * PX_PER_MM - 1) & (edges_px <= 19 * PX_PER_MM + 1))


def test_evaluate_generates_d6s_of_the_sides_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = _generated_labels(tmp_path / "set", capsys, "--d6-side-mm", ("30", "31"))
    drawn = [o for label in labels for o in label["objects"] if o["kind"] == "d6"]
    boxes = [o["bbox"] for o in drawn if not o.get("cut")]
    assert boxes
    # A box is at least the die's side; an 18 mm die, the default's largest, never spans 30 mm.
    for left, top, right, bottom in boxes:
        assert min(right - left, bottom - top) >= 30 * PX_PER_MM - 1


def test_a_missing_camera_is_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["vision", "watch", "--source", str(tmp_path / "nothing.mp4"), "--tray", "x"])
    assert code == 2
    assert "no such camera" in capsys.readouterr().err


def test_a_picture_of_another_size_than_the_trays_is_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(4, "modern")
    cv2.imwrite(str(tmp_path / "throw.png"), cv2.resize(made.frame, (800, 600)))
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    args = ["vision", "read", str(tmp_path / "throw.png"), "--tray", str(tmp_path / "empty.png")]
    assert main(args) == 2
    assert "800x600" in capsys.readouterr().err


def test_calibrate_by_the_printed_corner_markers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.markers import markers_available

    if not markers_available():
        pytest.skip("this OpenCV has no ArUco markers")
    made = scene(6, "sticks4", markers=True)
    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), made.empty)
    args = ["vision", "calibrate", "--source", str(tmp_path / "empty"), "--by", "markers"]
    assert main([*args, "--out", str(tmp_path / "tray")]) == 0
    assert "by its markers (400 x 300 mm inside): 2.4" in capsys.readouterr().out
    record = json.loads((tmp_path / "tray" / "tray.json").read_text(encoding="utf-8"))
    assert record["floor"][0] == pytest.approx([104, 78], abs=2)
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), scene(6, "sticks4").empty)
    assert main([*args, "--out", str(tmp_path / "tray2")]) == 2
    assert "corner markers not seen" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("tray_given", "said"),
    [
        # The folder's first picture is the empty tray, then a throw of marked faces.
        (False, ["picture 1 (every stick marked face up): 4 taken", "only 0 plain faces"]),
        # With --tray, the empty tray is a picture showing no face: the same faces are
        # asked for again.
        (
            True,
            [
                "picture 1 (every stick marked face up): 0 taken: no flat stick seen",
                "picture 2 (every stick marked face up): 4 taken",
            ],
        ),
    ],
)
def test_guided_enrolment_explains_and_asks_for_more_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tray_given: bool, said: list[str]
) -> None:
    made = scene(8, "sticks4")
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    cv2.imwrite(str(tmp_path / "frames" / "0.png"), made.empty)
    cv2.imwrite(str(tmp_path / "frames" / "1.png"), made.frame)
    args = ["vision", "enrol", "--source", str(tmp_path / "frames"), "--out", "x.json"]
    assert main(args + (["--tray", str(tmp_path / "empty.png")] if tray_given else [])) == 2
    err = capsys.readouterr().err
    for line in said:
        assert line in err


def test_a_broken_labels_line_is_named_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_set(tmp_path / "set", 2, seed=3)
    labels = folder / "labels.jsonl"
    first, *_ = labels.read_text(encoding="utf-8").splitlines()
    record = json.loads(first)
    del record["objects"]
    labels.write_text(first + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["vision", "evaluate", str(folder)]) == 2
    assert "labels.jsonl, line 2: no 'objects'" in capsys.readouterr().err
    labels.write_text(first + "\n{not json\n", encoding="utf-8")
    assert main(["vision", "enrol", "--labels", str(folder), "--out", "x.json"]) == 2
    assert "labels.jsonl, line 2:" in capsys.readouterr().err


def test_a_profile_that_cannot_be_written_is_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_set(tmp_path / "set", 2, seed=3)
    out = tmp_path / "no such folder" / "p.json"
    assert main(["vision", "enrol", "--labels", str(folder), "--out", str(out)]) == 2
    assert "the profile cannot be written to" in capsys.readouterr().err


@pytest.mark.parametrize("height", ["0", "tall", "20"])
def test_an_impossible_camera_height_is_refused(
    height: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vision", "calibrate", "--source", str(tmp_path), "--out", str(tmp_path / "t")]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--camera-height", height])
    assert exit_.value.code == 2
    assert "--camera-height" in capsys.readouterr().err


def test_evaluate_generates_d4s_in_the_font_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vision", "evaluate", "--synthetic", "12", "--seed", "5", "--json"]
    assert main([*args[:2], str(tmp_path / "sans"), *args[2:]]) == 0
    assert main([*args[:2], str(tmp_path / "script"), *args[2:], "--d4-font", "script"]) == 0
    capsys.readouterr()
    labels = (tmp_path / "sans" / "labels.jsonl").read_text().splitlines()
    assert labels == (tmp_path / "script" / "labels.jsonl").read_text().splitlines()
    changed = 0
    for line in labels:
        label = json.loads(line)
        sans, script = (read_image(tmp_path / font / label["image"]) for font in ("sans", "script"))
        differs = np.any(sans != script, axis=2)
        for item in label["objects"]:
            if item["kind"] == "d4" and "value" in item:  # a numbered d4, painted in the font
                x0, y0, x1, y1 = item["bbox"]
                changed += int(differs[y0:y1, x0:x1].any())
                differs[y0:y1, x0:x1] = False
        assert not differs.any()  # nothing but the numbered d4s changed
    assert changed
    assert main(["vision", "evaluate", str(tmp_path / "sans"), "--d4-font", "script"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err


def _generated_with_and_without(
    tmp_path: Path, option: str, *, count: int, seed: int, kit: str = "modern"
) -> tuple[Path, Path]:
    """The same throws of ``kit`` (two d6s) generated twice by ``evaluate``: as always,
    then with ``option``."""
    plain, changed = tmp_path / "plain", tmp_path / "changed"
    args = ["--synthetic", str(count), "--seed", str(seed), "--kit", kit, "--json"]
    assert main(["vision", "evaluate", str(plain), *args]) == 0
    assert main(["vision", "evaluate", str(changed), *args, option]) == 0
    return plain, changed


def _pictures_changed(
    plain_set: Path, changed_set: Path
) -> Iterator[tuple[dict[str, Any], NDArray[np.int_], NDArray[np.int_], NDArray[np.bool_]]]:
    """Per throw of the two sets: its label, its picture with the option and without (as
    ints), and where they differ."""
    for line in (changed_set / "labels.jsonl").read_text().splitlines():
        label = json.loads(line)
        changed = read_image(changed_set / label["image"]).astype(int)
        plain = read_image(plain_set / label["image"]).astype(int)
        yield label, changed, plain, np.any(changed != plain, axis=2)


def test_evaluate_generates_dice_of_the_felts_colour_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    any_die, felt_set = _generated_with_and_without(tmp_path, "--dice-of-felt", count=4, seed=3)
    capsys.readouterr()
    labels = (felt_set / "labels.jsonl").read_text().splitlines()
    unlike = 0
    for line in labels:
        label = json.loads(line)
        empty = read_image(felt_set / label["tray"])
        felt = np.median(empty[400:500, 500:700].reshape(-1, 3), axis=0)  # the floor's middle
        painted = read_image(felt_set / label["image"])
        for item in label["objects"]:  # each die's middle is the felt's colour, lit or shaded
            x0, y0, x1, y1 = item["bbox"]
            middle = painted[(y0 + y1) // 2, (x0 + x1) // 2]
            ratio = middle.astype(float) / np.maximum(felt, 1.0)
            assert float(ratio.max() - ratio.min()) < 0.15, (middle, felt)
        unlike += int(np.any(read_image(any_die / label["image"]) != painted))
    assert unlike  # the option changed the pictures
    assert main(["vision", "evaluate", str(felt_set), "--dice-of-felt"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err


def test_evaluate_generates_dice_under_a_lamps_reflection_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matt_set, glossy_set = _generated_with_and_without(tmp_path, "--d6-glare", count=3, seed=4)
    capsys.readouterr()
    lit = 0
    for label, glossy, matt, differs in _pictures_changed(matt_set, glossy_set):
        assert np.all(glossy[differs] >= matt[differs])  # only lighter
        for item in label["objects"]:  # within the dice alone
            x0, y0, x1, y1 = item["bbox"]
            lit += int(differs[y0:y1, x0:x1].sum() > 100)
            differs[y0:y1, x0:x1] = False
        assert not differs.any()
    assert lit
    assert main(["vision", "evaluate", str(glossy_set), "--d6-glare"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err


def test_evaluate_generates_shadows_apart_from_the_implements_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A d4's faces are pasted with the camera's blur along their outline, which changes
    # the felt a pixel or two beyond it: drawn with banded shadows, a band the shadow leaves.
    grounded_set, banded_set = _generated_with_and_without(
        tmp_path, "--banded-shadows", count=3, seed=5, kit="ur-nostick"
    )
    capsys.readouterr()
    shaded = 0
    for label, banded, grounded, differs in _pictures_changed(grounded_set, banded_set):
        assert np.all(grounded[differs] <= banded[differs])  # the grounded only darker
        beside = np.zeros_like(differs)
        for item in label["objects"]:  # the band just round each die, not the die
            x0, y0, x1, y1 = item["bbox"]
            beside[max(0, y0 - 3) : y1 + 3, max(0, x0 - 3) : x1 + 3] = True
            if "base" in item:  # a d4 lying flat: its base's middle is far inside it
                x, y = (round(v) for v in np.mean(item["base"], axis=0))
                assert not differs[y - 4 : y + 5, x - 4 : x + 5].any()
        assert not (differs & ~beside).any()
        shaded += int(differs.sum())
    assert shaded
    assert main(["vision", "evaluate", str(banded_set), "--banded-shadows"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err


def test_evaluate_generates_throws_of_one_kit_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vision", "evaluate", str(tmp_path / "set"), "--synthetic", "6", "--seed", "2"]
    assert main([*args, "--kit", "modern", "--json"]) == 0
    capsys.readouterr()
    lines = (tmp_path / "set" / "labels.jsonl").read_text().splitlines()
    assert [json.loads(line)["kit"] for line in lines] == ["modern"] * 6
    assert main(["vision", "evaluate", str(tmp_path / "set"), "--kit", "modern"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err


def _throw_filmed(folder: Path, still: int) -> None:
    """A folder of frames: the empty tray, then a throw lying still, each frame with noise
    of its own (as a camera gives)."""
    made = scene(6, "sticks4")
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), made.empty)
    for index in range(1, still + 1):
        noise = np.random.default_rng(index).normal(0.0, 6.0, made.frame.shape)
        frame = np.clip(made.frame + noise, 0, 255).astype(np.uint8)
        cv2.imwrite(str(folder / f"{index:03d}.png"), frame)


@pytest.mark.parametrize(("averaged", "frames_needed"), [("4", 9), ("1", 6)])
def test_watch_reads_a_settled_throw_from_averaged_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], averaged: str, frames_needed: int
) -> None:
    """Still from the first frame after the empty tray (no frame before it to differ from),
    read once still for 5 frames and again ``averaged`` frames later: two agreeing
    readings of ``averaged`` frames each, none shared."""
    for still, readings in ((frames_needed - 1, 0), (frames_needed, 1)):
        folder = tmp_path / f"{averaged}-{still}"
        _throw_filmed(folder, still)
        args = ["--source", str(folder), "--expect", "sticks4", "--averaged", averaged]
        assert main(["vision", "watch", *args]) == 0
        assert capsys.readouterr().out.count("throw 1") == readings


def _film(path: Path, empty_frames: int, throw_frames: int) -> None:
    """A video (MJPG): the empty tray, then a throw lying still, each frame with noise of
    its own, as a camera films it."""
    made = scene(6, "sticks4")
    height, width = made.frame.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (width, height))
    rng = np.random.default_rng(0)
    for picture, count in ((made.empty, empty_frames), (made.frame, throw_frames)):
        for _ in range(count):
            noise = rng.normal(0.0, 6.0, picture.shape)
            writer.write(np.clip(picture + noise, 0, 255).astype(np.uint8))
    writer.release()


def test_watch_calibrates_a_video_from_its_first_still_frames_averaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A video streams one scene, as a camera does: its first still frames, the empty
    tray, are averaged for its calibration (the throws are read from frames averaged, and
    an empty tray noisier than they are makes them look blurred: vision.focus), and the
    throw filmed after them is read; a folder's pictures are each of their own."""
    _film(tmp_path / "throw.avi", 6, 12)
    assert is_stream(str(tmp_path / "throw.avi")) and not is_stream(str(tmp_path))
    args = ["--source", str(tmp_path / "throw.avi"), "--expect", "sticks4", "--json"]
    assert main(["vision", "watch", *args]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert record["read"] and not record["refusals"], record


@pytest.mark.parametrize("option", ["--averaged", "--still"])
def test_watch_refuses_no_frame_to_wait_for_or_average(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    with pytest.raises(SystemExit):
        main(["vision", "watch", "--source", "x", option, "0"])
    assert f"{option}: 0: at least 1" in capsys.readouterr().err


def test_watch_prints_a_json_line_per_settled_throw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _throw_filmed(tmp_path / "film", 9)
    args = ["--source", str(tmp_path / "film"), "--expect", "sticks4", "--json"]
    assert main(["vision", "watch", *args]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert record["throw_number"] == 1
    assert record["read"] or record["refusals"]


@pytest.mark.parametrize("each_alone", [[], ["--each-alone"]])
def test_read_reports_an_unreadable_image_and_reads_the_others(
    modern_throw: tuple[Path, Path], capsys: pytest.CaptureFixture[str], each_alone: list[str]
) -> None:
    throw, empty = modern_throw
    images = [str(throw.parent / "missing.png"), str(throw.parent), str(throw)]
    args = ["vision", "read", *images, "--tray", str(empty), "--json", *each_alone]
    assert main(args) == 2
    missing, folder, throw = json.loads(capsys.readouterr().out)
    assert "no such image file" in missing["error"]
    assert "a folder, not an image" in folder["error"]
    assert "error" not in throw and throw["image"].endswith("throw.png")


def test_read_takes_images_or_a_source_not_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vision", "read", str(tmp_path / "a.png"), "--source", str(tmp_path)]
    assert main(args) == 2
    assert "not both" in capsys.readouterr().err


def test_read_from_a_source_without_a_tray_takes_the_first_frame_as_the_empty_tray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _throw_filmed(tmp_path / "film", 1)
    assert main(["vision", "read", "--source", str(tmp_path / "film"), "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["image"].endswith("001.png")
    assert "implements" in record


def test_read_from_a_folder_names_each_image_and_goes_on_past_one_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _throw_filmed(tmp_path / "film", 3)
    (tmp_path / "film" / "002.png").write_bytes(b"not a picture")
    assert main(["vision", "read", "--source", str(tmp_path / "film"), "--json"]) == 2
    first, broken, last = json.loads(capsys.readouterr().out)
    assert first["image"].endswith("001.png") and "implements" in first
    assert broken["image"].endswith("002.png") and "error" in broken
    assert last["image"].endswith("003.png") and "implements" in last


def test_read_from_a_folder_of_only_the_empty_tray_says_nothing_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _throw_filmed(tmp_path / "film", 0)
    assert main(["vision", "read", "--source", str(tmp_path / "film")]) == 2
    assert "leaves nothing to read" in capsys.readouterr().err
    assert main(["vision", "read", "--source", str(tmp_path / "film" / "000.png")]) == 2
    assert "leaves nothing to read" in capsys.readouterr().err


def test_a_jpeg_cut_short_is_refused_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(4, "modern")
    cv2.imwrite(str(tmp_path / "whole.jpg"), made.frame)
    data = (tmp_path / "whole.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])
    assert read_image(tmp_path / "whole.jpg").shape == made.frame.shape
    args = ["vision", "calibrate", "--source", str(tmp_path / "cut.jpg")]
    assert main([*args, "--out", str(tmp_path / "tray")]) == 2
    assert "cut short" in capsys.readouterr().err
    assert not (tmp_path / "tray").exists()


def test_outputs_that_cannot_be_written_are_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = scene(4, "modern")
    cv2.imwrite(str(tmp_path / "empty.png"), made.empty)
    (tmp_path / "a file").write_text("not a folder")
    args = ["vision", "calibrate", "--source", str(tmp_path / "empty.png")]
    assert main([*args, "--out", str(tmp_path / "a file")]) == 2
    assert "the calibration cannot be written to" in capsys.readouterr().err
    folder = write_set(tmp_path / "set", 1, seed=3)
    assert main(["vision", "evaluate", str(folder), "--mistakes", str(tmp_path / "a file")]) == 2
    assert "the pictures of mistakes cannot be written to" in capsys.readouterr().err


def test_a_generated_set_is_never_written_over_a_folder_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_set(tmp_path / "set", 1, seed=3)
    labels = (folder / "labels.jsonl").read_text()
    assert main(["vision", "evaluate", str(folder), "--synthetic", "2"]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert (folder / "labels.jsonl").read_text() == labels
    with pytest.raises(SystemExit):
        main(["vision", "evaluate", str(tmp_path / "new"), "--synthetic", "0"])
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tray": "trays/nothing.png"}, "nothing.png: no such image file"),
        ({"expect": "maybe"}, "expect 'maybe': one of read, either, refuse"),
        ({"objects": [{"kind": "d9", "bbox": [0, 0, 1, 1]}]}, "kind 'd9': one of stick"),
    ],
)
def test_a_labels_line_that_cannot_be_scored_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], message: str
) -> None:
    folder = write_set(tmp_path / "set", 1, seed=3)
    labels = folder / "labels.jsonl"
    record = json.loads(labels.read_text(encoding="utf-8"))
    labels.write_text(json.dumps({**record, **change}) + "\n", encoding="utf-8")
    assert main(["vision", "evaluate", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "labels.jsonl, line 1: " in err
    assert message in err


@pytest.mark.parametrize("content", ["", "[1, 2]\n"])
def test_labels_without_a_scene_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    (tmp_path / "labels.jsonl").write_text(content, encoding="utf-8")
    assert main(["vision", "evaluate", str(tmp_path)]) == 2
    assert main(["vision", "enrol", "--labels", str(tmp_path), "--out", "x.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("labels.jsonl") == 2
    assert ("no labelled scene" if not content else "not a JSON object") in err


def test_enrolment_says_before_its_pictures_that_the_profile_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["vision", "enrol", "--source", "7", "--out", str(tmp_path / "no" / "p.json")]
    assert main(args) == 2
    assert "p.json: no such folder" in capsys.readouterr().err


def test_the_kits_named_in_the_help_are_the_vision_kits() -> None:
    from companion.vision_cli import KIT_NAMES
    from vision.kit import KITS

    assert set(KIT_NAMES) == set(KITS)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--expect", "ur", "--game", "ur-finkel"], "give --expect or --game, not both"),
        (["--expect", ""], "no kit named ''"),
    ],
)
def test_reading_options_that_contradict_are_refused(
    modern_throw: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    options: list[str],
    message: str,
) -> None:
    throw, empty = modern_throw
    args = ["vision", "read", str(throw), "--tray", str(empty)]
    assert main([*args, *options]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--labels", "x", "--source", "y"], "not both"),
        (["--source", "y", "--d4-generated", "5"], "--d4-generated goes with --labels"),
    ],
)
def test_enrolment_options_of_the_other_way_are_refused(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    assert main(["vision", "enrol", *options, "--out", "x.json"]) == 2
    assert message in capsys.readouterr().err


def test_evaluate_judges_the_folders_d4_font_unless_each_is_read_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = str(tmp_path / "stroke")
    drawn = ["--synthetic", "10", "--seed", "8", "--kit", "ur-nostick", "--d4-font", "stroke"]
    assert main(["vision", "evaluate", folder, *drawn, "--json"]) == 0
    together = json.loads(capsys.readouterr().out)
    assert together["d4_font_unknown"] is True
    assert together["refusal_reasons"]["unknown-numerals"] > 0
    assert "d4/correct" not in together["per_kind"]
    assert main(["vision", "evaluate", folder, "--each-alone", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["d4_familiarity"] is None and alone["d4_font_unknown"] is False
    assert "unknown-numerals" not in alone["refusal_reasons"]
    assert alone["per_kind"]["d4/correct"] > 0


def test_read_judges_the_d4s_font_over_the_pictures_given_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    throws = [scene(7100 + i, "ur-nostick", tray_seed=43, d4_font="stroke") for i in range(14)]
    cv2.imwrite(str(tmp_path / "empty.png"), throws[0].empty)
    pictures = []
    for index, throw in enumerate(throws):
        cv2.imwrite(str(tmp_path / f"{index}.png"), throw.frame)
        pictures.append(str(tmp_path / f"{index}.png"))
    args = ["vision", "read", *pictures, "--tray", str(tmp_path / "empty.png"), "--json"]
    assert main([*args, "--each-alone"]) == 0
    alone = json.loads(capsys.readouterr().out)
    read_alone = [record for record in alone if record["read"]]
    assert read_alone  # each die judged by its own numerals
    assert main(args) == 0
    together = json.loads(capsys.readouterr().out)
    assert [record["image"] for record in together] == pictures
    assert not any(record["read"] for record in together)
    reasons = {refusal["reason"] for record in together for refusal in record["refusals"]}
    assert "unknown-numerals" in reasons
    assert main([*args[:3], "--tray", str(tmp_path / "empty.png"), "--json"]) == 0
    one = json.loads(capsys.readouterr().out)  # one picture alone: its die is not judged
    assert one == [alone[0]]
