"""Editing the position on the device, through the rule set's notation.

When the camera was wrong or the real board differs, the players bring the device back
in line by editing the position's one-line notation (``docs/notation.md``), character
by character: up/down cycle the character under the cursor through those the notation
uses at that place, select and back move the cursor, holding up inserts a character and
holding down deletes one, holding select checks the text with the engine's
``parse_position`` and plays on from it. This works for every rule set; on the boards of
Senet and Senet-Modern the cursor also names (and shows) the square it edits.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core import RaceGame, RuleSet
from companion.randomplay import random_action

AnyGame = RaceGame[Any]
SAMPLE_ACTIONS = 300  # actions of a random game whose positions show the notation's characters
SENET_ROW = 10
BOARDS_OF_TEN = frozenset({"Senet", "Modern"})  # family classes whose board word is 3 rows
WINDOW = 22  # characters of the notation shown around the cursor


def alphabet(rules: RuleSet, text: str, cursor: int) -> str:
    """The characters offered at ``cursor``: those seen in the same word of the notation
    in the positions of a random game (digits all, when one is seen)."""
    if cursor >= len(text) or text[cursor] == " ":
        return ""
    word = text[:cursor].count(" ")
    seen = _characters_by_word(rules)
    characters = seen[word] if word < len(seen) else frozenset(text.split(" ")[word])
    return _ordered(characters | {text[cursor]})


_SEEN: dict[str, tuple[frozenset[str], ...]] = {}


def _characters_by_word(rules: RuleSet) -> tuple[frozenset[str], ...]:
    game = rules.game()
    key = f"{rules.name} {game.fen()}"  # the start position tells the options apart
    seen = _SEEN.get(key)
    if seen is None:
        seen = _SEEN[key] = _sample(rules, game)
    return seen


def _sample(rules: RuleSet, game: AnyGame) -> tuple[frozenset[str], ...]:
    rng = random.Random(1)
    words: list[set[str]] = []
    for _ in range(SAMPLE_ACTIONS):
        for index, word in enumerate(game.fen().split(" ")):
            if index == len(words):
                words.append(set())
            words[index].update(word)
        if game.is_over():
            game = rules.game()
        random_action(game, rng)
    return tuple(frozenset(word) for word in words)


def _ordered(characters: set[str] | frozenset[str]) -> str:
    if any(ch.isdigit() for ch in characters):
        characters = set(characters) | set("0123456789")

    def rank(ch: str) -> tuple[int, str]:
        group = 0 if not ch.isalnum() else 1 if ch.isupper() else 2 if ch.islower() else 3
        return (group, ch)

    return "".join(sorted(characters, key=rank))


def cycled(rules: RuleSet, text: str, cursor: int, step: int) -> str:
    """The text with the character under the cursor replaced by the next (or previous)."""
    offered = alphabet(rules, text, cursor)
    if not offered:
        return text
    following = offered[(offered.index(text[cursor]) + step) % len(offered)]
    return text[:cursor] + following + text[cursor + 1 :]


def inserted(text: str, cursor: int) -> str:
    """A copy of the character under the cursor inserted before it."""
    return text[:cursor] + text[cursor : cursor + 1] + text[cursor:]


def deleted(text: str, cursor: int) -> str:
    return text[:cursor] + text[cursor + 1 :] if len(text) > 1 else text


def window(text: str, cursor: int) -> str:
    """The notation around the cursor, the character under it in brackets."""
    start = max(0, min(cursor - WINDOW // 2, len(text) - WINDOW))
    end = min(len(text), start + WINDOW)
    head = "<" if start > 0 else ""
    tail = ">" if end < len(text) else ""
    shown = text[start:cursor] + f"[{text[cursor : cursor + 1]}]" + text[cursor + 1 : end]
    return f"{head}{shown}{tail}".replace(" ", "_")


def board_square(game: AnyGame, text: str, cursor: int) -> int | None:
    """The square a cursor in the board's word edits, on the boards of three rows of ten
    written in track order (Senet; Senet-Modern, whose pieces carry their number: ``W5``)."""
    if type(game).__name__ not in BOARDS_OF_TEN or " " in text[:cursor]:
        return None
    rows = text.split(" ", 1)[0].split("/")
    offset = 0
    for row_index, row in enumerate(rows):
        if cursor < offset + len(row):
            return _square_in_row(row, cursor - offset, row_index)
        offset += len(row) + 1  # the '/' after the row
    return None


def _square_in_row(row: str, at: int, row_index: int) -> int | None:
    """Empty squares are one character, a piece its letter and the digits after it."""
    squares = 0
    for index, character in enumerate(row):
        if not character.isdigit():
            squares += 1
        if index == at:
            return row_index * SENET_ROW + squares if squares else None
    return None
