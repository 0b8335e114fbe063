"""The screens' states: small frozen values; :mod:`companion.device.app` moves between
them and :mod:`companion.device.views` says what each one shows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.core import Move
from companion.device.state import Settings

ENROLMENT_PICTURES = 4  # alternately every stick marked, then plain, face up
YESNO_PICTURES = 6  # one stick, each face three times: camerajobs.MIN_EXAMPLES of each
D4_VALUES = (1, 2, 3, 4)
D4_ROUNDS = 2  # d4 enrolment: each value at the top point in turn, twice (vision.guided)


class Taught(Enum):
    """What an enrolment teaches the camera: a set's sticks or Ur's yes/no stick (their
    two faces), or its numbered d4 (the numerals painted on its faces)."""

    STICKS = "stick"  # vision's implement kinds
    YESNO = "yesno"
    D4 = "d4"

    @property
    def pictures(self) -> int:
        if self is Taught.D4:
            return D4_ROUNDS * len(D4_VALUES)
        return ENROLMENT_PICTURES if self is Taught.STICKS else YESNO_PICTURES

    def text(self, key: str) -> str:
        """The key of the text ``key`` in this enrolment: a stick enrolment's texts are
        named plainly, the others' ``key-yesno`` and ``key-d4``."""
        return key if self is Taught.STICKS else f"{key}-{self.value}"

    def shown(self, step: int) -> str:
        """What picture ``step`` shows: the sticks' ``M`` (marked, the yes/no stick's
        "yes") or ``P`` face up, or the value at the d4's top point."""
        if self is Taught.D4:
            return str(D4_VALUES[step % len(D4_VALUES)])
        return "MP"[step % 2]


@dataclass(frozen=True)
class Menu:
    cursor: int = 0


@dataclass(frozen=True)
class Setup:
    """A new game being set up: the rule set, its options, who starts, who sits where."""

    cursor: int
    draft: Settings


@dataclass(frozen=True)
class AwaitThrow:
    choice: int = 0  # index into the throws (and moves instead of a throw) offered by hand


@dataclass(frozen=True)
class Thinking:
    """The Sphinx searches (in a worker thread); its answer moves on from here."""

    purpose: str  # a sphinxturn.Purpose value
    fen: str


@dataclass(frozen=True)
class SphinxMove:
    """The Sphinx names its move; the players make it on the board and confirm."""

    move: Move


@dataclass(frozen=True)
class Hints:
    """ "What would you play?": the best moves with their values."""

    moves: tuple[Move, ...]
    values: tuple[float, ...]
    index: int = 0


@dataclass(frozen=True)
class Editor:
    """The position's notation being edited; ``cursor`` is a character's index."""

    text: str
    cursor: int = 0


@dataclass(frozen=True)
class Stats:
    """The throw statistics, in pages of a title and lines (computed on entering)."""

    pages: tuple[tuple[str, tuple[str, ...]], ...]
    page: int = 0


@dataclass(frozen=True)
class ThrowShown:
    since: float


@dataclass(frozen=True)
class Choosing:
    index: int = 0


@dataclass(frozen=True)
class Why:
    index: int = 0  # index into the pieces on the board


@dataclass(frozen=True)
class GameOver:
    pass


@dataclass(frozen=True)
class SettingsMenu:
    cursor: int = 0


@dataclass(frozen=True)
class Calibrating:
    """ "Empty the tray, then OK"; ``waiting`` for the camera to calibrate."""

    waiting: bool = False


@dataclass(frozen=True)
class Enrolling:
    """Guided enrolment of a set of ``count`` sticks, or of a d4: picture ``step`` (what
    it shows: ``taught.shown(step)``); ``waiting`` for the camera's answer (after the last
    picture, for the faces or numerals to be learnt)."""

    step: int
    count: int
    waiting: bool = False
    taught: Taught = Taught.STICKS

    @property
    def done(self) -> bool:
        """Every picture was taken: the camera is learning."""
        return self.step >= self.taught.pictures


@dataclass(frozen=True)
class EnrolChoice:
    """Which implement of the game's set to enrol, when it has more than one to teach:
    ``choices``, the first step of each enrolment."""

    choices: tuple[Enrolling, ...]
    cursor: int = 0


@dataclass(frozen=True)
class ConfirmShutdown:
    pass


@dataclass(frozen=True)
class Message:
    title: str
    lines: tuple[str, ...]
    then: Screen


@dataclass(frozen=True)
class Saver:
    then: Screen


@dataclass(frozen=True)
class Goodbye:
    pass


Screen = (
    Menu
    | Setup
    | Thinking
    | SphinxMove
    | Hints
    | Stats
    | Editor
    | AwaitThrow
    | ThrowShown
    | Choosing
    | Why
    | GameOver
    | SettingsMenu
    | Calibrating
    | EnrolChoice
    | Enrolling
    | ConfirmShutdown
    | Message
    | Saver
    | Goodbye
)
