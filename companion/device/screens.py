"""The screens' states: small frozen values; :mod:`companion.device.app` moves between
them and :mod:`companion.device.views` says what each one shows."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core import Move
from companion.device.state import Settings

ENROLMENT_PICTURES = 4  # alternately every stick marked, then plain, face up


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
    """Guided enrolment of a set of ``sticks`` sticks: picture ``step`` (every stick marked
    face up on even steps, plain on odd ones); ``waiting`` for the camera's answer (after
    the last picture, for the faces to be learnt)."""

    step: int
    sticks: int
    waiting: bool = False


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
    | Enrolling
    | ConfirmShutdown
    | Message
    | Saver
    | Goodbye
)
