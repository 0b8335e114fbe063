"""The device's state directory: the game in progress and the player's settings.

The game is written with :mod:`companion.savefile` (atomic: temporary file, fsync,
rename, directory fsync) after every throw, move and undo, so a power cut loses at most
the action being saved. A file that cannot be read is renamed aside and reported; the
device starts without it instead of crashing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from companion import games, savefile
from companion.core import RaceGame, RuleSet
from companion.device import config as device_config
from companion.errors import CompanionError, SaveFileError

AnyGame = RaceGame[Any]
GAME_FILE = "game.json"
SETTINGS_FILE = "settings.json"
THROW_LOG_FILE = "throws.jsonl"
PERSON = "person"
SEAT_KINDS = (PERSON, "easy", "normal", "strong")  # a person, or the Sphinx at a level


@dataclass(frozen=True)
class Settings:
    """What the players change on the device itself (the config file holds the rest)."""

    game: str = "senet-kendall"
    lang: str = "en"
    contrast: int = 255
    dev_mode: bool = False
    options: tuple[tuple[str, int], ...] = ()  # the rule set's options (Mehen's players)
    first: int = 0  # the seat that plays (or throws) first
    seats: tuple[str, ...] = ()  # per seat, in seating order: PERSON or a Sphinx level

    def rules(self) -> RuleSet:
        """The rule set with its options."""
        values = {name: str(value) for name, value in self.options}
        return games.get(self.game).with_options(values)

    def seat(self, index: int) -> str:
        """Who plays seat ``index``: PERSON unless a Sphinx level was chosen."""
        return self.seats[index] if index < len(self.seats) else PERSON


class StateStore:
    """Reads and writes the state directory; ``problems`` collects what went wrong."""

    def __init__(
        self,
        directory: Path,
        *,
        on_saving: Callable[[str], None] | None = None,
        on_saved: Callable[[str], None] | None = None,
    ) -> None:
        self.directory = directory
        self.problems: list[str] = []
        self._on_saving = on_saving
        self._on_saved = on_saved

    @property
    def game_path(self) -> Path:
        return self.directory / GAME_FILE

    @property
    def settings_path(self) -> Path:
        return self.directory / SETTINGS_FILE

    @property
    def throw_log_path(self) -> Path:
        """Throws read or entered at this table, for the statistics (``companion stats``)."""
        return self.directory / THROW_LOG_FILE

    def load_game(self) -> tuple[AnyGame, str] | None:
        """The saved game and its start position, or None (nothing saved, or unreadable)."""
        path = self.game_path
        if not path.exists():
            return None
        try:
            return savefile.load(path)
        except SaveFileError as error:
            self._set_aside(path, str(error))
            return None

    def save_game(self, game: AnyGame, start: str) -> None:
        """Write the game atomically; raises SaveFileError if the disk refuses."""
        fen = game.fen()
        if self._on_saving is not None:
            self._on_saving(fen)
        savefile.save(game, self.game_path, start)
        if self._on_saved is not None:
            self._on_saved(fen)

    def load_settings(self, defaults: Settings) -> Settings:
        path = self.settings_path
        if not path.exists():
            return defaults
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            return _settings_from(record, defaults)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, CompanionError) as error:
            self._set_aside(path, f"settings {path} cannot be read: {error}")
            return defaults

    def save_settings(self, settings: Settings) -> None:
        text = json.dumps(asdict(settings), indent=1) + "\n"
        try:
            savefile.write_atomically(self.settings_path, text)
        except OSError as error:
            message = f"settings could not be saved to {self.settings_path}: {error}"
            raise SaveFileError(message) from None

    def _set_aside(self, path: Path, problem: str) -> None:
        try:
            kept = savefile.set_aside(path)
        except OSError as error:
            self.problems.append(f"{problem} (it could not be moved aside either: {error})")
            return
        self.problems.append(f"{problem}. It was kept as {kept.name}.")


def _settings_from(record: object, defaults: Settings) -> Settings:
    if not isinstance(record, dict):
        raise SaveFileError("expected a JSON object")
    values: dict[str, object] = {}
    for field in fields(Settings):
        if field.name not in record:
            continue
        value = record[field.name]
        expected = type(getattr(defaults, field.name))
        if expected is tuple and type(value) is list:
            value = _tuple_of(field.name, value)
        if type(value) is not expected:
            raise SaveFileError(f"{field.name} should be a {expected.__name__}")
        values[field.name] = value
    settings = replace(defaults, **values)  # type: ignore[arg-type]
    if settings.game not in games.names():
        raise SaveFileError(f"game {settings.game!r} is no rule set")
    unknown = [seat for seat in settings.seats if seat not in SEAT_KINDS]
    if unknown:
        raise SaveFileError(f"seats: {unknown[0]!r} is none of {', '.join(SEAT_KINDS)}")
    players = settings.rules().players  # raises NotationError for options out of range
    if not 0 <= settings.first < players:
        raise SaveFileError(f"first: seat {settings.first} of {players}")
    return settings


def _tuple_of(name: str, items: list[Any]) -> tuple[Any, ...]:
    """JSON lists back into the tuples of Settings: seats, and options as name-value pairs."""
    if name != "options":
        return tuple(items)
    pairs = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise SaveFileError(f"options should be [name, value] pairs, not {item!r}")
        if type(item[1]) is not int:
            raise SaveFileError(f"option {item[0]} should be a whole number")
        pairs.append((item[0], item[1]))
    return tuple(pairs)


def development_state_dir() -> Path:
    """Where the device keeps its state when it runs on a development machine."""
    return savefile.data_dir() / "device"


def device_throw_logs(config_path: Path | None = None) -> list[Path]:
    """The throw logs the device keeps, those that exist: in its configured state folder
    (the Pi's) and in the development one. An unreadable configuration is reported on
    stderr; then only the development log is looked for."""
    folders = [development_state_dir()]
    try:
        folders.insert(0, device_config.load(config_path).state_dir)
    except CompanionError as error:
        print(f"companion: {error}; the device's configured throw log is not read", file=sys.stderr)
    logs = [StateStore(folder).throw_log_path for folder in folders]
    return [log for log in dict.fromkeys(logs) if log.exists()]
