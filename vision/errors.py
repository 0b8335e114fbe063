"""Errors of the vision pipeline.

``vision`` may not import ``companion``; the application layer turns these into the
project's ``CompanionError`` subclasses so that a person sees a message, never a traceback.
"""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error the vision pipeline raises on purpose."""


class CameraUnavailableError(VisionError, OSError):
    """A frame source could not be opened or stopped delivering frames."""


class CalibrationError(VisionError, ValueError):
    """The tray could not be located, or a calibration file could not be read."""


class ProfileError(VisionError, ValueError):
    """A profile file is missing, unreadable or lacks the faces a reading needs."""


class LabelsError(VisionError, ValueError):
    """A labelled folder's ``labels.jsonl`` is missing or has a line that cannot be read."""
