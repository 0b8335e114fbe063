"""A live stream of frames turned into settled readings: settle detection, then readings of
consecutive still frames until enough of them agree. What ``companion vision watch`` and
the device use."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.kit import Kit
from vision.observation import Observation
from vision.reader import Reader
from vision.settle import Agreement, Scene, SettleDetector
from vision.tray import Image


@dataclass
class ThrowWatcher:
    """Feed it every frame; it returns an observation once per settled throw.

    A reading is returned only when ``agreeing`` consecutive still frames give the same
    summary; a hand or arm in the tray is never a throw (it moves, or it is refused).
    """

    reader: Reader
    kit: Kit | None = None
    still_frames: int = 5
    agreeing: int = 2
    detector: SettleDetector = field(init=False)
    _agreement: Agreement[str] = field(init=False)
    _scene: Scene | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.detector = SettleDetector.for_tray(self.reader.tray.empty, self.still_frames)
        self._agreement = Agreement(needed=self.agreeing)

    @property
    def scene(self) -> Scene | None:
        """What the last frame showed (None before the first frame)."""
        return self._scene

    def offer(self, frame: Image) -> Observation | None:
        """The settled observation, once per throw, or None."""
        self._scene, ready = self.detector.update(frame)
        if self._scene is not Scene.STILL:
            self._agreement.reset()
            return None
        if not ready:
            return None
        observation = self.reader.read(frame, self.kit)
        if self._agreement.offer(observation.summary()) is None:
            self.detector.read_again()
            return None
        self._agreement.reset()
        return observation
