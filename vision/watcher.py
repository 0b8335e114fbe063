"""A live stream of frames turned into settled readings: settle detection, then readings of
consecutive still frames until enough of them agree. What ``companion vision watch`` and
the device use."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.height import HeightInPlay
from vision.kit import Kit
from vision.observation import Observation, Reason, Refusal
from vision.reader import Reader
from vision.settle import Agreement, Scene, SettleDetector, SettledReading
from vision.stack import STACKED
from vision.tray import Image

UNSTEADY = "the readings of the still throw did not agree"


@dataclass
class ThrowWatcher:
    """Feed it every frame; it returns an observation once per settled throw.

    A reading is returned only when ``agreeing`` readings in a row read the same
    implements, or all refuse the throw (for whatever reasons), each of ``averaged``
    still frames or more averaged; readings that find nothing between them are passed
    over, and a throw whose readings never agree is refused as unclear (see
    ``SettledReading``). A hand or arm in the tray is never a throw (it moves, or it is
    refused).
    """

    reader: Reader
    kit: Kit | None = None
    still_frames: int = 5
    agreeing: int = 2
    averaged: int = STACKED  # still frames averaged per reading (see ``vision.stack``)
    height: HeightInPlay | None = None  # the camera's height, measured from the throws
    _settled: SettledReading[Observation] = field(init=False)

    def __post_init__(self) -> None:
        self._settled = SettledReading(
            SettleDetector.for_tray(self.reader.tray.empty_as_framed, self.still_frames),
            Agreement(self.agreeing, same=_same_outcome),
            empty_now=lambda: self.reader.tray.empty_as_framed,
            averaged=self.averaged,
            picture_scale=self.reader.tray.scale,
            unclear=_unclear,
        )

    @property
    def detector(self) -> SettleDetector:
        return self._settled.detector

    @property
    def scene(self) -> Scene | None:
        """What the last frame showed (None before the first frame)."""
        return self._settled.scene

    def offer(self, frame: Image, *, small: Image | None = None) -> Observation | None:
        """The settled observation, once per throw, or None. A tray that holds nothing
        (the settle check saw a change of light: a player's shade) gives none. ``small``:
        the camera's low-resolution grey picture of the same moment, if it has one."""
        return self._settled.offer(frame, self._read, small=small)

    def measure_height(self) -> float | None:
        """The camera's height measured from the last throw returned (once it is shown):
        a height learned, read from at once (see ``vision.height.HeightInPlay``)."""
        return None if self.height is None else self.height.measure(self.reader)

    def _read(self, frame: Image) -> Observation | None:
        observation = self.reader.read(frame, self.kit)
        if observation.empty:
            return None
        if self.height is not None:
            self.height.offer(frame, observation, self.kit)
        return observation


def _same_outcome(first: Observation, then: Observation) -> bool:
    """Readings that agree: the same implements read, or both refused (for whatever
    reasons: the last is given)."""
    return first.summary() == then.summary() or (first.refused and then.refused)


def _unclear() -> Observation:
    return Observation(refusals=(Refusal(Reason.UNCLEAR, detail=UNSTEADY),))
