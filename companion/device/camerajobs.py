"""Calibration and enrolment asked from the device's menu, done in the camera thread.

The screens ask for a :class:`~companion.device.events.CameraTask`; the camera thread
(:class:`~companion.device.camerathrows.CameraThrows`) gives :meth:`CameraJobs.run` the
next frame and the reader in use, posts the answer and goes on with the reader returned.
A job that fails leaves the calibration and the profile in use, and their files, as
they were. Like ``camerathrows``, this imports ``vision`` only inside its functions.

- ``calibrate``: the empty tray, found by its printed corner markers when all four are
  seen, else by the felt's outline, and refused when something lies on its floor; saved
  to the tray folder, read from then on.
- ``picture``: one picture of guided enrolment, every stick (or Ur's yes/no stick)
  showing one face, or the d4 showing one value at its top point; kept only when as many
  lie flat as the set has (a d4 of another set beside it would teach its numerals). A
  retaken step replaces it.
- ``learn``: the faces learnt from the kept pictures replace the profile's sticks (or its
  yes/no sticks; the rest stays), or the d4's numerals replace the profile's (its sticks
  stay); saved to the profile file, read from then on.
- ``height``: asked by the camera thread itself, no screen: the calibration in use saved
  with the camera's height its throws' d4s measured (when it was not told).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from companion.device.camerathrows import Frame, ThrowReader
from companion.device.events import CameraDone, CameraTask
from companion.savefile import sync_directory, sync_file

if TYPE_CHECKING:
    from vision.numerals import DieNumerals
    from vision.profile import Example, Profile
    from vision.tray import Tray

T = TypeVar("T")

MIN_EXAMPLES = 3  # of each face, as the command line's guided enrolment asks
LOOK = "mine"


@dataclass
class CameraJobs:
    """Where calibration and enrolment are saved, and the enrolment under way."""

    tray_folder: Path
    profile_path: Path
    camera_height_mm: float | None = None  # above the tray's floor; None: keep the one in use
    floor_mm: tuple[float, float] | None = None  # the tray's inside; None: keep the one in use
    pictures: dict[int, list[Example]] = field(default_factory=dict)  # by enrolment step
    dice: dict[int, list[tuple[int, DieNumerals]]] = field(default_factory=dict)  # the same

    def run(
        self, task: CameraTask, frame: Frame, reader: ThrowReader | None
    ) -> tuple[CameraDone, ThrowReader | None]:
        """The answer to ``task``, and the reader to go on with (None: the same one, or
        when there was none, one made from the saved calibration)."""
        from vision.errors import CalibrationError, VisionError

        try:
            if task.job == "calibrate":
                return self._calibrate(frame, reader)
            if reader is None:
                raise CalibrationError("the camera is not calibrated yet")
            if task.job == "picture":
                return self._picture(task, frame, reader), None
            if task.job == "learn":
                return self._learn(task, reader)
            if task.job == "height":
                return self._height_learnt(reader), None
        except (VisionError, OSError) as error:
            return CameraDone(task.job, task.step, problem=str(error)), None
        raise ValueError(f"unknown camera job {task.job!r}")

    def _calibrate(
        self, frame: Frame, reader: ThrowReader | None
    ) -> tuple[CameraDone, ThrowReader | None]:
        from vision.markers import calibrate_with_markers, find_markers, markers_available
        from vision.tray import (
            CAMERA_HEIGHT_MM,
            FLOOR_MM,
            calibrate,
            require_empty,
            saved_camera_height,
        )

        in_use = None if reader is None else reader.reader.tray
        height = self.camera_height_mm
        if height is None:  # the camera has not moved up or down since the calibration in use
            if in_use is not None:
                height = in_use.camera_height_mm
            else:  # no reader yet (its first frame not come, or it failed): the one saved
                height = saved_camera_height(self.tray_folder) or CAMERA_HEIGHT_MM
        floor_mm = self.floor_mm
        if floor_mm is None:  # the same tray as the calibration in use
            floor_mm = FLOOR_MM if in_use is None else in_use.floor_mm
        if markers_available() and len(find_markers(frame)) == 4:
            tray, by = calibrate_with_markers(frame, height, floor_mm=floor_mm), "markers"
        else:
            tray, by = calibrate(frame, height, floor_mm=floor_mm), "outline"
        require_empty(tray)
        save_tray(tray, self.tray_folder)
        return CameraDone("calibrate", detail=by), reader and reader.with_tray(tray)

    def _height_learnt(self, reader: ThrowReader) -> CameraDone:
        """The calibration in use saved with the camera's height its throws measured
        (``ThrowReader.measure_height``): read from at once, kept over a restart."""
        tray = reader.reader.calibrated
        save_tray(tray, self.tray_folder)
        return CameraDone("height", detail=f"{tray.camera_height_mm:g}")

    def _picture(self, task: CameraTask, frame: Frame, reader: ThrowReader) -> CameraDone:
        if task.step == 0:
            self.pictures.clear()
            self.dice.clear()
        tray = reader.reader.tray
        if task.kind == "d4":
            dice = flat_d4s(frame, tray, int(task.shown))
            _keep_or_forget(self.dice, task.step, dice, len(dice) == task.count)
            return CameraDone("picture", task.step, count=len(dice))
        sticks = flat_sticks(frame, tray, task.shown, task.kind)
        _keep_or_forget(self.pictures, task.step, sticks, len(sticks) == task.count)
        return CameraDone("picture", task.step, count=len(sticks))

    def _learn(self, task: CameraTask, reader: ThrowReader) -> tuple[CameraDone, ThrowReader]:
        current = reader.reader.profile
        detail = ""
        if task.kind == "d4":
            profile, seen, detail = self._learnt_d4(current)
        else:
            profile, seen = self._learnt_faces(current, task.kind)
        save_profile(profile, self.profile_path)
        self.pictures.clear()
        self.dice.clear()
        return CameraDone("learn", count=seen, detail=detail), reader.with_profile(profile)

    def _learnt_faces(self, current: Profile, kind_name: str) -> tuple[Profile, int]:
        """The faces of the sticks, or of the yes/no stick, replace the profile's."""
        from vision.errors import ProfileError
        from vision.observation import Kind
        from vision.profile import enrol

        kind = Kind(kind_name)
        examples = [example for step in sorted(self.pictures) for example in self.pictures[step]]
        for face, shown in (("M", "marked"), ("P", "plain")):
            seen = sum(example.face == face for example in examples)
            if seen < MIN_EXAMPLES:
                raise ProfileError(f"only {seen} {shown} faces were seen")
        kept = tuple(p for p in current.prototypes if p.kind is not kind)
        learnt = enrol("enrolled", examples).prototypes
        return replace(current, name="enrolled", prototypes=kept + learnt), len(examples)

    def _learnt_d4(self, current: Profile) -> tuple[Profile, int, str]:
        """The profile with the d4's numerals, how many dice taught them, and ``small``
        when the die is small for the camera."""
        from vision.guided import learnt_glyphs, small_dice

        shown = [die for step in sorted(self.dice) for die in self.dice[step]]
        glyphs = learnt_glyphs(shown, LOOK)
        detail = "small" if small_dice(shown) else ""
        return replace(current, name="enrolled", glyphs=glyphs), len(shown), detail


def _keep_or_forget(pictures: dict[int, list[T]], step: int, seen: list[T], kept: bool) -> None:
    """What picture ``step`` saw, kept or (a picture to take again) forgotten."""
    if kept:
        pictures[step] = seen
    else:
        pictures.pop(step, None)


def flat_sticks(frame: Frame, tray: Tray, face: str, kind: str = "stick") -> list[Example]:
    """An enrolment example of ``face`` for each stick (of vision's ``kind``: throwing
    sticks, or the yes/no stick) lying flat in ``frame``."""
    from vision.guided import flat_examples
    from vision.observation import Kind
    from vision.segment import Segmenter

    return flat_examples(frame, Segmenter(tray), Kind(kind), face, LOOK)


def flat_d4s(frame: Frame, tray: Tray, value: int) -> list[tuple[int, DieNumerals]]:
    """The numerals of each d4 lying flat in ``frame``, shown with ``value`` on top."""
    from vision.dataset import d4s_in

    return [(value, numerals) for numerals in d4s_in(frame, tray)]


def save_tray(tray: Tray, folder: Path) -> None:
    """Write the calibration beside ``folder``, flushed to the disk, then put it in its
    place: a failed write or a power cut leaves a whole calibration, the old or the new."""
    fresh = folder.with_name(folder.name + ".new")
    stale = folder.with_name(folder.name + ".old")
    shutil.rmtree(fresh, ignore_errors=True)
    tray.save(fresh)
    for written in sorted(fresh.iterdir()):
        sync_file(written)
    sync_directory(fresh)
    if folder.exists():
        shutil.rmtree(stale, ignore_errors=True)
        folder.rename(stale)
    fresh.rename(folder)
    sync_directory(folder.parent)
    shutil.rmtree(stale, ignore_errors=True)


def save_profile(profile: Profile, path: Path) -> None:
    """Write the profile to a temporary file flushed to the disk, then rename it over the
    old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name(path.name + ".new")
    profile.save(fresh)
    sync_file(fresh)
    os.replace(fresh, path)
    sync_directory(path.parent)
