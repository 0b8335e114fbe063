"""The Royal Game of Ur as played today: ur-finkel and ur-masters.

One class, :class:`RoyalUr`, plays both rule sets; :class:`RoyalUrRules` holds what differs
(each side's track as cell names, the rosettes, whether they protect). Pieces start off the
board, enter by the throw, race along their own track (shared in the middle) and bear off
with the exact throw to one past its end; landing on an enemy piece sends it back off the
board; landing on a rosette gives another throw. The rule functions below return the ruling
that forbids a candidate move or nothing; legal move generation and :meth:`RoyalUr.explain`
call the same functions.

Cells are named as in ``DECISIONS.md`` U1: column A-H (A is the end of the 3x4 block away
from the bridge), row 1-3 (1 is white's side, 3 black's). Squares are numbered 1..N along
each side's own track; a move names squares of the mover's track.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, partial
from random import Random
from typing import ClassVar, NamedTuple

from companion.core import IN, OFF, Move, RaceGame, RuleSet, Tier
from companion.errors import NotationError
from companion.notation import is_number
from companion.rules import Ruling
from companion.throws import MARKED, PLAIN, StickTable, Throw

WHITE, BLACK = 0, 1
PIECE = ("W", "B")
EMPTY = "."
SIDE_NAMES = ("w", "b")
COLUMNS = "ABCDEFGH"
ROWS = (1, 2, 3)
FAIR = Fraction(1, 2)


@dataclass(frozen=True)
class BinaryDice(StickTable):
    """Tetrahedral dice with two of their four tips marked: count the marked tips up."""

    def describe(self) -> str:
        return (
            f"{self.sticks} tetrahedral dice, each with two of its four tips marked; the number "
            f"of dice showing a marked tip up ({MARKED}; {PLAIN} for a plain tip) is the "
            "score, and 0 moves nothing. A throw never gives another throw by itself: "
            "landing on a rosette does. Probabilities are exact, for dice that show a marked "
            f"tip with probability {self.marked_rate}."
        )

    def read_faces(self, faces: str) -> Throw:
        letters = faces.strip().upper()
        if len(letters) != self.sticks or set(letters) - {MARKED, PLAIN}:
            raise NotationError(
                f"throw {faces!r}: expected {self.sticks} letters, one per die, each {MARKED} "
                f"(marked tip up) or {PLAIN} (plain tip up), e.g. {MARKED * 3 + PLAIN}, or the "
                f"score {min(self.scores)}-{max(self.scores)}"
            )
        return self.throw(letters.count(MARKED))

    def draw(self, rng: Random) -> Throw:
        """A throw drawn with the table's exact probabilities: with fair dice, each of the
        ``sticks`` random bits is one die, so counting the set bits counts marked tips."""
        by_marked = self._fair_throws
        if by_marked is None:
            return super().draw(rng)
        return by_marked[rng.getrandbits(self.sticks).bit_count()]

    @cached_property
    def _fair_throws(self) -> tuple[Throw, ...] | None:
        """The throw for each count of marked tips, when the dice are fair."""
        if self.marked_rate != FAIR:
            return None
        return tuple(self.throw(marked) for marked in range(self.sticks + 1))


class RoyalPosition(NamedTuple):
    """Everything a ruling depends on (T3).

    ``pieces[side]`` is a bit mask of that side's pieces on the board: bit n is set when a
    piece stands on the side's own track square n (``squares[side]`` lists them).
    ``waiting`` counts pieces off the board that may enter (not yet entered, or captured),
    ``off`` pieces borne off. A named tuple of small ints: one is made on every action.
    """

    pieces: tuple[int, int]
    waiting: tuple[int, int]
    off: tuple[int, int]
    turn: int
    throw: int | None

    @property
    def squares(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The track squares of white's and of black's pieces on the board, ascending."""
        return squares_of(self.pieces[WHITE]), squares_of(self.pieces[BLACK])


@cache
def squares_of(mask: int) -> tuple[int, ...]:
    """The squares whose bits are set in ``mask``, ascending."""
    return tuple(square for square in range(mask.bit_length()) if mask >> square & 1)


def mask_of(squares: Iterable[int]) -> int:
    """The bit mask of these squares."""
    mask = 0
    for square in squares:
        mask |= 1 << square
    return mask


@dataclass(frozen=True)
class RoyalUrRules(RuleSet):
    """Parameters of an Ur rule set of today. House rules: ``dataclasses.replace(rules, ...)``."""

    family: ClassVar[type[RoyalUr]]
    parameter_notes: ClassVar[Mapping[str, str]] = {
        "white_path": "white's track, square 1 first, as board cells (column A-H, row 1-3)",
        "black_path": "black's track, square 1 first, as board cells",
        "rosettes": "cells marked with a rosette",
        "safe_rosettes": "whether a piece on a rosette is safe from capture",
        "rosette_extra_throw": "whether landing on a rosette gives another throw",
        "first": "the side that throws first (0 white, 1 black)",
    }
    throws: BinaryDice
    pieces: int = 7
    white_path: tuple[str, ...] = ()
    black_path: tuple[str, ...] = ()
    rosettes: frozenset[str] = frozenset()
    safe_rosettes: bool = True
    rosette_extra_throw: bool = True
    first: int = WHITE

    def __post_init__(self) -> None:
        if len(self.white_path) != len(self.black_path) or not self.white_path:
            raise ValueError("both tracks need the same number of squares, at least one")
        for path in self.paths:
            if len(set(path)) != len(path) or any(not _is_cell(cell) for cell in path):
                raise ValueError(f"a track visits distinct cells A1-H3 once each: {path}")
        if not self.rosettes <= set(self.white_path) | set(self.black_path):
            raise ValueError("every rosette is a cell of the board")
        if self.pieces < 1 or self.first not in (WHITE, BLACK):
            raise ValueError("at least one piece per side; the first side is 0 or 1")

    @property
    def paths(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self.white_path, self.black_path

    @property
    def length(self) -> int:
        """Squares on each track; a piece bears off from square length + 1 - throw."""
        return len(self.white_path)

    def cell(self, side: int, square: int) -> str:
        """The board cell of ``side``'s track square ``square`` (1-based), e.g. ``D1``."""
        return self.paths[side][square - 1]

    def square(self, side: int, cell: str) -> int | None:
        """``side``'s track square on ``cell``, or None when its track does not pass there."""
        return self.squares_by_cell[side].get(cell)

    # Tables built once per rule set: every move and lookup the hot paths need.
    @cached_property
    def squares_by_cell(self) -> tuple[dict[str, int], dict[str, int]]:
        white, black = ({cell: i for i, cell in enumerate(path, start=1)} for path in self.paths)
        return white, black

    @cached_property
    def enemy_square(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For each side, by its own square (index 0..length): the other side's square on
        the same cell, or 0 when that cell is the mover's alone."""
        white, black = (
            (0, *(self.squares_by_cell[1 - side].get(cell, 0) for cell in self.paths[side]))
            for side in (WHITE, BLACK)
        )
        return white, black

    @cached_property
    def rosette_squares(self) -> tuple[frozenset[int], frozenset[int]]:
        white, black = (
            frozenset(i for i, cell in enumerate(path, start=1) if cell in self.rosettes)
            for path in self.paths
        )
        return white, black

    @cached_property
    def extra_throw_squares(self) -> tuple[frozenset[int], frozenset[int]]:
        """Squares where a move ends with another throw, for each moving side."""
        if not self.rosette_extra_throw:
            return frozenset(), frozenset()
        return self.rosette_squares

    @cached_property
    def safe_squares(self) -> tuple[frozenset[int], frozenset[int]]:
        """Squares where an enemy piece cannot be captured, for each moving side."""
        if not self.safe_rosettes:
            return frozenset(), frozenset()
        return self.rosette_squares

    @cached_property
    def step_moves(self) -> dict[int, tuple[Move | None, ...]]:
        """For each score, the move from each square (index 0: entering), None past the end."""
        last = self.length + 1
        table: dict[int, tuple[Move | None, ...]] = {}
        for score in self.throws.scores:
            row: list[Move | None] = []
            for start in range(last):
                end = start + score
                if score == 0 or end > last:
                    row.append(None)
                else:
                    row.append(Move(start, OFF if end == last else end))
            table[score] = tuple(row)
        return table

    def throw_consequence(self, throw: Throw) -> str:
        if throw.score == 0:
            return "nothing to move: pass the hand"
        if not self.rosette_extra_throw:
            return "pass the hand"
        return "throw again from a rosette, else pass the hand"

    def start_position(self) -> RoyalPosition:
        return RoyalPosition((0, 0), (self.pieces, self.pieces), (0, 0), self.first, None)


def _is_cell(cell: str) -> bool:
    return len(cell) == 2 and cell[0] in COLUMNS and cell[1] in "123"


class RoyalUr(RaceGame[RoyalPosition]):
    """A game of ur-finkel or ur-masters."""

    rules: RoyalUrRules

    # ----- notation ----------------------------------------------------------------------
    def initial_position(self) -> RoyalPosition:
        return self.rules.start_position()

    def format_position(self, position: RoyalPosition) -> str:
        throw = "-" if position.throw is None else str(position.throw)
        waiting, off = position.waiting, position.off
        return (
            f"{_tracks(self.rules.length, position.pieces)} {SIDE_NAMES[position.turn]} "
            f"{throw} {waiting[0]}/{waiting[1]} {off[0]}/{off[1]}"
        )

    def parse_position(self, text: str) -> RoyalPosition:
        return _PositionReader(self.rules, text).read()

    # ----- presentation ------------------------------------------------------------------
    def turn_label(self, lang: str = "en") -> str:
        names = ("les blancs", "les noirs") if lang == "fr" else ("white", "black")
        return names[self.position.turn]

    def board_lines(self) -> list[str]:
        """The board as it lies between the players: row 1 (white's side) on top, columns
        A-H left to right; ``*`` an empty rosette, blank where the board has no cell."""
        rules = self.rules
        occupant: dict[str, str] = {}
        for side in (WHITE, BLACK):
            for square in self.position.squares[side]:
                occupant[rules.cell(side, square)] = PIECE[side]
        cells = set(rules.white_path) | set(rules.black_path)

        def draw(cell: str) -> str:
            if cell not in cells:
                return " "
            return occupant.get(cell) or ("*" if cell in rules.rosettes else EMPTY)

        lines = ["   " + " ".join(COLUMNS)]
        for row in ROWS:
            lines.append(f"{row}  " + " ".join(draw(f"{column}{row}") for column in COLUMNS))
        waiting, off = self.position.waiting, self.position.off
        lines.append(f"waiting: W {waiting[0]}  B {waiting[1]}   off: W {off[0]}  B {off[1]}")
        return lines

    # ----- hooks -------------------------------------------------------------------------
    def with_throw(self, position: RoyalPosition, throw: Throw) -> RoyalPosition:
        return RoyalPosition(
            position.pieces, position.waiting, position.off, position.turn, throw.score
        )

    def winner_of(self, position: RoyalPosition) -> int | None:
        pieces = self.rules.pieces
        white_off, black_off = position.off
        if white_off == pieces:
            return WHITE
        if black_off == pieces:
            return BLACK
        return None

    def tiers(self, position: RoyalPosition) -> Iterator[Tier]:
        """One tier: each piece of the mover by the throw, and entering while one waits."""
        throw = position.throw
        if not throw:  # 0 moves nothing (R2): no candidate, the hand passes (T1)
            return
        side = position.turn
        row = self.rules.step_moves[throw]
        mine = squares_of(position.pieces[side])
        moves = [move for start in mine if (move := row[start]) is not None]
        entering = row[IN]
        if position.waiting[side] and entering is not None:
            moves.insert(0, entering)
        yield Tier(moves, partial(self._landing_ruling, position))

    def shape_ruling(self, position: RoyalPosition, move: Move) -> Ruling:
        """Why a move that no piece of the mover can make with this throw is refused."""
        book = self.rules.rules
        throw = position.throw or 0
        side = position.turn
        length = self.rules.length
        if throw == 0:
            return book.forbids("zero")
        if not move.moves_a_piece or move.kind or move.then is not None:
            return book.forbids("distance", throw=throw)
        for square in (move.start, move.end):
            if square > length:
                return book.forbids("track", square=square, length=length)
        start, end = move.start, move.end
        if start == IN:
            if not position.waiting[side]:
                return book.forbids("none-waiting")
            if end == OFF:
                return book.forbids("distance", throw=throw)
            return book.forbids("enter", throw=throw, square=end)
        if not position.pieces[side] >> start & 1:
            return book.forbids("not-your-piece", square=start)
        if end == OFF or start + throw > length:
            return book.forbids("exact-off", square=start, need=length + 1 - start, throw=throw)
        return book.forbids("distance", throw=throw)

    def apply(
        self, position: RoyalPosition, move: Move, *, explain: bool = True
    ) -> tuple[RoyalPosition, list[Ruling]]:
        rules = self.rules
        side = position.turn
        start, end = move.start, move.end
        mine, theirs = position.pieces[side], position.pieces[1 - side]
        waiting, off = position.waiting, position.off
        if start == IN:
            waiting = (
                (waiting[0] - 1, waiting[1]) if side == WHITE else (waiting[0], waiting[1] - 1)
            )
        else:
            mine ^= 1 << start
        captured = 0
        if end == OFF:
            off = (off[0] + 1, off[1]) if side == WHITE else (off[0], off[1] + 1)
            won, again = off[side] == rules.pieces, False
        else:
            mine |= 1 << end
            enemy = rules.enemy_square[side][end]
            if enemy and theirs >> enemy & 1:
                theirs ^= 1 << enemy
                waiting = (
                    (waiting[0], waiting[1] + 1) if side == WHITE else (waiting[0] + 1, waiting[1])
                )
                captured = enemy
            won, again = False, end in rules.extra_throw_squares[side]
        pieces = (mine, theirs) if side == WHITE else (theirs, mine)
        after = RoyalPosition(pieces, waiting, off, side if won or again else 1 - side, None)
        if not explain:
            return after, []
        return after, self._effects(position, move, captured, won=won, again=again)

    def apply_pass(self, position: RoyalPosition) -> RoyalPosition:
        return RoyalPosition(
            position.pieces, position.waiting, position.off, 1 - position.turn, None
        )

    # ----- rule functions ----------------------------------------------------------------
    def _landing_ruling(self, position: RoyalPosition, move: Move) -> Ruling | None:
        """R5 and R7: where a piece of the right distance may stop."""
        end = move.end
        if end == OFF:
            return None
        side = position.turn
        if position.pieces[side] >> end & 1:
            return self.rules.rules.forbids("own-piece", square=end)
        if end in self.rules.safe_squares[side]:
            enemy = self.rules.enemy_square[side][end]
            if enemy and position.pieces[1 - side] >> enemy & 1:
                return self.rules.rules.forbids(
                    "rosette-safe", square=end, cell=self.rules.cell(side, end)
                )
        return None

    def _effects(
        self, before: RoyalPosition, move: Move, captured: int, *, won: bool, again: bool
    ) -> list[Ruling]:
        """The rulings for what a legal move did: what allowed it, then its effects."""
        rules = self.rules
        book = rules.rules
        side = before.turn
        throw = before.throw
        start, end = move.start, move.end
        if start == IN:
            effects = [book.allows("enter", throw=throw, square=end)]
        elif end == OFF:
            effects = [book.allows("bear-off", square=start, throw=throw)]
        else:
            effects = [book.allows("distance", throw=throw)]
        if captured:
            cell = rules.cell(side, end)
            effects.append(book.effect("capture", square=end, cell=cell, theirs=captured))
            if end in rules.rosette_squares[side]:
                effects.append(book.effect("rosette-capture", square=end, cell=cell))
        if won:
            effects.append(book.effect("win"))
        elif again:
            effects.append(book.effect("extra-throw", square=end, cell=rules.cell(side, end)))
        else:
            effects.append(book.effect("hand-passes", throw=throw))
        return effects


def _tracks(length: int, pieces: tuple[int, int]) -> str:
    """Both tracks in notation: white's squares 1..N, '/', black's squares 1..N."""
    groups = []
    for side in (WHITE, BLACK):
        cells = [EMPTY] * length
        for square in squares_of(pieces[side]):
            cells[square - 1] = PIECE[side]
        groups.append("".join(cells))
    return "/".join(groups)


class _PositionReader:
    """Reads the notation of a position and says exactly what is wrong, quoting the text."""

    def __init__(self, rules: RoyalUrRules, text: str) -> None:
        self.rules = rules
        self.text = text

    def fail(self, problem: str) -> NotationError:
        start = self.rules.start_position()
        example = (
            f"{_tracks(self.rules.length, start.pieces)} w - "
            f"{self.rules.pieces}/{self.rules.pieces} 0/0"
        )
        return NotationError(
            f"position {self.text!r}: {problem}. Expected: TRACKS SIDE THROW WAITING OFF, "
            f"e.g. '{example}' (the start; see docs/notation.md)"
        )

    def read(self) -> RoyalPosition:
        fields = self.text.split()
        if len(fields) != 5:
            raise self.fail(f"found {len(fields)} fields instead of 5")
        tracks_text, side_text, throw_text, waiting_text, off_text = fields
        pieces = self._tracks(tracks_text)
        if side_text not in SIDE_NAMES:
            raise self.fail(f"the side to play is 'w' or 'b', not {side_text!r}")
        turn = SIDE_NAMES.index(side_text)
        throw = self._throw(throw_text)
        waiting = self._pair(waiting_text, "pieces waiting to enter")
        off = self._pair(off_text, "pieces borne off")
        self._check_pieces(pieces, waiting, off)
        self._check_cells(pieces)
        self._check_end(off, throw)
        return RoyalPosition(pieces, waiting, off, turn, throw)

    def _tracks(self, text: str) -> tuple[int, int]:
        length = self.rules.length
        groups = text.split("/")
        if len(groups) != 2 or any(len(group) != length for group in groups):
            raise self.fail(
                f"the tracks are white's {length} squares and black's {length} squares in "
                "track order, joined by '/'"
            )
        pieces: list[int] = []
        for side, group in enumerate(groups):
            wrong = set(group) - {PIECE[side], EMPTY}
            if wrong:
                whose = ("white", "black")[side]
                raise self.fail(
                    f"{whose}'s track holds {PIECE[side]} or '.', not {''.join(sorted(wrong))!r}"
                )
            pieces.append(mask_of(i for i, c in enumerate(group, start=1) if c != EMPTY))
        return pieces[0], pieces[1]

    def _throw(self, text: str) -> int | None:
        if text == "-":
            return None
        scores = self.rules.throws.scores
        if not is_number(text) or int(text) not in scores:
            allowed = ", ".join(str(s) for s in sorted(scores))
            raise self.fail(f"the pending throw is '-' or one of {allowed}, not {text!r}")
        return int(text)

    def _pair(self, text: str, what: str) -> tuple[int, int]:
        white, sep, black = text.partition("/")
        if not sep or not is_number(white) or not is_number(black):
            raise self.fail(f"{what} are written WHITE/BLACK, e.g. 0/2, not {text!r}")
        return int(white), int(black)

    def _check_pieces(
        self, pieces: tuple[int, int], waiting: tuple[int, int], off: tuple[int, int]
    ) -> None:
        for side in (WHITE, BLACK):
            total = pieces[side].bit_count() + waiting[side] + off[side]
            if total != self.rules.pieces:
                raise self.fail(
                    f"{SIDE_NAMES[side]} has {total} pieces (on the board, waiting and off), "
                    f"{self.rules.name} plays {self.rules.pieces}"
                )

    def _check_cells(self, pieces: tuple[int, int]) -> None:
        enemy_square = self.rules.enemy_square[WHITE]
        for square in squares_of(pieces[WHITE]):
            theirs = enemy_square[square]
            if theirs and pieces[BLACK] >> theirs & 1:
                raise self.fail(
                    f"white's square {square} and black's square {theirs} are the same cell, "
                    f"{self.rules.cell(WHITE, square)}: one piece per cell"
                )

    def _check_end(self, off: tuple[int, int], throw: int | None) -> None:
        finished = [side for side in (WHITE, BLACK) if off[side] == self.rules.pieces]
        if len(finished) == 2:
            raise self.fail("both sides cannot have borne off every piece")
        if finished and throw is not None:
            raise self.fail("the game is over: no throw can be pending")
