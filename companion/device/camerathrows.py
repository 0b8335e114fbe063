"""Throws read by the camera: frames -> settle detection -> the vision reader -> events.

:class:`ThrowReader` is the pure part: fed one frame at a time, it waits for the tray to
settle, reads the still frames with the kit of the rule set being played until two
readings agree, and answers with a :class:`ThrowRead` (the throw in notation, as
``companion.reading`` writes it) or a :class:`ThrowRefused` (the reason in the players'
language). :class:`CameraThrows` runs a reader in its own thread over a frame source and
only puts events on the device's queue; a camera that cannot be opened or stops
delivering frames becomes a :class:`CameraFailed` (the throws are then entered by hand)
and, once frames come again, a :class:`CameraBack`.

This module imports ``vision`` (OpenCV, numpy) only inside its functions and methods, so
the device runs without the camera pipeline installed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.device import texts
from companion.device.events import (
    CameraBack,
    CameraDone,
    CameraFailed,
    CameraTask,
    Event,
    ThrowRead,
    ThrowRefused,
)
from companion.errors import CompanionError, NotationError
from companion.reading import Seen, throw_text
from vision.kit import KITS  # names only: no OpenCV

if TYPE_CHECKING:
    from vision.observation import Observation
    from vision.profile import Profile
    from vision.reader import Reader
    from vision.settle import SettledReading
    from vision.stack import StillStack
    from vision.tray import Tray

# Kits the camera reads: vision's own; a house rule thrown with other implements (five
# sticks) has none.
READABLE_KITS = frozenset(KITS)
FOLDER_PACE_SECONDS = 0.05  # a folder or a video is read at 20 frames a second
Frame = Any  # a BGR image (numpy array); typed loosely so the engine side needs no numpy
Post = Callable[[Event], None]
# A job on one frame (calibrate, an enrolment picture): the answer, and the reader to use
# from then on when the job changed the calibration or the profile.
# None when no reader could be made yet (no calibration): only ``calibrate`` can be done.
Work = Callable[[CameraTask, Frame, "ThrowReader | None"], tuple[CameraDone, "ThrowReader | None"]]


def refusal_text(reason: str, lang: str) -> str:
    """What the players read when vision refuses a throw (vision.observation.Reason)."""
    key = f"refusal-{reason}"
    return texts.text(key, lang) if texts.has(key) else reason


def problem_text(key: str, lang: str, **values: object) -> str:
    return texts.text(f"camera-{key}", lang, **values)


class CameraSetupError(CompanionError, OSError):
    """The camera pipeline cannot start: not installed, no calibration, a bad profile."""


class ThrowReader:
    """Turns frames into throw events for the kit of the rule set being played."""

    def __init__(
        self,
        tray: Tray,
        profile: Profile,
        *,
        still_frames: int = 5,
        agreeing: int = 2,
        averaged: int | None = None,
        learn_height: bool = False,
    ) -> None:
        """``averaged``: still frames averaged per reading (None: ``vision.stack.STACKED``).
        ``learn_height``: the camera's height was not told; the throws' d4s judge it
        (:meth:`measure_height`), once per calibration (``Tray.height_judged``)."""
        from vision.height import HeightInPlay
        from vision.reader import Reader
        from vision.settle import Agreement, SettleDetector, SettledReading
        from vision.stack import STACKED

        self.still_frames = still_frames
        self.agreeing = agreeing
        self.averaged = STACKED if averaged is None else averaged
        self.reader: Reader = Reader(tray, profile, learn_hand=True)  # one game's throws
        self.learn_height = learn_height
        judging = learn_height and not tray.height_judged
        self.height = HeightInPlay(tray.camera_height_mm) if judging else None
        self.settled: SettledReading[Event] = SettledReading(
            SettleDetector.for_tray(tray.empty_as_framed, still_frames),
            Agreement(agreeing, same=_same_event),
            empty_now=lambda: self.reader.tray.empty_as_framed,
            averaged=self.averaged,
            picture_scale=tray.scale,
            unclear=lambda: ThrowRefused(refusal_text("unclear", self._lang)),
        )
        self.readings = 0  # readings made (each of ``averaged`` frames), for measurements
        self._lang = "en"  # the players' language at the last frame

    def with_tray(self, tray: Tray) -> ThrowReader:
        """A reader like this one on a new calibration."""
        return self._like(tray, self.reader.profile)

    def with_profile(self, profile: Profile) -> ThrowReader:
        """A reader like this one with newly enrolled implements (the throws measured
        for the camera's height still count)."""
        reader = self._like(self.reader.calibrated, profile)
        reader.height = self.height
        return reader

    def _like(self, tray: Tray, profile: Profile) -> ThrowReader:
        return ThrowReader(
            tray,
            profile,
            still_frames=self.still_frames,
            agreeing=self.agreeing,
            averaged=self.averaged,
            learn_height=self.learn_height,
        )

    def feed(
        self, frame: Frame, kit: str | None, lang: str, *, small: Frame | None = None
    ) -> Event | None:
        """The event for this frame, when a settled throw has just been read (without a
        game, ``kit`` None, nothing is read). ``small``: the camera's low-resolution grey
        picture of the same moment, for the settle check, when it has one."""
        self._lang = lang
        if kit is None:
            return self.settled.offer(frame, None, small=small)
        return self.settled.offer(frame, lambda still: self._event(still, kit, lang), small=small)

    def _event(self, frame: Frame, kit: str, lang: str) -> Event | None:
        """The throw's event; None when the tray holds nothing (a player's shade over the
        empty tray, a room grown darker: no message to the players)."""
        from vision.kit import kit_named

        self.readings += 1
        kit_read = kit_named(kit)
        observation = self.reader.read(frame, kit_read)
        if observation.empty:
            return None
        if self.height is not None:
            self.height.offer(frame, observation, kit_read)
        return self.event_of(observation, kit, lang)

    def measure_height(self) -> float | None:
        """The camera's height measured from the last throw read (``vision.height``; once
        its reading is shown): once the throws have judged it, the height chosen, read
        from at once, to be saved with the judgement."""
        return None if self.height is None else self.height.measure(self.reader)

    def observe(self, frame: Frame, kit: str) -> Observation:
        from vision.kit import kit_named

        return self.reader.read(frame, kit_named(kit))

    @staticmethod
    def event_of(observation: Observation, kit: str, lang: str) -> Event:
        if observation.refused:
            return ThrowRefused(refusal_text(observation.refusals[0].reason.value, lang))
        seen = [Seen(item.kind.value, item.face, item.value) for item in observation.implements]
        try:
            return ThrowRead(throw_text(kit, seen))
        except NotationError:
            return ThrowRefused(refusal_text("unclear", lang))


def _same_event(first: Event, then: Event) -> bool:
    """Readings that agree: the same throw read, or both refused (for whatever reasons:
    the last is shown)."""
    return first == then or (isinstance(first, ThrowRefused) and isinstance(then, ThrowRefused))


class FrameSource(Protocol):
    """vision.sources.FrameSource: ``frames()`` ends when the source has no more."""

    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class CameraSettings:
    """How :class:`CameraThrows` opens and reads its camera."""

    open_source: Callable[[], FrameSource]
    make_reader: Callable[[Frame], ThrowReader]  # from the first frame (which may calibrate)
    live: bool = True  # a camera: retry after a failure; a folder or a video: stop at its end
    retry_seconds: float = 2.0
    pace_seconds: float = 0.0  # a folder or a video: time between frames, as a camera's
    work: Work | None = None  # calibration and enrolment (camerajobs.CameraJobs.run)
    # Whether a calibration is saved: a live camera without one calibrates itself as from
    # the menu (``work``), from its first still frames averaged, before reading throws.
    calibrated: Callable[[], bool] = lambda: True
    averaged: int | None = None  # still frames averaged per reading (None: vision's default)


@dataclass
class _PendingCalibration:
    """Calibrations asked of a live camera, waiting for ``count`` still frames averaged."""

    stack: StillStack
    count: int
    tasks: list[CameraTask] = field(default_factory=list)


class CameraThrows:
    """Reads throws in a thread of its own; the device's loop only receives events.

    ``kit`` and ``lang`` are asked on every frame (the players may start another game or
    switch language); they must only read the App's state, never change it. A folder or
    a video is read only while ``ready`` says a throw is awaited (a camera always is: its
    picture changes by itself), so that its throws are not spent while the players move.

    :meth:`capture` hands it a :class:`CameraTask` (calibrate, an enrolment picture): the
    next frame is given to ``settings.work`` and the answer posted as a :class:`CameraDone`.
    A task asked while no frame comes is answered at once with the failure; while frames
    come but cannot be read (no calibration, one of another size), it is done: calibrating
    is how the players mend that. A live camera with no calibration saved does that task
    itself before it reads a throw (see ``_calibrates_first``).
    """

    def __init__(
        self,
        settings: CameraSettings,
        *,
        post: Post,
        kit: Callable[[], str | None],
        lang: Callable[[], str],
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        self.settings = settings
        self.post = post
        self.kit = kit
        self.lang = lang
        self.ready = ready
        self.failed = False
        self._failure = ""
        self._blind = False  # the source gives no frames: tasks cannot be done
        self._reader: ThrowReader | None = None  # kept when the camera is opened again
        self._tasks: list[CameraTask] = []
        self._calibration: _PendingCalibration | None = None  # a live camera's, averaging
        self._tasks_lock = threading.Lock()  # tasks and ``failed``, between the two threads
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def capture(self, task: CameraTask) -> None:
        """For the event loop: do ``task`` on the next frame; the answer comes as an event."""
        with self._tasks_lock:
            if self.running and not self._blind:
                self._tasks.append(task)
                return
        problem = self._failure or problem_text("ended", self.lang())
        self.post(CameraDone(task.job, task.step, problem=problem))

    def _take_tasks(self) -> list[CameraTask]:
        with self._tasks_lock:
            tasks, self._tasks = self._tasks, []
        return tasks

    def _do(self, task: CameraTask, frame: Frame) -> CameraDone:
        """Carry out ``task`` on ``frame``, and post the answer (which it returns). A reader
        it changed is in use before the answer is posted: the screens then say the new
        calibration or profile is used."""
        work = self.settings.work
        if work is None:
            done = CameraDone(task.job, task.step, problem=problem_text("no-work", self.lang()))
            self.post(done)
            return done
        try:
            done, changed = work(task, frame, self._reader)
        except Exception as error:  # the players get a message; the old settings stay
            done, changed = CameraDone(task.job, task.step, problem=str(error)), None
        self._reader = changed or self._reader
        self.post(done)
        return done

    def _run(self) -> None:
        while not self._stop.is_set():
            ended = self._read_until_failure()
            if ended or not self.settings.live:
                return
            self._stop.wait(self.settings.retry_seconds)

    def _read_until_failure(self) -> bool:
        """Read frames until the source fails (False) or ends for good (True)."""
        try:
            source = self.settings.open_source()
        except Exception as error:  # any failure to open is the same to the players
            self._fail(str(error), blind=True)
            return False
        try:
            return self._read_frames(source)
        except Exception as error:  # picamera2 and OpenCV raise many kinds; none may escape
            self._fail(str(error) or type(error).__name__, blind=True)
            return False
        finally:
            _close_quietly(source)

    def _read_frames(self, source: FrameSource) -> bool:
        from vision.sources import small_pictures

        small = small_pictures(source)  # the Pi camera's second stream, if the source has one
        for frame in source.frames():
            if not self.settings.live and not self._wait_until_ready():
                return True
            if self._stop.is_set():
                return True
            self._blind = False
            tasks = self._take_tasks()
            first = self._calibrates_first()
            if first and self._calibration is None:
                self._await_still_frames(CameraTask("calibrate"))  # answered to no screen
            if any(task.job != "calibrate" for task in tasks) and not first:
                # An enrolment picture asked for at the first frame reads with the saved
                # calibration; a calibration does not need one (and may be what mends it).
                self._reader_for(frame)
            for task in tasks:
                if task.job == "calibrate" and self.settings.live:
                    self._await_still_frames(task)
                else:
                    self._do(task, frame)
            if self._calibration is not None:
                if not self._calibrate_with(frame):
                    return False
                continue  # the tray is empty while it is calibrated: nothing to read
            reader = self._reader_for(frame)
            if reader is None:
                return False
            kit = self.kit()
            if kit is not None and kit not in READABLE_KITS:
                self._fail(problem_text("kit", self.lang()))
                continue
            if (frame.shape[1], frame.shape[0]) != reader.reader.tray.picture:
                # The picture's size changed since calibrating: calibrating again (a task
                # above) mends it, so the camera stays open, failed once, not back and forth.
                self._fail(problem_text("frame-size", self.lang()))
                continue
            if self.failed:
                with self._tasks_lock:
                    self.failed = False
                self.post(CameraBack())
            event = reader.feed(frame, kit, self.lang(), small=small())
            if event is not None:
                self.post(event)
                self._measure_height(reader, frame)
        if not self.settings.live:
            self._fail(problem_text("ended", self.lang()), blind=True)
            return True
        return False

    def _measure_height(self, reader: ThrowReader, frame: Frame) -> None:
        """The camera's height measured from the throw just read, once the players see it.
        A live camera's judged height is saved with its calibration (``work``'s ``height``
        job, which needs no frame: given this one); a folder's or a video's calibration,
        its first picture, is never saved, and keeps it in memory. A save that fails
        leaves it in use until the device restarts, and judged again then."""
        judged = reader.measure_height() is not None
        if judged and self.settings.live and self.settings.work is not None:
            self._do(CameraTask("height"), frame)

    def _await_still_frames(self, task: CameraTask) -> None:
        """A live camera's empty tray is calibrated from still frames averaged, as many as
        its throws are read from: the frames are compared with it (``vision.focus``), and
        an empty tray noisier than they are would make them look blurred. A calibration
        asked for again meanwhile is answered with the same one."""
        if self._calibration is None:
            from vision.stack import STACKED, StillStack

            reader = self._reader
            count = (self.settings.averaged or STACKED) if reader is None else reader.averaged
            scale = 1.0 if reader is None else reader.reader.tray.scale
            self._calibration = _PendingCalibration(StillStack(scale), count)
        self._calibration.tasks.append(task)

    def _calibrate_with(self, frame: Frame) -> bool:
        """Average ``frame`` into the calibration awaited, and once enough still frames
        are, calibrate from their average. False when the camera's first calibration
        failed (something on the tray, no tray in sight): it is said, and the camera is
        opened again later to try once more."""
        from vision.stack import calibration_averaged

        pending = self._calibration
        if pending is None:
            return True
        pending.stack.add(frame)
        if not calibration_averaged(pending.stack, pending.count):
            return True
        self._calibration = None
        empty = pending.stack.mean()
        answers = [self._do(task, empty) for task in pending.tasks]
        if not self._calibrates_first() or any(not answer.problem for answer in answers):
            return True
        problem = next((answer.problem for answer in answers if answer.problem), "?")
        self._fail(problem_text("uncalibrated", self.lang(), problem=problem))
        return False

    def _calibrates_first(self) -> bool:
        """Whether the camera must calibrate before it reads: a live camera without a
        reader nor a saved calibration, which it makes as the menu does (the markers or
        the outline, the tray checked empty, the calibration saved). A folder or a video
        takes its first picture as the empty tray (``load_tray``)."""
        settings = self.settings
        if self._reader is not None or not settings.live or settings.work is None:
            return False
        return not settings.calibrated()

    def _reader_for(self, frame: Frame) -> ThrowReader | None:
        """The reader, made from the first frame (which may calibrate); None: it cannot be."""
        if self._reader is None:
            try:
                self._reader = self.settings.make_reader(frame)
            except Exception as error:  # e.g. no tray in sight: calibrating from the menu mends it
                self._fail(str(error) or type(error).__name__)
        return self._reader

    def _wait_until_ready(self) -> bool:
        """Pace a folder or a video and hold it while no throw is awaited; False: stop."""
        if self.settings.pace_seconds and self._stop.wait(self.settings.pace_seconds):
            return False
        while not self.ready() and not self._tasks:
            if self._stop.wait(0.05):
                return False
        return True

    def _fail(self, reason: str, *, blind: bool = False) -> None:
        """Say what went wrong (once, until the camera reads again); when no frame comes
        (``blind``), the tasks waiting for one are answered with it."""
        with self._tasks_lock:
            first = not self.failed
            self.failed = True
            self._failure = reason
            self._blind = blind
            tasks, self._tasks = (self._tasks, []) if blind else ([], self._tasks)
            if blind and self._calibration is not None:  # its frames stopped coming
                tasks += self._calibration.tasks
                self._calibration = None
        if first:
            self.post(CameraFailed(reason))
        for task in tasks:  # a frame taken after the camera comes back might not be wanted
            self.post(CameraDone(task.job, task.step, problem=reason))


def _close_quietly(source: FrameSource) -> None:
    try:
        source.close()
    except Exception:  # a camera that failed may fail to close too; nothing more to do
        return


# ----- from the configuration -------------------------------------------------------------
def load_tray(
    folder: Path | None,
    first_frame: Frame,
    floor_mm: tuple[float, float] | None = None,
    camera_height_mm: float | None = None,
) -> Tray:
    """The calibration in ``folder`` if there is one, else the first frame as the empty tray
    (of ``floor_mm`` inside, default 400 x 300 mm): a folder's or a video's, as a live
    camera calibrates as from the menu first (see ``CameraThrows``). A power cut while a
    calibration was put in place (see ``camerajobs.save_tray``) leaves it beside
    ``folder``: the new one, whole, else the old one."""
    from vision.errors import CalibrationError
    from vision.tray import CAMERA_HEIGHT_MM, FLOOR_MM, Tray, calibrate

    if folder is not None and (folder / "tray.json").is_file():
        return Tray.load(folder)
    for left in _left_by_a_power_cut(folder):
        try:
            return Tray.load(left)
        except CalibrationError:
            continue
    height = camera_height_mm or CAMERA_HEIGHT_MM
    return calibrate(first_frame, height, floor_mm=floor_mm or FLOOR_MM)


def saved_tray(folder: Path | None) -> bool:
    """Whether ``load_tray`` finds a calibration of ``folder`` that it can load (or one a
    power cut left): a damaged one is made again as at the first start."""
    from vision.errors import CalibrationError
    from vision.tray import Tray

    if folder is None:
        return False
    for place in (folder, *_left_by_a_power_cut(folder)):
        try:
            Tray.load(place)
        except CalibrationError:
            continue
        return True
    return False


def _left_by_a_power_cut(folder: Path | None) -> list[Path]:
    if folder is None:
        return []
    beside = [folder.with_name(folder.name + suffix) for suffix in (".new", ".old")]
    return [path for path in beside if (path / "tray.json").is_file()]


def load_profile(path: Path | None) -> Profile:
    from vision.profile import Profile, default_profile

    return default_profile() if path is None else Profile.load(path)


def settings_for(
    spec: str,
    *,
    tray: Path | None,
    profile: Path | None,
    size: tuple[int, int] = (1200, 900),
    still_frames: int = 5,
    averaged: int | None = None,
    floor_mm: tuple[float, float] | None = None,
    camera_height_mm: float | None = None,
) -> CameraSettings:
    """Camera settings for ``spec``: ``pi``, a camera number, a video file or a folder.

    Raises :class:`CameraSetupError` when the camera pipeline is not installed or the
    profile cannot be read; a camera that cannot be opened fails later, in the thread,
    as a message on the screen.
    """
    try:
        from vision.errors import VisionError
        from vision.sources import is_live
    except ImportError as missing:
        raise CameraSetupError(f"camera: {missing.name} is not installed") from None
    try:
        chosen = load_profile(profile)
    except VisionError as error:
        raise CameraSetupError(f"camera: {error}") from None

    def make_reader(first: Frame) -> ThrowReader:
        calibrated = load_tray(tray, first, floor_mm, camera_height_mm)
        return ThrowReader(
            calibrated,
            chosen,
            still_frames=still_frames,
            averaged=averaged,
            learn_height=camera_height_mm is None,
        )

    live = is_live(spec)
    return CameraSettings(
        open_source=lambda: _open(spec, size, _lens_above_felt(camera_height_mm, tray)),
        make_reader=make_reader,
        live=live,
        pace_seconds=0.0 if live else FOLDER_PACE_SECONDS,
        calibrated=lambda: saved_tray(tray),
        averaged=averaged,
    )


def _lens_above_felt(configured_mm: float | None, tray: Path | None) -> float:
    """Where a Pi camera's lens that moves is focused, asked at each opening: the
    configured height, else the saved calibration's (which may have been measured from
    the throws since), else 380 mm."""
    from vision.tray import CAMERA_HEIGHT_MM, saved_camera_height

    places = [] if tray is None else [tray, *_left_by_a_power_cut(tray)]
    saved = next((height for place in places if (height := saved_camera_height(place))), None)
    return configured_mm or saved or CAMERA_HEIGHT_MM


def _open(spec: str, size: tuple[int, int], lens_above_felt_mm: float) -> FrameSource:
    if spec == "pi":
        from hardware.camera import PiCameraSource

        return PiCameraSource(size, lens_above_felt_mm=lens_above_felt_mm)
    from vision.sources import open_source

    return open_source(spec)
