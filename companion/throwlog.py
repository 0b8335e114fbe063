"""Every throw read at the table, appended to a log that undo never touches.

One JSON object per line: the rule set, the throw as read (``MMPP``, ``3+no``), its score,
where it came from (``typed``, ``camera``) and when. Random throws of dev mode are not
logged: they say nothing about a set of sticks. A line cut short by a power cut is
skipped when the log is read, and counted.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import SaveFileError
from companion.savefile import data_dir
from companion.throws import Throw


def default_path() -> Path:
    return data_dir() / "throws.jsonl"


def record(path: Path, game: str, throw: Throw, *, source: str) -> None:
    """Append one throw to the log."""
    line = {
        "game": game,
        "throw": str(throw),
        "score": throw.score,
        "source": source,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(json.dumps(line, ensure_ascii=False) + "\n")
            log.flush()
            os.fsync(log.fileno())
    except OSError as error:
        raise SaveFileError(f"the throw could not be logged to {path}: {error}") from None


@dataclass(frozen=True)
class LoggedThrows:
    scores: list[int]  # of the rule set asked for, in order
    skipped: int  # lines that could not be read
    readings: list[str] = field(default_factory=list)  # each throw as read: ``4,6``, ``3+yes``


def read(path: Path, game: str) -> LoggedThrows:
    """The scores logged for one rule set."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return LoggedThrows([], 0)
    except (OSError, UnicodeDecodeError) as error:
        raise SaveFileError(f"throw log {path} cannot be read: {error}") from None
    scores: list[int] = []
    readings: list[str] = []
    skipped = 0
    for line in lines:
        try:
            entry = json.loads(line)
            if entry["game"] == game:
                score = int(entry["score"])
                readings.append(str(entry.get("throw", score)))
                scores.append(score)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            skipped += 1
    return LoggedThrows(scores, skipped, readings)


def read_all(paths: list[Path], game: str) -> LoggedThrows:
    """The throws of one rule set in several logs (the terminal's and the device's), in
    the order of the logs."""
    scores: list[int] = []
    readings: list[str] = []
    skipped = 0
    for path in paths:
        logged = read(path, game)
        scores += logged.scores
        readings += logged.readings
        skipped += logged.skipped
    return LoggedThrows(scores, skipped, readings)
