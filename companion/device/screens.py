"""The screens' states: small frozen values; :mod:`companion.device.app` moves between
them and :mod:`companion.device.views` says what each one shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Menu:
    cursor: int = 0


@dataclass(frozen=True)
class AwaitThrow:
    choice: int = 0  # index into the throws (and moves instead of a throw) offered by hand


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
    | AwaitThrow
    | ThrowShown
    | Choosing
    | Why
    | GameOver
    | SettingsMenu
    | ConfirmShutdown
    | Message
    | Saver
    | Goodbye
)
