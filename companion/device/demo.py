"""``companion demo``: a whole game through the device's full path, no terminal needed.

Each throw is drawn with the rule set's exact odds and pictured on a generated tray
(``vision.synthetic``); the camera path reads the pictures (settle detection, the vision
reader, the rule set's kit) in its own thread, as on the device; the readings go to the
engine, and people at the table, scripted, press the buttons. Two throws of the script
go wrong (a stick on its edge, a hand over the tray) so the refusal is seen. Every
screen shown is kept: the demo writes them as an animated GIF, the screens' text as a
transcript, and the camera's pictures. Rule sets whose implements the camera does not
read (a house rule's five sticks), or a machine without OpenCV, get fake readings with
the same odds.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from companion import games
from companion.core import RaceGame
from companion.device.app import App, DeviceInfo
from companion.device.events import Event, Stop, ThrowRead, ThrowRefused
from companion.device.generated import PicturedThrows, camera_reads
from companion.device.loop import EventLoop
from companion.device.scripted import TablePlayer
from companion.device.state import Settings, StateStore
from companion.device.throwsource import FakeThrows, ThrowSource
from companion.device.view import View, describe
from hardware.display import FrameRecorder

AnyGame = RaceGame[Any]
SHOWN_ON_THE_TERMINAL = 45  # transcript lines printed before the rest is only written
STEP_SECONDS = 0.5
GIF_OPENING_FRAMES = 150  # the GIF shows the opening and the end, not every move between
GIF_CLOSING_FRAMES = 12
TROUBLES = {2: "on-edge", 6: "hand"}  # throws of the script that must be refused


class _UnsavedStore(StateStore):
    """The demo's game is not worth keeping: no save file (and no fsync per move)."""

    def save_game(self, game: AnyGame, start: str) -> None:
        return None

    def save_settings(self, settings: Settings) -> None:
        return None


def run_device_demo(game: str, *, seed: int, lang: str, out: Path) -> int:
    rng = random.Random(seed)
    transcript: list[str] = []
    recorder = FrameRecorder()
    throws = _throw_source(game, rng, lambda: lang)
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as state:
        app = App(
            _UnsavedStore(Path(state)),
            settings=Settings(game=game, lang=lang),
            info=DeviceInfo(camera=True),
            rng=rng,
        )
        clock = _Clock()
        loop = EventLoop(app, recorder, clock=clock, on_view=_writer(transcript))
        player = TablePlayer(rng, throws, why_every=9)
        loop.show()
        try:
            _play(loop, player, clock, transcript)
        finally:
            if isinstance(throws, PicturedThrows):
                throws.close()
        loop.step(Stop("end of the demonstration"))
    out.mkdir(parents=True, exist_ok=True)
    gif, text = out / "demo.gif", out / "demo.txt"
    if isinstance(throws, PicturedThrows):
        pictures = throws.save_pictures(out / "camera")
        transcript.append(f"camera pictures: {len(pictures)} in {out / 'camera'}")
    recorder.frames = _opening_and_end(recorder.frames)
    recorder.write_gif(gif)
    text.write_text("\n".join(transcript) + "\n", encoding="utf-8")
    _print_summary(transcript, gif, text, len(recorder.frames), app)
    return 0


def _throw_source(game: str, rng: random.Random, lang: Callable[[], str]) -> ThrowSource:
    if camera_reads(games.get(game)):
        return PicturedThrows(rng, lang=lang, troubles=TROUBLES)
    print(
        f"{game}: the camera path cannot read these throws here (no OpenCV, or implements "
        "it does not read); fake readings are used"
    )
    return FakeThrows(rng)


def _opening_and_end(frames: list[Image.Image]) -> list[Image.Image]:
    if len(frames) <= GIF_OPENING_FRAMES + GIF_CLOSING_FRAMES:
        return frames
    return frames[:GIF_OPENING_FRAMES] + frames[-GIF_CLOSING_FRAMES:]


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += STEP_SECONDS
        return self.now


def _writer(transcript: list[str]) -> _ViewWriter:
    return _ViewWriter(transcript)


class _ViewWriter:
    def __init__(self, transcript: list[str]) -> None:
        self.transcript = transcript

    def __call__(self, view: View) -> None:
        self.transcript.extend(f"  {line}" for line in describe(view) if line)
        self.transcript.append("")


def _play(loop: EventLoop, player: TablePlayer, clock: _Clock, transcript: list[str]) -> None:
    while True:
        events: list[Event] = player.next_events(loop.app)
        if not events:
            return
        for event in events:
            transcript.append(_told(event, player.throws))
            loop.step(event)


def _told(event: Event, throws: ThrowSource) -> str:
    thrown = ""
    if isinstance(throws, PicturedThrows) and isinstance(event, ThrowRead | ThrowRefused):
        last = throws.thrown[-1]
        trouble = f" ({last.trouble})" if last.trouble else ""
        unseen = f", unseen {last.unseen} times" if last.unseen else ""
        thrown = f"thrown {last.shown}{trouble}{unseen}; "
    if isinstance(event, ThrowRead):
        return f"{thrown}camera reads {event.shown}"
    if isinstance(event, ThrowRefused):
        return f"{thrown}camera refuses: {event.reason}"
    key = getattr(event, "key", None)
    long = getattr(event, "long", False)
    return f"press {key.value}{' (held)' if long else ''}" if key else type(event).__name__


def _print_summary(transcript: list[str], gif: Path, text: Path, frames: int, app: App) -> None:
    for line in transcript[:SHOWN_ON_THE_TERMINAL]:
        print(line)
    print(f"... {len(transcript) - SHOWN_ON_THE_TERMINAL} more lines in {text}")
    for line in transcript[-12:]:
        print(line)
    game = app.game
    if game is not None:
        print(f"Final position: {game.fen()}")
    print(f"Screens: {gif} (the opening and the end: {frames} frames); transcript: {text}")
