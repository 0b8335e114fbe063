"""Mehen positions in one line of text, and the board drawn for the terminal.

``LENGTH BOARD SEATS TURN THROW PHASE``, e.g. the start with two players on 88 squares::

    88 -/86/- r:6:wait:-,b:6:wait:- r - play

The format is described, with examples, in ``docs/notation.md``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from companion.errors import NotationError
from companion.games.mehen_position import (
    COLOURS,
    EMPTY,
    GONE,
    LETTERS,
    TAIL,
    WAITING,
    MehenPosition,
)
from companion.notation import is_number

if TYPE_CHECKING:
    from companion.games.mehen import MehenRules

NOBODY = "-"  # an empty tail or centre, no pending throw, nothing eaten
PREDATOR_WORDS = {WAITING: "wait", GONE: "out"}  # any other value: "on" (on the board)
ON_BOARD = "on"
PHASES = ("play", "over", "agreed")
ROW = 20  # squares per line when the board is drawn


def format_position(position: MehenPosition) -> str:
    length = position.length
    board = "/".join(
        (
            _cell_text(position, TAIL, position.tail),
            _runs(position.board[1 : length - 1]),
            _cell_text(position, length, position.centre),
        )
    )
    seats = ",".join(_seat_text(position, seat) for seat in range(position.players))
    throw = NOBODY if position.throw is None else str(position.throw)
    phase = "agreed" if position.agreed else "over" if position.finished() else "play"
    return f"{length} {board} {seats} {LETTERS[position.turn]} {throw} {phase}"


def _cell_text(position: MehenPosition, square: int, counts: tuple[int, ...]) -> str:
    """The pieces on the tail or the centre, seat by seat: simple pieces, then predator."""
    predators = position.predators
    if square not in predators and not any(counts):
        return NOBODY
    text = ""
    for seat, count in enumerate(counts):
        text += LETTERS[seat] * count
        if predators[seat] == square:
            text += LETTERS[seat].upper()
    return text


def _runs(track: str) -> str:
    """Squares between tail and centre: a letter per piece, a number per run of empties."""
    return _EMPTY_RUN.sub(_run_length, track)


_EMPTY_RUN = re.compile(r"\.+")
_DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: runs of empty squares


def _run_length(run: re.Match[str]) -> str:
    return str(run.end() - run.start())


def _empty_squares(run: re.Match[str]) -> str:
    return EMPTY * int(run.group())


def _seat_text(position: MehenPosition, seat: int) -> str:
    predator = PREDATOR_WORDS.get(position.predators[seat], ON_BOARD)
    eaten = position.eaten[seat] or NOBODY
    return f"{LETTERS[seat]}:{position.to_enter[seat]}:{predator}:{eaten}"


def board_lines(position: MehenPosition) -> list[str]:
    """The track in rows of ROW squares from the tail, then each seat's pieces off it."""
    length = position.length
    lines = [f"tail (1): {_cell_text(position, TAIL, position.tail)}"]
    for first in range(2, length, ROW):
        last = min(first + ROW - 1, length - 1)
        cells = " ".join(position.board[first - 1 : last])
        lines.append(f"{first:>3}-{last:<3} {cells}")
    lines.append(f"centre ({length}): {_cell_text(position, length, position.centre)}")
    for seat in range(position.players):
        square = position.predators[seat]
        predator = {WAITING: "waits on the centre", GONE: "has left"}.get(square, f"on {square}")
        lines.append(
            f"{COLOURS[seat]} ({LETTERS[seat]}): {position.to_enter[seat]} to enter, "
            f"predator {predator}, ate {position.eaten[seat] or 'nothing'}, "
            f"score {position.score(seat)}"
        )
    return lines


class PositionReader:
    """Reads Mehen notation and says exactly what is wrong, quoting the text."""

    def __init__(self, rules: MehenRules, text: str) -> None:
        self.rules = rules
        self.text = text

    def fail(self, problem: str) -> NotationError:
        return NotationError(
            f"position {self.text!r}: {problem}. Expected: LENGTH BOARD SEATS TURN THROW "
            f"PHASE, e.g. '{self.example()}' (the start, {self.rules.players} players on "
            f"{self.rules.length} squares; see docs/notation.md)"
        )

    def example(self) -> str:
        return format_position(self.rules.start_position())

    def read(self) -> MehenPosition:
        fields = self.text.split()
        if len(fields) != 6:
            raise self.fail(f"found {len(fields)} fields instead of 6")
        length_text, board_text, seats_text, turn_text, throw_text, phase_text = fields
        length = self._length(length_text)
        to_enter, predator_words, eaten = self._seats(seats_text)
        players = len(to_enter)
        board, tail, centre, squares = self._board(board_text, length, players)
        predators = self._predators(squares, predator_words)
        position = MehenPosition(
            length=length,
            board=board,
            tail=tail,
            centre=centre,
            predators=predators,
            to_enter=to_enter,
            eaten=eaten,
            turn=self._turn(turn_text, players),
            throw=self._throw(throw_text),
            agreed=self._phase(phase_text) == "agreed",
        )
        self._check_pieces(position)
        self._check_phase(position, phase_text)
        return position

    # ----- fields ------------------------------------------------------------------------
    def _length(self, text: str) -> int:
        rules = self.rules
        if not is_number(text) or not rules.min_length <= int(text) <= rules.max_length:
            raise self.fail(
                f"the board length is a number of squares from {rules.min_length} to "
                f"{rules.max_length}, not {text!r}"
            )
        return int(text)

    def _seats(self, text: str) -> tuple[tuple[int, ...], list[str], tuple[str, ...]]:
        rules = self.rules
        tokens = text.split(",")
        if not rules.min_players <= len(tokens) <= rules.max_players:
            raise self.fail(
                f"found {len(tokens)} seats; Mehen is played by {rules.min_players} to "
                f"{rules.max_players} players, one 'COLOUR:TO_ENTER:PREDATOR:EATEN' each, "
                "joined by ','"
            )
        to_enter: list[int] = []
        predators: list[str] = []
        eaten: list[str] = []
        for seat, token in enumerate(tokens):
            entering, predator, ate = self._seat(seat, token, len(tokens))
            to_enter.append(entering)
            predators.append(predator)
            eaten.append(ate)
        return tuple(to_enter), predators, tuple(eaten)

    def _seat(self, seat: int, token: str, players: int) -> tuple[int, str, str]:
        parts = token.split(":")
        letter = LETTERS[seat]
        if len(parts) != 4:
            raise self.fail(
                f"seat {seat + 1} is written COLOUR:TO_ENTER:PREDATOR:EATEN, e.g. "
                f"'{letter}:6:wait:-', not {token!r}"
            )
        colour, entering, predator, ate = parts
        if colour != letter:
            raise self.fail(
                f"seat {seat + 1} plays {COLOURS[seat]} ({letter!r}); seats take the colours "
                f"{', '.join(LETTERS[:players])} in seating order, not {colour!r}"
            )
        if not is_number(entering) or int(entering) > self.rules.pieces:
            raise self.fail(
                f"{COLOURS[seat]}'s pieces still to enter are 0 to {self.rules.pieces}, "
                f"not {entering!r}"
            )
        if predator not in (*PREDATOR_WORDS.values(), ON_BOARD):
            raise self.fail(
                f"{COLOURS[seat]}'s predator is 'wait' (not released), 'on' (on the board) "
                f"or 'out' (left), not {predator!r}"
            )
        if ate == NOBODY:
            return int(entering), predator, ""
        others = LETTERS[:players].replace(letter, "")
        if not ate or set(ate) - set(others):
            raise self.fail(
                f"{COLOURS[seat]}'s predator ate '-' (nothing) or letters of the other "
                f"seats ({', '.join(others)}), not {ate!r}"
            )
        return int(entering), predator, "".join(sorted(ate, key=LETTERS.index))

    def _board(
        self, text: str, length: int, players: int
    ) -> tuple[str, tuple[int, ...], tuple[int, ...], list[int]]:
        parts = text.split("/")
        if len(parts) != 3:
            raise self.fail("the board is TAIL/TRACK/CENTRE, e.g. '-/86/-' for 88 empty squares")
        tail_text, track_text, centre_text = parts
        letters = LETTERS[:players]
        predators = [WAITING] * players
        tail = self._cell(tail_text, "tail", TAIL, letters, predators)
        centre = self._cell(centre_text, "centre", length, letters, predators)
        track = self._quick_track(track_text, length, letters)
        if track is None:  # something is wrong: read it square by square to say what
            track = "".join(self._track(track_text, length, letters))
        for predator in letters.upper():
            square = track.find(predator)
            if square >= 0:
                if track.count(predator) > 1:
                    raise self.fail(f"{COLOURS[letters.index(predator.lower())]} has one predator")
                self._place_predator(predators, letters.index(predator.lower()), square + 2)
        return EMPTY + track + EMPTY, tail, centre, predators

    def _cell(
        self, text: str, name: str, square: int, letters: str, predators: list[int]
    ) -> tuple[int, ...]:
        if text == NOBODY:
            return tuple(0 for _ in letters)
        wrong = set(text) - set(letters) - set(letters.upper())
        if not text or wrong:
            raise self.fail(
                f"the {name} holds '-' (nothing) or letters of the seats ({letters}; upper "
                f"case for a predator), not {text!r}"
            )
        for letter in set(text) & set(letters.upper()):
            if text.count(letter) > 1:
                raise self.fail(f"{COLOURS[letters.index(letter.lower())]} has one predator")
            self._place_predator(predators, letters.index(letter.lower()), square)
        return tuple(text.count(letter) for letter in letters)

    def _quick_track(self, text: str, length: int, letters: str) -> str | None:
        """The squares between tail and centre when the text is valid, else None."""
        runs = _DIGITS.findall(text)
        if any(len(run) > len(str(length)) or run[0] == "0" for run in runs):
            return None
        track = _DIGITS.sub(_empty_squares, text)
        allowed = {EMPTY, *letters, *letters.upper()}
        return track if len(track) == length - 2 and set(track) <= allowed else None

    def _track(self, text: str, length: int, letters: str) -> list[str]:
        """The squares between tail and centre, from letters and runs of empty squares."""
        cells: list[str] = []
        digits = ""
        for char in text + "/":  # "/" ends the last run of empty squares
            if char.isascii() and char.isdigit():
                digits += char
                continue
            if digits:
                if not is_number(digits) or int(digits) == 0:
                    raise self.fail(f"{digits!r} is no run of empty squares (1 or more)")
                if len(cells) + int(digits) > length - 2:
                    raise self._track_length(length, "more")
                cells.extend(EMPTY * int(digits))
                digits = ""
            if char == "/":
                break
            if char == EMPTY or (len(char.lower()) == 1 and char.lower() in letters):
                cells.append(char)
            else:
                raise self.fail(
                    f"the track holds letters of the seats ({letters}; upper case for a "
                    f"predator) and numbers of empty squares, not {char!r}"
                )
        if len(cells) != length - 2:
            raise self._track_length(length, str(len(cells)))
        return cells

    def _track_length(self, length: int, found: str) -> NotationError:
        return self.fail(
            f"the track between tail and centre has {length - 2} squares on a board of "
            f"{length}; this one has {found}"
        )

    def _place_predator(self, predators: list[int], seat: int, square: int) -> None:
        if predators[seat] != WAITING:
            raise self.fail(f"{COLOURS[seat]} has one predator, found on two squares")
        predators[seat] = square

    def _predators(self, squares: list[int], words: list[str]) -> tuple[int, ...]:
        for seat, (square, word) in enumerate(zip(squares, words, strict=True)):
            on_board = square != WAITING
            if on_board != (word == ON_BOARD):
                where = "is on the board" if on_board else "is not on the board"
                raise self.fail(
                    f"{COLOURS[seat]}'s predator {where}: its seat says {word!r} "
                    "('on' exactly when its capital letter is on the board)"
                )
            if word == PREDATOR_WORDS[GONE]:
                squares[seat] = GONE
        return tuple(squares)

    def _turn(self, text: str, players: int) -> int:
        letters = LETTERS[:players]
        if len(text) != 1 or text not in letters:
            raise self.fail(f"the seat to act is one of {', '.join(letters)}, not {text!r}")
        return letters.index(text)

    def _throw(self, text: str) -> int | None:
        if text == NOBODY:
            return None
        scores = self.rules.throws.scores
        if not is_number(text) or int(text) not in scores:
            allowed = ", ".join(str(s) for s in sorted(scores))
            raise self.fail(f"the pending throw is '-' or one of {allowed}, not {text!r}")
        return int(text)

    def _phase(self, text: str) -> str:
        if text not in PHASES:
            raise self.fail(f"the phase is one of {', '.join(PHASES)}, not {text!r}")
        return text

    # ----- the whole position ------------------------------------------------------------
    def _check_pieces(self, position: MehenPosition) -> None:
        pieces = self.rules.pieces
        eaten = "".join(position.eaten)
        for seat in range(position.players):
            colour = COLOURS[seat]
            total = position.to_enter[seat] + position.pieces_in_play(seat)
            total += eaten.count(LETTERS[seat])
            if total != pieces:
                raise self.fail(
                    f"{colour} has {total} simple pieces (to enter, on the board and eaten), "
                    f"each player has {pieces}"
                )
            released = position.predators[seat] != WAITING
            if released and position.to_enter[seat]:
                raise self.fail(
                    f"{colour}'s predator was released, so all {colour}'s pieces have entered"
                )
            if position.eaten[seat] and not released:
                raise self.fail(f"{colour}'s predator never left the centre: it ate nothing")

    def _check_phase(self, position: MehenPosition, phase: str) -> None:
        finished = position.finished()
        if finished and phase != "over":
            raise self.fail(
                "every predator has left the board or can never be released: the phase is 'over'"
            )
        if phase == "over" and not finished:
            raise self.fail("the game is not over: a predator can still move or be released")
        if phase != "play" and position.throw is not None:
            raise self.fail("the game is over: no throw can be pending")
        if phase == "play" and not position.can_ever_move(position.turn):
            raise self.fail(
                f"{COLOURS[position.turn]} has nothing left that can ever move and is skipped "
                "(M2): another seat is to act"
            )
