"""The project's errors: one base class, each subclass also a matching builtin.

Front ends (the command line, the device) catch :class:`CompanionError` and show its
message; anything a person types that the engine cannot accept ends here, never in a
traceback.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class NotationError(CompanionError, ValueError):
    """A position, move or throw written in notation could not be read."""


class UnknownGameError(CompanionError, LookupError):
    """No rule set is registered under that name."""


class IllegalMoveError(CompanionError, ValueError):
    """A move was pushed that the rules do not allow; carries the ruling that says why."""

    def __init__(self, message: str, ruling: object | None = None) -> None:
        super().__init__(message)
        self.ruling = ruling


class TurnError(CompanionError, RuntimeError):
    """An action came at the wrong moment: a move while a throw is awaited, a throw
    while a move is awaited, anything after the end of the game, undo with no history."""


class SaveFileError(CompanionError, OSError):
    """A saved game could not be read or written."""


class CameraError(CompanionError, OSError):
    """The camera, video or folder of images cannot deliver frames."""


class VisionSetupError(CompanionError, ValueError):
    """A tray calibration, a profile or a labelled folder cannot be used."""
