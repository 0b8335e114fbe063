"""Settle detection on a small stream: empty, moving or still, and when to read.

Each frame is shrunk to a few thousand pixels of grey; motion is the share of pixels that
changed since the previous frame, presence the share that differs from the empty tray.
A throw is read once the scene has been still for ``still_frames`` frames; the reader's
answers on consecutive still frames must then agree (see ``Agreement``). ``SettledReading``
is that loop, for ``vision.watcher.ThrowWatcher`` and the device's throw reader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.stack import STACKED, StillStack
from vision.tray import Image

# A lone d4 or a pair of d6s covers under 0.2% of the picture: at 80x60 they were often
# taken for an empty tray and never read. At 160x120 a small pixel is about 3 mm of floor
# and a die's top face covers several.
SMALL_SIZE = (160, 120)
PIXEL_CHANGE = 18  # grey levels
MOVING_SHARE = 0.001  # share of changed pixels that means motion (a rolling die is seen)
PRESENT_SHARE = 0.0004  # share of pixels unlike the empty tray that means something is there
# Unlike the empty tray by this many grey levels. A die of the felt's own brightness
# differs only by its shaded sides and its numerals, which a small pixel blurs: the dev
# set's blue d4 on blue felt (0161) left 6 small pixels over 18 levels, fewer than
# PRESENT_SHARE's 8, and was never read; 16 over 12. A change of light taken for
# something costs two readings, which find the tray empty and say nothing.
PRESENT_CHANGE = 12
# A camera's low-resolution stream gives brightness (the Y of YUV, its range and weights
# those of the camera's colour space), not the grey of its frames made small: the first
# pair of both fits a straight line from one to the other. A line off by more than this
# (grey levels, root mean square) means the two do not show the same picture, and frames
# are made small instead.
SMALL_STREAM_FIT = 4.0
# Readings of one still throw that do not agree before it is refused as unclear (when the
# caller says how): a die that noise shows one reading and hides the next would otherwise
# keep the players waiting until they pick it up.
PATIENCE = 8
# Still frames before a scene whose readings agreed it held nothing (a change of light, or a
# dark die its noise hid from both) is read again, doubling each time up to the longest: a
# die hidden so is read within seconds, a change of light costs two readings a while.
QUIET_FIRST = 10
QUIET_LONGEST = 160


class Scene(StrEnum):
    EMPTY = "empty"
    MOVING = "moving"
    STILL = "still"


def shrink(frame: Image) -> NDArray[np.uint8]:
    """A frame made small and grey; a low-resolution stream can be passed as it is."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if grey.shape[1] != SMALL_SIZE[0]:
        grey = cv2.resize(grey, SMALL_SIZE, interpolation=cv2.INTER_AREA)
    return np.asarray(grey, np.uint8)


def grey_map(brightness: NDArray[np.uint8], grey: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
    """The look-up table that takes a small stream's ``brightness`` to the ``grey`` of the
    same moment's frame made small (same size), or None when no straight line does (see
    ``SMALL_STREAM_FIT``)."""
    x = brightness.astype(np.float64).ravel()
    y = grey.astype(np.float64).ravel()
    if x.std() < 1.0:  # one grey seen: only the offset can be told
        slope, offset = 1.0, float(np.mean(y - x))
    else:
        slope, offset = (float(v) for v in np.polyfit(x, y, 1))
    misfit = float(np.sqrt(np.mean((y - (slope * x + offset)) ** 2)))
    if misfit > SMALL_STREAM_FIT:
        return None
    line = np.round(slope * np.arange(256, dtype=np.float64) + offset)
    return np.clip(line, 0, 255).astype(np.uint8)


@dataclass
class SettleDetector:
    """Feed it frames; it says what the scene is doing and when it has settled."""

    empty: NDArray[np.uint8]
    still_frames: int = 5
    _previous: NDArray[np.uint8] | None = None
    _still_run: int = 0
    _fired: bool = False
    # The small stream's brightness as grey (see ``grey_map``), fitted on the first pair;
    # None when the stream does not show the frame's picture.
    _small_to_grey: NDArray[np.uint8] | None = None
    _small_fitted: bool = False

    @classmethod
    def for_tray(cls, empty_frame: Image, still_frames: int = 5) -> SettleDetector:
        return cls(shrink(empty_frame), still_frames)

    def update(self, frame: Image, *, small: Image | None = None) -> tuple[Scene, bool]:
        """The scene's state, and True once per settled throw: the moment to read.
        ``small``: the same moment from the camera's low-resolution grey stream, checked
        instead of ``frame`` made small (see ``vision.sources.small_pictures``)."""
        small = self._small_grey(frame, small)
        moving = self._previous is not None and _share(small, self._previous) > MOVING_SHARE
        self._previous = small
        if moving:
            self._still_run, self._fired = 0, False
            return Scene.MOVING, False
        if _share(small, self.empty, PRESENT_CHANGE) <= PRESENT_SHARE:
            self._still_run, self._fired = 0, False
            return Scene.EMPTY, False
        self._still_run += 1
        if self._still_run >= self.still_frames and not self._fired:
            self._fired = True
            return Scene.STILL, True
        return Scene.STILL, False

    def _small_grey(self, frame: Image, small: Image | None) -> NDArray[np.uint8]:
        if small is not None and not self._small_fitted:
            self._small_to_grey = grey_map(shrink(small), shrink(frame))
            self._small_fitted = True
        if small is None or self._small_to_grey is None:
            return shrink(frame)
        return np.asarray(cv2.LUT(shrink(small), self._small_to_grey), np.uint8)

    @property
    def settled(self) -> bool:
        """True once this throw has been reported settled (until the scene moves or empties)."""
        return self._fired

    def read_again(self) -> None:
        """Fire on the next still frame too: the last reading was not confirmed yet."""
        self._fired = False

    def empty_is(self, empty_frame: Image) -> None:
        """The empty tray as it now lies (a knocked tray the reader follows: see
        ``Reader._follow``), so that it is seen empty again once the throw is picked up."""
        self.empty = shrink(empty_frame)

    def reset(self) -> None:
        """Forget the scene's history, as after a new calibration or a pause of the stream."""
        self._previous, self._still_run, self._fired = None, 0, False


def _share(a: NDArray[np.uint8], b: NDArray[np.uint8], change: int = PIXEL_CHANGE) -> float:
    return float(np.count_nonzero(cv2.absdiff(a, b) > change)) / a.size


T = TypeVar("T")


@dataclass
class Agreement(Generic[T]):
    """The same answer ``needed`` times in a row, or none (the last one given): readings
    that found nothing between them are not offered (see ``SettledReading``). ``same``
    tells answers alike: two refusals of a throw may be, whatever their reasons (the
    players throw again either way)."""

    needed: int = 2
    same: Callable[[T, T], bool] = lambda a, b: a == b
    _last: T | None = None
    _count: int = 0

    @property
    def pending(self) -> bool:
        """An answer waits for another like it."""
        return self._last is not None

    def offer(self, answer: T) -> T | None:
        if self._last is not None and self.same(self._last, answer):
            self._count += 1
        else:
            self._last, self._count = answer, 1
        return answer if self._count >= self.needed else None

    def reset(self) -> None:
        self._last, self._count = None, 0


@dataclass
class SettledReading(Generic[T]):
    """Feed it every frame with how to read one: once the scene has settled, still frames
    are read until ``agreement`` is reached, and that answer is given once per throw.

    Each reading is of the still frames since the one before averaged (``averaged`` at
    least; the first reading, all those of the still run), a frame that moved starting
    the average again (see ``vision.stack.StillStack``): two readings that agree share
    no frame, nor its noise."""

    detector: SettleDetector
    agreement: Agreement[T]
    scene: Scene | None = None  # what the last frame showed (None before the first)
    # The empty tray as the reading now sees it, given to the settle check after each
    # reading: a knocked tray the reader follows (``Reader._follow``) is empty again once
    # the throw is picked up. None: the calibrated empty tray, always.
    empty_now: Callable[[], Image] | None = None
    averaged: int = STACKED
    # Working pixels per pixel of the frames (``Tray.scale``): how small to compare them.
    picture_scale: float = 1.0
    # The answer given once ``patience`` readings of a still throw did not agree: the throw
    # refused as unclear. None: read until they agree or the scene changes.
    unclear: Callable[[], T] | None = None
    patience: int = PATIENCE
    _still: StillStack = field(init=False)
    _readings: int = field(init=False, default=0)  # of this still throw, none agreed yet
    _nothing: int = field(init=False, default=0)  # readings in a row that found nothing
    _found: int = field(init=False, default=0)  # readings of this still throw that found it
    # Still frames until a scene found empty is read again, and the wait after that.
    _quiet: int | None = field(init=False, default=None)
    _next_quiet: int = field(init=False, default=QUIET_FIRST)

    def __post_init__(self) -> None:
        if self.averaged < 1:
            raise ValueError(f"averaged must be 1 or more, not {self.averaged}")
        self._still = StillStack(self.picture_scale)

    def offer(
        self,
        frame: Image,
        read: Callable[[Image], T | None] | None,
        *,
        small: Image | None = None,
    ) -> T | None:
        """The agreed answer, once per settled throw, or None. Without ``read`` (nothing
        to read with yet) the throw is read on a later still frame that brings one.
        ``read`` answers None when the tray holds nothing: once readings agree on it (the
        settle check saw a change of light: it compares grey levels; or a dark die lost in
        its noise), the scene is read again only after :data:`QUIET_FIRST` still frames,
        then twice as many each time, up to :data:`QUIET_LONGEST`, until it changes; once
        a reading of the still scene found something, one that finds nothing is passed
        over and the next frames read.
        After ``patience`` readings without agreement, ``unclear()`` is the answer if
        more than one of them found the throw (else it was a change of light misread, and
        is read again after a wait, as above).
        ``small``: see :meth:`SettleDetector.update`."""
        self.scene, ready = self.detector.update(frame, small=small)
        if self.scene is not Scene.STILL:
            self.agreement.reset()
            self._still.clear()
            self._readings = self._found = self._nothing = 0
            self._quiet, self._next_quiet = None, QUIET_FIRST
            return None
        self._count_quiet()
        if read is None:  # nothing to read with: no frame is kept for a reading
            self._still.clear()
        elif ready or not self.detector.settled:  # a reading is still to come
            self._still.add(frame)
        if not ready:
            return None
        if read is None or self._still.added < self.averaged:
            self.detector.read_again()
            return None
        # The frames since the last reading, those that moved left out (see StillStack).
        answer = read(self._still.mean())
        self._still.clear()
        if self.empty_now is not None:
            self.detector.empty_is(self.empty_now())
        return self._judged(answer)

    def _judged(self, answer: T | None) -> T | None:
        """The answer to give once a still throw has been read again (None: none yet, or
        none at all: ``detector.read_again()`` says whether it is read again)."""
        self._readings += 1
        self._found += answer is not None
        self._nothing = self._nothing + 1 if answer is None else 0
        if self._nothing >= self.agreement.needed and not self.agreement.pending:
            self._quieted()  # nothing on the tray
            return None
        # An answer of nothing is read again, and passed over after one that saw the throw.
        agreed = None if answer is None else self.agreement.offer(answer)
        if agreed is not None:
            return self._done(agreed)
        if self._readings < self.patience or self.unclear is None:
            self.detector.read_again()
            return None
        # Patience spent: a throw seen by several readings that never agreed is refused as
        # unclear; one seen once amid readings of nothing was a change of light misread.
        if self._found >= self.agreement.needed:
            return self._done(self.unclear())
        self._quieted()
        return None

    def _quieted(self) -> None:
        """No answer for a scene its readings found empty: read again a while later."""
        self._quiet = self._next_quiet
        self._next_quiet = min(2 * self._next_quiet, QUIET_LONGEST)
        self._done(None)

    def _count_quiet(self) -> None:
        """One more still frame of a scene found empty: once enough, it is read again."""
        if self._quiet is None:
            return
        self._quiet -= 1
        if self._quiet <= 0:
            self._quiet = None
            self.detector.read_again()

    def _done(self, answer: T | None) -> T | None:
        self.agreement.reset()
        self._readings = self._found = self._nothing = 0
        if answer is not None:  # given: no later reading of this scene (after a reset, say)
            self._quiet, self._next_quiet = None, QUIET_FIRST
        return answer
