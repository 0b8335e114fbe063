"""Mehen, the serpent game: a spiral track, 2 to 6 players, swaps and predators.

One class, :class:`Mehen`, plays the rule set; :class:`MehenRules` holds its parameters
(players and board length are options a table sets). Square 1 is the snake's tail, where
pieces enter; square ``length`` is the centre, its head. Both hold any number of pieces;
every other square holds one. The rule functions below return the ruling that forbids a
candidate move or nothing, and both legal move generation and :meth:`Mehen.explain` call
them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar

from companion.core import END, IN, OFF, Move, RaceGame, RuleSet, Tier
from companion.games.mehen_notation import PositionReader, board_lines, format_position
from companion.games.mehen_position import (
    EMPTY,
    GONE,
    LETTERS,
    PREDATOR,
    TAIL,
    WAITING,
    MehenPosition,
    next_seat,
    result_texts,
    seat_name,
)
from companion.rules import Ruling, Verdict
from companion.throws import StickTable, Throw


@dataclass(frozen=True)
class MehenRules(RuleSet):
    """Parameters of a Mehen rule set. House rules: ``dataclasses.replace(rules, ...)``;
    a table sets ``players`` and ``length`` with ``--option``."""

    family: ClassVar[type[Mehen]]
    options: ClassVar[tuple[str, ...]] = ("players", "length")
    parameter_notes: ClassVar[Mapping[str, str]] = {
        "players": "number of players (an option: --option players=4); seats take the "
        "colours red, blue, green, yellow, white, black in seating order",
        "length": "squares on the board, tail = 1, centre = the last (an option: "
        "--option length=60)",
        "min_players": "fewest players",
        "max_players": "most players",
        "min_length": "shortest board accepted",
        "max_length": "longest board accepted",
        "pieces": "simple pieces per player (each also has one predator)",
        "enter_throw": "the throw that may place a new piece on the tail",
        "predator_factor": "a predator moves this many times the throw",
        "edge_neighbours_protect": "whether a piece or predator on the tail or the centre "
        "protects its colour's piece on the square next to it",
        "exit_two_past_tail": "on a board where predators never land exactly one square "
        "past the tail, whether two squares past takes them out",
    }
    throws: StickTable
    length: int = 88
    pieces: int = 6
    min_players: int = 2
    max_players: int = 6
    min_length: int = 8
    max_length: int = 999
    enter_throw: int = 1
    predator_factor: int = 2
    edge_neighbours_protect: bool = True
    exit_two_past_tail: bool = True

    def __post_init__(self) -> None:
        if self.max_players > len(LETTERS):
            raise ValueError(f"at most {len(LETTERS)} seats have a colour")
        if not self.min_players <= self.players <= self.max_players:
            raise ValueError(
                f"players={self.players}: Mehen is played by {self.min_players} to "
                f"{self.max_players} players"
            )
        if not self.min_length <= self.length <= self.max_length:
            raise ValueError(
                f"length={self.length}: the board has {self.min_length} to {self.max_length} "
                "squares (count them on your board: the tail is 1, the centre the last)"
            )

    def throw_record(self, throw: Throw) -> dict[str, object]:
        """The throw for JSON, with what it moves a predator."""
        return {**throw.as_dict(), "predator_score": self.predator_factor * throw.score}

    def exits_past_tail(self, length: int) -> frozenset[int]:
        """How many squares past the tail take a predator out (M9): exactly one, and two on
        a board where its moves can never land on that one (ours)."""
        even_moves = self.predator_factor % 2 == 0
        if self.exit_two_past_tail and even_moves and length % 2 == 1:
            return frozenset({1, 2})
        return frozenset({1})

    def moves(self, length: int) -> MoveTables:
        """The candidate moves of a board of ``length`` squares, built once per length."""
        return _move_tables(
            length,
            tuple(sorted(self.throws.scores)),
            self.predator_factor,
            self.exits_past_tail(length),
            self.enter_throw,
        )

    def start_position(self) -> MehenPosition:
        seats = range(self.players)
        none = tuple(0 for _ in seats)
        return MehenPosition(
            length=self.length,
            board=EMPTY * self.length,
            tail=none,
            centre=none,
            predators=tuple(WAITING for _ in seats),
            to_enter=tuple(self.pieces for _ in seats),
            eaten=tuple("" for _ in seats),
            turn=0,
            throw=None,
        )


@dataclass(frozen=True)
class MoveTables:
    """Every candidate move of one board length, indexed [throw][start square]; None where
    the move would leave the board (past the centre, or past the tail but not exactly)."""

    enter: Move
    forward: Mapping[int, tuple[Move | None, ...]]
    backward: Mapping[int, tuple[Move | None, ...]]
    predator_in: Mapping[int, tuple[Move | None, ...]]
    predator_out: Mapping[int, tuple[Move | None, ...]]


@lru_cache(maxsize=64)
def _move_tables(
    length: int,
    scores: tuple[int, ...],
    factor: int,
    exits_past_tail: frozenset[int],
    enter_throw: int,
) -> MoveTables:
    squares = range(length + 1)

    def forward(start: int, throw: int) -> Move | None:
        end = start + throw
        return Move(start, end) if TAIL <= start < length and end <= length else None

    def backward(start: int, throw: int) -> Move | None:
        end = start - throw
        return Move(start, end) if TAIL < start < length and end >= TAIL else None

    def inward(start: int, throw: int) -> Move | None:
        end = start + factor * throw
        return Move(start, end, kind=PREDATOR) if start >= TAIL and end <= length else None

    def outward(start: int, throw: int) -> Move | None:
        end = start - factor * throw
        if start < TAIL:
            return None
        if end >= TAIL:
            return Move(start, end, kind=PREDATOR)
        return Move(start, OFF, kind=PREDATOR) if TAIL - end in exits_past_tail else None

    return MoveTables(
        enter=Move(IN, TAIL),
        forward={n: tuple(forward(s, n) for s in squares) for n in scores},
        backward={n: tuple(backward(s, n) for s in squares) for n in scores},
        predator_in={n: tuple(inward(s, n) for s in squares) for n in scores},
        predator_out={n: tuple(outward(s, n) for s in squares) for n in scores},
    )


class Mehen(RaceGame[MehenPosition]):
    """A game of Mehen; the position says how many play and how long the board is."""

    rules: MehenRules

    def __init__(self, rules: RuleSet, position: str | MehenPosition | None = None) -> None:
        super().__init__(rules, position)
        # A position read from notation carries its own players and length (a saved game
        # resumes as it was set up): the rule set follows it.
        played = self.position
        if (played.players, played.length) != (self.rules.players, self.rules.length):
            self.rules = replace(self.rules, players=played.players, length=played.length)

    # ----- notation ----------------------------------------------------------------------
    def initial_position(self) -> MehenPosition:
        return self.rules.start_position()

    def format_position(self, position: MehenPosition) -> str:
        return format_position(position)

    def parse_position(self, text: str) -> MehenPosition:
        return PositionReader(self.rules, text).read()

    # ----- presentation ------------------------------------------------------------------
    def turn_label(self, lang: str = "en") -> str:
        return seat_name(self.position.turn, lang)

    def board_lines(self) -> list[str]:
        return board_lines(self.position)

    def result_text(self, lang: str = "en") -> str:
        position = self.position
        if not position.is_over():
            return super().result_text(lang)
        return result_texts(position)["result_fr" if lang == "fr" else "result"]

    # ----- hooks -------------------------------------------------------------------------
    def is_over(self) -> bool:
        """Over when M10 says so, draws included (then :meth:`winner` is None)."""
        return self.position.is_over()

    def winner_of(self, position: MehenPosition) -> int | None:
        """The seat with the highest score once the game is over; None on a draw."""
        if not position.is_over():
            return None
        scores = [position.score(seat) for seat in range(position.players)]
        best = max(scores)
        return scores.index(best) if scores.count(best) == 1 else None

    def with_throw(self, position: MehenPosition, throw: Throw) -> MehenPosition:
        return position.with_turn(position.turn, throw.score)

    def before_throw(self, position: MehenPosition) -> Tier | None:
        """M10 (ours): between throws the players may agree to end the game."""
        return Tier([END], _no_ruling)

    def tiers(self, position: MehenPosition) -> Iterator[Tier]:
        throw = position.throw
        assert throw is not None
        seat = position.turn
        tables = self.rules.moves(position.length)
        first: list[Move] = []
        if throw == self.rules.enter_throw and position.to_enter[seat]:
            first.append(tables.enter)
        forward = tables.forward[throw]
        squares = position.track_squares(seat)
        starts = (TAIL, *squares) if position.tail[seat] else squares
        first.extend(move for move in (forward[s] for s in starts) if move is not None)
        predator = position.predators[seat]
        if predator >= TAIL:
            for table in (tables.predator_in, tables.predator_out):
                move = table[throw][predator]
                if move is not None:
                    first.append(move)
        yield Tier(first, lambda move: self._first_tier_ruling(position, move))
        backward = tables.backward[throw]
        back = [move for move in (backward[s] for s in squares) if move is not None]
        yield Tier(back, lambda move: self._backward_ruling(position, move), "backward")

    def shape_ruling(self, position: MehenPosition, move: Move) -> Ruling:
        """Why a move that is no candidate at all cannot be played."""
        book = self.rules.rules
        throw = position.throw or 0
        if move == END:
            return book.forbids("agreement", throw=throw)
        if not move.moves_a_piece or move.kind not in ("", PREDATOR) or move.then is not None:
            return self._distance(throw)
        if move.kind == PREDATOR:
            return self._predator_shape(position, move, throw)
        if move.start == IN:
            if move.end != TAIL or throw != self.rules.enter_throw:
                return book.forbids("enter", enter=self.rules.enter_throw)
            return book.forbids("enter-none")
        return self._simple_shape(position, move, throw)

    def _simple_shape(self, position: MehenPosition, move: Move, throw: int) -> Ruling:
        book = self.rules.rules
        seat = position.turn
        start, end = move.start, move.end
        length = position.length
        if start > length:
            return book.forbids("board", square=start, length=length)
        if start == length:
            if position.centre[seat]:
                return book.forbids("centre-stays", length=length)
            return book.forbids("not-your-piece", square=start)
        own = position.tail[seat] if start == TAIL else position.board[start - 1] == LETTERS[seat]
        if not own:
            return book.forbids("not-your-piece", square=start)
        if end == OFF or end > length:
            return book.forbids("exact-centre", square=start, throw=throw, length=length)
        return self._distance(throw)

    def _predator_shape(self, position: MehenPosition, move: Move, throw: int) -> Ruling:
        book = self.rules.rules
        square = position.predators[position.turn]
        double = self.rules.predator_factor * throw
        if square == WAITING:
            return book.forbids("not-released")
        if square == GONE:
            return book.forbids("predator-gone")
        if move.start != square:
            return book.forbids("predator-start", square=square)
        if move.end == OFF:
            return book.forbids("exit-exact", square=square, double=double)
        if move.end > position.length:
            return book.forbids("predator-centre", length=position.length, double=double)
        return book.forbids("predator-distance", throw=throw, double=double)

    def _distance(self, throw: int, verdict: Verdict = Verdict.FORBIDS) -> Ruling:
        double = self.rules.predator_factor * throw
        return self.rules.rules.ruling("distance", verdict, throw=throw, double=double)

    # ----- what a move does --------------------------------------------------------------
    def apply(
        self, position: MehenPosition, move: Move, *, explain: bool = True
    ) -> tuple[MehenPosition, list[Ruling]]:
        effects: list[Ruling] = []
        told = effects if explain else None
        if move == END:
            after = replace(position, throw=None, agreed=True)
            if explain:
                effects.append(self.rules.rules.allows("agreement", **result_texts(after)))
            return after, effects
        if move.kind == PREDATOR:
            after = self._move_predator(position, move, told)
        elif move.start == IN:
            after = self._enter(position, told)
        else:
            after = self._move_simple(position, move, told)
        return self._hand_over(position, after, told), effects

    def _enter(self, position: MehenPosition, effects: list[Ruling] | None) -> MehenPosition:
        """M3: a new piece on the tail."""
        seat = position.turn
        if effects is not None:
            effects.append(self.rules.rules.allows("enter", enter=self.rules.enter_throw))
        return replace(
            position,
            tail=_bump(position.tail, seat, 1),
            to_enter=_bump(position.to_enter, seat, -1),
            throw=None,
        )

    def _move_simple(
        self, position: MehenPosition, move: Move, effects: list[Ruling] | None
    ) -> MehenPosition:
        """M5-M8: a simple piece forward (swapping, reaching the centre) or backward."""
        book = self.rules.rules
        seat = position.turn
        letter = LETTERS[seat]
        start, end = move.start, move.end
        length = position.length
        board, tail, centre = position.board, position.tail, position.centre
        predators = position.predators
        throw = position.throw
        if start == TAIL:
            tail = _bump(tail, seat, -1)
        else:
            board = _put(board, start, EMPTY)
        if effects is not None:
            if end < start:
                effects.append(book.allows("backward", square=start, throw=throw))
            elif end == length:
                effects.append(book.allows("centre", length=length))
            else:
                effects.append(self._distance(throw or 0, Verdict.ALLOWS))
        if end == TAIL:
            tail = _bump(tail, seat, 1)
        elif end == length:
            centre = _bump(centre, seat, 1)
            predators = self._release(position, effects)
        else:
            occupant = board[end - 1]
            board = _put(board, end, letter)
            if occupant != EMPTY:  # an enemy simple piece: the two swap (M5)
                if start == TAIL:
                    tail = _bump(tail, LETTERS.index(occupant), 1)
                else:
                    board = _put(board, start, occupant)
                if effects is not None:
                    effects.append(book.effect("swap", square=end, back=start))
        return MehenPosition(
            length,
            board,
            tail,
            centre,
            predators,
            position.to_enter,
            position.eaten,
            seat,
            None,
        )

    def _release(self, position: MehenPosition, effects: list[Ruling] | None) -> tuple[int, ...]:
        """M8: the predators once the mover's piece has reached the centre."""
        seat = position.turn
        predators = position.predators
        if predators[seat] != WAITING:
            return predators
        book = self.rules.rules
        waiting = position.to_enter[seat]
        if waiting:
            if effects is not None:
                effects.append(book.effect("no-release", count=waiting))
            return predators
        if effects is not None:
            effects.append(book.effect("release", length=position.length))
        return _set(predators, seat, position.length)

    def _move_predator(
        self, position: MehenPosition, move: Move, effects: list[Ruling] | None
    ) -> MehenPosition:
        """M9: the predator moves, eats, swaps with a predator or leaves the board."""
        book = self.rules.rules
        seat = position.turn
        start, end = move.start, move.end
        length = position.length
        board, predators, eaten = position.board, position.predators, position.eaten
        if TAIL < start < length:
            board = _put(board, start, EMPTY)
        if effects is not None:
            effects.append(self._predator_allows(position, move))
        if end == OFF:
            predators = _set(predators, seat, GONE)
        elif end in (TAIL, length):
            predators = _set(predators, seat, end)
            if effects is not None and _holds_enemies(position, end):
                effects.append(book.effect("shared-cell", square=end))
        else:
            occupant = board[end - 1]
            board = _put(board, end, LETTERS[seat].upper())
            predators = _set(predators, seat, end)
            if occupant.isupper():  # an enemy predator goes where this one came from
                predators = _set(predators, LETTERS.index(occupant.lower()), start)
                if TAIL < start < length:
                    board = _put(board, start, occupant)
                if effects is not None:
                    effects.append(book.effect("predator-swap", square=end, back=start))
            elif occupant != EMPTY:  # an enemy simple piece, kept by the eater
                ate = "".join(sorted(eaten[seat] + occupant, key=LETTERS.index))
                eaten = (*eaten[:seat], ate, *eaten[seat + 1 :])
                if effects is not None:
                    effects.append(book.effect("eat", square=end))
        return MehenPosition(
            length,
            board,
            position.tail,
            position.centre,
            predators,
            position.to_enter,
            eaten,
            seat,
            None,
        )

    def _predator_allows(self, position: MehenPosition, move: Move) -> Ruling:
        book = self.rules.rules
        throw = position.throw or 0
        double = self.rules.predator_factor * throw
        if move.end != OFF:
            return book.allows("predator", throw=throw, double=double)
        past = TAIL - (move.start - double)
        key = "exit" if past == 1 else "exit-two"
        return book.allows(key, square=move.start, double=double)

    def _hand_over(
        self, before: MehenPosition, after: MehenPosition, effects: list[Ruling] | None
    ) -> MehenPosition:
        """T2 and M2: who acts next; M10: or the end of the game."""
        book = self.rules.rules
        if after.finished():
            if effects is not None:
                effects.append(book.effect("game-over", **result_texts(after)))
            return after
        throw = before.throw
        extra = throw in self.rules.throws.extra
        if effects is not None:
            effects.append(book.effect("extra-throw" if extra else "hand-passes", throw=throw))
        turn, skipped = next_seat(after, before.turn if extra else before.turn + 1)
        if effects is not None:
            for seat in skipped:
                names = {"colour": seat_name(seat), "colour_fr": seat_name(seat, "fr")}
                effects.append(book.effect("skip", **names))
        return after if turn == after.turn else after.with_turn(turn, None)

    def apply_pass(self, position: MehenPosition) -> MehenPosition:
        turn, _ = next_seat(position, position.turn + 1)
        return position.with_turn(turn, None)

    # ----- rule functions ----------------------------------------------------------------
    def _first_tier_ruling(self, position: MehenPosition, move: Move) -> Ruling | None:
        if move.kind == PREDATOR:
            return self._predator_ruling(position, move)
        if move.start == IN:
            return None  # M3: offered only with a 1 and a piece still to enter
        return self._forward_ruling(position, move)

    def _forward_ruling(self, position: MehenPosition, move: Move) -> Ruling | None:
        """M4, M5, M6: where a simple piece moving forward may land."""
        end = move.end
        if end == position.length:
            return None  # M6: the centre, reached exactly, holds any number
        cell = position.board[end - 1]
        if cell == EMPTY:
            return None
        book = self.rules.rules
        if cell == LETTERS[position.turn]:
            return book.forbids("own-piece", square=end)
        if cell.isupper():
            return book.forbids("predator-square", square=end)
        return self._protection(position, end)

    def _predator_ruling(self, position: MehenPosition, move: Move) -> Ruling | None:
        """M4, M5, M9: where a predator may land."""
        end = move.end
        if end in (OFF, TAIL, position.length):
            return None
        cell = position.board[end - 1]
        if cell == EMPTY or cell.isupper():
            return None  # an empty square, or an enemy predator to swap with
        if cell == LETTERS[position.turn]:
            return self.rules.rules.forbids("predator-own", square=end)
        return self._protection(position, end)

    def _backward_ruling(self, position: MehenPosition, move: Move) -> Ruling | None:
        """M7 (ours): back onto an empty square or onto the tail, never swapping."""
        end = move.end
        if end == TAIL or position.board[end - 1] == EMPTY:
            return None
        return self.rules.rules.forbids("backward-occupied", square=end)

    def _protection(self, position: MehenPosition, square: int) -> Ruling | None:
        """M5: the ruling that protects the simple piece on ``square``, if any."""
        board = position.board
        length = position.length
        piece = board[square - 1]
        book = self.rules.rules
        for partner in (square - 1, square + 1):
            if TAIL < partner < length:
                neighbour = board[partner - 1]
                if neighbour == piece:
                    return book.forbids("protected", square=square, partner=partner)
                if neighbour == piece.upper():
                    return book.forbids("guarded", square=square, partner=partner)
        if not self.rules.edge_neighbours_protect:
            return None
        owner = LETTERS.index(piece)
        for partner, count in ((TAIL, position.tail), (length, position.centre)):
            if abs(partner - square) == 1 and (
                count[owner] or position.predators[owner] == partner
            ):
                return book.forbids("protected-edge", square=square, partner=partner)
        return None


def _no_ruling(move: Move) -> Ruling | None:
    return None


def _bump(counts: tuple[int, ...], seat: int, change: int) -> tuple[int, ...]:
    return (*counts[:seat], counts[seat] + change, *counts[seat + 1 :])


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _put(board: str, square: int, cell: str) -> str:
    return board[: square - 1] + cell + board[square:]


def _holds_enemies(position: MehenPosition, square: int) -> bool:
    """Whether the tail or the centre holds a piece of another seat."""
    counts = position.tail if square == TAIL else position.centre
    seat = position.turn
    return any(
        seat != other and (counts[other] or position.predators[other] == square)
        for other in range(position.players)
    )
