"""``vision.evaluate`` on folders of many trays: only the last few trays, and their readers,
are kept, so that a folder of one tray per scene is measured in bounded memory."""

from __future__ import annotations

import gc
import weakref
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from vision.dataset import Scene, generated_d4s, load_scenes
from vision.evaluate import KEPT_TRAYS, Recent, TrayReaders, evaluate
from vision.font import FAMILIAR_LEVEL, PICTURES_FEWEST, FontInPlay
from vision.numerals import learn_glyphs
from vision.observation import Box, Implement, Kind, Observation, Reason, Refusal
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import write_set
from vision.tray import Image, Tray


def test_recent_makes_a_value_once_while_kept_and_again_once_let_go() -> None:
    made: list[str] = []

    def maker(key: str) -> str:
        made.append(key)
        return key.upper()

    recent: Recent[str, str] = Recent(2)
    for key in ("a", "b", "a", "c", "a", "b"):
        assert recent.get(key, partial(maker, key)) == key.upper()
    # "a" stays as the most recently used; "b" is let go for "c", then made again.
    assert made == ["a", "b", "c", "b"]
    assert len(recent) == 2


def test_recent_keeps_at_least_one_value() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Recent(0)


@pytest.fixture(scope="module")
def many_trays(tmp_path_factory: pytest.TempPathFactory) -> list[Scene]:
    folder = write_set(tmp_path_factory.mktemp("set") / "set", KEPT_TRAYS + 3, seed=12)
    scenes = load_scenes(folder)
    assert len({scene.tray for scene in scenes}) == len(scenes)  # one tray a scene
    return scenes


def test_evaluate_keeps_only_the_last_trays_while_reading(many_trays: list[Scene]) -> None:
    seen: list[weakref.ref[Tray]] = []
    most_alive = 0

    def read(frame: Image, tray: Tray, scene: Scene) -> Observation:
        nonlocal most_alive
        seen.append(weakref.ref(tray))
        gc.collect()
        most_alive = max(most_alive, sum(ref() is not None for ref in seen))
        return Observation((), ())

    evaluate(many_trays, read)
    assert most_alive == KEPT_TRAYS


def test_tray_readers_make_one_reader_per_tray_while_it_is_kept(
    many_trays: list[Scene], monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Tray] = []

    def counted(tray: Tray, profile: Profile, **options: Any) -> Reader:
        made.append(tray)
        return Reader(tray, profile, **options)

    monkeypatch.setattr("vision.evaluate.Reader", counted)
    read = TrayReaders(default_profile(), kept=2)
    first, second, third = (scene.calibrated() for scene in many_trays[:3])
    frame = first.empty
    for tray in (first, second, first, first, third, second):
        read(frame, tray, many_trays[0])
    # ``first`` is kept while read again; ``second`` is let go for ``third``, made again.
    assert [id(tray) for tray in made] == [id(first), id(second), id(third), id(second)]
    assert len(read.readers) == 2


def test_a_folder_of_one_tray_a_scene_reads_as_with_every_tray_kept(
    many_trays: list[Scene],
) -> None:
    few = evaluate(many_trays, TrayReaders(default_profile(), kept=1)).as_dict()
    every = evaluate(many_trays, TrayReaders(default_profile(), kept=len(many_trays))).as_dict()
    assert few == every
    assert few["objects"] == sum(len(scene.objects) for scene in many_trays) > 0


def test_trays_asked_for_again_after_being_let_go_are_calibrated_again(
    many_trays: list[Scene], monkeypatch: pytest.MonkeyPatch
) -> None:
    calibrated: list[Path] = []
    real = Scene.calibrated

    def counted(scene: Scene, floor_mm: tuple[float, float], camera_height_mm: float) -> Tray:
        calibrated.append(scene.tray)
        return real(scene, floor_mm, camera_height_mm)

    monkeypatch.setattr(Scene, "calibrated", counted)
    first = many_trays[0]
    # The first tray asked for again after all the others (more than KEPT_TRAYS): let go by
    # then, it is calibrated again, once, and kept for the scene after.
    order = [first, *many_trays[1:], first, first]
    evaluate(order, lambda frame, tray, scene: Observation((), ()))
    assert calibrated.count(first.tray) == 2
    assert len(calibrated) == len(many_trays) + 1


def test_mistakes_are_drawn_but_for_scenes_whose_tray_cannot_be_calibrated(
    tmp_path: Path,
) -> None:
    import cv2
    import numpy as np

    scenes = load_scenes(write_set(tmp_path / "set", 2, seed=3))
    cv2.imwrite(str(scenes[1].tray), np.zeros((900, 1200, 3), np.uint8))  # no tray to find

    def refuse(frame: Image, tray: Tray, scene: Scene) -> Observation:
        return Observation(refusals=(Refusal(Reason.UNCLEAR),))

    clean = [scene for scene in scenes if scene.expect == "read"]
    report = evaluate(scenes, refuse, tmp_path / "mistakes")
    drawn = sorted(path.stem for path in (tmp_path / "mistakes").iterdir())
    assert report.pictures == len(drawn)
    assert drawn == [s.image.stem for s in clean if s is not scenes[1]]
    assert len(report.mistakes) == len(clean)


def test_a_folder_of_d4s_whose_font_the_glyphs_never_learned_is_refused_to_be_enrolled(
    tmp_path: Path,
) -> None:
    folder = write_set(tmp_path / "stroke", 12, 8, 0.0, kits=("ur-nostick",), d4_font="stroke")
    scenes = load_scenes(folder)
    alone = TrayReaders(default_profile(), each_alone=True)
    assert alone.d4_font is None
    each = evaluate(scenes, alone)
    assert each.objects[("d4", "correct")] > 0  # each die judged by its own numerals
    report = evaluate(scenes, TrayReaders(default_profile()))  # judged by its readers' font
    assert report.d4_font_unknown and report.d4_familiarity is not None
    assert report.d4_familiarity < FAMILIAR_LEVEL
    assert report.objects[("d4", "correct")] == report.objects[("d4", "wrong")] == 0
    assert report.reasons["unknown-numerals"] >= each.objects[("d4", "correct")]
    assert "a font the profile does not know" in report.text()


def test_a_folder_of_a_learned_font_reads_as_its_pictures_alone(tmp_path: Path) -> None:
    scenes = load_scenes(write_set(tmp_path / "sans", 12, 8, 0.0, kits=("ur-nostick",)))
    # The generator's sans as this OpenCV draws it (4.6, Raspberry Pi OS's, draws strokes
    # the shipped glyphs never learned): learned from dice of other throws.
    shipped = default_profile()
    learned = learn_glyphs(list(generated_d4s(16, seed=77)), "generated here")
    profile = Profile("learned here", shipped.prototypes, shipped.glyphs + learned)
    report = evaluate(scenes, TrayReaders(profile))
    alone = evaluate(scenes, TrayReaders(profile, each_alone=True))
    assert not report.d4_font_unknown
    assert report.d4_familiarity is not None and report.d4_familiarity >= FAMILIAR_LEVEL
    assert report.objects[("d4", "correct")] > 0
    assert report.as_dict() | {"d4_familiarity": None} == alone.as_dict()


@pytest.mark.parametrize("dice_read", [PICTURES_FEWEST - 1, PICTURES_FEWEST])
def test_the_folders_font_is_judged_only_once_enough_dice_were_read(
    many_trays: list[Scene], dice_read: int
) -> None:
    font = FontInPlay.of_pictures()
    die = Implement(Kind.D4, Box(10, 10, 60, 60), 0.9, value=2)

    def read(frame: Image, tray: Tray, scene: Scene) -> Observation:
        if len(read_scenes) < dice_read:
            font.told(FAMILIAR_LEVEL - 0.1)  # a die read, of a font the glyphs fit loosely
        read_scenes.append(scene)
        return Observation((die,))

    read_scenes: list[Scene] = []
    report = evaluate(many_trays, read, d4_font=font)
    judged = dice_read >= PICTURES_FEWEST
    assert report.d4_font_unknown is judged
    assert (report.d4_familiarity is not None) is judged
    refused = report.reasons["unknown-numerals"]
    assert refused == (len(many_trays) if judged else 0)


def test_a_tray_that_cannot_be_calibrated_refuses_its_scene_when_the_font_is_judged_too(
    tmp_path: Path,
) -> None:
    import cv2
    import numpy as np

    scenes = load_scenes(write_set(tmp_path / "set", 3, seed=3))
    cv2.imwrite(str(scenes[1].tray), np.zeros((900, 1200, 3), np.uint8))  # no tray to find
    report = evaluate(scenes, TrayReaders(default_profile()))
    assert report.reasons["calibration"] == 1
    assert sum(report.scenes.values()) == len(scenes)
    assert scenes[1].expect == "read"
    uncalibrated = [m for m in report.mistakes if "calibration" in m]
    assert len(uncalibrated) == 1 and uncalibrated[0].startswith(scenes[1].image.name)
