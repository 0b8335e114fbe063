"""Throws as generated pictures, read through the camera path: the demo's and the tests' camera.

:class:`PicturedThrows` is a throw source for the scripted table: for each throw it draws
what the implements show with the rule set's exact odds, has ``vision.synthetic`` draw
that throw on one tray (the same empty tray for the whole game, as under a real camera),
and feeds the frames (the tray emptied, then the throw lying still) to a
:class:`CameraThrows` thread through :class:`QueuedFrames`. What it returns is what that
thread read: a throw, or a refusal. Some throws can be scripted to go wrong (a stick on
its edge, a hand over the tray) so that the refusal is seen too.

Before the game the sticks and the numbered d4 are enrolled as a player would: a few
throws with every stick marked face up, then plain face up; the d4 lying flat with each
value on top twice (the guided enrolments of ``companion vision`` and the device). The
generator's numerals are OpenCV's font, which Raspberry Pi OS's OpenCV 4.6 draws as a
stroke font the shipped glyphs never learned: a game's reader refuses such a d4 until it
is enrolled (``vision.font``), as it would a player's.
"""

from __future__ import annotations

import itertools
import queue
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core import RuleSet
from companion.device.camerathrows import (
    READABLE_KITS,
    CameraSettings,
    CameraThrows,
    Frame,
    ThrowReader,
)
from companion.device.events import Event, ThrowRead
from companion.device.throwsource import FakeThrows
from companion.errors import CompanionError
from companion.reading import kit_for

if TYPE_CHECKING:
    from vision.profile import Profile

TRAY_SEED = 11  # a dark felt the sticks of both looks stand out on
LOOK = "decorated"
ENROLMENT_THROWS = 2  # of each face
STILL_FRAMES = 2
AGREEING = 2
AVERAGED = 2  # the same picture repeated: averaging changes nothing, but is gone through
UNSEEN_RETRIES = 3


def camera_reads(rules: RuleSet) -> bool:
    """Whether the camera pipeline reads the implements of ``rules`` (with OpenCV here)."""
    try:
        import cv2  # noqa: F401
    except ImportError:
        return False
    return kit_for(rules) in READABLE_KITS


class ThrowPictures:
    """Pictures of throws of one kit on one tray, made once per distinct throw."""

    def __init__(
        self,
        kit: str,
        *,
        tray_seed: int = TRAY_SEED,
        look: str = LOOK,
        d4_font: str = "sans",
        d4_edge_mm: tuple[float, float] | None = None,
    ) -> None:
        """``look``: the sticks' (vision.synthetic's LOOKS); ``d4_font``: the family the
        d4's numerals are painted in (the shipped profile knows ``sans``); ``d4_edge_mm``:
        the range of the d4's edge (default: the generator's, the development set's)."""
        from vision.synthetic import D4_EDGE_MM, scene

        self.kit = kit
        self.tray_seed = tray_seed
        self.look = look
        self.d4_font = d4_font
        self.d4_edge_mm = d4_edge_mm or D4_EDGE_MM
        self._scene = scene
        self.empty: Frame = scene(0, kit, tray_seed=tray_seed, look=look).empty
        self._made: dict[tuple[str, str], Frame] = {}
        self.seed = 0

    def picture(self, shown: str, trouble: str | None = None) -> Frame:
        """The throw ``shown`` (``MPMP``, ``3,5``) lying on the tray, ``trouble`` and all."""
        key = ("".join(sorted(shown)), trouble or "")
        if key not in self._made:
            self._made[key] = self.draw(shown, trouble).frame
        return self._made[key]

    def forget(self, shown: str, trouble: str | None = None) -> None:
        self._made.pop(("".join(sorted(shown)), trouble or ""), None)

    def draw(self, shown: str, trouble: str | None = None) -> Any:
        self.seed += 1
        if self.kit == "modern":
            values = tuple(int(v) for v in shown.split(","))
            return self._scene(
                self.seed, self.kit, trouble, values=values, tray_seed=self.tray_seed
            )
        if self.kit in ("ur", "ur-nostick"):
            return self._ur_scene(self.seed, shown, trouble)
        return self._scene(
            self.seed, self.kit, trouble, faces=shown, tray_seed=self.tray_seed, look=self.look
        )

    def _ur_scene(self, seed: int, shown: str, trouble: str | None) -> Any:
        """``3`` (the die thrown alone) or ``3+yes`` / ``3+no`` (with the yes/no stick)."""
        value, plus, stick = shown.partition("+")
        kit = "ur" if plus else "ur-nostick"
        face = "M" if stick == "yes" else "P"
        return self._scene(
            seed,
            kit,
            trouble,
            values=(int(value),),
            faces=face,
            tray_seed=self.tray_seed,
            d4_font=self.d4_font,
            d4_edge_mm=self.d4_edge_mm,
        )

    def flat_d4(self, seed: int, value: int) -> Frame:
        """A picture of the d4 alone with ``value`` on top, as enrolment asks for it."""
        return self._ur_scene(seed, str(value), None).frame

    def frames(self, picture: Frame) -> list[Frame]:
        """The tray emptied, then the throw lying still long enough to be read."""
        # The first picture is seen moving (it differs from the one before); each reading
        # then takes AVERAGED pictures, the first after STILL_FRAMES at least.
        still = max(STILL_FRAMES, AVERAGED) + (AGREEING - 1) * AVERAGED
        return [self.empty, self.empty, *[picture] * (1 + still)]

    def save(self, folder: Path) -> list[Path]:
        """The pictures made so far, as JPEG files (what the camera saw)."""
        import cv2

        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for (shown, trouble), frame in sorted(self._made.items()):
            path = folder / f"{shown.replace(',', '-')}{'-' + trouble if trouble else ''}.jpg"
            cv2.imwrite(str(path), frame)
            written.append(path)
        return written


def enrolled_profile(pictures: ThrowPictures) -> Profile:
    """The sticks' faces learnt from throws with every stick marked, then plain, face up;
    the numbered d4's numerals from pictures of it lying flat with each value on top."""
    from vision.guided import flat_examples
    from vision.observation import Kind
    from vision.profile import default_profile, enrol
    from vision.segment import Segmenter
    from vision.tray import calibrate

    if pictures.kit in ("ur", "ur-nostick"):
        return _with_d4_enrolled(pictures, default_profile())
    sticks = {"sticks4": 4, "sticks3": 3}.get(pictures.kit)
    if sticks is None:
        return default_profile()  # dice: pips are counted, no face to learn
    tray = calibrate(pictures.empty)
    segmenter = Segmenter(tray)
    examples = []
    for face in "MP" * ENROLMENT_THROWS:
        frame = pictures.draw(face * sticks).frame
        examples += flat_examples(frame, segmenter, Kind.STICK, face, pictures.look)
    return enrol("generated", examples)


D4_ENROLMENT = (1, 2, 3, 4, 1, 2, 3, 4)  # the values asked, as the device asks them
D4_ENROLMENT_SEEDS = 100_000  # its pictures' seeds: the game's pictures stay as they were
D4_PICTURES_PER_VALUE = 6  # pictures drawn at most until the die is seen lying flat alone


def _with_d4_enrolled(pictures: ThrowPictures, profile: Profile) -> Profile:
    """``profile`` with the numerals of the d4 learnt as the device's guided enrolment
    learns them; ``profile`` itself when the pictures do not teach them."""
    from dataclasses import replace

    from companion.device.camerajobs import LOOK, flat_d4s
    from vision.errors import ProfileError
    from vision.guided import learnt_glyphs
    from vision.tray import calibrate

    tray = calibrate(pictures.empty)
    seeds = itertools.count(D4_ENROLMENT_SEEDS)
    shown = []
    for value in D4_ENROLMENT:
        for seed in itertools.islice(seeds, D4_PICTURES_PER_VALUE):
            seen = flat_d4s(pictures.flat_d4(seed, value), tray, value)
            if len(seen) == 1:
                shown += seen
                break
    try:
        return replace(profile, name="enrolled", glyphs=learnt_glyphs(shown, LOOK))
    except ProfileError:
        return profile


class QueuedFrames:
    """A frame source fed by the script: ``frames()`` waits for the next throw's frames."""

    def __init__(self) -> None:
        self._queue: queue.Queue[list[Frame] | None] = queue.Queue()
        self.given = 0  # batches of frames shown
        self.read = 0  # batches whose every frame the reader has finished with

    @property
    def idle(self) -> bool:
        return self.read == self.given

    def show(self, frames: list[Frame]) -> None:
        self.given += 1
        self._queue.put(frames)

    def finish(self) -> None:
        self._queue.put(None)

    def frames(self) -> Iterator[Frame]:
        while True:
            batch = self._queue.get()
            if batch is None:
                return
            yield from batch
            self.read += 1  # the reader asked for the frame after the batch's last one

    def close(self) -> None:
        return None


@dataclass
class Thrown:
    """One throw of the script: what was drawn, what went wrong, what the camera said."""

    shown: str
    trouble: str | None
    read: Event
    unseen: int = 0  # pictures of this throw in which the camera saw nothing settle


@dataclass
class PicturedThrows:
    """A throw source whose throws are generated pictures read by the camera path."""

    rng: random.Random
    lang: Callable[[], str] = lambda: "en"
    troubles: Mapping[int, str] = field(default_factory=dict)  # throw number (1-) -> trouble
    thrown: list[Thrown] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._draw = FakeThrows(self.rng)
        self._pictures: ThrowPictures | None = None
        self._camera: CameraThrows | None = None
        self._frames = QueuedFrames()
        self._events: queue.Queue[Event] = queue.Queue()
        self._kit: str | None = None

    def next_throw(self, rules: RuleSet) -> Event:
        pictures = self._ready(kit_for(rules))
        drawn = self._draw.next_throw(rules)
        shown = drawn.shown if isinstance(drawn, ThrowRead) else ""
        trouble = self._trouble(pictures.kit, shown, len(self.thrown) + 1)
        unseen = 0
        while (event := self._throw(pictures, shown, trouble)) is None:
            unseen += 1  # the camera saw nothing: the player throws the same again
            if unseen > UNSEEN_RETRIES:
                raise CompanionError(f"the camera saw nothing in {unseen} pictures of {shown}")
        self.thrown.append(Thrown(shown, trouble, event, unseen))
        return event

    def _throw(self, pictures: ThrowPictures, shown: str, trouble: str | None) -> Event | None:
        self._frames.show(pictures.frames(pictures.picture(shown, trouble)))
        event = self._wait()
        if event is None or (trouble is None and not isinstance(event, ThrowRead)):
            pictures.forget(shown, trouble)  # the next such throw lands otherwise
        return event

    def _trouble(self, kit: str, shown: str, number: int) -> str | None:
        trouble = self.troubles.get(number)
        no_stick = kit in ("modern", "binary-d4") or (kit.startswith("ur") and "+" not in shown)
        if trouble == "on-edge" and no_stick:
            return "cocked"  # dice: a die resting on another instead
        return trouble

    def _ready(self, kit: str) -> ThrowPictures:
        if self._pictures is not None and self._pictures.kit == kit:
            return self._pictures
        if kit not in READABLE_KITS:
            raise CompanionError(f"the camera pipeline does not read the {kit} kit yet")
        self.close()
        self._pictures = pictures = ThrowPictures(kit)
        self._kit = kit
        profile = enrolled_profile(pictures)
        settings = CameraSettings(
            open_source=lambda: self._frames,
            make_reader=lambda first: _reader(pictures, profile),
            live=False,
        )
        self._frames = QueuedFrames()
        self._camera = CameraThrows(
            settings, post=self._events.put, kit=lambda: self._kit, lang=self.lang
        )
        self._camera.start()
        return pictures

    def _wait(self) -> Event | None:
        """The camera's answer; None when it read every frame without answering."""
        while True:
            try:
                return self._events.get(timeout=0.05)
            except queue.Empty:
                pass
            if self._frames.idle:
                try:
                    return self._events.get(timeout=0.2)
                except queue.Empty:
                    return None
            if self._camera is None or not self._camera.running:
                raise CompanionError("the camera thread stopped")

    def save_pictures(self, folder: Path) -> list[Path]:
        return self._pictures.save(folder) if self._pictures is not None else []

    def close(self) -> None:
        if self._camera is not None:
            self._frames.finish()
            self._camera.stop()
            self._camera = None


def _reader(pictures: ThrowPictures, profile: Profile) -> ThrowReader:
    from vision.tray import calibrate

    return ThrowReader(
        calibrate(pictures.empty),
        profile,
        still_frames=STILL_FRAMES,
        agreeing=AGREEING,
        averaged=AVERAGED,
    )
