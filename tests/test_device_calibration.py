"""Calibration and enrolment from the device's settings: the screens ask, the event loop
hands the job to the camera thread, which reads generated pictures (vision.synthetic) of
the tray and answers with an event; failures keep the calibration and the sticks in use."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from device_helpers import make_app

from companion.device import config as device_config
from companion.device.app import App, DeviceInfo
from companion.device.camerajobs import CameraJobs, save_profile, save_tray
from companion.device.camerathrows import (
    CameraSettings,
    CameraThrows,
    ThrowReader,
    load_tray,
    settings_for,
)
from companion.device.events import (
    CameraBack,
    CameraDone,
    CameraFailed,
    CameraTask,
    Event,
    Key,
    Press,
    ThrowRead,
)
from companion.device.generated import ThrowPictures, enrolled_profile
from companion.device.loop import EventLoop
from companion.device.run import ENROLLED_PROFILE, _camera
from companion.device.screens import (
    ENROLMENT_PICTURES,
    Calibrating,
    EnrolChoice,
    Enrolling,
    Message,
    Screen,
    SettingsMenu,
    Taught,
)
from companion.device.state import Settings, StateStore
from hardware.display import dummy_display
from vision.kit import kit_named
from vision.observation import Kind
from vision.profile import Profile, default_profile
from vision.tray import Tray, calibrate

CALIBRATE_LINE = 5
ENROL_LINE = 6


@pytest.fixture(scope="module")
def pictures() -> ThrowPictures:
    return ThrowPictures("sticks4")


class _Table:
    """A live camera over the tray: the picture the test lays on it, again and again."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def frames(self) -> Iterator[Any]:
        while True:
            yield self.frame
            time.sleep(0.005)

    def close(self) -> None:
        return None


class _NoisyTable(_Table):
    """A live camera whose every frame has its own noise, as a sensor's has."""

    def frames(self) -> Iterator[Any]:
        rng = np.random.default_rng(0)
        while True:
            noise = rng.normal(0.0, 6.0, self.frame.shape)
            yield np.asarray(np.clip(self.frame + noise, 0, 255), np.uint8)
            time.sleep(0.005)


class _Device:
    """An App, its event loop and a camera thread over a :class:`_Table`."""

    def __init__(
        self, app: App, table: _Table, reader: ThrowReader, jobs: CameraJobs, kit: str = "sticks4"
    ) -> None:
        self.app, self.table, self.jobs = app, table, jobs
        self.loop = EventLoop(app, dummy_display())
        settings = CameraSettings(
            open_source=lambda: table, make_reader=lambda first: reader, work=jobs.run
        )
        self.camera = CameraThrows(
            settings, post=self.loop.events.put, kit=lambda: kit, lang=lambda: app.lang
        )
        self.loop.capture = self.camera.capture
        self.camera.start()
        # A job given before the camera's first frame would find no reader yet, and the
        # reader made next (this fixture's, not one loaded from the saved files) would
        # replace its answer: the tests start from a camera that is reading.
        deadline = time.monotonic() + 20
        while self.camera._reader is None and time.monotonic() < deadline:
            time.sleep(0.005)

    def press(self, key: Key) -> None:
        self.loop.step(Press(key))

    def answer(self) -> CameraDone:
        """Handle events until the camera's answer to the screens' job."""
        while True:
            event: Event = self.loop.events.get(timeout=20)
            self.loop.step(event)
            if isinstance(event, CameraDone):
                return event

    def reader(self) -> ThrowReader:
        reader = self.camera._reader
        assert reader is not None
        return reader

    def settings_line(self, line: int) -> None:
        self.app.screen = SettingsMenu(line)
        self.press(Key.SELECT)


def _device(folder: Path, pictures: ThrowPictures, calibrated_on: Any) -> Iterator[_Device]:
    """Calibrated on ``calibrated_on``, with the shipped profile: what a new device knows."""
    reader = ThrowReader(calibrate(calibrated_on), default_profile(), still_frames=2, averaged=1)
    jobs = CameraJobs(folder / "tray", folder / "sticks.json")
    made = _Device(make_app(folder / "state"), _Table(pictures.empty), reader, jobs)
    yield made
    made.camera.stop()


@pytest.fixture
def device(tmp_path: Path, pictures: ThrowPictures) -> Iterator[_Device]:
    """A device calibrated on another tray than the one under its camera."""
    yield from _device(tmp_path, pictures, ThrowPictures("sticks4", tray_seed=3).empty)


@pytest.fixture
def calibrated(tmp_path: Path, pictures: ThrowPictures) -> Iterator[_Device]:
    yield from _device(tmp_path, pictures, pictures.empty)


def _on(app: App) -> Screen:
    """The screen (a call, so that the type checker does not keep what it was before)."""
    return app.screen


def _message(app: App) -> str:
    assert isinstance(app.screen, Message)
    return " ".join(app.screen.lines)


def test_calibrating_from_the_menu_saves_the_tray_and_reads_with_it(
    device: _Device, pictures: ThrowPictures, tmp_path: Path
) -> None:
    device.settings_line(CALIBRATE_LINE)
    assert _on(device.app) == Calibrating()
    assert "Empty the tray, then OK." in str(device.app.view())
    device.press(Key.SELECT)
    assert _on(device.app) == Calibrating(waiting=True)
    done = device.answer()
    assert done == CameraDone("calibrate", detail="outline")
    assert "Tray found by its outline." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == SettingsMenu(CALIBRATE_LINE)
    saved = Tray.load(tmp_path / "tray")
    assert np.array_equal(saved.empty, pictures.empty)
    assert np.array_equal(device.reader().reader.tray.empty, pictures.empty)
    assert _reads(device, pictures, "MPMP") == [ThrowRead("MMPP")]


def test_a_live_cameras_tray_is_calibrated_from_still_frames_averaged(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    """Throws are read from still frames averaged; the empty tray they are compared with
    (vision.focus: how much blurrier a frame is) is averaged as well, not one noisy frame."""
    reader = ThrowReader(calibrate(pictures.empty), default_profile(), still_frames=2)
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    device = _Device(make_app(tmp_path / "state"), _NoisyTable(pictures.empty), reader, jobs)
    try:
        device.settings_line(CALIBRATE_LINE)
        device.press(Key.SELECT)
        assert device.answer() == CameraDone("calibrate", detail="outline")
    finally:
        device.camera.stop()
    noise = np.std(Tray.load(tmp_path / "tray").empty.astype(np.float64) - pictures.empty)
    assert noise == pytest.approx(6.0 / 2, rel=0.15)  # four frames averaged


class _Unplugged(_Table):
    """A live camera whose cable comes out after ``frames`` frames."""

    def __init__(self, frame: Any, frames: int) -> None:
        super().__init__(frame)
        self.left = frames
        self.gone = threading.Event()

    def frames(self) -> Iterator[Any]:
        while self.left > 0 or not self.gone.is_set():
            if self.left > 0:
                self.left -= 1
                yield self.frame
            time.sleep(0.005)
        raise OSError("no camera on the cable")


def test_a_calibration_cut_short_by_the_camera_is_answered(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    """The camera fails while the empty tray's still frames are being averaged: the
    calibration is answered with the failure, not left waiting for frames."""
    reader = ThrowReader(calibrate(pictures.empty), default_profile(), still_frames=2)
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    table = _Unplugged(pictures.empty, frames=1_000)
    device = _Device(make_app(tmp_path / "state"), table, reader, jobs)
    try:
        table.left = 0  # the frames stop coming with the calibration asked for
        device.camera.capture(CameraTask("calibrate"))
        time.sleep(0.05)
        table.gone.set()
        assert device.answer() == CameraDone("calibrate", problem="no camera on the cable")
    finally:
        device.camera.stop()
    assert not (tmp_path / "tray" / "tray.json").exists()


def test_a_calibration_asked_twice_is_answered_twice(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    reader = ThrowReader(calibrate(pictures.empty), default_profile(), still_frames=2)
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    device = _Device(make_app(tmp_path / "state"), _NoisyTable(pictures.empty), reader, jobs)
    try:
        device.camera.capture(CameraTask("calibrate"))
        device.camera.capture(CameraTask("calibrate"))  # asked again while averaging
        answers = [device.loop.events.get(timeout=20), device.loop.events.get(timeout=20)]
    finally:
        device.camera.stop()
    assert answers == [CameraDone("calibrate", detail="outline")] * 2


def test_a_failed_calibration_keeps_the_old_one(device: _Device, tmp_path: Path) -> None:
    old = ThrowPictures("sticks4", tray_seed=3)
    calibrate(old.empty).save(tmp_path / "tray")
    record = (tmp_path / "tray" / "tray.json").read_text(encoding="utf-8")
    before = device.reader()
    noise = np.random.default_rng(1).integers(0, 256, old.empty.shape, dtype=np.uint8)
    device.table.frame = noise  # no tray in sight
    device.app.settings = Settings(lang="fr")
    device.settings_line(CALIBRATE_LINE)
    device.press(Key.SELECT)
    done = device.answer()
    assert "not the tray's floor" in done.problem
    assert "L'ancienne est gardée." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == Calibrating()  # to try again, or back to the settings
    device.press(Key.BACK)
    assert _on(device.app) == SettingsMenu(CALIBRATE_LINE)
    assert (tmp_path / "tray" / "tray.json").read_text(encoding="utf-8") == record
    assert device.reader() is before


def _reads(device: _Device, pictures: ThrowPictures, shown: str) -> list[Event]:
    """What the camera's reader (stopped, so that it is fed here only) reads of a throw."""
    device.camera.stop()
    reader = device.reader()
    frames = [pictures.empty] * 3 + [pictures.draw(shown).frame] * 4
    events = (reader.feed(frame, "sticks4", "en") for frame in frames)
    return [event for event in events if event is not None]


def _take(device: _Device, frame: Any) -> CameraDone:
    device.table.frame = frame
    device.press(Key.SELECT)
    return device.answer()


def test_guided_enrolment_checks_each_picture_then_learns_the_sticks(
    calibrated: _Device, pictures: ThrowPictures, tmp_path: Path
) -> None:
    device = calibrated
    device.settings_line(ENROL_LINE)
    assert _on(device.app) == Enrolling(0, 4)
    assert "marked face up" in str(device.app.view())
    assert _take(device, pictures.draw("MMMM").frame).count == 4
    assert _on(device.app) == Enrolling(1, 4)
    assert "plain face up" in str(device.app.view())
    assert _take(device, pictures.empty).count == 0  # the sticks were picked up
    assert "0 of 4 sticks seen lying flat." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == Enrolling(1, 4)  # the same step again
    for step in range(1, ENROLMENT_PICTURES):
        face = "MP"[step % 2]
        assert _take(device, pictures.draw(face * 4).frame).count == 4
    assert _on(device.app) == Enrolling(ENROLMENT_PICTURES, 4, waiting=True)
    done = device.answer()
    assert done == CameraDone("learn", count=16)
    assert "New sticks learnt (16 faces seen)." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == SettingsMenu(ENROL_LINE)
    saved = Profile.load(tmp_path / "sticks.json")
    sticks = [p for p in saved.prototypes if p.kind is Kind.STICK]
    assert {(p.face, p.look, p.examples) for p in sticks} == {("M", "mine", 8), ("P", "mine", 8)}
    assert any(p.kind is Kind.YESNO for p in saved.prototypes)  # the rest of the profile stays
    in_use = device.reader().reader.profile
    assert in_use.name == saved.name == "enrolled"
    means = np.array([p.mean for p in in_use.prototypes])
    assert np.allclose(means, [p.mean for p in saved.prototypes], atol=1e-3)
    assert _reads(device, pictures, "PMPP") == [ThrowRead("MPPP")]


def test_back_cancels_enrolment_and_keeps_the_sticks(
    calibrated: _Device, pictures: ThrowPictures, tmp_path: Path
) -> None:
    device = calibrated
    before = device.reader().reader.profile
    device.settings_line(ENROL_LINE)
    _take(device, pictures.draw("MMMM").frame)
    _take(device, pictures.draw("PPPP").frame)
    device.press(Key.BACK)
    assert "Cancelled: the sticks in use are kept." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == SettingsMenu(ENROL_LINE)
    assert not (tmp_path / "sticks.json").exists()
    assert device.reader().reader.profile is before
    device.press(Key.SELECT)  # a new enrolment starts from its first picture
    assert _on(device.app) == Enrolling(0, 4)
    assert _take(device, pictures.draw("MMMM").frame).count == 4
    assert list(device.jobs.pictures) == [0]  # the cancelled pictures were dropped


def test_without_a_camera_both_items_say_so(tmp_path: Path) -> None:
    app = App(StateStore(tmp_path), settings=Settings(), info=DeviceInfo(camera=False))
    for line in (CALIBRATE_LINE, ENROL_LINE):
        app.screen = SettingsMenu(line)
        app.handle(Press(Key.SELECT), 1.0)
        assert "not installed yet" in _message(app)


def test_a_job_without_a_working_camera_is_a_message(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    loop = EventLoop(app, dummy_display())  # the camera could not be set up
    app.screen = SettingsMenu(ENROL_LINE)
    loop.step(Press(Key.SELECT))
    loop.step(Press(Key.SELECT))
    loop.step(loop.events.get_nowait())
    assert "No picture: no camera" in _message(app)
    loop.step(Press(Key.SELECT))
    assert _on(app) == Enrolling(0, 4)


def test_a_camera_that_fails_answers_the_job_it_was_given(pictures: ThrowPictures) -> None:
    answered = threading.Event()
    events: list[Event] = []

    def post(event: Event) -> None:
        events.append(event)
        answered.set()

    def unplugged() -> Any:
        raise OSError("no camera on the cable")

    settings = CameraSettings(
        open_source=unplugged,
        make_reader=lambda first: ThrowReader(calibrate(pictures.empty), default_profile()),
        retry_seconds=10,
    )
    camera = CameraThrows(settings, post=post, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        assert answered.wait(10)
        camera.capture(CameraTask("calibrate"))
    finally:
        camera.stop(timeout=0.1)
    assert events[-1] == CameraDone("calibrate", problem="no camera on the cable")


def test_a_game_with_dice_has_no_set_of_sticks_to_enrol(tmp_path: Path) -> None:
    app = make_app(tmp_path, game="senet-modern")
    app.screen = SettingsMenu(ENROL_LINE)
    app.handle(Press(Key.SELECT), 1.0)
    assert "senet-modern: only two-faced sticks and a numbered d4 are enrolled here." in _message(
        app
    )


def _profile_at_start(folder: Path, pictures: ThrowPictures) -> Profile:
    """The profile ``companion run`` reads with, state in ``folder``, and its wiring."""
    loop = EventLoop(make_app(folder), dummy_display())
    camera = _camera("/no/such/folder", device_config.DeviceConfig(), folder, loop)
    assert camera is not None
    camera.stop()
    assert loop.capture == camera.capture and camera.settings.work is not None
    return camera.settings.make_reader(pictures.empty).reader.profile


def test_the_device_starts_with_the_sticks_it_enrolled(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    assert _profile_at_start(tmp_path, pictures) == default_profile()
    enrolled_profile(pictures).save(tmp_path / ENROLLED_PROFILE)
    assert _profile_at_start(tmp_path, pictures).name == "generated"


@pytest.mark.usefixtures("no_fsync")
def test_a_camera_with_no_tray_in_sight_is_mended_by_calibrating(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    """No calibration yet and the first frame shows no tray: the camera cannot read, but
    calibrating from the menu once the tray is in view makes it read again."""
    noise = np.random.default_rng(2).integers(0, 256, pictures.empty.shape, dtype=np.uint8)
    table = _Table(noise)
    app = make_app(tmp_path / "state")
    loop = EventLoop(app, dummy_display())
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    settings = CameraSettings(
        open_source=lambda: table,
        make_reader=lambda first: ThrowReader(
            load_tray(tmp_path / "tray", first), default_profile()
        ),
        retry_seconds=0.05,
        work=jobs.run,
    )
    camera = CameraThrows(settings, post=loop.events.put, kit=lambda: None, lang=lambda: "en")
    loop.capture = camera.capture
    camera.start()
    try:
        failed = loop.events.get(timeout=20)
        assert isinstance(failed, CameraFailed) and "not the tray's floor" in failed.reason
        loop.step(failed)
        loop.step(Press(Key.SELECT))  # the message read
        table.frame = pictures.empty
        app.screen = SettingsMenu(CALIBRATE_LINE)
        loop.step(Press(Key.SELECT))
        loop.step(Press(Key.SELECT))
        done = _next(loop, CameraDone)
        assert done == CameraDone("calibrate", detail="outline")
        assert _next(loop, CameraBack) == CameraBack()
    finally:
        camera.stop()
    assert (tmp_path / "tray" / "tray.json").is_file()


def _new_camera(
    folder: Path, table: _Table, retry_seconds: float = 2.0
) -> tuple[EventLoop, CameraThrows]:
    """A device's camera wired as ``run`` wires it, over ``table``, with no calibration
    saved yet."""
    settings = settings_for("0", tray=folder / "tray", profile=None, still_frames=2)
    jobs = CameraJobs(folder / "tray", folder / "sticks.json")
    settings = replace(
        settings, open_source=lambda: table, work=jobs.run, retry_seconds=retry_seconds
    )
    loop = EventLoop(make_app(folder / "state"), dummy_display())
    camera = CameraThrows(settings, post=loop.events.put, kit=lambda: None, lang=lambda: "en")
    loop.capture = camera.capture
    return loop, camera


def test_a_new_camera_calibrates_itself_from_still_frames_averaged(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    """No calibration saved: the camera calibrates before it reads, as the menu does, from
    its first still frames averaged (not one noisy frame), and saves it for the next
    start."""
    loop, camera = _new_camera(tmp_path, _NoisyTable(pictures.empty))
    camera.start()
    try:
        assert loop.events.get(timeout=20) == CameraDone("calibrate", detail="outline")
        deadline = time.monotonic() + 20
        while camera._reader is None and time.monotonic() < deadline:
            time.sleep(0.005)
        reader = camera._reader
    finally:
        camera.stop()
    assert loop.events.empty()  # nothing failed
    saved = Tray.load(tmp_path / "tray")
    assert reader is not None and np.array_equal(reader.reader.tray.empty, saved.empty)
    noise = np.std(saved.empty.astype(np.float64) - pictures.empty)
    assert noise == pytest.approx(6.0 / 2, rel=0.15)  # four frames averaged


def test_a_damaged_calibration_is_made_again_as_at_the_first_start(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    (tmp_path / "tray").mkdir()
    (tmp_path / "tray" / "tray.json").write_text("{ cut short", encoding="utf-8")
    loop, camera = _new_camera(tmp_path, _Table(pictures.empty))
    camera.start()
    try:
        assert loop.events.get(timeout=20) == CameraDone("calibrate", detail="outline")
    finally:
        camera.stop()
    assert np.array_equal(Tray.load(tmp_path / "tray").empty, pictures.empty)


def test_a_new_camera_over_a_tray_not_empty_says_so_and_calibrates_once_it_is(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    """A die left on the tray at the first start is not taken for part of the empty tray:
    the camera says why it does not read, and calibrates once the tray is cleared."""
    from vision.synthetic import scene

    table = _Table(scene(2, "modern").frame)
    loop, camera = _new_camera(tmp_path, table, retry_seconds=0.05)
    camera.start()
    try:
        failed = _next(loop, CameraFailed)
        assert isinstance(failed, CameraFailed)
        assert failed.reason.startswith("not calibrated yet (the tray is not empty")
        assert "Camera: not calibrated yet" in str(loop.app.view())
        assert not (tmp_path / "tray").exists()
        table.frame = pictures.empty
        assert _next(loop, CameraBack) == CameraBack()
    finally:
        camera.stop()
    assert np.array_equal(Tray.load(tmp_path / "tray").empty, pictures.empty)


def _next(loop: EventLoop, wanted: type[Event]) -> Event:
    while True:
        event = loop.events.get(timeout=20)
        loop.step(event)
        if isinstance(event, wanted):
            return event


def test_the_configured_camera_height_is_the_calibrations(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    configured = device_config.parse("[camera]\nabove_tray_mm = 520\n")
    assert configured.camera_above_tray_mm == 520
    jobs = CameraJobs(
        tmp_path / "tray",
        tmp_path / "sticks.json",
        camera_height_mm=configured.camera_above_tray_mm,
    )
    done, _ = jobs.run(CameraTask("calibrate"), pictures.empty, None)
    assert done.problem == ""
    assert Tray.load(tmp_path / "tray").camera_height_mm == 520
    unset = CameraJobs(tmp_path / "other", tmp_path / "sticks.json")
    reader = ThrowReader(Tray.load(tmp_path / "tray"), default_profile())
    unset.run(CameraTask("calibrate"), pictures.empty, reader)
    assert Tray.load(tmp_path / "other").camera_height_mm == 520  # the camera did not move


def test_the_configured_trays_size_is_the_calibrations(tmp_path: Path) -> None:
    from vision.synthetic import scene

    narrow = scene(3, "sticks4", floor_mm=(400.0, 250.0)).empty
    unknown = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    done, _ = unknown.run(CameraTask("calibrate"), narrow, None)
    assert "--floor-mm" in done.problem and not (tmp_path / "tray").exists()
    configured = device_config.parse("[camera]\nfloor_mm = [250, 400]\n")
    jobs = CameraJobs(
        tmp_path / "tray", tmp_path / "sticks.json", floor_mm=configured.camera_floor_mm
    )
    done, _ = jobs.run(CameraTask("calibrate"), narrow, None)
    assert done.problem == ""
    assert Tray.load(tmp_path / "tray").floor_mm == (400, 250)
    reader = ThrowReader(Tray.load(tmp_path / "tray"), default_profile())
    again = CameraJobs(tmp_path / "again", tmp_path / "sticks.json")
    done, _ = again.run(CameraTask("calibrate"), narrow, reader)  # the same tray as in use
    assert done.problem == ""
    assert Tray.load(tmp_path / "again").floor_mm == (400, 250)


def test_calibrating_a_tray_that_is_not_empty_keeps_the_old_calibration(tmp_path: Path) -> None:
    from vision.synthetic import scene

    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    done, reader = jobs.run(CameraTask("calibrate"), scene(2, "modern").frame, None)
    assert "the tray is not empty" in done.problem
    assert reader is None and not (tmp_path / "tray").exists()


def _synced_paths(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file or folder flushed to the disk from now on (Linux: /proc names the fd)."""
    synced: list[Path] = []
    real_fsync = os.fsync

    def recording(descriptor: int) -> None:
        synced.append(Path(os.readlink(f"/proc/self/fd/{descriptor}")))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording)
    return synced


def test_a_calibration_and_a_profile_reach_the_disk_before_they_replace_the_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pictures = ThrowPictures("sticks4")
    synced = _synced_paths(monkeypatch)
    folder = tmp_path / "tray"
    save_tray(calibrate(pictures.empty), folder)
    save_tray(calibrate(pictures.empty), folder)  # over an older calibration
    fresh = tmp_path / "tray.new"
    assert synced.count(fresh / "tray.json") == 2 and synced.count(fresh / "empty.png") == 2
    assert synced.count(fresh) == 2 and synced.count(tmp_path) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["empty.png", "tray.json"]
    synced.clear()
    save_profile(enrolled_profile(pictures), tmp_path / "sticks.json")
    assert synced == [tmp_path / "sticks.json.new", tmp_path]


def test_a_power_cut_while_a_calibration_is_put_in_place_keeps_one(tmp_path: Path) -> None:
    pictures = ThrowPictures("sticks4")
    old, new = calibrate(pictures.empty), calibrate(pictures.empty, camera_height_mm=500.0)
    old.save(tmp_path / "tray.old")  # save_tray had moved the old one aside ...
    new.save(tmp_path / "tray.new")  # ... and not yet the new one in
    loaded = load_tray(tmp_path / "tray", pictures.picture("MMPP"))
    assert loaded.camera_height_mm == 500.0
    (tmp_path / "tray.new" / "empty.png").write_bytes(b"cut")  # the new one not whole
    assert load_tray(tmp_path / "tray", pictures.empty).camera_height_mm == old.camera_height_mm


def test_the_devices_reader_learns_the_hand_of_the_d4_in_play(pictures: ThrowPictures) -> None:
    from vision.hand import HAND_ARMING, Hand
    from vision.observation import Box

    reader = ThrowReader(calibrate(pictures.empty), default_profile())
    in_play = reader.reader.d4_in_play  # the throws of one game, read in order
    assert in_play is not None
    for step in range(HAND_ARMING):
        in_play.told(Hand.CLOCKWISE, Box(100 * step, 0, 100 * step + 40, 40))
    assert in_play.hand is Hand.CLOCKWISE
    recalibrated = reader.with_tray(calibrate(pictures.empty)).reader.d4_in_play
    assert recalibrated is not None and recalibrated.hand is None  # learned afresh


@pytest.fixture(scope="module")
def ur_pictures() -> ThrowPictures:
    return ThrowPictures("ur", d4_font="script")


@pytest.fixture
def ur_device(tmp_path: Path, ur_pictures: ThrowPictures) -> Iterator[_Device]:
    """A device calibrated on the tray under its camera, set for the Ur game with the d4."""
    reader = ThrowReader(
        calibrate(ur_pictures.empty), default_profile(), still_frames=2, averaged=1
    )
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    app = make_app(tmp_path / "state", game="ur-tablet")
    made = _Device(app, _Table(ur_pictures.empty), reader, jobs, kit="ur")
    yield made
    made.camera.stop()


D4_ENROLMENT = Enrolling(0, 1, taught=Taught.D4)


def _choose(device: _Device, taught: Taught) -> None:
    """The enrolment of ``taught`` started from the settings (Ur's set: the d4 or the
    yes/no stick)."""
    device.settings_line(ENROL_LINE)
    choices = (Enrolling(0, 1, taught=Taught.D4), Enrolling(0, 1, taught=Taught.YESNO))
    assert _on(device.app) == EnrolChoice(choices)
    if taught is Taught.YESNO:
        device.press(Key.DOWN)
    device.press(Key.SELECT)
    assert _on(device.app) == Enrolling(0, 1, taught=taught)


def _enrol_d4(device: _Device, pictures: ThrowPictures, values: list[int]) -> None:
    """Every picture of d4 enrolment taken, the die showing ``values`` in turn."""
    _choose(device, Taught.D4)
    for step, value in enumerate(values):
        assert _on(device.app) == replace(D4_ENROLMENT, step=step)
        assert _take(device, pictures.draw(str(value)).frame).count == 1
    assert _on(device.app) == replace(D4_ENROLMENT, step=len(values), waiting=True)


def test_d4_enrolment_asks_each_value_in_turn_then_learns_the_numerals(
    ur_device: _Device, ur_pictures: ThrowPictures, tmp_path: Path
) -> None:
    device = ur_device
    device.app.screen = SettingsMenu(ENROL_LINE)
    assert "Enrol a new d4 or stick" in str(device.app.view())
    device.settings_line(ENROL_LINE)
    assert "Enrol a new d4" in str(device.app.view())
    assert "Enrol a new yes/no stick" in str(device.app.view())
    device.press(Key.SELECT)
    assert _on(device.app) == D4_ENROLMENT
    assert "New d4 1/8" in str(device.app.view())
    assert "Lay the d4 flat, 1 at its top point, then OK." in str(device.app.view())
    assert _take(device, ur_pictures.empty).count == 0  # the die was picked up
    assert "0 d4s seen lying flat: lay one alone." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == D4_ENROLMENT  # the same value again
    values = [step % 4 + 1 for step in range(Taught.D4.pictures)]
    for step, value in enumerate(values):
        assert f"{value} at its top point" in str(device.app.view())
        assert _take(device, ur_pictures.draw(str(value)).frame).count == 1
        assert _on(device.app) == replace(D4_ENROLMENT, step=step + 1, waiting=step == 7)
    done = device.answer()
    assert done == CameraDone("learn", count=8)
    assert "New d4 learnt (seen 8 times)." in _message(device.app)
    assert "small for the camera" not in _message(device.app)  # 25-30 mm, as the dev set's
    saved = Profile.load(tmp_path / "sticks.json")
    assert {(glyph.value, glyph.look) for glyph in saved.glyphs} == {
        (value, "mine") for value in (1, 2, 3, 4)
    }
    assert saved.prototypes == default_profile().prototypes  # the sticks stay
    in_use = device.reader().reader.profile.glyphs
    assert [(glyph.value, glyph.look) for glyph in in_use] == [
        (glyph.value, glyph.look) for glyph in saved.glyphs
    ]
    for used, kept in zip(in_use, saved.glyphs, strict=True):  # unit patches, stored rounded
        assert float(np.sum(used.patch * kept.patch)) > 0.99
    device.camera.stop()
    reader = device.reader()
    for value in (2, 3):
        frames = [ur_pictures.empty] * 3 + [ur_pictures.draw(str(value)).frame] * 4
        events = [reader.feed(frame, "ur", "en") for frame in frames]
        assert [event for event in events if event is not None] == [ThrowRead(str(value))]


def test_a_d4_shown_with_the_wrong_value_teaches_nothing(
    ur_device: _Device, ur_pictures: ThrowPictures, tmp_path: Path
) -> None:
    device = ur_device
    before = device.reader().reader.profile
    _enrol_d4(device, ur_pictures, [1, 2, 3, 4, 1, 2, 2, 4])  # the second 3 shows a 2
    done = device.answer()
    assert "the dice shown with 2 and with 3 on top look alike" in done.problem
    assert "Not learnt: the dice shown with 2 and with 3" in _message(device.app)
    assert "The d4 in use is kept." in _message(device.app)
    device.press(Key.SELECT)
    assert _on(device.app) == SettingsMenu(ENROL_LINE)
    assert not (tmp_path / "sticks.json").exists()
    assert device.reader().reader.profile is before


def test_back_cancels_d4_enrolment(ur_device: _Device, ur_pictures: ThrowPictures) -> None:
    device = ur_device
    _choose(device, Taught.D4)
    _take(device, ur_pictures.draw("1").frame)
    device.press(Key.BACK)
    assert "Cancelled: the d4 in use is kept." in _message(device.app)
    assert list(device.jobs.dice) == [0]  # kept until a new enrolment's first picture


def test_the_yes_no_stick_is_enrolled_face_by_face_and_only_it_changes(
    ur_device: _Device, ur_pictures: ThrowPictures, tmp_path: Path
) -> None:
    device = ur_device
    _choose(device, Taught.YESNO)
    assert 'its "yes" face up' in str(device.app.view())
    assert _take(device, ur_pictures.draw("2").frame).count == 0  # the d4 alone
    assert "0 yes/no sticks seen lying flat: lay one alone." in _message(device.app)
    device.press(Key.SELECT)
    for step in range(Taught.YESNO.pictures):
        shown = "yes" if step % 2 == 0 else "no"
        assert f'its "{shown}" face up' in str(device.app.view())
        assert _take(device, ur_pictures.draw(f"{step % 4 + 1}+{shown}").frame).count == 1
    done = device.answer()
    assert done == CameraDone("learn", count=6)
    assert "New yes/no stick learnt (6 faces seen)." in _message(device.app)
    saved = Profile.load(tmp_path / "sticks.json")
    shipped = default_profile()
    learnt = {(p.face, p.look, p.examples) for p in saved.prototypes if p.kind is Kind.YESNO}
    assert learnt == {("M", "mine", 3), ("P", "mine", 3)}
    others = [p for p in saved.prototypes if p.kind is not Kind.YESNO]
    assert [(p.kind, p.face, p.look) for p in others] == [
        (p.kind, p.face, p.look) for p in shipped.prototypes if p.kind is not Kind.YESNO
    ]
    assert len(saved.glyphs) == len(shipped.glyphs)  # the d4's numerals stay
    reader = device.reader().reader
    assert reader.profile.name == "enrolled"
    for shown, face in (("3+no", "no"), ("2+yes", "yes")):  # the stick's, whatever the die
        observation = reader.read(ur_pictures.draw(shown).frame, kit_named("ur"))
        assert [item.face for item in observation.implements if item.kind is Kind.YESNO] == [face]


def test_a_d4_picture_with_several_dice_is_taken_again(
    ur_device: _Device, ur_pictures: ThrowPictures
) -> None:
    """Only the die being enrolled may lie there: another set's would teach its numerals."""
    from vision.synthetic import scene

    device = ur_device
    _choose(device, Taught.D4)
    four = scene(1, "binary-d4", tray_seed=ur_pictures.tray_seed).frame  # four d4s
    done = _take(device, four)
    assert done.count > 1
    assert f"{done.count} d4s seen lying flat: lay one alone." in _message(device.app)
    assert device.jobs.dice == {}
    device.press(Key.SELECT)
    assert _on(device.app) == D4_ENROLMENT


def test_back_from_the_choice_and_a_new_enrolment_forgets_the_cancelled_ones_pictures(
    ur_device: _Device, ur_pictures: ThrowPictures
) -> None:
    device = ur_device
    device.settings_line(ENROL_LINE)
    device.press(Key.BACK)
    assert _on(device.app) == SettingsMenu(ENROL_LINE)
    _choose(device, Taught.D4)
    _take(device, ur_pictures.draw("1").frame)
    assert list(device.jobs.dice) == [0]
    device.press(Key.BACK)  # cancelled
    device.press(Key.SELECT)
    _choose(device, Taught.YESNO)
    assert _take(device, ur_pictures.draw("1+yes").frame).count == 1
    assert device.jobs.dice == {} and list(device.jobs.pictures) == [0]


def test_a_jobs_new_reader_is_in_use_when_its_answer_is_posted(pictures: ThrowPictures) -> None:
    """The screens say "used from now on" on the answer: by then the camera reads with it."""
    old = ThrowReader(calibrate(pictures.empty), default_profile())
    new = old.with_profile(default_profile())
    in_use: list[ThrowReader | None] = []
    answered = threading.Event()

    def work(task: CameraTask, frame: Any, reader: Any) -> tuple[CameraDone, ThrowReader]:
        return CameraDone(task.job), new

    def post(event: Event) -> None:
        if isinstance(event, CameraDone):
            in_use.append(camera._reader)
            answered.set()

    settings = CameraSettings(
        open_source=lambda: _Table(pictures.empty), make_reader=lambda first: old, work=work
    )
    camera = CameraThrows(settings, post=post, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        camera.capture(CameraTask("learn"))
        assert answered.wait(10)
    finally:
        camera.stop()
    assert in_use == [new]


def test_an_enrolment_picture_at_the_first_frame_reads_with_the_saved_calibration(
    pictures: ThrowPictures,
) -> None:
    """A job given before any frame came: the reader is made from that frame first."""
    reader = ThrowReader(calibrate(pictures.empty), default_profile())
    seen: list[ThrowReader | None] = []
    answered = threading.Event()

    def work(task: CameraTask, frame: Any, given: Any) -> tuple[CameraDone, None]:
        seen.append(given)
        return CameraDone(task.job), None

    def post(event: Event) -> None:
        if isinstance(event, CameraDone):
            answered.set()

    table, opened = _Table(pictures.empty), threading.Event()

    def held_frames() -> Iterator[Any]:
        assert opened.wait(10)  # the first frame comes once the job is given
        yield from _Table.frames(table)

    table.frames = held_frames  # type: ignore[method-assign]
    settings = CameraSettings(
        open_source=lambda: table, make_reader=lambda first: reader, work=work
    )
    camera = CameraThrows(settings, post=post, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        camera.capture(CameraTask("picture", shown="M", count=4))
        opened.set()
        assert answered.wait(10)
    finally:
        camera.stop()
    assert seen == [reader]


def test_a_small_d4_is_learnt_with_a_word_on_what_to_expect(ur_device: _Device) -> None:
    small = ThrowPictures("ur", d4_edge_mm=(20.0, 21.0))  # the same tray, dice of 20-21 mm
    _choose(ur_device, Taught.D4)
    for step in range(Taught.D4.pictures):
        while _take(ur_device, small.draw(str(step % 4 + 1)).frame).count != 1:
            ur_device.press(Key.SELECT)  # not seen lying flat: the same picture again
    assert ur_device.answer() == CameraDone("learn", count=8, detail="small")
    lines = _message(ur_device.app)
    assert "New d4 learnt (seen 8 times). It is small for the camera" in lines
    assert lines.endswith("Used from now on.")


def _learning_reader(drawn_from_mm: float, **options: Any) -> tuple[ThrowReader, Any]:
    """A reader on a tray calibrated as from 380 mm (not told), its throws of the d4
    drawn from ``drawn_from_mm``, judging the height from 12 of them (not 40: time)."""
    from vision.height import HeightInPlay
    from vision.synthetic import scene

    def throws() -> Iterator[Any]:
        for seed in range(1, 90):
            yield scene(seed, "ur-nostick", tray_seed=5, camera_height_mm=drawn_from_mm)

    empty = scene(0, "ur-nostick", tray_seed=5, camera_height_mm=drawn_from_mm).empty
    reader = ThrowReader(calibrate(empty), default_profile(), **options)
    if reader.height is not None:
        reader.height = HeightInPlay(reader.height.assumed_mm, needed=12)
    return reader, throws()


def _judged(reader: ThrowReader, throws: Iterator[Any], camera: CameraThrows) -> float:
    """Throws read, then measured by the camera thread once their readings are out,
    until the reader has judged the height."""
    for made in throws:
        reader._event(made.frame, "ur-nostick", "en")
        camera._measure_height(reader, made.frame)
        assert reader.height is not None
        if not reader.height.learning:
            return reader.reader.calibrated.camera_height_mm
    raise AssertionError("the throws never judged the height")


def _camera_over(
    folder: Path, reader: ThrowReader, *, live: bool = True
) -> tuple[CameraThrows, list[Event]]:
    posted: list[Event] = []
    jobs = CameraJobs(folder / "tray", folder / "sticks.json")
    settings = CameraSettings(
        open_source=lambda: _Table(reader.reader.tray.empty),
        make_reader=lambda _: reader,
        work=jobs.run,
        live=live,
    )
    camera = CameraThrows(settings, post=posted.append, kit=lambda: "ur", lang=lambda: "en")
    camera._reader = reader  # as made from its first frame
    return camera, posted


def test_the_devices_reader_learns_an_untold_camera_height_and_saves_it(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    reader, throws = _learning_reader(260.0, learn_height=True)
    camera, posted = _camera_over(tmp_path, reader)
    learned = _judged(reader, throws, camera)
    assert abs(learned - 260.0) <= 10.0
    assert reader.reader.tray.camera_height_mm == learned  # read from at once
    assert posted == [CameraDone("height", detail=f"{learned:g}")]  # to no screen
    saved = Tray.load(tmp_path / "tray")
    assert saved.camera_height_mm == learned
    assert saved.height_judged
    # After a restart, judged: not measured again. A new calibration (the camera may
    # have moved) starts from it, even asked before the camera's first frame.
    assert ThrowReader(saved, default_profile(), learn_height=True).height is None
    jobs = CameraJobs(tmp_path / "tray", tmp_path / "sticks.json")
    done, _ = jobs.run(CameraTask("calibrate"), pictures.empty, None)
    assert done.problem == ""
    again = Tray.load(tmp_path / "tray")
    assert again.camera_height_mm == learned and not again.height_judged
    relearning = ThrowReader(again, default_profile(), learn_height=True).height
    assert relearning is not None and relearning.assumed_mm == learned


def test_the_devices_reader_keeps_a_height_its_throws_fit(tmp_path: Path) -> None:
    reader, throws = _learning_reader(380.0, learn_height=True)
    camera, posted = _camera_over(tmp_path, reader)
    assert _judged(reader, throws, camera) == 380.0
    assert posted == [CameraDone("height", detail="380")]  # the judgement kept
    assert Tray.load(tmp_path / "tray").height_judged


def test_a_folders_calibration_keeps_the_height_judged_unsaved(
    tmp_path: Path, pictures: ThrowPictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder's or a video's calibration is its first picture, never saved: a height
    its throws judged must not save it over the camera's."""
    reader = ThrowReader(calibrate(pictures.empty), default_profile(), learn_height=True)
    monkeypatch.setattr(reader, "measure_height", lambda: 260.0)  # judged at this throw
    camera, posted = _camera_over(tmp_path, reader, live=False)
    camera._measure_height(reader, pictures.empty)
    assert posted == [] and not (tmp_path / "tray").exists()
    live, posted = _camera_over(tmp_path, reader)
    live._measure_height(reader, pictures.empty)
    assert posted == [CameraDone("height", detail="380")]  # the reader's calibration, saved


def test_enrolling_keeps_the_throws_measured_for_the_height(pictures: ThrowPictures) -> None:
    reader = ThrowReader(calibrate(pictures.empty), default_profile(), learn_height=True)
    assert reader.with_profile(default_profile()).height is reader.height


def test_a_told_camera_height_is_not_measured(tmp_path: Path) -> None:
    reader, throws = _learning_reader(260.0)
    assert reader.height is None
    reader._event(next(throws).frame, "ur-nostick", "en")
    assert reader.measure_height() is None
    settings = settings_for(str(tmp_path), tray=None, profile=None, camera_height_mm=380.0)
    empty = ThrowPictures("sticks4").empty
    assert settings.make_reader(empty).height is None
    untold = settings_for(str(tmp_path), tray=None, profile=None)
    assert untold.make_reader(empty).height is not None


def test_the_pi_cameras_lens_is_focused_at_the_height_known_at_each_opening(
    tmp_path: Path, pictures: ThrowPictures
) -> None:
    from companion.device.camerathrows import _lens_above_felt

    folder = tmp_path / "tray"
    assert _lens_above_felt(None, folder) == 380.0  # nothing saved
    save_tray(calibrate(pictures.empty, 300.0), folder)
    assert _lens_above_felt(None, folder) == 300.0  # the calibration's (maybe measured)
    assert _lens_above_felt(450.0, folder) == 450.0  # the configured height wins
    (folder / "tray.json").write_text("[1, 2]", encoding="utf-8")
    assert _lens_above_felt(None, folder) == 380.0  # damaged: calibrated again anyway
