"""Saved games: written atomically after every action, read back by replaying them.

The file records the rule set, the starting position and every throw and move in
notation, so a resumed game can still be undone to its start. A power cut at any
moment leaves either the previous file or the new one, never half of one: the text is
written to a temporary file, flushed to the disk, renamed over the old file, and the
directory entry flushed too.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from companion import games
from companion.core import Move, RaceGame
from companion.errors import CompanionError, SaveFileError
from companion.throws import Throw

FORMAT = 1


def data_dir() -> Path:
    """The companion's folder for saved games and logs on a development machine."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


def default_path(game_name: str) -> Path:
    """Where a game of this rule set is saved on a development machine."""
    return data_dir() / f"{game_name}.json"


def save(game: RaceGame[Any], path: Path, start: str) -> None:
    """Write the game atomically."""
    record = {
        "format": FORMAT,
        "game": game.rules.name,
        "start": start,
        "actions": [_action_text(action) for action in game.history],
        "position": game.fen(),
    }
    try:
        write_atomically(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")
    except OSError as error:
        raise SaveFileError(f"the game could not be saved to {path}: {error}") from None


def load(path: Path) -> tuple[RaceGame[Any], str]:
    """The saved game, replayed from its start, and that start position."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SaveFileError(f"saved game {path} cannot be read: {error}") from None
    try:
        return _replay(record)
    except (KeyError, TypeError, AttributeError) as error:
        raise SaveFileError(
            f"saved game {path} is incomplete ({error!r} missing or wrong)"
        ) from None
    except CompanionError as error:
        raise SaveFileError(f"saved game {path} does not replay: {error}") from None


def set_aside(path: Path) -> Path:
    """Keep an unreadable save beside the new one instead of losing it."""
    kept = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
    path.rename(kept)
    return kept


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    sync_directory(path.parent)


def sync_file(path: Path) -> None:
    """Flush a file written by other code (a library's ``save``) to the disk."""
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def sync_directory(path: Path) -> None:
    """Flush a directory's entries (files renamed or created in it) to the disk."""
    directory = os.open(path, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _action_text(action: Move | Throw) -> str:
    if isinstance(action, Throw):
        return f"throw {action}"
    return f"move {action}"


def _replay(record: dict[str, object]) -> tuple[RaceGame[Any], str]:
    if record["format"] != FORMAT:
        raise SaveFileError(f"save format {record['format']!r} is not {FORMAT}")
    start = str(record["start"])
    game = games.get(str(record["game"])).game(start)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise TypeError("actions")
    for action in actions:
        kind, _, value = str(action).partition(" ")
        if kind == "throw":
            game.throw(value)
        elif kind == "move":
            game.push(value)
        else:
            raise SaveFileError(f"unknown action {action!r}")
    if game.fen() != record["position"]:
        raise SaveFileError(
            f"replaying the actions gives {game.fen()!r}, not the saved {record['position']!r}"
        )
    return game, start
