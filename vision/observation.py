"""What the camera saw: implements, their faces or values, and why a throw was refused.

These are plain values: no images, no OpenCV, so the application layer and the tests can
build and compare them freely.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum


class Kind(StrEnum):
    """The implements the pipeline knows."""

    STICK = "stick"  # flat throwing stick: marked or plain face up
    YESNO = "yesno"  # the yes/no stick of the late Ur game
    D4 = "d4"  # numbered tetrahedral die, top-read
    D6 = "d6"  # six-sided pip die


MARKED, PLAIN = "M", "P"
YES, NO = "yes", "no"


class Reason(StrEnum):
    """Why a throw is refused; each has a sentence a player understands."""

    ON_EDGE = "on-edge"
    COCKED = "cocked"
    OVERLAP = "overlap"
    OFF_TRAY = "off-tray"
    ON_RIM = "on-rim"
    HAND = "hand"
    MISSING = "missing"
    TOO_MANY = "too-many"
    UNKNOWN_OBJECT = "unknown-object"
    UNCLEAR = "unclear"
    UNKNOWN_FACE = "unknown-face"
    UNKNOWN_NUMERALS = "unknown-numerals"
    EMPTY = "empty"
    UNLIKE_TRAY = "unlike-tray"
    BLURRED = "blurred"

    @property
    def message(self) -> str:
        return _MESSAGES[self]


_MESSAGES = {
    Reason.ON_EDGE: "a stick rests on its edge: throw again",
    Reason.COCKED: "a die is not lying flat on a face: throw again",
    Reason.OVERLAP: "implements touch or lie on each other: throw again",
    Reason.OFF_TRAY: "an implement is outside the tray or cut by the picture: throw again",
    Reason.ON_RIM: "an implement leans on the rim: throw again",
    Reason.HAND: "a hand or an arm is over the tray",
    Reason.MISSING: "an implement is missing from the tray",
    Reason.TOO_MANY: "more implements than this game uses are on the tray",
    Reason.UNKNOWN_OBJECT: "something on the tray is not one of the implements",
    Reason.UNCLEAR: "a face cannot be read with enough confidence: throw again",
    Reason.UNKNOWN_FACE: "a face looks like no set the profile knows: enrol these implements",
    Reason.UNKNOWN_NUMERALS: (
        "this d4's numerals are of a font the profile does not know: enrol the d4"
    ),
    Reason.EMPTY: "the tray is empty",
    Reason.UNLIKE_TRAY: (
        "most of the tray looks unlike the empty tray calibrated: if the tray, the light or "
        "the camera changed, calibrate again"
    ),
    Reason.BLURRED: (
        "the picture is blurrier than when the tray was calibrated: focus the camera on the "
        "tray, and wipe its lens"
    ),
}


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box in the pixels of the full frame."""

    x0: int
    y0: int
    x1: int
    y1: int

    def as_list(self) -> list[int]:
        return [self.x0, self.y0, self.x1, self.y1]

    def iou(self, other: Box) -> float:
        inter = self.overlap(other)
        union = self.area + other.area - inter
        return inter / union if union else 0.0

    def overlap(self, other: Box) -> int:
        """The pixels the two boxes share."""
        ix = max(0, min(self.x1, other.x1) - max(self.x0, other.x0))
        iy = max(0, min(self.y1, other.y1) - max(self.y0, other.y0))
        return ix * iy

    @property
    def area(self) -> int:
        return max(0, self.x1 - self.x0) * max(0, self.y1 - self.y0)

    def scaled(self, factor: float) -> Box:
        """The box in pixels ``factor`` times as many per millimetre."""
        return Box(*(round(v * factor) for v in self.as_list()))

    def grown(self, margin: int) -> Box:
        """The box with ``margin`` pixels more on every side."""
        return Box(self.x0 - margin, self.y0 - margin, self.x1 + margin, self.y1 + margin)

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


@dataclass(frozen=True, slots=True)
class Implement:
    """One implement as read: its face (sticks) or value (dice), and how sure we are."""

    kind: Kind
    box: Box
    confidence: float
    face: str | None = None  # MARKED / PLAIN for sticks, YES / NO for the yes/no stick
    value: int | None = None  # dice

    @property
    def shown(self) -> str:
        return self.face if self.face is not None else str(self.value)

    def as_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"kind": self.kind.value, "bbox": self.box.as_list()}
        if self.face is not None:
            record["face"] = self.face
        if self.value is not None:
            record["value"] = self.value
        record["confidence"] = round(self.confidence, 3)
        return record


@dataclass(frozen=True, slots=True)
class Refusal:
    """One reason to refuse, with where it was seen when that is known."""

    reason: Reason
    box: Box | None = None
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        record: dict[str, object] = {"reason": self.reason.value, "message": self.reason.message}
        if self.box is not None:
            record["bbox"] = self.box.as_list()
        if self.detail:
            record["detail"] = self.detail
        return record


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything read from one frame: readable only when there is no refusal."""

    implements: tuple[Implement, ...] = ()
    refusals: tuple[Refusal, ...] = field(default=())

    @property
    def refused(self) -> bool:
        return bool(self.refusals)

    @property
    def empty(self) -> bool:
        """Nothing at all was found on the tray (refused as ``Reason.EMPTY``)."""
        return any(refusal.reason is Reason.EMPTY for refusal in self.refusals)

    def placed(self, shift: tuple[int, int] = (0, 0), factor: float = 1.0) -> Observation:
        """The observation with its boxes moved by ``shift`` (pixels), then in pixels
        ``factor`` times as many per millimetre."""
        if shift == (0, 0) and factor == 1.0:
            return self
        return self.mapped(lambda box: box.moved(*shift).scaled(factor))

    def mapped(self, place: Callable[[Box], Box]) -> Observation:
        """The observation with each box replaced by ``place(box)``."""
        implements = tuple(replace(i, box=place(i.box)) for i in self.implements)
        refusals = tuple(
            replace(r, box=None if r.box is None else place(r.box)) for r in self.refusals
        )
        return Observation(implements, refusals)

    def of_kind(self, kind: Kind) -> tuple[Implement, ...]:
        return tuple(item for item in self.implements if item.kind is kind)

    def summary(self) -> str:
        """One line for people: the faces and values, or the reasons for refusing."""
        if self.refusals:
            reasons = dict.fromkeys(refusal.reason.message for refusal in self.refusals)
            return "refused: " + "; ".join(reasons)
        parts = [f"{item.kind.value} {item.shown}" for item in self.implements]
        return ", ".join(parts) if parts else "nothing"

    def as_dict(self) -> dict[str, object]:
        return {
            "read": not self.refused,
            "implements": [item.as_dict() for item in self.implements],
            "refusals": [refusal.as_dict() for refusal in self.refusals],
        }
