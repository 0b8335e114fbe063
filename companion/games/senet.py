"""Senet: the family of the 3x10 board, swaps, protection, walls and the house of water.

One class, :class:`Senet`, plays every Senet rule set; :class:`SenetRules` holds what
differs between them (pieces, throw table, opening, refuges, how pieces leave). The
rule functions below return the ruling that forbids a candidate move or nothing, and
both legal move generation and :meth:`Senet.explain` call them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, partial
from itertools import filterfalse
from typing import Any, ClassVar

from companion.core import IN, OFF, START, Move, RaceGame, RuleSet, Tier
from companion.errors import NotationError
from companion.notation import is_number, squares_holding
from companion.rules import Ruling, Verdict
from companion.throws import StickTable, Throw

WHITE, BLACK = 0, 1
PIECE = ("W", "B")
EMPTY = "."
SQUARES = 30
ROW = 10
SIDE_NAMES = ("w", "b")
SEAT_NAMES = ("1", "2")


class Phase(Enum):
    OPENING = "opening"  # throwing in turn for the first 1 (S3, K3)
    FIRST = "first"  # K3: white's first move must still start from square 9
    PLAY = "play"


# For the hot paths: CPython 3.11 reads a global at full speed, not a class's attribute.
_OPENING, _FIRST, _PLAY = Phase.OPENING, Phase.FIRST, Phase.PLAY
_new = object.__new__  # builds frozen values without their __init__ (hot paths)


@dataclass(frozen=True)
class SenetPosition:
    """Everything a Senet ruling depends on.

    ``board`` has one character per square in track order (square n at index n-1):
    ``W``, ``B`` or ``.``. In the opening ``turn`` is the seat throwing (0: whoever
    threw first), since colours are only given by the first 1.
    """

    board: str
    turn: int
    phase: Phase
    throw: int | None
    off: tuple[int, int]
    # Data derived from the board alone, computed once per board and one side at a time
    # (a turn asks for the mover's pieces and the opponent's walls), and shared by the
    # positions with that board: each side's pieces under the side, its walls under
    # (length, side). Not part of the value (functools.cached_property takes a lock on
    # every access in Python 3.11, and could not be shared).
    board_data: dict[object, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.__dict__["board_data"] = {}

    def with_turn(self, turn: int, throw: int | None) -> SenetPosition:
        """The same board with another side to move or throw pending (shares derived data)."""
        position = _new(SenetPosition)  # as _position does, inlined: hot path
        position.__dict__.update(
            board=self.board,
            turn=turn,
            phase=self.phase,
            throw=throw,
            off=self.off,
            board_data=self.board_data,
        )
        return position

    def pieces(self, side: int) -> tuple[int, ...]:
        """Squares of one side's pieces, in track order."""
        derived = self.board_data
        found: tuple[int, ...] | None = derived.get(side)
        if found is None:
            found = derived[side] = squares_holding(self.board, PIECE[side])
        return found

    @property
    def squares(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Squares of white's and of black's pieces, in track order."""
        return self.pieces(WHITE), self.pieces(BLACK)

    def wall(self, length: int, side: int) -> frozenset[int]:
        """Squares of one side that stand in a run of ``length`` or more adjacent pieces."""
        derived = self.board_data
        key = (length, side)
        found: frozenset[int] | None = derived.get(key)
        if found is None:
            board, piece = self.board, PIECE[side]
            # Most boards have no wall: the cheap test first, without a call.
            found = _runs(board, piece, length) if piece * length in board else _NO_SQUARES
            derived[key] = found
        return found


def _position(
    board: str, turn: int, phase: Phase, throw: int | None, off: tuple[int, int]
) -> SenetPosition:
    """``SenetPosition(...)`` for the hot paths (random games, the Sphinx's search): the
    same value, without the frozen dataclass's ``object.__setattr__`` for each field."""
    position = _new(SenetPosition)
    position.__dict__.update(
        board=board, turn=turn, phase=phase, throw=throw, off=off, board_data={}
    )
    return position


_NO_SQUARES: frozenset[int] = frozenset()


def _runs(board: str, piece: str, length: int) -> frozenset[int]:
    squares: set[int] = set()
    run: list[int] = []
    for index, cell in enumerate(board + EMPTY):
        if cell == piece:
            run.append(index + 1)
            continue
        if len(run) >= length:
            squares.update(run)
        run = []
    return frozenset(squares)


@dataclass(frozen=True, slots=True)
class SenetRules(RuleSet):
    """Parameters of a Senet rule set. House rules: ``dataclasses.replace(rules, ...)``."""

    family: ClassVar[type[Senet]]
    throws: StickTable
    pieces: int = 5
    opener: int = WHITE  # the colour the first thrower of a 1 takes (S3 white, K3 black)
    opening_move: tuple[int, int] | None = None  # K3: the opener's 1 moves 10-11
    first_move_square: int | None = None  # K3: white's first move starts here
    refuges: frozenset[int] = frozenset({26, 28, 29, 30})
    water: int = 27
    exact_square: int | None = None  # S6: no piece passes this square without stopping
    # S7: from these squares only the listed throws go somewhere else than the water.
    exits: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    home_row: int | None = None  # K6: bearing off only with every piece at or past it
    backward_from_refuges: bool = True  # S10 (ours): False forbids it on 26-30
    protection: int = 2  # adjacent pieces of a colour protect each other
    wall: int = 3  # adjacent pieces that form a wall

    def forward_end(self, start: int, throw: int) -> int:
        """Where a forward move of ``throw`` from ``start`` ends (S7 exits, OFF past 30)."""
        exits = self.exits.get(start)
        if exits is not None:
            return exits.get(throw, self.water)
        end = start + throw
        return OFF if end > SQUARES else end

    # Moves are values: each candidate is built once per rule set, not once per question.
    @cached_property
    def forward_moves(self) -> dict[int, list[Move]]:
        """For each score, the forward move from each square (index = start square)."""
        squares = range(SQUARES + 1)
        return {n: [Move(s, self.forward_end(s, n)) for s in squares] for n in self.throws.scores}

    @cached_property
    def backward_moves(self) -> dict[int, list[Move]]:
        squares = range(SQUARES + 1)
        return {n: [Move(s, s - n) for s in squares] for n in self.throws.scores}

    @cached_property
    def last_resort_starts(self) -> dict[int, frozenset[int]]:
        """S9: for each score, the squares from which it can only drop a piece in the water."""
        return {
            n: frozenset(s for s in self.exits if self.forward_end(s, n) == self.water)
            for n in self.throws.scores
        }

    @cached_property
    def forward_tables(self) -> dict[int, tuple[list[Move], frozenset[int]]]:
        """For each score, its forward moves and last-resort starts (one look-up a turn)."""
        return {n: (self.forward_moves[n], self.last_resort_starts[n]) for n in self.throws.scores}

    @cached_property
    def wall_texts(self) -> tuple[str, str]:
        """A wall of each side as it reads on the board (``WWW``, ``BBB``)."""
        return PIECE[WHITE] * self.wall, PIECE[BLACK] * self.wall

    @cached_property
    def square_rulings(self) -> dict[str, list[Ruling]]:
        """The forbidding rulings that name one square, for each square (index = square).
        Rulings are values: legal move generation gives the same few at every throw.
        Only the rules of this rule set's book are there."""
        keys = ("own-piece", "refuge", "wall", "exact-square", "backward-occupied")
        squares = range(SQUARES + 1)
        return {
            key: [self.rules.forbids(key, square=s) for s in squares]
            for key in keys
            if key in self.rules
        }

    @cached_property
    def bear_off_home_rulings(self) -> list[Ruling]:
        """K6's ruling for each square of the mover's last piece (index = square)."""
        return [
            self.rules.forbids("bear-off-home", square=s, row=self.home_row)
            for s in range(SQUARES + 1)
        ]

    def start_board(self) -> str:
        board = [EMPTY] * SQUARES
        for index in range(2 * self.pieces):
            board[index] = PIECE[index % 2]
        return "".join(board)


class Senet(RaceGame[SenetPosition]):
    """A game of any Senet rule set."""

    rules: SenetRules

    # ----- notation ----------------------------------------------------------------------
    def initial_position(self) -> SenetPosition:
        return SenetPosition(self.rules.start_board(), 0, Phase.OPENING, None, (0, 0))

    def format_position(self, position: SenetPosition) -> str:
        rows = _rows(position.board)
        names = SEAT_NAMES if position.phase is Phase.OPENING else SIDE_NAMES
        throw = "-" if position.throw is None else str(position.throw)
        white_off, black_off = position.off
        return (
            f"{rows} {names[position.turn]} {throw} {position.phase.value} {white_off}/{black_off}"
        )

    def parse_position(self, text: str) -> SenetPosition:
        return _PositionReader(self.rules, text).read()

    # ----- presentation ------------------------------------------------------------------
    def turn_label(self, lang: str = "en") -> str:
        position = self.position
        if position.phase is Phase.OPENING:
            return super().turn_label(lang)
        names = ("les blancs", "les noirs") if lang == "fr" else ("white", "black")
        return names[position.turn]

    def board_lines(self) -> list[str]:
        """Three rows as on the real board: row 2 runs right to left (boustrophedon)."""
        board = self.position.board
        marks = dict.fromkeys(self.rules.refuges, "+") | {self.rules.water: "~"}

        def cell(square: int) -> str:
            piece = board[square - 1]
            return piece if piece != EMPTY else marks.get(square, ".")

        rows = [range(1, 11), range(20, 10, -1), range(21, 31)]
        arrows = ["  1 -> 10", " 20 <- 11", " 21 -> 30"]
        lines = [
            " ".join(cell(sq) for sq in row) + "   " + arrow
            for row, arrow in zip(rows, arrows, strict=True)
        ]
        white_off, black_off = self.position.off
        lines.append(f"off: W {white_off}  B {black_off}")
        return lines

    # ----- hooks -------------------------------------------------------------------------
    def with_throw(self, position: SenetPosition, throw: Throw) -> SenetPosition:
        return position.with_turn(position.turn, throw.score)

    def winner_of(self, position: SenetPosition) -> int | None:
        pieces = self.rules.pieces
        white_off, black_off = position.off
        if white_off == pieces:
            return WHITE
        if black_off == pieces:
            return BLACK
        return None

    def tiers(self, position: SenetPosition) -> Iterator[Tier]:
        throw = position.throw
        assert throw is not None
        if position.phase is _OPENING:
            yield Tier(self._opening_moves(throw), _no_ruling)
            return
        yield Tier(*self._forward_tier(position, throw))
        mine = position.pieces(position.turn)  # computed once per board, by _forward_tier
        enemy_walls = position.wall(self.rules.wall, 1 - position.turn)
        backward_moves = self.rules.backward_moves[throw]
        backward = [backward_moves[start] for start in mine if start > throw]
        yield Tier(backward, partial(self._backward_ruling, position, enemy_walls), "backward")
        forward_moves, into_water = self.rules.forward_tables[throw]
        if into_water:
            last_resort = [forward_moves[start] for start in mine if start in into_water]
            yield Tier(last_resort, _no_ruling, "last-resort")

    def _forward_tier(
        self, position: SenetPosition, throw: int
    ) -> tuple[list[Move], Callable[[Move], Ruling | None]]:
        """The forward moves of a throw in play, and the check that judges each."""
        rules = self.rules
        mine = position.pieces(position.turn)
        enemy = 1 - position.turn
        # Once, not per move; and most boards have no wall: the cheap test first.
        if rules.wall_texts[enemy] in position.board:
            enemy_walls = position.wall(rules.wall, enemy)
        else:
            enemy_walls = _NO_SQUARES
        forward_moves, into_water = rules.forward_tables[throw]
        if into_water:
            forward = [forward_moves[start] for start in mine if start not in into_water]
        else:
            forward = list(map(forward_moves.__getitem__, mine))
        return forward, partial(self._forward_ruling, position, mine, enemy_walls)

    def legal_moves(self) -> list[Move]:
        # A fast path for the usual case, a throw in play with a legal forward move: the
        # first tier is judged without the tiers' generator (this runs at every throw of a
        # random game or of the Sphinx's search). No preference applies in play (K3's is
        # for the first move). Every other case goes the general way; a test compares the
        # two ways on random games.
        position = self.position
        throw = position.throw
        if throw is None or position.phase is not _PLAY:
            return super().legal_moves()
        forward, check = self._forward_tier(position, throw)
        return list(filterfalse(check, forward)) or super().legal_moves()

    def preference(
        self, position: SenetPosition, move: Move, legal: Sequence[Move]
    ) -> Ruling | None:
        """K3: white's first move starts from square 9 while a piece there can move."""
        square = self.rules.first_move_square
        if (
            square is None
            or not _white_moves_first(position)
            or move.start == square
            or not any(m.start == square for m in legal)
        ):
            return None
        return self.rules.rules.forbids("first-move", square=square)

    def pass_ruling(self, position: SenetPosition, allowed: bool) -> Ruling:
        if position.phase is Phase.OPENING:
            verdict = Verdict.ALLOWS if allowed else Verdict.FORBIDS
            return self.rules.rules.ruling("opening", verdict, throw=position.throw)
        return super().pass_ruling(position, allowed)

    def shape_ruling(self, position: SenetPosition, move: Move) -> Ruling:
        book = self.rules.rules
        throw = position.throw or 0
        if position.phase is Phase.OPENING or not move.moves_a_piece:
            return book.forbids("opening", throw=throw)
        if move.start == IN:  # nothing enters: every piece starts on the board
            return book.forbids("pieces")
        if move.start not in position.pieces(position.turn):
            return book.forbids("not-your-piece", square=move.start)
        if move.start in self.rules.exits:
            return self._exit_ruling(move.start, self.rules.forward_end(move.start, throw), throw)
        return book.forbids("distance", throw=throw)

    def _exit_ruling(
        self, start: int, end: int, throw: int, verdict: Verdict = Verdict.FORBIDS
    ) -> Ruling:
        """S7: where the exit table sends a piece from this square with this throw."""
        if end == OFF:
            return self.rules.rules.ruling("exit-off", verdict, square=start, throw=throw)
        return self.rules.rules.ruling("exit", verdict, square=start, throw=throw, target=end)

    def apply_pass(self, position: SenetPosition) -> SenetPosition:
        return position.with_turn(1 - position.turn, None)

    # ----- rule functions ----------------------------------------------------------------
    def _forward_ruling(
        self, position: SenetPosition, mine: Sequence[int], enemy_walls: frozenset[int], move: Move
    ) -> Ruling | None:
        """S4-S7, K4-K6 and one piece per square, for a forward move; ``mine`` are the
        mover's squares in track order, ``enemy_walls`` the opponent's squares in a wall."""
        rules = self.rules
        start, end = move.start, move.end
        past = SQUARES + 1 if end == OFF else end
        exact = rules.exact_square
        if exact is not None and start < exact < past:
            return rules.square_rulings["exact-square"][exact]
        if end == OFF and rules.home_row is not None:
            last = mine[0]  # the mover's last piece
            if last < rules.home_row:
                return rules.bear_off_home_rulings[last]
        if enemy_walls:
            wall = _first_between(enemy_walls, start, past)
            if wall is not None:
                return rules.square_rulings["wall"][wall]
        if end == OFF:
            return None
        occupant = position.board[end - 1]
        if occupant == EMPTY:
            return None
        if occupant == PIECE[position.turn]:
            return rules.square_rulings["own-piece"][end]
        if end in rules.refuges:
            return rules.square_rulings["refuge"][end]
        partner = self._protecting_neighbour(position, end)
        if partner is not None:
            return rules.rules.forbids("protected", square=end, partner=partner)
        return None

    def _backward_ruling(
        self, position: SenetPosition, enemy_walls: frozenset[int], move: Move
    ) -> Ruling | None:
        """S10 and K7: backward onto an empty square, not over a wall."""
        rules = self.rules
        book = rules.rules
        start, end = move.start, move.end
        if not rules.backward_from_refuges and start >= min(rules.refuges):
            return book.forbids("backward-refuge", square=start)
        if position.board[end - 1] != EMPTY:
            return rules.square_rulings["backward-occupied"][end]
        wall = _first_between(enemy_walls, end, start)
        if wall is not None:
            return book.forbids("backward-wall", square=wall)
        return None

    def _protecting_neighbour(self, position: SenetPosition, square: int) -> int | None:
        """A neighbour of the piece on ``square`` in its protecting run, if the run is long
        enough (S4, K4: two adjacent pieces of a colour protect each other)."""
        board = position.board
        piece = board[square - 1]
        low = high = square
        while low > 1 and board[low - 2] == piece:
            low -= 1
        while high < SQUARES and board[high] == piece:
            high += 1
        if high - low + 1 < self.rules.protection:
            return None
        return square - 1 if low < square else square + 1

    def _opening_moves(self, throw: int) -> list[Move]:
        if throw != 1:
            return []
        opening_move = self.rules.opening_move
        return [START] if opening_move is None else [Move(*opening_move)]

    # ----- what a move does --------------------------------------------------------------
    def apply(
        self, position: SenetPosition, move: Move, *, explain: bool = True
    ) -> tuple[SenetPosition, list[Ruling]]:
        effects: list[Ruling] = []
        if position.phase is _OPENING:
            return self._play_opening(position, move, effects, explain)
        book = self.rules.rules
        side = position.turn
        board = position.board
        start, end = move.start, move.end
        me = PIECE[side]
        white_off, black_off = position.off
        if explain:
            effects.append(self._allowing_ruling(position, move))
            own_walls = position.wall(self.rules.wall, side)
            own_wall = _first_between(own_walls, min(start, end), max(start, end))
            if own_wall is not None and end != OFF:
                effects.append(book.effect("own-wall", square=own_wall))
        # The board is rebuilt from slices (cheaper than a list of its characters).
        if end == OFF:
            board = board[: start - 1] + EMPTY + board[start:]
            if side == WHITE:
                white_off += 1
            else:
                black_off += 1
        else:
            occupant = board[end - 1]  # an attacked piece takes the attacker's square
            if start < end:
                board = board[: start - 1] + occupant + board[start : end - 1] + me + board[end:]
            else:
                board = board[: end - 1] + me + board[end : start - 1] + occupant + board[start:]
            if occupant != EMPTY and explain:
                effects.append(book.effect("swap", square=end, back=start))
            if end == self.rules.water:
                board = board[: end - 1] + EMPTY + board[end:]
                landing = board.index(EMPTY) + 1
                board = board[: landing - 1] + me + board[landing:]
                if explain:
                    effects.append(book.effect("water", square=end, landing=landing))
        phase = position.phase
        if phase is _FIRST and side == WHITE:
            phase = _PLAY
        borne_off = black_off if side else white_off
        turn = self._next_turn(position, borne_off, effects if explain else None)
        return _position(board, turn, phase, None, (white_off, black_off)), effects

    def _next_turn(
        self, before: SenetPosition, borne_off: int, effects: list[Ruling] | None
    ) -> int:
        """T2: the throw's own value decides between another throw and passing the hand.

        Rulings for what happens are appended to ``effects`` when it is given.
        """
        book = self.rules.rules
        side = before.turn
        throw = before.throw
        if borne_off == self.rules.pieces:
            if effects is not None:
                effects.append(book.effect("win"))
            return side
        if throw in self.rules.throws.extra:
            if effects is not None:
                effects.append(book.effect("extra-throw", throw=throw))
            return side
        if effects is not None:
            effects.append(book.effect("hand-passes", throw=throw))
        return 1 - side

    def _play_opening(
        self, position: SenetPosition, move: Move, effects: list[Ruling], explain: bool
    ) -> tuple[SenetPosition, list[Ruling]]:
        rules = self.rules
        board = position.board
        if move != START:
            cells = list(board)
            cells[move.start - 1], cells[move.end - 1] = EMPTY, cells[move.start - 1]
            board = "".join(cells)
        phase = Phase.PLAY if rules.first_move_square is None else Phase.FIRST
        if explain:
            effects.append(rules.rules.effect("opening-one", seat=position.turn + 1))
        return SenetPosition(board, rules.opener, phase, None, position.off), effects

    def _allowing_ruling(self, position: SenetPosition, move: Move) -> Ruling:
        book = self.rules.rules
        throw = position.throw
        start, end = move.start, move.end
        if start in self.rules.exits:
            if end == self.rules.water:
                return book.allows("last-resort", square=start, throw=throw)
            return self._exit_ruling(start, end, throw or 0, Verdict.ALLOWS)
        if end == OFF:
            return book.allows("bear-off", square=start, throw=throw)
        if end < start:
            return book.allows("backward", square=start, throw=throw)
        return book.allows("distance", throw=throw)


def _white_moves_first(position: SenetPosition) -> bool:
    """Whether white is about to make its first move (K3)."""
    return position.phase is Phase.FIRST and position.turn == WHITE


def _first_between(squares: frozenset[int], low: int, high: int) -> int | None:
    """The first of ``squares`` strictly between ``low`` and ``high``."""
    if squares:
        for square in range(low + 1, high):
            if square in squares:
                return square
    return None


def _rows(board: str) -> str:
    """The board in notation: three rows of ten in track order, joined by '/'."""
    return "/".join(board[i : i + ROW] for i in range(0, SQUARES, ROW))


def _no_ruling(move: Move) -> Ruling | None:
    return None


class _PositionReader:
    """Reads Senet notation and says exactly what is wrong, quoting the text."""

    def __init__(self, rules: SenetRules, text: str) -> None:
        self.rules = rules
        self.text = text

    def fail(self, problem: str) -> NotationError:
        return NotationError(
            f"position {self.text!r}: {problem}. "
            f"Expected: BOARD SIDE THROW PHASE OFF, e.g. '{self.example()}' "
            "(the start; see docs/notation.md)"
        )

    def example(self) -> str:
        rows = _rows(self.rules.start_board())
        return f"{rows} {SEAT_NAMES[0]} - {Phase.OPENING.value} 0/0"

    def read(self) -> SenetPosition:
        fields = self.text.split()
        if len(fields) != 5:
            raise self.fail(f"found {len(fields)} fields instead of 5")
        board_text, side_text, throw_text, phase_text, off_text = fields
        board = self._board(board_text)
        phase = self._phase(phase_text)
        turn = self._side(side_text, phase)
        throw = self._throw(throw_text)
        off = self._off(off_text)
        self._check_pieces(board, off)
        position = SenetPosition(board, turn, phase, throw, off)
        self._check_phase(position)
        return position

    def _board(self, text: str) -> str:
        rows = text.split("/")
        if len(rows) != 3 or any(len(row) != ROW for row in rows):
            raise self.fail("the board is 3 rows of 10 squares in track order, joined by '/'")
        board = "".join(rows)
        wrong = set(board) - {"W", "B", EMPTY}
        if wrong:
            raise self.fail(f"board squares hold W, B or '.', not {''.join(sorted(wrong))!r}")
        if board[self.rules.water - 1] != EMPTY:
            raise self.fail(f"no piece can rest on square {self.rules.water}, the water")
        return board

    def _phase(self, text: str) -> Phase:
        try:
            phase = Phase(text)
        except ValueError:
            names = ", ".join(p.value for p in self._phases())
            raise self.fail(f"phase {text!r} is not one of {names}") from None
        if phase not in self._phases():
            raise self.fail(f"phase {text!r} does not exist in {self.rules.name}")
        return phase

    def _phases(self) -> list[Phase]:
        if self.rules.first_move_square is None:
            return [Phase.OPENING, Phase.PLAY]
        return list(Phase)

    def _side(self, text: str, phase: Phase) -> int:
        names = SEAT_NAMES if phase is Phase.OPENING else SIDE_NAMES
        if text not in names:
            what = "the seat throwing in the opening" if phase is Phase.OPENING else "the side"
            raise self.fail(f"{what} is {names[0]!r} or {names[1]!r}, not {text!r}")
        return names.index(text)

    def _throw(self, text: str) -> int | None:
        if text == "-":
            return None
        scores = self.rules.throws.scores
        if not is_number(text) or int(text) not in scores:
            allowed = ", ".join(str(s) for s in sorted(scores))
            raise self.fail(f"the pending throw is '-' or one of {allowed}, not {text!r}")
        return int(text)

    def _off(self, text: str) -> tuple[int, int]:
        white, sep, black = text.partition("/")
        if not sep or not is_number(white) or not is_number(black):
            raise self.fail(f"pieces borne off are written WHITE/BLACK, e.g. 0/2, not {text!r}")
        return int(white), int(black)

    def _check_pieces(self, board: str, off: tuple[int, int]) -> None:
        for side, piece in enumerate(PIECE):
            total = board.count(piece) + off[side]
            if total != self.rules.pieces:
                raise self.fail(
                    f"{SIDE_NAMES[side]} has {total} pieces (on the board and off), "
                    f"{self.rules.name} plays {self.rules.pieces}"
                )

    def _check_phase(self, position: SenetPosition) -> None:
        if position.phase is Phase.OPENING and (
            position.board != self.rules.start_board() or position.off != (0, 0)
        ):
            raise self.fail("in the opening the pieces stand on their starting squares")
        if self.rules.pieces in position.off and position.throw is not None:
            raise self.fail("the game is over: no throw can be pending")
        if position.off == (self.rules.pieces, self.rules.pieces):
            raise self.fail("both sides cannot have borne off every piece")
