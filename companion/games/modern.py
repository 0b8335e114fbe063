"""Senet-Modern (LOGY GAMES, 2011): two dice, numbered pieces, the sun, the moon and the bird.

One class, :class:`Modern`, plays the rule set; :class:`ModernRules` holds its numbers (N1-N8
of DECISIONS.md), so a house rule is ``dataclasses.replace``. A turn moves one piece by the
sum of the dice or two different pieces by one die each: a pair of steps (``Move.then``),
played in the order written, since the first may hit, send a piece to the sun or free a
square the second needs. ``_step_ruling`` is the rule function of one step; the tiers built
by :class:`_TurnBuilder` add what concerns a whole turn (both dice before one, N7; pieces on
26-30 first, N5). Legal moves and explanations both come from them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from random import Random
from typing import ClassVar

from companion.core import IN, OFF, PASS, Move, RaceGame, RuleSet, Tier
from companion.errors import IllegalMoveError, NotationError
from companion.notation import is_number
from companion.rules import Ruling, Verdict
from companion.throws import Outcome, Throw

WHITE, BLACK = 0, 1
COLOURS = "WB"
SIDE_NAMES = ("w", "b")
EMPTY = 0
ROW = 10
PLAYING, BLOCKED = "play", "blocked"


def piece_code(side: int, number: int) -> int:
    """A piece as an int on the board: its number and its side (0 is an empty square)."""
    return number << 1 | side


def piece_name(code: int) -> str:
    """``W5``, ``B3``: the piece's colour and number, as in the notation."""
    return f"{COLOURS[code & 1]}{code >> 1}"


# ----- throws ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiceTable:
    """Two ordinary dice (N1), read as the players see them: ``4,6``; one die (``4``) for a
    player with one piece left (N6).

    A throw is a reading: the dice are not told apart, so ``6,4`` is the throw ``4,6``
    (the rules use either die for either piece). Its chance is that of the reading: 2/36
    for two different values, 1/36 for a double; a single die shows each value with 1/6.
    """

    faces: int = 6

    def throw_of(self, *values: int) -> Throw:
        dice = tuple(sorted(values))
        return Throw(sum(dice), False, dice)

    def parse(self, text: str) -> Throw:
        parts = [part.strip() for part in text.strip().split(",")]
        if len(parts) > 2 or not all(self._is_face(part) for part in parts):
            raise NotationError(
                f"throw {text!r}: write the two dice as 4,6 (each 1 to {self.faces}), or one "
                "die, e.g. 4, for a player with one piece left (N6)"
            )
        return self.throw_of(*(int(part) for part in parts))

    def _is_face(self, text: str) -> bool:
        return is_number(text) and 1 <= int(text) <= self.faces

    def outcomes(self) -> tuple[Outcome, ...]:
        """The readings of two dice, with their chances (one-die throws: ``single_outcomes``)."""
        return self._outcomes

    @cached_property
    def _outcomes(self) -> tuple[Outcome, ...]:
        faces = range(1, self.faces + 1)
        return tuple(
            Outcome(f"{low},{high}", self.throw_of(low, high), self._chance(low, high))
            for low in faces
            for high in faces
            if low <= high
        )

    def single_outcomes(self) -> tuple[Outcome, ...]:
        return tuple(
            Outcome(str(value), self.throw_of(value), Fraction(1, self.faces))
            for value in range(1, self.faces + 1)
        )

    def _chance(self, low: int, high: int) -> Fraction:
        ways = 1 if low == high else 2
        return Fraction(ways, self.faces**2)

    @cached_property
    def throws(self) -> frozenset[Throw]:
        return frozenset(o.throw for o in (*self._outcomes, *self.single_outcomes()))

    def draw(self, rng: Random) -> Throw:
        return self.throw_of(rng.randint(1, self.faces), rng.randint(1, self.faces))

    def draw_one(self, rng: Random) -> Throw:
        return self.throw_of(rng.randint(1, self.faces))

    def probability(self, throw: Throw) -> Fraction:
        if throw not in self.throws:
            return Fraction(0)
        if len(throw.dice) == 1:
            return Fraction(1, self.faces)
        return self._chance(*throw.dice)

    def describe(self) -> str:
        return (
            f"Two ordinary dice (1 to {self.faces}), written as the two values read, e.g. 4,6. "
            "The dice are not told apart: 6,4 is the throw 4,6, and its chance is that of "
            f"the reading, 2/{self.faces**2} for two different values and 1/{self.faces**2} "
            "for a double. A player with one piece left on the board may throw one die "
            f"instead (N6), written as its value, e.g. 4: each value 1/{self.faces}. "
            "No throw gives another turn."
        )


class Dice(tuple[int, ...]):
    """The pending dice, lowest first; shown as the players write them (``4,6``)."""

    def __str__(self) -> str:
        return ",".join(map(str, self))


# ----- positions -------------------------------------------------------------------------------
Numbers = tuple[tuple[int, ...], tuple[int, ...]]  # piece numbers of white and of black


@dataclass(frozen=True)
class ModernPosition:
    """Everything a Senet-Modern ruling depends on.

    ``board[s]`` is the piece on square ``s`` (see :func:`piece_code`; 0 empty, and
    ``board[0]`` is always 0): bytes, so that C code finds a side's pieces. ``throw`` is
    the pending dice. ``off`` and ``out`` are the numbers of each side's pieces borne off
    and out of the game, in ascending order.
    ``blocked``: the side to move could not move and has lost (N7).
    """

    board: bytes
    turn: int
    throw: Dice | None
    off: Numbers
    out: Numbers
    blocked: bool = False

    def squares(self, side: int) -> tuple[int, ...]:
        """Squares of ``side``'s pieces on the board, in track order (computed once)."""
        cache = self.__dict__
        squares: tuple[tuple[int, ...], tuple[int, ...]] | None = cache.get("squares_")
        if squares is None:
            marks = self.board.translate(_SIDE_MARKS)
            squares = (_find_all(marks, _WHITE_MARK), _find_all(marks, _BLACK_MARK))
            cache["squares_"] = squares
        return squares[side]

    def may_throw_one_die(self) -> bool:
        """N6: the player to move may throw one die instead of two only with one piece left
        on the board."""
        return len(self.squares(self.turn)) == 1

    def with_throw(self, throw: Dice | None) -> ModernPosition:
        """The same position with another throw pending (shares the piece lists)."""
        position = ModernPosition(self.board, self.turn, throw, self.off, self.out, self.blocked)
        if "squares_" in self.__dict__:
            position.__dict__["squares_"] = self.__dict__["squares_"]
        return position

    def score(self, side: int) -> int:
        """N4, N8: a borne-off piece scores its number."""
        return sum(self.off[side])


_WHITE_MARK, _BLACK_MARK = ord("W"), ord("B")
# Board byte -> W for white's pieces (even codes), B for black's (odd), . for empty.
_SIDE_MARKS = bytes(
    [ord("."), *((_BLACK_MARK if code & 1 else _WHITE_MARK) for code in range(1, 256))]
)


def _find_all(marks: bytes, mark: int) -> tuple[int, ...]:
    squares = []
    index = marks.find(mark)
    while index >= 0:
        squares.append(index)
        index = marks.find(mark, index + 1)
    return tuple(squares)


# ----- rule set --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModernRules(RuleSet):
    """Parameters of Senet-Modern. House rules: ``dataclasses.replace(rules, ...)``."""

    family: ClassVar[type[Modern]]
    throws: DiceTable
    squares: int = 30
    pieces: int = 5  # numbered 1 to pieces
    start_order: tuple[int, ...] = (5, 4, 3, 2, 1)  # N2, each side, alternating from the sun
    sun: int = 1
    moon: int = 26
    bird: int = 27
    bird_landing: int = 15
    special_from: int = 26  # N5: squares special_from..squares
    end_pieces: int = 3  # N8

    parameter_notes: ClassVar[Mapping[str, str]] = {
        "squares": "squares on the track; the goal is one square past the last",
        "pieces": "pieces per side, numbered from 1; a piece borne off scores its number",
        "start_order": "piece numbers of each side, alternating from the sun (white first)",
        "sun": "the start square: a piece sent there removes the piece already on it",
        "moon": "a piece stopping here goes to the sun",
        "bird": "a piece stopping here flies to bird_landing",
        "bird_landing": "where the bird sends a piece (own piece there: nearest free before)",
        "special_from": "first special square: pieces from outside cannot hit on the special "
        "squares, and a piece on them must move next turn if it can",
        "end_pieces": "the game ends when a player has borne off this many pieces",
    }

    def __post_init__(self) -> None:
        if self.squares % ROW or sorted(self.start_order) != list(range(1, self.pieces + 1)):
            raise ValueError("the track is rows of 10, and start_order numbers each piece once")
        if self.bird_landing <= 2 * self.pieces:  # always a free square before the landing
            raise ValueError("bird_landing must leave a free square before it for any board")

    @property
    def goal(self) -> int:
        return self.squares + 1

    @cached_property
    def passing_ends(self) -> frozenset[int]:
        """Ends of a step where no piece rests: off, the moon, the bird."""
        return frozenset({OFF, self.moon, self.bird})

    @cached_property
    def ends(self) -> tuple[tuple[int, ...], ...]:
        """``ends[count][start]``: where ``count`` squares take a piece (N4: OFF exactly at
        the goal, and back by the excess beyond it)."""
        goal = self.goal
        table = []
        for count in range(2 * self.throws.faces + 1):
            row = []
            for start in range(self.squares + 1):
                target = start + count
                row.append(
                    OFF if target == goal else target if target < goal else 2 * goal - target
                )
            table.append(tuple(row))
        return tuple(table)

    @cached_property
    def step_moves(self) -> tuple[tuple[Move, ...], ...]:
        """``step_moves[count][start]``: the move of one step, built once per rule set."""
        return tuple(tuple(Move(start, end) for start, end in enumerate(row)) for row in self.ends)

    @cached_property
    def _moves(self) -> dict[int, Move]:
        return {}

    def move_for(self, key: int) -> Move:
        """The move of a candidate's key (see ``_plan``), built once per rule set."""
        move = self._moves.get(key)
        if move is None:
            plan = _plan(key)
            move = self.step_moves[plan[1]][plan[0]]
            if len(plan) == 4:
                move = Move(move.start, move.end, then=self.step_moves[plan[3]][plan[2]])
            self._moves[key] = move
        return move

    def start_board(self) -> bytes:
        """N2: 5, 5, 4, 4, ... from the sun, white's piece first."""
        board = [EMPTY] * (self.squares + 1)
        for index, number in enumerate(self.start_order):
            board[self.sun + 2 * index] = piece_code(WHITE, number)
            board[self.sun + 2 * index + 1] = piece_code(BLACK, number)
        return bytes(board)


# ----- the game --------------------------------------------------------------------------------
class Modern(RaceGame[ModernPosition]):
    """A game of Senet-Modern."""

    rules: ModernRules

    # ----- notation ----------------------------------------------------------------------
    def initial_position(self) -> ModernPosition:
        return ModernPosition(self.rules.start_board(), WHITE, None, ((), ()), ((), ()))

    def format_position(self, position: ModernPosition) -> str:
        return format_position(position, self.rules.squares)

    def parse_position(self, text: str) -> ModernPosition:
        return _PositionReader(self, text).read()

    # ----- presentation ------------------------------------------------------------------
    def turn_label(self, lang: str = "en") -> str:
        names = ("les blancs", "les noirs") if lang == "fr" else ("white", "black")
        return names[self.position.turn]

    def board_lines(self) -> list[str]:
        """Three rows as on the real board (row 2 runs right to left); empty special
        squares show su (sun), mo (moon), bi (bird)."""
        rules = self.rules
        position = self.position
        marks = {rules.sun: "su", rules.moon: "mo", rules.bird: "bi"}

        def cell(square: int) -> str:
            code = position.board[square]
            return piece_name(code) if code else marks.get(square, "..")

        lines = []
        for first in range(1, rules.squares + 1, ROW):
            last = first + ROW - 1
            backward = (first // ROW) % 2 == 1  # boustrophedon: every other row
            row = range(last, first - 1, -1) if backward else range(first, last + 1)
            arrow = f"{last:>3} <- {first}" if backward else f"{first:>3} -> {last}"
            lines.append(" ".join(cell(square) for square in row) + arrow)
        for label, numbers in (("off", position.off), ("out", position.out)):
            sides = [
                f"{COLOURS[side]} {' '.join(map(str, numbers[side])) or '-'}" for side in (0, 1)
            ]
            lines.append(f"{label}: " + "   ".join(sides))
        lines.append(f"score: W {position.score(WHITE)}  B {position.score(BLACK)}")
        return lines

    # ----- hooks -------------------------------------------------------------------------
    def with_throw(self, position: ModernPosition, throw: Throw) -> ModernPosition:
        """N6: one die only for a player with one piece left on the board."""
        dice = throw.dice or (throw.score,)
        if len(dice) == 1 and not position.may_throw_one_die():
            left = len(position.squares(position.turn))
            ruling = self.rules.rules.forbids("one-die-throw", pieces=left)
            raise IllegalMoveError(
                f"throw {throw} is not allowed: {ruling.long()} [{ruling.rule.id}] "
                f"({self.format_position(position)})",
                ruling,
            )
        return position.with_throw(Dice(dice))

    def throw_options(self, position: ModernPosition) -> Mapping[str, Sequence[Outcome]]:
        """N6: a player with one piece left on the board chooses one die or two."""
        table = self.rules.throws
        if not position.may_throw_one_die():
            return {"two dice": table.outcomes()}
        return {"two dice": table.outcomes(), "one die": table.single_outcomes()}

    def random_throw(self, rng: Random) -> Throw:
        """Two dice; a player with one piece left throws one die half of the time (N6)."""
        position = self.position
        table = self.rules.throws
        if position.may_throw_one_die() and rng.random() < 0.5:
            return table.draw_one(rng)
        return table.draw(rng)

    def winner_of(self, position: ModernPosition) -> int | None:
        """N7: a blocked player loses. N8: once a player has borne off ``end_pieces``, the
        higher score wins, then the more pieces borne off (the finisher always has more,
        so N8's draw cannot happen)."""
        if position.blocked:
            return 1 - position.turn
        end = self.rules.end_pieces
        if len(position.off[WHITE]) < end and len(position.off[BLACK]) < end:
            return None
        white = (position.score(WHITE), len(position.off[WHITE]))
        black = (position.score(BLACK), len(position.off[BLACK]))
        return WHITE if white > black else BLACK

    def legal_moves(self) -> list[Move]:
        """The distinct turns the dice allow: of two orders of the same two steps that end
        in the same position only one is listed (the lower start first); the other is
        legal too (see :meth:`is_legal`). [PASS] when nothing moves: the player loses (N7)."""
        position = self.position
        if position.throw is None:
            return super().legal_moves()
        listed = self._turns(position).listed
        return list(listed) if listed else [PASS]

    def is_legal(self, move: Move) -> bool:
        position = self.position
        if position.throw is None or self.is_over():
            return False
        turns = self._turns(position)
        return move in turns.legal if turns.listed else move == PASS

    def tiers(self, position: ModernPosition) -> Iterator[Tier]:
        return iter(self._turns(position).tiers)

    def pass_ruling(self, position: ModernPosition, allowed: bool) -> Ruling:
        """N7: there is no passing; a player who cannot move loses."""
        verdict = Verdict.ALLOWS if allowed else Verdict.FORBIDS
        return self.rules.rules.ruling("blocked", verdict)

    def apply_pass(self, position: ModernPosition) -> ModernPosition:
        """N7: the player who could not move has lost."""
        return ModernPosition(position.board, position.turn, None, position.off, position.out, True)

    def shape_ruling(self, position: ModernPosition, move: Move) -> Ruling:
        """Why a move that is no candidate turn at all cannot be played."""
        book = self.rules.rules
        dice = position.throw or ()
        if not move.moves_a_piece or move.kind:
            return book.forbids("turn-shape", move=str(move))
        steps = move.steps
        if any(step.start == IN for step in steps):
            return book.forbids("pieces")
        mine = position.squares(position.turn)
        first = steps[0]
        if first.start not in mine:
            return book.forbids("not-your-piece", square=first.start)
        if len(steps) == 2:
            second = steps[1]
            if len(dice) == 2 and second.start in (first.start, first.end):
                end = self.rules.ends[sum(dice)][first.start]
                sum_move = Move(first.start, end)
                return book.forbids("same-piece", square=second.start, sum_move=str(sum_move))
            if second.start not in mine:
                return book.forbids("not-your-piece", square=second.start)
        elif first.end == OFF:
            need = self.rules.goal - first.start
            if need not in self._counts(dice):
                return book.forbids(
                    "bear-off-exact", square=first.start, need=need, dice=_dice_text(dice)
                )
        counts = ", ".join(str(count) for count in self._counts(dice))
        return book.forbids("dice", dice=_dice_text(dice), counts=counts, move=str(move))

    def _counts(self, dice: tuple[int, ...]) -> list[int]:
        """The squares one step may move with these dice: either die, or their sum."""
        counts = sorted(set(dice))
        return [*counts, sum(dice)] if len(dice) == 2 else counts

    def apply(
        self, position: ModernPosition, move: Move, *, explain: bool = True
    ) -> tuple[ModernPosition, list[Ruling]]:
        turns = self._turns(position)
        plan = turns.legal[move]
        side = position.turn
        state = _Scratch(position)
        effects: list[Ruling] | None = [] if explain else None
        if effects is not None:
            effects.extend(self._allowing_rulings(position, turns, move, plan))
        end_pieces = self.rules.end_pieces
        for index in range(0, len(plan), 2):
            if index and effects is not None and len(state.off[side]) >= end_pieces:
                effects.append(self.rules.rules.effect("turn-completes", pieces=end_pieces))
            self._play_step(state, side, plan[index], plan[index + 1], effects)
        return self._end_turn(position, state, effects), effects or []

    # ----- rule functions ----------------------------------------------------------------
    def _step_ruling(
        self, cells: bytes | bytearray, side: int, start: int, count: int
    ) -> Ruling | None:
        """N3-N5 for one step of ``count`` squares from ``start`` (which holds a piece of
        ``side``): the ruling that forbids it, or None."""
        rules = self.rules
        end = rules.ends[count][start]
        # Nothing rests on the moon or the bird; a count that brings the piece back to its
        # own square (N4: 28 with a 6) ends on a square it has left (ours).
        if end == start or end in rules.passing_ends:
            return None
        occupant = cells[end]
        if not occupant:
            return None
        if occupant & 1 == side:
            key = "bounce-own-piece" if start + count > rules.squares + 1 else "own-piece"
            return rules.rules.forbids(key, square=end)
        if end >= rules.special_from > start:
            return rules.rules.forbids("no-hit-special", square=end, start=start)
        return None

    def _footprint(self, cells: bytes, side: int, start: int, count: int) -> int:
        """Squares a step reads or writes, as bits, and SUN_SEND when it may send a piece to
        the sun or moves the piece on it. Two steps whose footprints are disjoint play the
        same in either order; see ``_TurnBuilder.pair`` for two that share only SUN_SEND."""
        rules = self.rules
        end = rules.ends[count][start]
        bits = 1 << start | (SUN_SEND if start == rules.sun else 0)
        if end == OFF:
            return bits
        bits |= 1 << end
        if end == rules.moon:
            return bits | SUN_SEND
        if end == rules.bird:  # the squares searched for a landing, and a hit there
            end = self._bird_landing(cells, side)
            bits |= (1 << (rules.bird_landing + 1)) - (1 << end)
        if cells[end] and end != start:  # a hit (back on its own square: no one is there)
            bits |= SUN_SEND
        return bits

    def _bird_landing(self, cells: bytes | bytearray, side: int) -> int:
        """N5: where the bird sends a piece of ``side``: bird_landing, or when a piece of
        that side is there, the nearest free square before it (ours)."""
        landing = self.rules.bird_landing
        occupant = cells[landing]
        if not occupant or occupant & 1 != side:
            return landing
        square = landing - 1
        while cells[square]:  # ModernRules guarantees a free square before the landing
            square -= 1
        return square

    # ----- what a move does --------------------------------------------------------------
    def _play_step(
        self, state: _Scratch, side: int, start: int, count: int, effects: list[Ruling] | None
    ) -> None:
        """Play one legal step on ``state``; append the rulings for what it does."""
        rules = self.rules
        book = rules.rules
        cells = state.cells
        code = cells[start]
        cells[start] = EMPTY
        end = rules.ends[count][start]
        if effects is not None and start + count > rules.goal:
            excess = start + count - rules.goal
            effects.append(book.effect("bounce", start=start, excess=excess, end=end))
        if end == OFF:
            state.off[side].append(code >> 1)
            if effects is not None:
                effects.append(book.effect("bear-off", piece=piece_name(code), score=code >> 1))
            return
        if end == rules.moon:
            if effects is not None:
                effects.append(book.effect("moon", piece=piece_name(code), square=end))
            self._to_sun(state, code, effects)
            return
        if end == rules.bird:
            landing = self._bird_landing(cells, side)
            if effects is not None:
                effects.append(
                    book.effect("bird", piece=piece_name(code), square=end, landing=landing)
                )
                if landing != rules.bird_landing:
                    effects.append(
                        book.effect("bird-nearest", target=rules.bird_landing, landing=landing)
                    )
            end = landing
        occupant = cells[end]
        cells[end] = code
        if occupant:
            if effects is not None:
                effects.append(book.effect("hit", piece=piece_name(occupant), square=end))
            self._to_sun(state, occupant, effects)

    def _to_sun(self, state: _Scratch, code: int, effects: list[Ruling] | None) -> None:
        """N3: a piece sent to the sun; the piece already there leaves the game."""
        sun = self.rules.sun
        occupant = state.cells[sun]
        if occupant:
            state.out[occupant & 1].append(occupant >> 1)
            if effects is not None:
                effects.append(self.rules.rules.effect("sun-out", piece=piece_name(occupant)))
        state.cells[sun] = code

    def _end_turn(
        self,
        before: ModernPosition,
        state: _Scratch,
        effects: list[Ruling] | None,
    ) -> ModernPosition:
        """N8 when the turn is over: the end of the game, or the hand passes (T2)."""
        side = before.turn
        if len(state.off[side]) < self.rules.end_pieces:
            if effects is not None:
                effects.append(self.rules.rules.effect("hand-passes"))
            return state.position(1 - side)
        after = state.position(side)
        if effects is not None:
            book = self.rules.rules
            winner = self.winner_of(after)
            effects.append(
                book.effect(
                    "end",
                    pieces=self.rules.end_pieces,
                    white=after.score(WHITE),
                    black=after.score(BLACK),
                    white_off=len(after.off[WHITE]),
                    black_off=len(after.off[BLACK]),
                    winner=COLOURS[winner or 0],
                )
            )
        return after

    def _allowing_rulings(
        self, position: ModernPosition, turns: _Turns, move: Move, plan: tuple[int, ...]
    ) -> list[Ruling]:
        """The rule that allows a legal move: a whole turn (N3), one die when both cannot be
        used (N7, and N3 ours when either could), or the single die of N6."""
        book = self.rules.rules
        dice = position.throw or ()
        if not turns.single:
            return [book.allows("distance", move=str(move), dice=_dice_text(dice))]
        die = plan[1]
        if len(dice) == 1:
            return [book.allows("one-die-throw", die=die)]
        rulings = [book.allows("one-die", die=die)]
        others = turns.single_dice - {die}
        if others:
            rulings.append(book.effect("choose-die", die=die, other=min(others)))
        return rulings

    def _turns(self, position: ModernPosition) -> _Turns:
        cache = position.__dict__
        turns: _Turns | None = cache.get("turns")
        if turns is None:
            turns = _TurnBuilder(self, position).build()
            cache["turns"] = turns
        return turns


def _dice_text(dice: tuple[int, ...]) -> str:
    return ",".join(map(str, dice))


class _Scratch:
    """A position being played: mutable lists, made back into a position at the end."""

    __slots__ = ("cells", "off", "out")

    def __init__(self, position: ModernPosition) -> None:
        self.cells = bytearray(position.board)
        self.off = [list(position.off[WHITE]), list(position.off[BLACK])]
        self.out = [list(position.out[WHITE]), list(position.out[BLACK])]

    def key(self) -> tuple[object, ...]:
        """The board and the pieces off and out, whatever order they came in."""
        return (
            self.cells,
            sorted(self.off[WHITE]),
            sorted(self.off[BLACK]),
            sorted(self.out[WHITE]),
            sorted(self.out[BLACK]),
        )

    def position(self, turn: int) -> ModernPosition:
        off = (tuple(sorted(self.off[WHITE])), tuple(sorted(self.off[BLACK])))
        out = (tuple(sorted(self.out[WHITE])), tuple(sorted(self.out[BLACK])))
        return ModernPosition(bytes(self.cells), turn, None, off, out)


# ----- candidate turns -------------------------------------------------------------------------
# A candidate turn is named by an int while turns are built (hashing Move values is slow):
# a step is START << 5 | COUNT, a pair PAIR | FIRST << 10 | SECOND. Groups order the
# candidates: turns using both dice (N3), those that move the most pieces off 26-30 first
# (N5, ours), then one die alone (N6, N7), likewise.
PAIR = 1 << 20
SUN_SEND = 1 << 40  # a footprint bit past every square
_STEP_BITS = 10
_STEP_MASK = (1 << _STEP_BITS) - 1
_FULL_GROUPS = 3  # full turns moving 2, 1 or 0 pieces off 26-30: groups 0, 1, 2
_SINGLE_GROUP = _FULL_GROUPS  # one die alone moving 1 or 0 of them: groups 3, 4
_NO_GROUP = 99


def _plan(key: int) -> tuple[int, ...]:
    """(start, count) of each step of a candidate."""
    if key & PAIR:
        first, second = key >> _STEP_BITS & _STEP_MASK, key & _STEP_MASK
        return first >> 5, first & 31, second >> 5, second & 31
    return key >> 5, key & 31


class _Turns:
    """Every candidate turn for one pending throw: the legal moves at once, the tiers for
    explain and the plans for apply when asked."""

    def __init__(self, builder: _TurnBuilder, best: int | None) -> None:
        self._builder = builder
        self._best = best
        self.single = best is not None and best >= _SINGLE_GROUP
        move_for = builder.rules.move_for
        self.listed = [
            move_for(key)
            for group, key, ruling, hidden in builder.entries
            if group == best and ruling is None and not hidden
        ]

    @cached_property
    def legal(self) -> dict[Move, tuple[int, ...]]:
        """Every legal move, both orders of equivalent pairs, and its plan."""
        move_for = self._builder.rules.move_for
        return {
            move_for(key): _plan(key)
            for group, key, ruling, _ in self._builder.entries
            if group == self._best and ruling is None
        }

    @cached_property
    def single_dice(self) -> frozenset[int]:
        """Dice with a legal move of their own when one die is used alone (N3's choice)."""
        return frozenset(plan[1] for plan in self.legal.values()) if self.single else frozenset()

    @cached_property
    def tiers(self) -> list[Tier]:
        builder = self._builder
        builder.single_turns()  # skipped while a full turn was legal: explain needs them
        groups: dict[int, dict[Move, Ruling | None]] = {}
        for group, key, ruling, _ in builder.entries:
            groups.setdefault(group, {}).setdefault(builder.rules.move_for(key), ruling)
        full_legal = self._best is not None and self._best < _SINGLE_GROUP
        tiers: list[Tier] = []
        for group in sorted(groups):
            rulings = groups[group]
            if not tiers:
                precedence = ""
            elif group >= _SINGLE_GROUP and full_legal:
                precedence = "one-die"
            else:
                precedence = "must-move"
            tiers.append(Tier(list(rulings), rulings.get, precedence))
        return tiers


def _same_end(one: _Scratch | None, other: _Scratch | None) -> bool:
    """Whether two orders of a pair were both legal and left the same position."""
    return one is not None and other is not None and one.key() == other.key()


class _TurnBuilder:
    """Builds the candidate turns of one position and rules on each (N3-N7)."""

    def __init__(self, game: Modern, position: ModernPosition) -> None:
        self.game = game
        self.rules = game.rules
        self.position = position
        self.side = position.turn
        self.mine = position.squares(position.turn)
        special = self.rules.special_from
        self.obliged = frozenset(square for square in self.mine if square >= special)
        self.steps: dict[int, tuple[Ruling | None, int]] = {}  # ruling and footprint
        # group, key, ruling, and whether the equivalent other order is listed instead
        self.entries: list[tuple[int, int, Ruling | None, bool]] = []
        self.best = _NO_GROUP  # the first group with a legal turn
        self.singles_done = False

    def rule_steps(self, counts: tuple[int, ...]) -> None:
        """The ruling and footprint of each piece's step of each count, on the turn's board."""
        game, board, side, steps = self.game, self.position.board, self.side, self.steps
        for start in self.mine:
            for count in counts:
                key = start << 5 | count
                if key not in steps:
                    steps[key] = (
                        game._step_ruling(board, side, start, count),
                        game._footprint(board, side, start, count),
                    )

    def build(self) -> _Turns:
        dice = self.position.throw or ()
        if len(dice) == 2:
            self.full_turns(dice[0], dice[1])
        if self.best == _NO_GROUP:
            self.single_turns()
        return _Turns(self, None if self.best == _NO_GROUP else self.best)

    def full_turns(self, low: int, high: int) -> None:
        """N3: one piece by the sum, or two different pieces by one die each.

        Both orders of two steps are candidates. Steps with disjoint footprints are ruled on
        the turn's board and end alike in either order (the second order is then not
        listed); two that share only SUN_SEND are independent too, but end differently:
        the second piece sent to the sun drives the first out of the game. Other pairs are
        played out in both orders."""
        total = low + high
        self.rule_steps((low, high, total))
        steps, entries, obliged, mine = self.steps, self.entries, self.obliged, self.mine
        sun = self.rules.sun
        best = self.best
        for start in mine:
            ruling = steps[start << 5 | total][0]
            group = 1 if start in obliged else 2
            entries.append((group, start << 5 | total, ruling, False))
            if ruling is None and group < best:
                best = group
        assignments = ((low, high), (high, low)) if low != high else ((low, low),)
        for index, first in enumerate(mine):
            first_obliged = first in obliged
            for second in mine[index + 1 :]:
                group = 2 - first_obliged - (second in obliged)
                for one, other in assignments:
                    key_a, key_b = first << 5 | one, second << 5 | other
                    ruling_a, footprint_a = steps[key_a]
                    ruling_b, footprint_b = steps[key_b]
                    common = footprint_a & footprint_b
                    if not common or (common == SUN_SEND and first != sun and second != sun):
                        ruling_ab = ruling_a if ruling_a is not None else ruling_b
                        ruling_ba = ruling_b if ruling_b is not None else ruling_a
                        same = not common
                    else:
                        ruling_ab, after_ab = self.play_out(first, one, second, other)
                        ruling_ba, after_ba = self.play_out(second, other, first, one)
                        same = _same_end(after_ab, after_ba)
                    entries.append((group, PAIR | key_a << _STEP_BITS | key_b, ruling_ab, False))
                    entries.append((group, PAIR | key_b << _STEP_BITS | key_a, ruling_ba, same))
                    if (ruling_ab is None or ruling_ba is None) and group < best:
                        best = group
        self.best = best

    def play_out(
        self, first: int, one: int, second: int, other: int
    ) -> tuple[Ruling | None, _Scratch | None]:
        """One step then the other: what forbids the pair, or the state it leaves."""
        ruling = self.steps[first << 5 | one][0]
        if ruling is not None:
            return ruling, None
        game, side, board = self.game, self.side, self.position.board
        state = _Scratch(self.position)
        game._play_step(state, side, first, one, None)
        if state.cells[second] != board[second]:  # the sun's piece left: the first is there
            sum_move = self.rules.step_moves[one + other][first]
            book = self.rules.rules
            return book.forbids("same-piece", square=second, sum_move=str(sum_move)), None
        ruling = game._step_ruling(state.cells, side, second, other)
        if ruling is not None:
            return ruling, None
        game._play_step(state, side, second, other, None)
        return None, state

    def single_turns(self) -> None:
        """N6, N7: one die alone (each die once, each end once)."""
        if self.singles_done:
            return
        self.singles_done = True
        dice = tuple(sorted(set(self.position.throw or ())))
        self.rule_steps(dice)
        ends, steps, entries = self.rules.ends, self.steps, self.entries
        best = self.best
        for start in self.mine:
            group = _SINGLE_GROUP + (start not in self.obliged)
            seen: set[int] = set()
            for die in dice:
                end = ends[die][start]
                if end in seen:  # 28 + 1 and 28 + 5 both end on 29: one move
                    continue
                seen.add(end)
                ruling = steps[start << 5 | die][0]
                entries.append((group, start << 5 | die, ruling, False))
                if ruling is None and group < best:
                    best = group
        self.best = best


# ----- notation ---------------------------------------------------------------------------------
def format_position(position: ModernPosition, squares: int = 30) -> str:
    """``BOARD SIDE DICE off:PIECES out:PIECES STATE`` (see docs/notation.md)."""
    cells = [piece_name(code) if code else "." for code in position.board[1:]]
    rows = "/".join("".join(cells[i : i + ROW]) for i in range(0, squares, ROW))
    dice = "-" if position.throw is None else _dice_text(position.throw)
    state = BLOCKED if position.blocked else PLAYING
    return (
        f"{rows} {SIDE_NAMES[position.turn]} {dice} off:{_pieces_text(position.off)} "
        f"out:{_pieces_text(position.out)} {state}"
    )


def _pieces_text(numbers: Numbers) -> str:
    text = "".join(
        piece_name(piece_code(side, number)) for side in (WHITE, BLACK) for number in numbers[side]
    )
    return text or "-"


_PIECE = re.compile(r"([WB])([0-9])")
_CELL = re.compile(r"\.|([WB])([0-9])")


class _PositionReader:
    """Reads Senet-Modern notation and says exactly what is wrong, quoting the text."""

    def __init__(self, game: Modern, text: str) -> None:
        self.game = game
        self.rules = game.rules
        self.text = text

    def fail(self, problem: str) -> NotationError:
        example = format_position(self.game.initial_position(), self.rules.squares)
        return NotationError(
            f"position {self.text!r}: {problem}. Expected: BOARD SIDE DICE off:PIECES "
            f"out:PIECES STATE, e.g. '{example}' (the start; see docs/notation.md)"
        )

    def read(self) -> ModernPosition:
        fields = self.text.split()
        if len(fields) != 6:
            raise self.fail(f"found {len(fields)} fields instead of 6")
        board_text, side_text, dice_text, off_text, out_text, state_text = fields
        board = self._board(board_text)
        if side_text not in SIDE_NAMES:
            raise self.fail(f"the side to move is 'w' or 'b', not {side_text!r}")
        turn = SIDE_NAMES.index(side_text)
        dice = self._dice(dice_text)
        off = self._pieces(off_text, "off")
        out = self._pieces(out_text, "out")
        if state_text not in (PLAYING, BLOCKED):
            raise self.fail(f"the state is '{PLAYING}' or '{BLOCKED}', not {state_text!r}")
        position = ModernPosition(board, turn, dice, off, out, state_text == BLOCKED)
        self._check_pieces(position)
        self._check_state(position)
        return position

    def _board(self, text: str) -> bytes:
        rows = text.split("/")
        squares = self.rules.squares
        if len(rows) != squares // ROW:
            raise self.fail(f"the board is {squares // ROW} rows of 10 squares joined by '/'")
        board = [EMPTY]
        for number, row in enumerate(rows, start=1):
            cells = list(self._cells(row, number))
            if len(cells) != ROW:
                raise self.fail(f"board row {number} has {len(cells)} squares instead of 10")
            board += cells
        for square in (self.rules.moon, self.rules.bird):
            if board[square]:
                raise self.fail(
                    f"no piece rests on square {square}: the moon and the bird send it away"
                )
        return bytes(board)

    def _cells(self, row: str, number: int) -> Iterator[int]:
        position = 0
        while position < len(row):
            match = _CELL.match(row, position)
            if match is None or not self._is_piece_number(match.group(2)):
                raise self.fail(
                    f"board row {number}: {row[position : position + 2]!r} is no square; a "
                    f"square is '.' or a piece, W or B and its number 1-{self.rules.pieces} "
                    "(e.g. W5)"
                )
            colour, digit = match.groups()
            yield EMPTY if colour is None else piece_code(COLOURS.index(colour), int(digit))
            position = match.end()

    def _is_piece_number(self, digit: str | None) -> bool:
        return digit is None or 1 <= int(digit) <= self.rules.pieces

    def _dice(self, text: str) -> Dice | None:
        if text == "-":
            return None
        try:
            throw = self.rules.throws.parse(text)
        except NotationError:
            raise self.fail(f"the dice are '-' (none pending) or e.g. 4,6, not {text!r}") from None
        return Dice(throw.dice)

    def _pieces(self, text: str, label: str) -> Numbers:
        prefix = f"{label}:"
        if not text.startswith(prefix):
            raise self.fail(f"expected {prefix} and the pieces {label} (or -), not {text!r}")
        body = text[len(prefix) :]
        numbers: tuple[list[int], list[int]] = ([], [])
        if body != "-":
            matches = list(_PIECE.finditer(body))
            if not body or "".join(m.group(0) for m in matches) != body:
                raise self.fail(f"{prefix} lists pieces such as W3B5, or '-', not {body!r}")
            for match in matches:
                number = int(match.group(2))
                if not 1 <= number <= self.rules.pieces:
                    raise self.fail(
                        f"{match.group(0)!r}: pieces are numbered 1-{self.rules.pieces}"
                    )
                numbers[COLOURS.index(match.group(1))].append(number)
        return tuple(sorted(numbers[WHITE])), tuple(sorted(numbers[BLACK]))

    def _check_pieces(self, position: ModernPosition) -> None:
        every = set(range(1, self.rules.pieces + 1))
        for side in (WHITE, BLACK):
            on_board = [code >> 1 for code in position.board if code and code & 1 == side]
            found = on_board + list(position.off[side]) + list(position.out[side])
            twice = sorted({n for n in found if found.count(n) > 1})
            missing = sorted(every - set(found))
            colour = COLOURS[side]
            if twice:
                raise self.fail(f"{colour}{twice[0]} is in two places")
            if missing:
                raise self.fail(
                    f"{colour}{missing[0]} is nowhere: each piece is on the board, off or out"
                )

    def _check_state(self, position: ModernPosition) -> None:
        end = self.rules.end_pieces
        finished = [side for side in (WHITE, BLACK) if len(position.off[side]) >= end]
        if len(finished) == 2:
            raise self.fail(f"both sides cannot have borne off {end} pieces: the first ends it")
        if (finished or position.blocked) and position.throw is not None:
            raise self.fail("the game is over: no dice can be pending")
        if finished and position.blocked:
            raise self.fail("a side has borne off enough to end the game: nobody is blocked")
        one_die = position.throw is not None and len(position.throw) == 1
        if one_die and not position.may_throw_one_die():
            left = len(position.squares(position.turn))
            raise self.fail(
                f"one die is thrown only with one piece left on the board (N6); "
                f"{SIDE_NAMES[position.turn]} has {left}"
            )
