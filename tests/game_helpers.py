"""Helpers shared by the engine's tests: a terminal fed typed lines, undo then replay
through a recorded game, and undo back to its start."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from companion.core import Move, RaceGame
from companion.errors import TurnError
from companion.throws import Throw

Action = Move | Throw


class TypedLines:
    """Feeds typed lines to a terminal session and keeps what it printed."""

    def __init__(self, lines: list[str]) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.printed: list[str] = []  # prompts and what the session said
        self.said: list[str] = []  # what the session said, blank lines left out

    def ask(self, prompt: str) -> str:
        self.printed.append(prompt)
        try:
            return next(self._lines)
        except StopIteration:
            raise EOFError from None

    def say(self, text: str) -> None:
        self.printed.append(text)
        if text:
            self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.printed)


def undo_and_replay(
    game: RaceGame[Any],
    actions: Sequence[Action],
    fens: Sequence[str],
    rng: random.Random,
    *,
    deepest: int = 6,
) -> None:
    """pop() goes back through the recorded positions (``fens[i]`` is the position before
    ``actions[i]``), then the same actions replay them."""
    depth = min(rng.randint(1, deepest), len(actions))
    n = len(actions)
    for index in range(n - 1, n - 1 - depth, -1):
        assert game.pop() == actions[index]
        assert game.fen() == fens[index]
    for index in range(n - depth, n):
        action = actions[index]
        if isinstance(action, Throw):
            game.throw(action)
        else:
            game.push(action)
        assert game.fen() == fens[index + 1]


def undo_to_start(game: RaceGame[Any], actions: Sequence[Action], fens: Sequence[str]) -> None:
    """The game's history is ``actions``; pop() goes back through every recorded position
    (``fens[i]`` is the position before ``actions[i]``) to the first, and then has nothing
    left to undo."""
    assert game.history == actions
    for index in range(len(actions) - 1, -1, -1):
        assert game.pop() == actions[index]
        assert game.fen() == fens[index]
    with pytest.raises(TurnError):
        game.pop()
