"""The late Royal Game of Ur: numbered pieces, a die and a stick, tokens and a pot.

One class, :class:`Ur`, plays the family; :class:`UrRules` holds its numbers (entry
throws, chance squares, payments, tokens) and the physical board (:data:`LAYOUTS`): the
Ur board or the 20-square tablet board of U1, which decide which squares of the two
tracks are the same cell and therefore where pieces capture each other.

Squares are track squares 1-16 of the mover's own track; a piece's cell on the board is
:func:`cell_name`. A move made instead of a throw (paying the pot to enter a piece, U4)
comes through the core's ``before_throw`` hook. Every rule function below returns the
ruling that forbids a candidate or nothing, for legal moves and explanations alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from random import Random
from typing import ClassVar

from companion.core import IN, OFF, START, Move, RaceGame, RuleSet, Tier
from companion.errors import NotationError
from companion.notation import is_number
from companion.rules import Ruling
from companion.throws import Outcome, Throw

WHITE, BLACK = 0, 1
SIDE_NAMES = ("w", "b")
SIDE_WORDS = {"en": ("white", "black"), "fr": ("les blancs", "les noirs")}
TRACK = 16  # squares of each player's track (U1)
NOT_ENTERED = -1  # a piece that has never entered ("-" in the notation)
WAITING = 0  # a captured piece, off the board until it enters again ("x")
BORNE_OFF = TRACK + 1  # a piece that has left the track ("off"): the exact throw to 17
PAY = "pay"  # the kind of a move made instead of a throw: pay-6


# ----- the boards of U1 ------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """A physical board: its cells and each player's track across them (U1).

    ``tracks[side][n - 1]`` is the cell of track square ``n``; cells are named by column
    letter and row (1 white's side, 2 the middle, 3 black's side).
    """

    key: int  # the value of the rule set's ``layout`` option
    name: str  # the first field of a position's notation
    title: str
    columns: str
    tracks: tuple[tuple[str, ...], tuple[str, ...]]

    def __post_init__(self) -> None:
        for track in self.tracks:
            if len(set(track)) != TRACK:
                raise ValueError(f"layout {self.name}: a track is {TRACK} distinct cells")

    @cached_property
    def cells(self) -> frozenset[str]:
        """Every cell of the board: those of the two tracks."""
        return frozenset(self.tracks[WHITE]) | frozenset(self.tracks[BLACK])

    def cell(self, side: int, square: int) -> str:
        """The cell of track square ``square`` (1-16) of ``side``."""
        if not 1 <= square <= TRACK:
            raise ValueError(f"track squares are 1-{TRACK}, not {square}")
        return self.tracks[side][square - 1]

    @cached_property
    def facing(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``facing[side][n]``: the other side's track square on the cell of ``side``'s
        square ``n``, or 0 where the cell is ``side``'s own (index 0 and 17 unused)."""
        white, black = ({cell: n for n, cell in enumerate(track, 1)} for track in self.tracks)
        return (
            (0, *(black.get(cell, 0) for cell in self.tracks[WHITE]), 0),
            (0, *(white.get(cell, 0) for cell in self.tracks[BLACK]), 0),
        )


def _track(cells: str) -> tuple[str, ...]:
    """A track written as its cells in order, separated by spaces."""
    return tuple(cells.split())


UR_BOARD = Layout(
    key=1,
    name="ur",
    title="the Ur board: a 3x4 block, a two-cell bridge and a 3x2 block",
    columns="ABCDEFGH",
    tracks=(
        _track("D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 G3 H3 H2 H1 G1"),
        _track("D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 G1 H1 H2 H3 G3"),
    ),
)
TABLET_BOARD = Layout(
    key=2,
    name="tablet",
    title="the 20-square tablet board: a 3x4 block and a tail of 8",
    columns="ABCDEFGHIJKL",
    tracks=(
        _track("D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 K2 L2"),
        _track("D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 K2 L2"),
    ),
)
LAYOUTS: Mapping[int, Layout] = {layout.key: layout for layout in (UR_BOARD, TABLET_BOARD)}
LAYOUTS_BY_NAME: Mapping[str, Layout] = {layout.name: layout for layout in LAYOUTS.values()}


def cell_name(layout: int, side: int, square: int) -> str:
    """Where ``side``'s track square ``square`` (1-16) lies on board ``layout`` (1 the Ur
    board, 2 the tablet board), e.g. ``cell_name(1, WHITE, 12) == "G3"``."""
    return LAYOUTS[layout].cell(side, square)


# ----- throws (U2) -----------------------------------------------------------------------
YES_WORDS = frozenset({"yes", "y", "oui", "o"})
NO_WORDS = frozenset({"no", "n", "non"})


@dataclass(frozen=True)
class DieAndStick:
    """Throw table of a tetrahedral die and the optional yes/no stick (U2).

    Without the stick, or when the stick says no, the die's value is the score; a yes turns
    die value ``d`` into ``yes_scores[d - 1]``. No throw gives another throw. A throw is
    written ``3`` (die alone), ``3+yes`` or ``3+no``; a yes score alone (``7``) is read as
    the only reading that makes it (``3+yes``). Probabilities depend on the choice made
    before throwing: :meth:`outcomes` lists the die alone, then the die with the stick.
    """

    faces: int = 4
    yes_scores: tuple[int, ...] = (5, 6, 7, 10)
    yes_rate: Fraction = Fraction(1, 2)  # the stick is fair unless a set says otherwise

    def __post_init__(self) -> None:
        if len(self.yes_scores) != self.faces:
            raise ValueError("the stick's yes needs one score per face of the die")

    def reading(self, die: int, stick: bool | None) -> Throw:
        """The throw for a die value and the stick's answer (None: no stick thrown)."""
        if stick is None:
            return Throw(die, False)
        if stick:
            return Throw(self.yes_scores[die - 1], False, shown=f"{die}+yes")
        return Throw(die, False, shown=f"{die}+no")

    def parse(self, text: str) -> Throw:
        token = text.strip().lower()
        die_text, plus, answer = (part.strip() for part in token.partition("+"))
        if not plus and is_number(die_text) and int(die_text) in self.yes_scores:
            return self.reading(self.yes_scores.index(int(die_text)) + 1, True)
        if not is_number(die_text) or not 1 <= int(die_text) <= self.faces:
            raise self._error(text, f"the die shows 1-{self.faces}")
        die = int(die_text)
        if not plus:
            return self.reading(die, None)
        if answer in YES_WORDS:
            return self.reading(die, True)
        if answer in NO_WORDS:
            return self.reading(die, False)
        raise self._error(text, "the stick answers yes or no")

    def _error(self, text: str, problem: str) -> NotationError:
        scores = ", ".join(str(s) for s in self.scores)
        return NotationError(
            f"throw {text!r}: {problem}; write the die alone (3) or with the stick's answer "
            f"(3+yes, 3+no), or a score ({scores})"
        )

    @cached_property
    def scores(self) -> tuple[int, ...]:
        return tuple(sorted({*range(1, self.faces + 1), *self.yes_scores}))

    def outcomes(self) -> tuple[Outcome, ...]:
        """The die alone, then the die with the stick: probabilities are for each choice."""
        return self.outcomes_with(stick=False) + self.outcomes_with(stick=True)

    def outcomes_with(self, *, stick: bool) -> tuple[Outcome, ...]:
        """Every reading of one choice, with its exact probability (they sum to 1)."""
        die = Fraction(1, self.faces)
        if not stick:
            return tuple(
                Outcome(str(d), self.reading(d, None), die) for d in range(1, self.faces + 1)
            )
        answers = ((False, 1 - self.yes_rate), (True, self.yes_rate))
        return tuple(
            Outcome(str(throw), throw, die * chance)
            for answer, chance in answers
            for d in range(1, self.faces + 1)
            for throw in (self.reading(d, answer),)
        )

    @cached_property
    def throws(self) -> frozenset[Throw]:
        return frozenset(Throw(score, False) for score in self.scores)

    def draw(self, rng: Random) -> Throw:
        """A throw of a player who adds the stick half the time (random play)."""
        return self.draw_with(rng, stick=rng.random() < 0.5)

    def draw_with(self, rng: Random, *, stick: bool) -> Throw:
        """A throw drawn with the exact probabilities of this choice."""
        die = rng.randint(1, self.faces)
        if not stick:
            return self.reading(die, None)
        return self.reading(die, rng.random() < self.yes_rate)

    def probability(self, throw: Throw) -> Fraction:
        """The chance of this reading given its choice: ``3`` with the die alone, ``3+no``
        and ``7`` (``3+yes``) with the stick."""
        stick = "+" in throw.shown or throw.score > self.faces
        return self.score_probabilities(stick=stick).get(throw.score, Fraction(0))

    def score_probabilities(self, *, stick: bool) -> Mapping[int, Fraction]:
        table: dict[int, Fraction] = {}
        for outcome in self.outcomes_with(stick=stick):
            score = outcome.throw.score
            table[score] = table.get(score, Fraction(0)) + outcome.probability
        return table

    def describe(self) -> str:
        yes = ", ".join(f"{d}→{s}" for d, s in enumerate(self.yes_scores, 1))
        return (
            f"A tetrahedral die (1-{self.faces}) and, if the player chooses before throwing, "
            f"a yes/no stick: no leaves the die's value, yes turns it into another ({yes}). "
            "No throw gives another throw. Probabilities are exact for each choice: the die "
            f"alone (first {self.faces} lines), or the die with a stick that says yes with "
            f"probability {self.yes_rate} (the other lines)."
        )


# ----- positions -------------------------------------------------------------------------
@dataclass(frozen=True)
class UrPosition:
    """Everything an Ur ruling depends on (T3).

    ``pieces[side][k]`` is where piece ``k + 1`` stands: a track square 1-16, or
    :data:`NOT_ENTERED`, :data:`WAITING` (captured) or :data:`BORNE_OFF`. ``skip`` is the
    side that skips its next turn for a debt (U9); never the side to move, whose skipped
    turn would already have passed.
    """

    layout: int
    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    tokens: tuple[int, int]
    pot: int
    turn: int
    throw: int | None
    skip: int | None = None

    def with_throw(self, throw: int | None) -> UrPosition:
        return UrPosition(
            self.layout, self.pieces, self.tokens, self.pot, self.turn, throw, self.skip
        )


@dataclass(frozen=True)
class UrRules(RuleSet):
    """Parameters of an Ur rule set (U1-U11). House rules: ``dataclasses.replace``."""

    family: ClassVar[type[Ur]]
    throws: DieAndStick = field(default_factory=DieAndStick)
    layout: int = UR_BOARD.key  # the board of new games; a position names its own
    entry_throws: tuple[int, ...] = (2, 5, 6, 7, 10)  # piece k enters with entry_throws[k-1]
    entry_squares: tuple[int, ...] = (1, 5, 6, 7, 10)  # ... onto entry_squares[k-1]
    chance_squares: frozenset[int] = frozenset({4, 8, 12, 16})
    capture_payment: int = 1
    bear_off_square: int = 16
    bear_off_payment: int = 2
    pass_payment: int = 1
    start_tokens: int = 15
    start_pot: int = 20
    loser_pays_on_board: int = 1
    loser_pays_off_board: int = 2

    options: ClassVar[tuple[str, ...]] = ("layout",)
    parameter_notes: ClassVar[Mapping[str, str]] = {
        "layout": "the board of new games (option layout=1 the Ur board, layout=2 the "
        "20-square tablet board); a position names the board it stands on",
        "entry_throws": "the throw that enters piece 1, 2, 3, 4, 5 (also what paying to "
        "enter it costs)",
        "entry_squares": "the track square each of pieces 1-5 enters on",
        "chance_squares": "track squares that pay a piece stopping on them its number from "
        "the pot, cost a piece passing over them its number, and protect it",
        "capture_payment": "tokens the owner of a captured piece pays the capturer",
        "bear_off_square": "a piece bearing off without stopping on this square pays "
        "bear_off_payment (instead of the chance-square payment for it)",
        "bear_off_payment": "tokens paid into the pot for bearing off past bear_off_square",
        "pass_payment": "tokens paid into the pot by a player who has no move",
        "start_tokens": "tokens each player has at the start",
        "start_pot": "tokens in the pot at the start",
        "loser_pays_on_board": "tokens the loser pays the winner per piece on the board",
        "loser_pays_off_board": "tokens the loser pays per piece not on the board (not "
        "entered yet, or captured and waiting)",
    }

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            boards = ", ".join(f"{key} {board.name}" for key, board in LAYOUTS.items())
            raise ValueError(f"layout={self.layout} is no board (boards: {boards})")
        if len(self.entry_throws) != len(self.entry_squares):
            raise ValueError("every piece needs an entry throw and an entry square")
        squares = {*self.entry_squares, *self.chance_squares, self.bear_off_square}
        if not squares <= set(range(1, TRACK + 1)) or len(set(self.entry_squares)) != len(
            self.entry_squares
        ):
            raise ValueError(f"entry squares are distinct squares 1-{TRACK}, as are the others")

    @property
    def pieces(self) -> int:
        return len(self.entry_throws)

    @property
    def total_tokens(self) -> int:
        """Tokens in the game: never changes (U10)."""
        return 2 * self.start_tokens + self.start_pot

    @property
    def board(self) -> Layout:
        return LAYOUTS[self.layout]

    def throw_record(self, throw: Throw) -> dict[str, object]:
        """``score`` and ``extra_turn`` as for every game, and how the throw was read."""
        shown = str(throw)
        die, _, answer = shown.partition("+")
        return {**throw.as_dict(), "reading": shown, "die": int(die), "stick": answer or None}

    # Moves are values: each candidate is built once per rule set.
    @cached_property
    def forward_moves(self) -> dict[int, dict[int, Move]]:
        """For each score, the move from each square that stays on the track or bears off
        with the exact throw (U6, U8)."""
        table: dict[int, dict[int, Move]] = {}
        for score in self.throws.scores:
            moves: dict[int, Move] = {}
            for start in range(1, TRACK + 1):
                end = start + score
                if end <= TRACK:
                    moves[start] = Move(start, end)
                elif end == BORNE_OFF:
                    moves[start] = Move(start, OFF)
            table[score] = moves
        return table

    @cached_property
    def entry_moves(self) -> dict[int, Move]:
        """The entry a throw allows, by score (U3)."""
        return {
            throw: Move(IN, square)
            for throw, square in zip(self.entry_throws, self.entry_squares, strict=True)
        }

    @cached_property
    def pay_moves(self) -> tuple[Move, ...]:
        """Every ``pay-N`` a player may propose instead of throwing (U4)."""
        return tuple(Move(IN, square, kind=PAY) for square in range(1, TRACK + 1))

    @cached_property
    def passed_chance_squares(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """Chance squares strictly between a start and an end (17 for bearing off)."""
        squares = sorted(self.chance_squares)
        return {
            (start, end): tuple(c for c in squares if start < c < end)
            for start in range(1, TRACK + 1)
            for end in range(start + 1, BORNE_OFF + 1)
        }

    def start_position(self) -> UrPosition:
        """U10: no piece on the board, 15 tokens each, 20 in the pot; white starts (ours:
        the player chosen to start takes white)."""
        fresh = (NOT_ENTERED,) * self.pieces
        return UrPosition(
            self.layout,
            (fresh, fresh),
            (self.start_tokens, self.start_tokens),
            self.start_pot,
            WHITE,
            None,
        )


# ----- what a move does to tokens ----------------------------------------------------------
class _Ledger:
    """Tokens while a move is played: payments of what one has, debts noted (U9)."""

    def __init__(self, position: UrPosition) -> None:
        self.tokens = list(position.tokens)
        self.pot = position.pot
        self.debtors: list[int] = []

    def pay_pot(self, payer: int, amount: int) -> int:
        paid = self._take(payer, amount)
        self.pot += paid
        return paid

    def pay(self, payer: int, payee: int, amount: int) -> int:
        paid = self._take(payer, amount)
        self.tokens[payee] += paid
        return paid

    def take_from_pot(self, taker: int, amount: int) -> int:
        taken = min(amount, self.pot)
        self.pot -= taken
        self.tokens[taker] += taken
        return taken

    def _take(self, payer: int, amount: int) -> int:
        paid = min(amount, self.tokens[payer])
        self.tokens[payer] -= paid
        if paid < amount and payer not in self.debtors:
            self.debtors.append(payer)
        return paid


def _side_details(side: int) -> dict[str, str]:
    """A side named in both languages, for rule texts ({side_en}, {side_fr})."""
    return {"side_en": SIDE_WORDS["en"][side], "side_fr": SIDE_WORDS["fr"][side]}


# ----- the game ----------------------------------------------------------------------------
class Ur(RaceGame[UrPosition]):
    """A game of the late Royal Game of Ur."""

    rules: UrRules

    # ----- notation ----------------------------------------------------------------------
    def initial_position(self) -> UrPosition:
        return self.rules.start_position()

    def format_position(self, position: UrPosition) -> str:
        white, black = (_pieces_text(pieces) for pieces in position.pieces)
        tokens = f"{position.tokens[WHITE]}/{position.tokens[BLACK]}/{position.pot}"
        throw = "-" if position.throw is None else str(position.throw)
        skip = "-" if position.skip is None else SIDE_NAMES[position.skip]
        side = SIDE_NAMES[position.turn]
        return f"{LAYOUTS[position.layout].name} {white} {black} {tokens} {side} {throw} {skip}"

    def parse_position(self, text: str) -> UrPosition:
        return _PositionReader(self.rules, text).read()

    def cell(self, side: int, square: int) -> str:
        """The cell of ``side``'s track square on the board of the current position."""
        return cell_name(self.position.layout, side, square)

    # ----- presentation ------------------------------------------------------------------
    def turn_label(self, lang: str = "en") -> str:
        return SIDE_WORDS["fr" if lang == "fr" else "en"][self.position.turn]

    def board_lines(self) -> list[str]:
        """The physical board, row 1 (white's side) on top, pieces on their cells
        (``W3`` white's piece 3, ``*`` a rosette, ``.`` an empty cell), then the tokens."""
        position = self.position
        lines = _grid(LAYOUTS[position.layout], position, self.rules.chance_squares)
        lines += [_side_summary(position, side) for side in (WHITE, BLACK)]
        lines.append(f"pot: {position.pot}")
        if position.skip is not None:
            lines.append(f"{SIDE_WORDS['en'][position.skip]} skips its next turn (U9)")
        return lines

    # ----- hooks -------------------------------------------------------------------------
    def with_throw(self, position: UrPosition, throw: Throw) -> UrPosition:
        return position.with_throw(throw.score)

    def winner_of(self, position: UrPosition) -> int | None:
        for side in (WHITE, BLACK):
            if all(square == BORNE_OFF for square in position.pieces[side]):
                return side
        return None

    def tiers(self, position: UrPosition) -> Iterator[Tier]:
        yield Tier(self._candidates(position), lambda move: self._move_ruling(position, move))

    def throw_options(self, position: UrPosition) -> Mapping[str, Sequence[Outcome]]:
        """U2: the player chooses before each throw whether to add the stick."""
        table = self.rules.throws
        return {
            "die": table.outcomes_with(stick=False),
            "die+stick": table.outcomes_with(stick=True),
        }

    def before_throw(self, position: UrPosition) -> Tier:
        """U4: paying the pot to enter a piece replaces the throw."""
        return Tier(self.rules.pay_moves, lambda move: self._pay_ruling(position, move))

    def pass_effects(self, position: UrPosition) -> list[Ruling]:
        return self._pass(position, explain=True)[1]

    def apply_pass(self, position: UrPosition) -> UrPosition:
        return self._pass(position, explain=False)[0]

    def shape_ruling(self, position: UrPosition, move: Move) -> Ruling:
        """Why a move that is no candidate for the pending throw cannot be played."""
        book = self.rules.rules
        throw = position.throw or 0
        if move == START:
            return book.forbids("start")
        if move.kind not in ("", PAY):
            raise NotationError(
                f"move {str(move)!r}: no move of kind {move.kind!r} in this game; write 3-7, "
                f"in-6, 16-off or pay-6 ({self.format_position(position)})"
            )
        if move.then is not None:
            return book.forbids("one-piece", throw=throw)
        if move.kind == PAY:
            return book.forbids("pay-after-throw", square=move.end)
        if move.start == IN:
            return self._entry_shape_ruling(move.end, throw)
        if move.start > TRACK or move.start not in position.pieces[position.turn]:
            return book.forbids("not-your-piece", square=move.start)
        piece = position.pieces[position.turn].index(move.start) + 1
        if move.end == OFF:
            need = BORNE_OFF - move.start
            return book.forbids("bear-off-exact", square=move.start, need=need, throw=throw)
        if move.end > TRACK:
            return book.forbids("track-end", square=move.end, piece=piece)
        if move.end <= move.start:
            return book.forbids("forward", square=move.start)
        return book.forbids("distance", throw=throw)

    def apply(
        self, position: UrPosition, move: Move, *, explain: bool = True
    ) -> tuple[UrPosition, list[Ruling]]:
        rules = self.rules
        side = position.turn
        pieces = [list(position.pieces[WHITE]), list(position.pieces[BLACK])]
        ledger = _Ledger(position)
        effects: list[Ruling] = []
        if move.start == IN:
            piece = rules.entry_squares.index(move.end)
            self._enter(position, move, piece, ledger, effects if explain else None)
        else:
            piece = pieces[side].index(move.start)
            self._advance(position, move, piece, ledger, effects if explain else None)
        end = BORNE_OFF if move.end == OFF else move.end
        pieces[side][piece] = end
        if end <= TRACK:
            self._land(position, side, piece, end, pieces, ledger, effects if explain else None)
        board = (tuple(pieces[WHITE]), tuple(pieces[BLACK]))
        if all(square == BORNE_OFF for square in board[side]):
            return self._settle(position, board, ledger, effects if explain else None)
        return self._next_turn(position, board, ledger, effects if explain else None)

    # ----- candidates and rule functions -------------------------------------------------
    def _candidates(self, position: UrPosition) -> list[Move]:
        throw = position.throw
        assert throw is not None
        moves: list[Move] = []
        entry = self.rules.entry_moves.get(throw)
        if entry is not None:
            moves.append(entry)
        forward = self.rules.forward_moves[throw]
        for square in position.pieces[position.turn]:
            move = forward.get(square)
            if move is not None:
                moves.append(move)
        return moves

    def _move_ruling(self, position: UrPosition, move: Move) -> Ruling | None:
        """U3, U6 and U8 for a candidate of the pending throw (its distance is right)."""
        if move.start == IN:
            return self._entry_ruling(position, move.end)
        if move.end == OFF:
            return None  # U8: the exact throw to 17; nothing on the way forbids it
        return self._landing_ruling(position, move.end)

    def _landing_ruling(self, position: UrPosition, square: int) -> Ruling | None:
        """U6: not onto one's own piece, nor onto an enemy piece on a chance square."""
        side = position.turn
        book = self.rules.rules
        mine = position.pieces[side]
        if square in mine:
            return book.forbids("own-piece", square=square, piece=mine.index(square) + 1)
        facing = LAYOUTS[position.layout].facing[side][square]
        theirs = position.pieces[1 - side]
        if facing and facing in theirs and facing in self.rules.chance_squares:
            return book.forbids("protected", square=square, piece=theirs.index(facing) + 1)
        return None

    def _entry_ruling(self, position: UrPosition, square: int, cost: int = 0) -> Ruling | None:
        """U3 (and U4 when ``cost`` tokens are paid): may the piece of this square enter?"""
        book = self.rules.rules
        piece = self.rules.entry_squares.index(square)
        mine = position.pieces[position.turn]
        where = mine[piece]
        if where == BORNE_OFF or 1 <= where <= TRACK:
            return book.forbids("entered", piece=piece + 1, square=where)
        if where == NOT_ENTERED and piece > 0 and mine[piece - 1] == NOT_ENTERED:
            first = mine.index(NOT_ENTERED) + 1
            return book.forbids("entry-order", piece=piece + 1, first=first)
        if cost > position.tokens[position.turn]:
            return book.forbids(
                "pay-tokens", piece=piece + 1, cost=cost, tokens=position.tokens[position.turn]
            )
        return self._landing_ruling(position, square)

    def _entry_shape_ruling(self, square: int, throw: int) -> Ruling:
        book = self.rules.rules
        if square not in self.rules.entry_squares:
            return book.forbids("entry-square", square=square, squares=self._entry_list())
        piece = self.rules.entry_squares.index(square)
        need = self.rules.entry_throws[piece]
        return book.forbids("entry-throw", piece=piece + 1, square=square, need=need, throw=throw)

    def _pay_ruling(self, position: UrPosition, move: Move) -> Ruling | None:
        """U4: pay a piece's entry number to enter it instead of throwing."""
        rules = self.rules
        if move.end not in rules.entry_squares:
            return rules.rules.forbids("entry-square", square=move.end, squares=self._entry_list())
        cost = rules.entry_throws[rules.entry_squares.index(move.end)]
        return self._entry_ruling(position, move.end, cost)

    def _entry_list(self) -> str:
        return ", ".join(str(square) for square in self.rules.entry_squares)

    # ----- what a move does --------------------------------------------------------------
    def _enter(
        self,
        position: UrPosition,
        move: Move,
        piece: int,
        ledger: _Ledger,
        effects: list[Ruling] | None,
    ) -> None:
        rules = self.rules
        book = rules.rules
        side = position.turn
        number, square = piece + 1, move.end
        if move.kind == PAY:
            cost = rules.entry_throws[piece]
            ledger.pay_pot(side, cost)
            if effects is not None:
                effects.append(book.allows("pay", piece=number, square=square, cost=cost))
            return
        if effects is None:
            return
        throw = position.throw
        others = [
            m
            for m in self._candidates(position)
            if m.start != IN and self._move_ruling(position, m) is None
        ]
        key = "enter-instead" if others else "enter"
        effects.append(book.allows(key, piece=number, square=square, throw=throw))

    def _advance(
        self,
        position: UrPosition,
        move: Move,
        piece: int,
        ledger: _Ledger,
        effects: list[Ruling] | None,
    ) -> None:
        """The move itself: U8 bearing off, U7 chance squares passed over, in track order."""
        rules = self.rules
        book = rules.rules
        side = position.turn
        number, start = piece + 1, move.start
        bearing_off = move.end == OFF
        end = BORNE_OFF if bearing_off else move.end
        if effects is not None:
            key = "bear-off" if bearing_off else "distance"
            effects.append(book.allows(key, square=start, throw=position.throw, piece=number))
        for square in rules.passed_chance_squares[(start, end)]:
            if bearing_off and square == rules.bear_off_square:
                continue
            paid = ledger.pay_pot(side, number)
            if effects is not None:
                effects.append(book.effect("chance-pass", piece=number, square=square, paid=paid))
        if bearing_off and start < rules.bear_off_square:
            paid = ledger.pay_pot(side, rules.bear_off_payment)
            if effects is not None:
                effects.append(
                    book.effect(
                        "bear-off-payment",
                        piece=number,
                        square=rules.bear_off_square,
                        paid=paid,
                        owed=rules.bear_off_payment,
                    )
                )

    def _land(
        self,
        position: UrPosition,
        side: int,
        piece: int,
        square: int,
        pieces: list[list[int]],
        ledger: _Ledger,
        effects: list[Ruling] | None,
    ) -> None:
        """What the landing square does: U6 capture, U7 chance square."""
        rules = self.rules
        book = rules.rules
        facing = LAYOUTS[position.layout].facing[side][square]
        enemy = 1 - side
        if facing and facing in pieces[enemy]:
            victim = pieces[enemy].index(facing)
            pieces[enemy][victim] = WAITING
            paid = ledger.pay(enemy, side, rules.capture_payment)
            if effects is not None:
                effects.append(book.effect("capture", square=square, piece=victim + 1, paid=paid))
        if square in rules.chance_squares:
            taken = ledger.take_from_pot(side, piece + 1)
            if effects is not None:
                effects.append(
                    book.effect("chance-gain", piece=piece + 1, square=square, taken=taken)
                )

    def _debts(
        self, position: UrPosition, ledger: _Ledger, effects: list[Ruling] | None
    ) -> list[bool]:
        """U9: who skips a turn: debtors of this move, and a skip still pending."""
        skips = [False, False]
        if position.skip is not None:
            skips[position.skip] = True
        for debtor in ledger.debtors:
            skips[debtor] = True
            if effects is not None:
                effects.append(self.rules.rules.effect("debt", **_side_details(debtor)))
        return skips

    def _next_turn(
        self,
        position: UrPosition,
        board: tuple[tuple[int, ...], tuple[int, ...]],
        ledger: _Ledger,
        effects: list[Ruling] | None,
        *,
        hand_passes: bool = True,
    ) -> tuple[UrPosition, list[Ruling]]:
        """T2, U2: the hand passes (no throw gives another); U9: debtors skip a turn."""
        skips = self._debts(position, ledger, effects)
        turn = 1 - position.turn
        if effects is not None and hand_passes:
            effects.append(self.rules.rules.effect("hand-passes", **_side_details(turn)))
        while skips[turn]:  # a skipped turn costs nothing more
            skips[turn] = False
            if effects is not None:
                effects.append(self.rules.rules.effect("skip", **_side_details(turn)))
            turn = 1 - turn
        skip = 1 - turn if skips[1 - turn] else None
        tokens = (ledger.tokens[WHITE], ledger.tokens[BLACK])
        after = UrPosition(position.layout, board, tokens, ledger.pot, turn, None, skip)
        return after, effects if effects is not None else []

    def _settle(
        self,
        position: UrPosition,
        board: tuple[tuple[int, ...], tuple[int, ...]],
        ledger: _Ledger,
        effects: list[Ruling] | None,
    ) -> tuple[UrPosition, list[Ruling]]:
        """U11: the winner takes the pot, and the loser pays for the pieces left."""
        rules = self.rules
        winner = position.turn
        loser = 1 - winner
        pot = ledger.take_from_pot(winner, ledger.pot)
        on_board = sum(1 for square in board[loser] if 1 <= square <= TRACK)
        waiting = sum(1 for square in board[loser] if square in (NOT_ENTERED, WAITING))
        owed = on_board * rules.loser_pays_on_board + waiting * rules.loser_pays_off_board
        paid = ledger.pay(loser, winner, owed)
        if effects is not None:
            effects.append(rules.rules.effect("win", **_side_details(winner)))
            effects.append(
                rules.rules.effect(
                    "settlement",
                    pot=pot,
                    on_board=on_board,
                    waiting=waiting,
                    owed=owed,
                    paid=paid,
                )
            )
        tokens = (ledger.tokens[WHITE], ledger.tokens[BLACK])
        after = UrPosition(position.layout, board, tokens, ledger.pot, winner, None, None)
        return after, effects if effects is not None else []

    def _pass(self, position: UrPosition, *, explain: bool) -> tuple[UrPosition, list[Ruling]]:
        """U9: no move: pass and pay a token (a debt if there is none to pay)."""
        ledger = _Ledger(position)
        effects: list[Ruling] | None = [] if explain else None
        paid = ledger.pay_pot(position.turn, self.rules.pass_payment)
        if effects is not None:
            effects.append(self.rules.rules.effect("pass-payment", paid=paid))
        return self._next_turn(position, position.pieces, ledger, effects, hand_passes=False)


def _pieces_text(pieces: Sequence[int]) -> str:
    return ",".join(f"{number}@{_where_text(square)}" for number, square in enumerate(pieces, 1))


def _where_text(square: int) -> str:
    if square == NOT_ENTERED:
        return "-"
    if square == WAITING:
        return "x"
    if square == BORNE_OFF:
        return "off"
    return str(square)


def _grid(layout: Layout, position: UrPosition, chance_squares: frozenset[int]) -> list[str]:
    """The board's cells by row and column, each piece on its cell."""
    rosettes = {layout.cell(side, square) for side in (WHITE, BLACK) for square in chance_squares}
    marks = {cell: "*" if cell in rosettes else "." for cell in layout.cells}
    for side, pieces in enumerate(position.pieces):
        for number, square in enumerate(pieces, 1):
            if 1 <= square <= TRACK:
                marks[layout.cell(side, square)] = f"{'WB'[side]}{number}"
    lines = ["   " + " ".join(f"{column:>2}" for column in layout.columns)]
    for row in "123":
        cells = (marks.get(column + row, "") for column in layout.columns)
        lines.append(f"{row}  " + " ".join(f"{cell:>2}" for cell in cells).rstrip())
    return lines


def _side_summary(position: UrPosition, side: int) -> str:
    pieces = position.pieces[side]

    def numbers(state: int) -> str:
        found = [str(n) for n, square in enumerate(pieces, 1) if square == state]
        return " ".join(found) or "-"

    return (
        f"{SIDE_WORDS['en'][side]}: tokens {position.tokens[side]}, "
        f"captured {numbers(WAITING)}, not entered {numbers(NOT_ENTERED)}, "
        f"off {numbers(BORNE_OFF)}"
    )


# ----- reading positions -------------------------------------------------------------------
class _PositionReader:
    """Reads Ur notation and says exactly what is wrong, quoting the text."""

    FIELDS = "BOARD WHITE BLACK TOKENS SIDE THROW SKIP"

    def __init__(self, rules: UrRules, text: str) -> None:
        self.rules = rules
        self.text = text

    def fail(self, problem: str) -> NotationError:
        example = Ur(self.rules).fen()
        return NotationError(
            f"position {self.text!r}: {problem}. Expected: {self.FIELDS}, e.g. '{example}' "
            "(the start; see docs/notation.md)"
        )

    def read(self) -> UrPosition:
        fields = self.text.split()
        if len(fields) != 7:
            raise self.fail(f"found {len(fields)} fields instead of 7")
        board_text, white_text, black_text, tokens_text, side_text, throw_text, skip_text = fields
        layout = self._layout(board_text)
        pieces = (self._pieces(white_text, WHITE), self._pieces(black_text, BLACK))
        self._check_cells(layout, pieces)
        white, black, pot = self._tokens(tokens_text)
        turn = self._side(side_text, "the side to move")
        throw = self._throw(throw_text)
        skip = None if skip_text == "-" else self._side(skip_text, "the side that skips")
        position = UrPosition(layout.key, pieces, (white, black), pot, turn, throw, skip)
        self._check_turn(position)
        return position

    def _layout(self, text: str) -> Layout:
        layout = LAYOUTS_BY_NAME.get(text)
        if layout is None:
            names = " or ".join(repr(name) for name in LAYOUTS_BY_NAME)
            raise self.fail(f"the board is {names}, not {text!r}")
        return layout

    def _pieces(self, text: str, side: int) -> tuple[int, ...]:
        name = SIDE_WORDS["en"][side]
        count = self.rules.pieces
        entries = text.split(",")
        if len(entries) != count:
            raise self.fail(
                f"{name}'s pieces are {count} entries PIECE@WHERE joined by ',', "
                f"e.g. 1@3,2@x,3@-,4@-,5@-"
            )
        squares = []
        for number, entry in enumerate(entries, 1):
            label, at, where = entry.partition("@")
            if not at or label != str(number):
                raise self.fail(f"{name}'s entry {number} is written {number}@WHERE, not {entry!r}")
            squares.append(self._where(where, name, number))
        self._check_order(squares, name)
        return tuple(squares)

    def _where(self, text: str, name: str, number: int) -> int:
        words = {"-": NOT_ENTERED, "x": WAITING, "off": BORNE_OFF}
        if text in words:
            return words[text]
        if is_number(text) and 1 <= int(text) <= TRACK and text == str(int(text)):
            return int(text)
        raise self.fail(
            f"{name}'s piece {number} stands on a square 1-{TRACK}, or is '-' (not entered), "
            f"'x' (captured) or 'off' (borne off), not {text!r}"
        )

    def _check_order(self, squares: list[int], name: str) -> None:
        """U3: pieces first enter in numeric order, so the pieces not entered come last."""
        for number in range(1, len(squares)):
            if squares[number - 1] == NOT_ENTERED and squares[number] != NOT_ENTERED:
                raise self.fail(
                    f"{name}'s piece {number + 1} has entered but piece {number} has not: "
                    "pieces first enter in numeric order (U3)"
                )
        on_board = [s for s in squares if 1 <= s <= TRACK]
        if len(set(on_board)) != len(on_board):
            raise self.fail(f"two of {name}'s pieces stand on the same square")

    def _check_cells(self, layout: Layout, pieces: tuple[tuple[int, ...], ...]) -> None:
        facing = layout.facing[WHITE]
        for square in pieces[WHITE]:
            if 1 <= square <= TRACK and facing[square] and facing[square] in pieces[BLACK]:
                raise self.fail(
                    f"white's square {square} and black's square {facing[square]} are the "
                    f"same cell, {layout.cell(WHITE, square)}: one piece per cell"
                )

    def _tokens(self, text: str) -> tuple[int, int, int]:
        parts = text.split("/")
        if len(parts) != 3 or not all(is_number(part) for part in parts):
            raise self.fail(f"tokens are written WHITE/BLACK/POT, e.g. 15/15/20, not {text!r}")
        white, black, pot = (int(part) for part in parts)
        total = self.rules.total_tokens
        if white + black + pot != total:
            raise self.fail(
                f"the tokens add up to {white + black + pot}, not {total}: the game has "
                f"{total} tokens and never gains or loses one (U10)"
            )
        return white, black, pot

    def _side(self, text: str, what: str) -> int:
        if text not in SIDE_NAMES:
            raise self.fail(f"{what} is 'w' or 'b', not {text!r}")
        return SIDE_NAMES.index(text)

    def _throw(self, text: str) -> int | None:
        if text == "-":
            return None
        scores = self.rules.throws.scores
        if not is_number(text) or int(text) not in scores or text != str(int(text)):
            allowed = ", ".join(str(s) for s in scores)
            raise self.fail(
                f"the pending throw is '-' or its score ({allowed}; 3+no is written 3, "
                f"3+yes is 7), not {text!r}"
            )
        return int(text)

    def _check_turn(self, position: UrPosition) -> None:
        if position.skip == position.turn:
            raise self.fail(
                "the side to move cannot have a skipped turn pending: that turn would "
                "already have been skipped (U9)"
            )
        finished = [side for side in (WHITE, BLACK) if set(position.pieces[side]) == {BORNE_OFF}]
        if len(finished) == 2:
            raise self.fail("both sides cannot have borne off every piece")
        if finished and (position.throw is not None or position.skip is not None):
            raise self.fail("the game is over: no throw or skipped turn can be pending")
        if finished and position.pot:
            raise self.fail("the game is over: the winner has taken the pot, so it is empty")
