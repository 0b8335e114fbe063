"""The camera path on the device: generated pictures -> settle -> vision reader -> events ->
screens, in the camera's own thread; a camera that is missing, fails and comes back; the
beep (buzzer or LED, gpiozero mock pins) when a throw is read."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from device_helpers import make_app
from gpiozero.pins.mock import MockFactory

from companion import games
from companion.device import config as device_config
from companion.device.app import App
from companion.device.camerathrows import (
    CameraSettings,
    CameraSetupError,
    CameraThrows,
    ThrowReader,
    problem_text,
    refusal_text,
    settings_for,
)
from companion.device.events import (
    CameraBack,
    CameraFailed,
    Effect,
    Event,
    Key,
    Press,
    ThrowRead,
    ThrowRefused,
)
from companion.device.generated import PicturedThrows, ThrowPictures, enrolled_profile
from companion.device.loop import EventLoop
from companion.device.run import RunOptions, _camera, _camera_spec, beeping, open_beeper
from companion.device.screens import AwaitThrow, GameOver, Message
from companion.device.scripted import TablePlayer
from companion.device.view import MessageScreen, View
from companion.throws import Throw
from hardware.display import dummy_display
from vision.errors import CameraUnavailableError
from vision.observation import Reason
from vision.profile import Profile
from vision.stack import STACKED
from vision.synthetic import small_stream
from vision.tray import calibrate

# Senet (Kendall), one piece each left near the end: a game of a few throws.
ENDGAME = "........../........../...W.B.... w - play 4/4"


@pytest.fixture(scope="module")
def sticks() -> tuple[ThrowPictures, Profile]:
    pictures = ThrowPictures("sticks4")
    return pictures, enrolled_profile(pictures)


def _reader(pictures: ThrowPictures, profile: Profile) -> ThrowReader:
    # Each reading of one frame, not averaged: these tests count the frames a throw takes.
    return ThrowReader(calibrate(pictures.empty), profile, still_frames=2, averaged=1)


def _fed(reader: ThrowReader, frames: list[Any], kit: str | None, lang: str = "en") -> list[Event]:
    events = (reader.feed(frame, kit, lang) for frame in frames)
    return [event for event in events if event is not None]


def test_a_settled_throw_is_read_once(sticks: tuple[ThrowPictures, Profile]) -> None:
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    picture = pictures.picture("PMPM")
    frames = [pictures.empty, pictures.empty, *[picture] * 8]
    assert _fed(reader, frames, "sticks4") == [ThrowRead("MMPP")]
    assert reader.readings == 2  # two agreeing readings, then nothing until the tray changes
    again = [pictures.empty, *[pictures.picture("MMMM")] * 5]
    assert _fed(reader, again, "sticks4") == [ThrowRead("MMMM")]


def _turned(image: Any, degrees: float) -> Any:
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    return cv2.warpAffine(
        image, turn, (width, height), flags=cv2.INTER_LANCZOS4, borderMode=cv2.BORDER_REPLICATE
    )


def test_a_throw_that_knocked_the_tray_is_read_once_and_its_tray_then_empty(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    """Once its sticks are picked up, the knocked tray is empty to the settle check: no
    second reading, refused as an empty tray."""
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    thrown, picked_up = _turned(pictures.picture("PMPM"), 0.7), _turned(pictures.empty, 0.7)
    frames = [pictures.empty, *[thrown] * 6, *[picked_up] * 6]
    assert _fed(reader, frames, "sticks4") == [ThrowRead("MMPP")]


def _shaded(image: Any, depth: float) -> Any:
    """The picture darkened by ``depth`` left of its middle, with a soft edge: a player
    leaning between the lamp and the tray."""
    columns = np.arange(image.shape[1], dtype=np.float32)
    shade = 1.0 / (1.0 + np.exp((columns - image.shape[1] / 2) / 10.0))
    return np.clip(image * (1.0 - depth * shade)[None, :, None] + 0.5, 0, 255).astype(np.uint8)


def test_a_change_of_light_over_the_empty_tray_is_not_a_throw(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    """A player's shade over the empty tray, then the room grown darker: the settle check
    sees the tray change and settle, and it is read; the readings find nothing on it, and
    the players are told nothing (not "an implement is missing"). The throw that follows,
    in the shade, is read."""
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    darker = np.asarray(pictures.empty * 0.75, np.uint8)
    thrown = _shaded(pictures.picture("PMPM"), 0.3)
    light = [*[_shaded(pictures.empty, 0.3)] * 4, *[darker] * 4, _shaded(pictures.empty, 0.3)]
    assert _fed(reader, [pictures.empty, *light, *[thrown] * 6], "sticks4") == [ThrowRead("MMPP")]
    assert reader.readings == 2 * 2 + 2  # twice for each change of light and for the throw


def test_ur_throws_are_read_with_the_yes_no_stick_and_without() -> None:
    pictures = ThrowPictures("ur")
    reader = _reader(pictures, enrolled_profile(pictures))
    thrown = ("3+yes", "1+no", "4", "2", "2+yes", "4+no", "1", "3")
    read = []
    for shown in thrown:
        (event,) = _fed(reader, pictures.frames(pictures.picture(shown)), "ur")
        assert isinstance(event, ThrowRefused) or event == ThrowRead(shown), shown
        read += [shown] if isinstance(event, ThrowRead) else []
    # At least 6 with today's OpenCV; Bookworm's (4.6) draws the generated numerals a little
    # otherwise than those the shipped glyphs were learnt from, and reads 3 (the reading of
    # one and the same picture is the same with both).
    assert len(read) >= 3 and any("+" in s for s in read) and any("+" not in s for s in read)


def test_the_binary_dice_of_ur_finkel_are_read_in_any_order() -> None:
    pictures = ThrowPictures("binary-d4")
    reader = _reader(pictures, enrolled_profile(pictures))
    read = 0
    # Four dice to a throw, each read three times in four: most throws are thrown again.
    for shown in ("MPMM", "PPPM", "MMPP", "PPPP", "MMMM", "PMPP", "MMPM", "PPMP"):
        (event,) = _fed(reader, pictures.frames(pictures.picture(shown)), "binary-d4")
        if isinstance(event, ThrowRead):
            assert sorted(event.shown) == sorted(shown), shown
            read += 1
        else:
            assert isinstance(event, ThrowRefused), shown
    assert read >= 2


def test_nothing_is_read_while_the_sticks_move_or_without_a_game(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    moving = [pictures.picture(faces) for faces in ("MPPP", "MMPP", "MMMP", "MMMM")]
    assert _fed(reader, [pictures.empty, *moving], "sticks4") == []
    assert _fed(reader, [moving[-1]] * 5, None) == []
    assert reader.readings == 0


def test_a_refused_throw_is_told_in_the_players_language(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    on_edge = pictures.picture("MPPP", "on-edge")
    assert _fed(reader, [pictures.empty, *[on_edge] * 4], "sticks4", "fr") == [
        ThrowRefused("bâtonnet sur la tranche : relancez")
    ]
    assert refusal_text("on-edge", "en") == "stick on its edge: throw again"


@pytest.mark.parametrize("reason", list(Reason))
def test_every_refusal_has_a_short_text_in_each_language(reason: Reason) -> None:
    for lang in ("en", "fr"):
        shown = refusal_text(reason.value, lang)
        assert shown != reason.value  # not the bare reason, for want of a text
        assert len(shown) <= 40


@pytest.mark.usefixtures("no_fsync")
def test_a_short_game_through_the_camera_thread(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    rules = games.get("senet-kendall")
    app.game, app.start = rules.game(ENDGAME), ENDGAME
    app.screen = app._play_screen()
    shown: list[View] = []
    loop = EventLoop(app, dummy_display(), on_view=shown.append)
    rng = random.Random(5)
    throws = PicturedThrows(rng, troubles={1: "on-edge", 3: "hand"})
    player = TablePlayer(rng, throws)
    try:
        for _ in range(300):
            events = player.next_events(app)
            if not events:
                break
            for event in events:
                loop.step(event)
    finally:
        throws.close()
    assert isinstance(app.screen, GameOver)
    refusals = [t for t in throws.thrown if isinstance(t.read, ThrowRefused)]
    assert [t.trouble for t in refusals[:2]] == ["on-edge", "hand"]
    messages = [v.lines[0] for v in shown if isinstance(v, MessageScreen) and v.lines]
    assert "stick on its edge: throw again" in messages
    assert "a hand is over the tray" in messages
    read = [rules.parse_throw(t.read.shown) for t in throws.thrown if isinstance(t.read, ThrowRead)]
    played = [action for action in app._game().history if isinstance(action, Throw)]
    assert played == read and len(read) >= 2
    drawn_right = [t for t in throws.thrown if t.read == ThrowRead(_sorted_faces(t.shown))]
    assert len(drawn_right) >= len(read) - 1  # the generated sticks are read as thrown


def _sorted_faces(shown: str) -> str:
    return "".join(sorted(shown, key=lambda face: face != "M"))


class _Camera:
    """Opened three times: frames then a pulled cable; absent; working again."""

    def __init__(self, pictures: ThrowPictures) -> None:
        self.pictures = pictures
        self.opened = 0

    def open(self) -> Any:
        self.opened += 1
        if self.opened == 2:
            raise CameraUnavailableError("no camera on the cable")
        return self

    def frames(self) -> Iterator[Any]:
        if self.opened == 1:
            yield from [self.pictures.empty] * 3
            raise CameraUnavailableError("the cable was pulled")
        yield from [self.pictures.empty] * 2
        yield from [self.pictures.picture("MMMP")] * 6
        yield from [self.pictures.empty] * 200

    def close(self) -> None:
        return None


def _until(events: queue.SimpleQueue[Event], wanted: type, app: App, loop: EventLoop) -> Event:
    while True:
        event = events.get(timeout=20)
        loop.step(event)
        if isinstance(event, wanted):
            return event


@pytest.mark.usefixtures("no_fsync")
def test_camera_failure_and_recovery(tmp_path: Path, sticks: tuple[ThrowPictures, Profile]) -> None:
    pictures, profile = sticks
    app = make_app(tmp_path)
    app.handle(Press(Key.SELECT), 1.0)  # new game
    app.handle(Press(Key.SELECT), 1.0)  # started as set up
    loop = EventLoop(app, dummy_display())
    camera_source = _Camera(pictures)
    settings = CameraSettings(
        open_source=camera_source.open,
        make_reader=lambda first: _reader(pictures, profile),
        retry_seconds=0.01,
    )
    camera = CameraThrows(settings, post=loop.events.put, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        failed = _until(loop.events, CameraFailed, app, loop)
        assert failed == CameraFailed("the cable was pulled")
        assert isinstance(app.screen, Message) and "Enter throws by hand" in app.screen.lines[0]
        loop.step(Press(Key.SELECT))  # the message read
        assert "No camera" in str(app.view())
        loop.step(Press(Key.DOWN))
        loop.step(Press(Key.SELECT))  # a throw entered by hand while the camera is away
        assert len(app._game().history) == 1
        loop.step(Press(Key.SELECT))  # the score seen
        loop.step(Press(Key.SELECT))  # the move made
        assert isinstance(app.screen, AwaitThrow)
        _until(loop.events, CameraBack, app, loop)
        assert app.camera_ok
        loop.step(Press(Key.SELECT))  # "the camera reads throws again"
        read = _until(loop.events, ThrowRead, app, loop)
    finally:
        camera.stop()
    assert read == ThrowRead("MMMP")
    assert camera_source.opened == 3  # the absent camera was tried again, reported once
    throws = [action for action in app._game().history if isinstance(action, Throw)]
    assert throws[-1] == app._game().rules.parse_throw("MMMP")


def test_a_missing_camera_is_a_message_and_hand_entry_stays(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.handle(Press(Key.SELECT), 1.0)  # new game
    app.handle(Press(Key.SELECT), 1.0)  # started as set up
    loop = EventLoop(app, dummy_display())
    settings = settings_for("/no/such/camera", tray=None, profile=None)
    camera = CameraThrows(settings, post=loop.events.put, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        failed = _until(loop.events, CameraFailed, app, loop)
    finally:
        camera.stop()
    assert isinstance(failed, CameraFailed) and "/no/such/camera" in failed.reason
    assert not camera.running  # a folder or a file is not retried
    loop.step(Press(Key.SELECT))
    loop.step(Press(Key.SELECT))
    assert len(app._game().history) == 1


def test_an_unreadable_profile_is_reported_before_the_camera_starts(tmp_path: Path) -> None:
    with pytest.raises(CameraSetupError, match="profile"):
        settings_for("pi", tray=None, profile=tmp_path / "missing.json")
    app = make_app(tmp_path)
    loop = EventLoop(app, dummy_display())
    (tmp_path / "missing.json").write_text("{cut short", encoding="utf-8")  # there, unreadable
    config = device_config.DeviceConfig(camera_profile=tmp_path / "missing.json")
    assert _camera("0", config, tmp_path, loop) is None
    event = loop.events.get_nowait()
    assert isinstance(event, CameraFailed) and "missing.json" in event.reason


def test_which_camera_run_uses() -> None:
    config = device_config.DeviceConfig()
    assert _camera_spec(RunOptions(), config, on_pi=True) == "pi"
    assert _camera_spec(RunOptions(), config, on_pi=False) is None
    assert _camera_spec(RunOptions(source="throws/"), config, on_pi=False) == "throws/"
    off = device_config.parse("[camera]\nenabled = false\n")
    assert _camera_spec(RunOptions(), off, on_pi=True) is None
    usb = device_config.parse('[camera]\nsource = "0"\nstill_frames = 3\n')
    assert _camera_spec(RunOptions(), usb, on_pi=False) == "0"
    assert usb.camera_still_frames == 3


def test_the_frames_averaged_per_reading_are_configured(
    sticks: tuple[ThrowPictures, Profile], tmp_path: Path
) -> None:
    pictures, _ = sticks
    tray = tmp_path / "no-tray"
    default = settings_for("throws/", tray=tray, profile=None).make_reader(pictures.empty)
    assert default.averaged == STACKED
    config = device_config.parse("[camera]\naveraged_frames = 2\n")
    assert config.camera_averaged_frames == 2
    chosen = settings_for(
        "throws/", tray=tray, profile=None, averaged=config.camera_averaged_frames
    ).make_reader(pictures.empty)
    assert chosen.averaged == 2 and chosen.settled.averaged == 2
    assert chosen.with_profile(chosen.reader.profile).averaged == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[camera]\nsource = ""', "camera.source"),
        ("[camera]\nstill_frames = 0", "camera.still_frames = 0: expected a whole number"),
        ("[camera]\naveraged_frames = 0", "camera.averaged_frames = 0: expected a whole number"),
        ("[camera]\nprofile = 3", "camera.profile = 3: expected a file path"),
    ],
)
def test_wrong_camera_settings_name_the_key(text: str, message: str) -> None:
    with pytest.raises(device_config.ConfigError, match=message):
        device_config.parse(text)


# ----- the beep when a throw is read -------------------------------------------------------
def _beeping_loop(tmp_path: Path, factory: Any) -> tuple[EventLoop, Any]:
    config = device_config.parse("[buzzer]\npin = 12\n")
    beeper = open_beeper(config, pin_factory=factory)
    assert beeper is not None
    app = make_app(tmp_path)
    app.handle(Press(Key.SELECT), 1.0)  # new game
    app.handle(Press(Key.SELECT), 1.0)  # started as set up: waiting for the throw
    effects: list[Effect] = []
    loop = EventLoop(app, dummy_display(), on_effect=beeping(effects.append, beeper))
    return loop, factory.pin(12)


def _beeped(pin: Any) -> bool:
    """The pin went high, then low again (gpiozero blinks it in a thread of its own)."""
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        if [state.state for state in pin.states][-2:] == [True, False]:
            return True
        time.sleep(0.02)
    return False


def test_the_buzzer_beeps_when_a_throw_is_read(tmp_path: Path) -> None:
    loop, pin = _beeping_loop(tmp_path, MockFactory())
    loop.step(ThrowRefused("stick on its edge: throw again"))
    assert [state.state for state in pin.states] == [False]  # no beep for a refused throw
    loop.step(Press(Key.SELECT))
    loop.step(ThrowRead("MMPP"))
    assert _beeped(pin)


def test_a_buzzer_pin_that_cannot_be_used_is_only_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    factory = MockFactory()
    factory.pin(12)  # gpiozero refuses a second device on a pin already in use
    from gpiozero import DigitalOutputDevice

    busy = DigitalOutputDevice(12, pin_factory=factory)
    try:
        config = device_config.parse("[buzzer]\npin = 12\n")
        assert open_beeper(config, pin_factory=factory) is None
    finally:
        busy.close()
    assert "GPIO12" in capsys.readouterr().err
    assert open_beeper(device_config.DeviceConfig()) is None  # none configured


class _Folder:
    """A finite source: the empty tray, then one throw."""

    def __init__(self, pictures: ThrowPictures) -> None:
        self.frames_list = pictures.frames(pictures.picture("MPPP"))
        self.given = 0

    def frames(self) -> Iterator[Any]:
        for frame in self.frames_list:
            self.given += 1
            yield frame

    def close(self) -> None:
        return None


def test_a_folder_is_held_while_no_throw_is_awaited(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    folder = _Folder(pictures)
    awaited = False
    events: queue.Queue[Event] = queue.Queue()
    settings = CameraSettings(
        open_source=lambda: folder,
        make_reader=lambda first: _reader(pictures, profile),
        live=False,
    )
    camera = CameraThrows(
        settings, post=events.put, kit=lambda: "sticks4", lang=lambda: "en", ready=lambda: awaited
    )
    camera.start()
    try:
        time.sleep(0.3)
        assert events.empty() and folder.given <= 1  # the players are moving pieces
        awaited = True
        assert events.get(timeout=10) == ThrowRead("MPPP")
        assert events.get(timeout=10) == CameraFailed("no more pictures")
    finally:
        camera.stop()


class _Stream:
    """A live camera: the empty tray, then one throw lying still, for ever."""

    def __init__(self, pictures: ThrowPictures) -> None:
        self.pictures = pictures

    def frames(self) -> Iterator[Any]:
        yield from [self.pictures.empty] * 2
        while True:
            yield self.pictures.picture("MMPP")
            time.sleep(0.01)

    def close(self) -> None:
        return None


def test_a_game_whose_throws_are_not_read_is_said_once(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    kit = "sticks5"  # a house rule thrown with five sticks: vision does not read them
    events: queue.Queue[Event] = queue.Queue()
    settings = CameraSettings(
        open_source=lambda: _Stream(pictures), make_reader=lambda first: _reader(pictures, profile)
    )
    camera = CameraThrows(settings, post=events.put, kit=lambda: kit, lang=lambda: "fr")
    camera.start()
    try:
        assert events.get(timeout=10) == CameraFailed("elle ne lit pas ces lancers")
        time.sleep(0.2)
        assert events.empty()  # no refusal for every throw, no second message
        kit = "sticks4"  # a game of Senet now
        assert events.get(timeout=10) == CameraBack()
        assert events.get(timeout=10) == ThrowRead("MMPP")
    finally:
        camera.stop()


class _TwoStreams(_Stream):
    """A Pi camera: each frame comes with the brightness of its small stream, which the
    test can show still rolling while the frames lie still."""

    def __init__(self, pictures: ThrowPictures) -> None:
        super().__init__(pictures)
        self.rolling = True
        self._small: Any = None

    def frames(self) -> Iterator[Any]:
        for index, frame in enumerate(super().frames()):
            moved = np.roll(frame, 40 * (index % 2), axis=1) if self.rolling else frame
            self._small = small_stream(moved)
            yield frame

    def small(self) -> Any:
        return self._small


def test_a_camera_with_a_small_stream_is_checked_for_stillness_on_it(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    stream = _TwoStreams(pictures)
    events: queue.Queue[Event] = queue.Queue()
    settings = CameraSettings(
        open_source=lambda: stream, make_reader=lambda first: _reader(pictures, profile)
    )
    camera = CameraThrows(settings, post=events.put, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        time.sleep(0.5)
        assert events.empty()  # the frames lie still, the small stream does not
        stream.rolling = False
        assert events.get(timeout=10) == ThrowRead("MMPP")
    finally:
        camera.stop()


class _SmallerStream(_Stream):
    """The camera's picture size changed since the tray was calibrated."""

    def frames(self) -> Iterator[Any]:
        for frame in super().frames():
            yield cv2.resize(frame, None, fx=0.75, fy=0.75)


def test_frames_of_another_size_are_said_once_not_over_and_over(
    sticks: tuple[ThrowPictures, Profile],
) -> None:
    pictures, profile = sticks
    events: queue.Queue[Event] = queue.Queue()
    settings = CameraSettings(
        open_source=lambda: _SmallerStream(pictures),
        make_reader=lambda first: _reader(pictures, profile),
        retry_seconds=0.05,
    )
    camera = CameraThrows(settings, post=events.put, kit=lambda: "sticks4", lang=lambda: "en")
    camera.start()
    try:
        failed = events.get(timeout=10)
        assert failed == CameraFailed(problem_text("frame-size", "en"))
        time.sleep(0.3)
        assert events.empty()  # no "camera back", no second failure
    finally:
        camera.stop()


def test_readings_that_never_agree_are_refused_in_the_players_language(
    sticks: tuple[ThrowPictures, Profile], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A throw whose readings keep changing (a die noise shows and hides) is refused as
    unclear once the patience is spent, rather than awaited until it is picked up."""
    from vision.settle import PATIENCE

    pictures, profile = sticks
    reader = _reader(pictures, profile)
    answers = iter([ThrowRead("MMPP"), ThrowRead("MPPP")] * PATIENCE)
    monkeypatch.setattr(reader, "_event", lambda *_: next(answers))
    picture = pictures.picture("PMPM")
    events = _fed(reader, [pictures.empty, *[picture] * (PATIENCE + 6)], "sticks4", lang="fr")
    assert events == [ThrowRefused("une face illisible : relancez")]


def test_refusals_for_changing_reasons_are_one_refusal(
    sticks: tuple[ThrowPictures, Profile], monkeypatch: pytest.MonkeyPatch
) -> None:
    pictures, profile = sticks
    reader = _reader(pictures, profile)
    answers = iter([ThrowRefused("cocked"), ThrowRefused("unclear"), ThrowRead("MMPP")])
    monkeypatch.setattr(reader, "_event", lambda *_: next(answers))
    picture = pictures.picture("PMPM")
    assert _fed(reader, [pictures.empty, *[picture] * 6], "sticks4") == [ThrowRefused("unclear")]
