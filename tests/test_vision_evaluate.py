"""``vision.evaluate`` on folders of many trays: only the last few trays, and their readers,
are kept, so that a folder of one tray per scene is measured in bounded memory."""

from __future__ import annotations

import gc
import weakref
from functools import partial
from pathlib import Path

import pytest

from vision.dataset import Scene, load_scenes
from vision.evaluate import KEPT_TRAYS, Recent, TrayReaders, evaluate
from vision.observation import Observation, Reason, Refusal
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import write_set
from vision.tray import FLOOR_MM, Image, Tray


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

    def counted(tray: Tray, profile: Profile, *, detail_numerals: bool) -> Reader:
        made.append(tray)
        return Reader(tray, profile, detail_numerals=detail_numerals)

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

    def counted(scene: Scene, floor_mm: tuple[float, float] = FLOOR_MM) -> Tray:
        calibrated.append(scene.tray)
        return real(scene, floor_mm)

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
