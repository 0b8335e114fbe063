"""Events: everything that happens to the device, put on one queue.

Button callbacks (gpiozero threads), the camera thread and the keyboard only ever put
one of these on the queue; the event loop takes them off one at a time and hands them
to the screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Key(Enum):
    UP = "up"
    DOWN = "down"
    SELECT = "select"
    BACK = "back"


@dataclass(frozen=True)
class Press:
    """A button released after a short press, or held past the hold time (``long``)."""

    key: Key
    long: bool = False


@dataclass(frozen=True)
class ThrowRead:
    """The throw source read a throw: what the implements show, in throw notation."""

    shown: str


@dataclass(frozen=True)
class ThrowRefused:
    """The throw source saw a throw that does not count (a stick on its edge)."""

    reason: str


@dataclass(frozen=True)
class CameraFailed:
    reason: str


@dataclass(frozen=True)
class CameraBack:
    """The camera works again after a failure."""


@dataclass(frozen=True)
class CameraTask:
    """A job the screens ask of the camera thread on its next frame: ``calibrate`` (the
    tray is empty), ``picture`` (enrolment of implements of ``kind``, vision's ``stick``,
    ``yesno`` or ``d4``: every stick shows ``shown``, ``M`` or ``P``, or the d4 shows the
    value ``shown`` at its top point, and ``count`` of them are expected; the first
    picture, ``step`` 0, starts a new enrolment) or ``learn`` (build and save the
    profile); the camera thread asks itself ``height`` (save the camera's height its
    throws measured)."""

    job: str
    step: int = 0
    shown: str = ""
    count: int = 0
    kind: str = "stick"


@dataclass(frozen=True)
class CameraDone:
    """The camera thread's answer to a :class:`CameraTask`: ``count`` implements seen
    lying flat (a picture), or ``problem`` when it failed (the calibration or profile in
    use is kept)."""

    job: str
    step: int = 0
    count: int = 0
    problem: str = ""
    detail: str = ""  # what was done, e.g. how the tray was found


@dataclass(frozen=True)
class SphinxAnswer:
    """The Sphinx decided (in a worker thread): for ``purpose`` in position ``fen``, its
    moves in notation (best first), their values for hints, and how it throws."""

    purpose: str
    fen: str
    moves: tuple[str, ...] = ()
    values: tuple[float, ...] = ()
    option: str = ""
    problem: str = ""  # the Sphinx could not decide: why (the players choose instead)


@dataclass(frozen=True)
class Tick:
    """Time passes: the loop sends one when no other event came for a while."""


@dataclass(frozen=True)
class Stop:
    """Stop cleanly (SIGTERM, the end of a script): save and show "safe to unplug"."""

    reason: str = ""


Event = (
    Press
    | ThrowRead
    | ThrowRefused
    | CameraFailed
    | CameraBack
    | CameraDone
    | SphinxAnswer
    | Tick
    | Stop
)


class Effect(Enum):
    """What the screens ask of the world outside them; the event loop carries it out."""

    BEEP = "beep"  # a throw was read
    CONTRAST = "contrast"  # the contrast setting changed
    SHUTDOWN = "shutdown"  # the player confirmed "shut down"
    FINISHED = "finished"  # the loop should end
    THINK = "think"  # the Sphinx has a decision to make: run it off the loop
    CAMERA = "camera"  # a CameraTask for the camera thread (calibrate, enrol)
