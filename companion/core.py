"""The race-game core shared by every family: moves, rule sets, and the game object.

Modelled on python-chess: a :class:`Move` is a small value that does not know its
board; a :class:`RaceGame` holds a rule set and a position, answers questions
(``legal_moves``, ``explain``, ``is_over``) and keeps a stack for ``push``/``pop``.
A family (Senet, Mehen, ...) subclasses :class:`RaceGame` and fills a short list of
hooks; its variants are frozen :class:`RuleSet` dataclasses of parameters.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import filterfalse
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar, cast

from companion.errors import IllegalMoveError, NotationError, TurnError
from companion.notation import is_number
from companion.rules import Explanation, RuleBook, Ruling, Verdict
from companion.throws import Outcome, Throw, ThrowTable

IN = 0  # a move's start when a piece enters the board
OFF = -1  # a move's end when a piece leaves the board (borne off)
_NO_SQUARE = -2  # start and end of moves that move no piece

PASS_TEXT = "pass"
START_TEXT = "start"
END_TEXT = "end"


@dataclass(frozen=True, slots=True)
class Move:
    """A piece's start and end square along the mover's track.

    ``IN`` as start enters a piece, ``OFF`` as end bears it off. ``kind`` names what
    moves when a square alone does not say it (Mehen's predator ``p``; Ur's ``pay``, an
    entry paid from one's tokens instead of a throw); families say which kinds they know.
    ``then`` is the second half of a turn that moves two pieces (Senet-Modern, one die
    each). Three moves move no piece: :data:`PASS` (no move is possible: the hand passes),
    :data:`START` (the opening throw that decides who plays first) and :data:`END` (the
    players agree to end the game, Mehen's M10). A move does not know its board: the game
    says what it does.

    Notation: ``14-18``, ``26-off``, ``in-5``, ``p88-82``, ``pay-6``, ``3-7,12-14``.
    """

    start: int
    end: int
    label: str = ""  # only for moves that move no piece
    kind: str = ""
    then: Move | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        token = text.strip().lower()
        if token in _SPECIAL_MOVES:
            return _SPECIAL_MOVES[token]
        first, comma, second = token.partition(",")
        if comma:
            if "," in second:
                raise NotationError(f"move {text!r}: a turn moves at most two pieces")
            return replace(_single_move(first, text), then=_single_move(second, text))
        return _single_move(token, text)

    @property
    def moves_a_piece(self) -> bool:
        return self.start != _NO_SQUARE

    @property
    def end_name(self) -> str:
        return "off" if self.end == OFF else str(self.end)

    @property
    def steps(self) -> tuple[Move, ...]:
        """The single-piece moves this move is made of, in order."""
        if self.then is None:
            return (self,)
        return (replace(self, then=None), *self.then.steps)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __str__(self) -> str:
        if not self.moves_a_piece:
            return self.label
        if self.start == IN:
            text = f"{self.kind or 'in'}-{self.end_name}"
        else:
            text = f"{self.kind}{self.start}-{self.end_name}"
        return text if self.then is None else f"{text},{self.then}"


PASS = Move(_NO_SQUARE, _NO_SQUARE, PASS_TEXT)
START = Move(_NO_SQUARE, _NO_SQUARE, START_TEXT)
END = Move(_NO_SQUARE, _NO_SQUARE, END_TEXT)
_SPECIAL_MOVES = {PASS_TEXT: PASS, START_TEXT: START, END_TEXT: END}
_MOVE_PATTERN = re.compile(r"(?P<kind>[a-z]*?)(?P<start>in|\d+)?-(?P<end>off|\d+|[^-]*)")
_MOVE_HELP = "write START-END, e.g. 14-18, 26-off, in-5, or 'pass'"


def _single_move(token: str, text: str) -> Move:
    match = _MOVE_PATTERN.fullmatch(token.strip())
    if match is None:
        raise NotationError(f"move {text!r}: {_MOVE_HELP}")
    kind, start_text, end_text = match.group("kind", "start", "end")
    if start_text is None:  # "pay-6": a kind that enters a piece
        if kind in ("", "in"):
            raise NotationError(f"move {text!r}: {_MOVE_HELP}")
        start_text, kind = "in", kind
    if kind == "in" or len(kind) > _LONGEST_KIND:  # "inin-1" would write back as "in-1"
        raise NotationError(f"move {text!r}: {kind!r} is no kind of move; {_MOVE_HELP}")
    start = _square(start_text, text, IN, "in")
    return Move(start, _square(end_text, text, OFF, "off"), kind=kind)


_LONGEST_KIND = 8


def _square(token: str, text: str, sentinel: int, sentinel_name: str) -> int:
    if token == sentinel_name:
        return sentinel
    if not is_number(token) or int(token) < 1:
        raise NotationError(
            f"move {text!r}: {token!r} is not a square (a number from 1, or '{sentinel_name}')"
        )
    return int(token)


class Position(Protocol):
    """What every family's position offers the core."""

    @property
    def turn(self) -> int: ...

    @property
    def throw(self) -> object | None: ...


P = TypeVar("P", bound=Position)


@dataclass(frozen=True)
class RuleSet:
    """The data of one rule set; families subclass it with their own parameters."""

    name: str
    title: str
    family: ClassVar[type[RaceGame[Any]]]
    rules: RuleBook
    throws: ThrowTable
    players: int = 2
    source: str = ""  # file name of the French source text in the shared seeds folder
    # Integer parameters a player may set for a game (``companion play mehen --option
    # players=4``); a position's notation must say everything they change.
    options: ClassVar[tuple[str, ...]] = ()
    # What a family's own parameters mean, for the docs (companion.ruledocs has the common ones).
    parameter_notes: ClassVar[Mapping[str, str]] = {}

    def game(self, position: str | None = None) -> RaceGame[Any]:
        """A game of this rule set, from the start or from a position in notation."""
        return self.family(self, position)

    def parse_throw(self, text: str) -> Throw:
        return self.throws.parse(text)

    def throw_consequence(self, throw: Throw) -> str:
        """What follows this throw, in words, for people: by default its own extra-throw
        value decides (T2); a rule set where the move decides says so."""
        return "throw again" if throw.extra_turn else "pass the hand"

    def throw_record(self, throw: Throw) -> dict[str, object]:
        """The throw for JSON output: at least ``score`` and ``extra_turn``."""
        return throw.as_dict()

    def with_options(self, options: Mapping[str, str]) -> RuleSet:
        """This rule set with options set from ``NAME=VALUE`` texts; clear errors if not."""
        values: dict[str, int] = {}
        for name, text in options.items():
            if name not in self.options:
                allowed = ", ".join(self.options) or "none"
                raise NotationError(f"{self.name} has no option {name!r} (options: {allowed})")
            if not is_number(text):
                raise NotationError(f"option {name}={text!r}: expected a whole number")
            values[name] = int(text)
        try:
            return replace(self, **cast(dict[str, Any], values)) if values else self
        except ValueError as error:
            raise NotationError(f"{self.name}: {error}") from None


class Tier(NamedTuple):
    """Candidate moves that are only considered when every earlier tier has no legal move.

    ``precedence`` is the rule key cited when a move of this tier is proposed while an
    earlier tier has a legal move (e.g. "backward only when no forward move exists").
    ``check`` returns the ruling that forbids a candidate, or None.
    """

    moves: Sequence[Move]
    check: Callable[[Move], Ruling | None]
    precedence: str = ""


Action = Move | Throw


class RaceGame(ABC, Generic[P]):
    """A game in progress: a rule set, the current position and the history.

    Hooks for a family: :meth:`initial_position`, :meth:`parse_position`,
    :meth:`format_position`, :meth:`tiers`, :meth:`shape_ruling`, :meth:`apply`,
    :meth:`winner_of`; optionally :meth:`pass_ruling`, :meth:`pass_effects`,
    :meth:`preference` and :meth:`with_throw`.
    """

    def __init__(self, rules: RuleSet, position: str | P | None = None) -> None:
        self.rules = rules
        if position is None:
            self.position: P = self.initial_position()
        elif isinstance(position, str):
            self.position = self.parse_position(position)
        else:
            self.position = position
        self._stack: list[tuple[Action, P]] = []

    # Set for each family by __init_subclass__ from the hooks it overrides, so that the hot
    # paths skip the others: whether it may move instead of throwing (random games ask
    # for such moves only then), and whether it has a preference between legal moves.
    acts_before_throw: ClassVar[bool] = False
    has_preference: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.acts_before_throw = cls.before_throw is not RaceGame.before_throw
        cls.has_preference = cls.preference is not RaceGame.preference

    # ----- hooks -------------------------------------------------------------------------
    @abstractmethod
    def initial_position(self) -> P: ...

    @abstractmethod
    def parse_position(self, text: str) -> P:
        """Read a position; raise NotationError that quotes the text."""

    @abstractmethod
    def format_position(self, position: P) -> str: ...

    @abstractmethod
    def tiers(self, position: P) -> Iterator[Tier]:
        """Candidate moves for the pending throw, in order of precedence."""

    @abstractmethod
    def shape_ruling(self, position: P, move: Move) -> Ruling:
        """Why a move that is no candidate at all cannot be played."""

    @abstractmethod
    def apply(self, position: P, move: Move, *, explain: bool = True) -> tuple[P, list[Ruling]]:
        """The position after a legal move, and (when ``explain``) the rulings for what it
        did; without ``explain`` the list is empty and the move costs less."""

    @abstractmethod
    def winner_of(self, position: P) -> int | None:
        """The winning side, or None while the game goes on."""

    @abstractmethod
    def with_throw(self, position: P, throw: Throw) -> P:
        """The position with this throw pending; a family may raise a CompanionError for a
        throw its rules refuse in this position (nothing is recorded then)."""

    def turn_label(self, lang: str = "en") -> str:
        """Who is to play, in words ("white", "player 2")."""
        return (
            f"player {self.position.turn + 1}"
            if lang != "fr"
            else f"joueur {self.position.turn + 1}"
        )

    def board_lines(self) -> list[str]:
        """The board drawn in text, as the players see the real one."""
        return [self.fen()]

    def result_text(self, lang: str = "en") -> str:
        """How the game ended, in words ("white wins"); families with more players, other
        side names or draws override it."""
        winner = self.winner()
        if winner is None and self.is_over():
            return "match nul" if lang == "fr" else "a draw"
        if winner is None:
            return "partie en cours" if lang == "fr" else "the game goes on"
        if lang == "fr":
            names = ("les blancs gagnent", "les noirs gagnent")
            return names[winner] if winner < 2 else f"le joueur {winner + 1} gagne"
        return ("white", "black")[winner] + " wins" if winner < 2 else f"player {winner + 1} wins"

    def pass_ruling(self, position: P, allowed: bool) -> Ruling:
        """The rule that allows a pass when nothing can move, or forbids it otherwise."""
        verdict = Verdict.ALLOWS if allowed else Verdict.FORBIDS
        return self.rules.rules.ruling("pass", verdict)

    def pass_effects(self, position: P) -> list[Ruling]:
        """What an allowed pass does besides passing the hand (Ur: a token paid), for
        :meth:`explain` and :meth:`push`; :meth:`apply_pass` must do the same (none by
        default)."""
        return []

    def preference(self, position: P, move: Move, legal: Sequence[Move]) -> Ruling | None:
        """A rule that excludes some moves once the legal ones are known (none by default)."""
        return None

    def throw_options(self, position: P) -> Mapping[str, Sequence[Outcome]]:
        """The ways the player to move may throw (Ur: the die alone or with the stick), each
        with its outcomes and their exact probabilities; one way by default."""
        return {"": self.rules.throws.outcomes()}

    def before_throw(self, position: P) -> Tier | None:
        """Moves a player may make instead of throwing (Ur: pay to enter a piece), or None.

        With no throw pending, :meth:`legal_moves` lists the ones its check allows,
        :meth:`explain` judges them and :meth:`push` plays them through :meth:`apply`.
        """
        return None

    # ----- questions ---------------------------------------------------------------------
    def fen(self) -> str:
        """The current position in the rule set's one-line notation."""
        return self.format_position(self.position)

    def is_over(self) -> bool:
        return self.winner_of(self.position) is not None

    def winner(self) -> int | None:
        return self.winner_of(self.position)

    def legal_moves(self) -> list[Move]:
        """The moves the pending throw allows; [PASS] when none. With no throw pending:
        the moves that may replace the throw (usually none)."""
        position = self.position
        if position.throw is None:  # also the case once the game is over
            return self._moves_before_throw(position)
        for moves, check, _ in self.tiers(position):
            # The candidates no ruling forbids (a Ruling is always true, None false).
            legal = list(filterfalse(check, moves))
            # A preference only ever chooses between legal moves; most families have none.
            if len(legal) > 1 and self.has_preference:
                return [move for move in legal if self.preference(position, move, legal) is None]
            if legal:
                return legal
        return [PASS]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def explain(self, move: Move) -> Explanation:
        """Whether ``move`` may be played with the pending throw, and by which rule."""
        instead = self._instead_of_throwing(move)
        if instead is not None:
            return instead
        position = self._position_awaiting_move()
        legal_now = self.legal_moves()
        if move == PASS:
            allowed = legal_now == [PASS]
            effects = self.pass_effects(position) if allowed else []
            return Explanation(move, allowed, (self.pass_ruling(position, allowed), *effects))
        forbidding = self._forbidding_ruling(position, move, legal_now)
        if forbidding is not None:
            return Explanation(move, False, (forbidding,))
        _, effects = self.apply(position, move)
        return Explanation(move, True, tuple(effects))

    def _forbidding_ruling(self, position: P, move: Move, legal_now: list[Move]) -> Ruling | None:
        """None when ``move`` is legal, else the ruling that forbids it.

        The same notation can be a candidate of two tiers (Senet-Migo's 28-27 with a 1 is a
        backward move and a fall into the water): it is legal when one of them allows it.
        When none does, a tier whose own rules allow the move but that must wait for an
        earlier tier explains best ("only when nothing else moves").
        """
        earlier_legal: list[Move] = []
        forbidden: list[Ruling] = []
        for tier in self.tiers(position):
            if move in tier.moves:
                ruling = tier.check(move)
                if ruling is None and not earlier_legal:
                    return self.preference(position, move, legal_now)
                if ruling is None:
                    example = str(earlier_legal[0])
                    return self.rules.rules.forbids(tier.precedence, example=example)
                forbidden.append(ruling)
            earlier_legal.extend(m for m in tier.moves if tier.check(m) is None)
        return forbidden[0] if forbidden else self.shape_ruling(position, move)

    # ----- actions -----------------------------------------------------------------------
    def throw(self, throw: Throw | str | int) -> Throw:
        """Record the throw the players see; it becomes the pending throw."""
        if self.is_over():
            raise TurnError(f"the game is over; no more throws ({self.fen()})")
        if self.position.throw is not None:
            raise TurnError(
                f"a throw of {self.position.throw} is waiting for its move; "
                f"play it (or pass) first ({self.fen()})"
            )
        parsed = self._as_throw(throw)
        after = self.with_throw(self.position, parsed)  # a family may refuse it (raises)
        self._stack.append((parsed, self.position))
        self.position = after
        return parsed

    def push(self, move: Move | str) -> list[Ruling]:
        """Play a legal move; returns the rulings for what it did."""
        if isinstance(move, str):
            move = Move.parse(move)
        explanation = self.explain(move)
        if not explanation.legal:
            ruling = explanation.deciding
            raise IllegalMoveError(
                f"{move} is not allowed: {ruling.long()} [{ruling.rule.id}] ({self.fen()})",
                ruling,
            )
        before = self.position
        if move == PASS:
            self.position = self.apply_pass(before)
            effects = list(explanation.rulings)
        else:
            self.position, effects = self.apply(before, move)
        self._stack.append((move, before))
        return effects

    def set_throw(self, throw: Throw | str | int) -> Throw:
        """Make this the pending throw, replacing any throw already pending (undo brings
        the replaced one back)."""
        if self.position.throw is None:
            return self.throw(throw)
        parsed = self._as_throw(throw)
        after = self.with_throw(self.position, parsed)
        self._stack.append((parsed, self.position))
        self.position = after
        return parsed

    def throw_fast(self, throw: Throw) -> None:
        """Record a throw drawn by :meth:`random_throw`, with no throw pending and the
        game going on, without checking it (random games). Other throws go through
        :meth:`throw`."""
        before = self.position
        self.position = self.with_throw(before, throw)
        self._stack.append((throw, before))

    def push_fast(self, move: Move) -> None:
        """Play a move taken from :meth:`legal_moves` without checking or explaining it
        (random games, search). A move from anywhere else must go through :meth:`push`."""
        before = self.position
        if move.start == _NO_SQUARE and move == PASS:  # the cheap test first: speed
            self.position = self.apply_pass(before)
        else:
            self.position = self.apply(before, move, explain=False)[0]
        self._stack.append((move, before))

    def pop(self) -> Action:
        """Undo the last throw or move; returns it."""
        if not self._stack:
            raise TurnError(f"nothing to undo ({self.fen()})")
        action, self.position = self._stack.pop()
        return action

    @property
    def history(self) -> list[Action]:
        return [action for action, _ in self._stack]

    @abstractmethod
    def apply_pass(self, position: P) -> P:
        """The position after the hand passes with nothing moved."""

    def random_throw(self, rng: random.Random) -> Throw:
        """A throw drawn with the rule set's exact probabilities."""
        return self.rules.throws.draw(rng)

    # ----- helpers -----------------------------------------------------------------------
    def _moves_before_throw(self, position: P) -> list[Move]:
        tier = self.before_throw(position)
        if tier is None or self.is_over():
            return []
        return [move for move in tier.moves if tier.check(move) is None]

    def _instead_of_throwing(self, move: Move) -> Explanation | None:
        """The explanation of a move made instead of a throw, or None for other moves."""
        position = self.position
        if position.throw is not None or self.is_over():
            return None
        tier = self.before_throw(position)
        if tier is None or move not in tier.moves:
            return None
        forbidding = tier.check(move)
        if forbidding is not None:
            return Explanation(move, False, (forbidding,))
        _, effects = self.apply(position, move)
        return Explanation(move, True, tuple(effects))

    def _position_awaiting_move(self) -> P:
        if self.is_over():
            raise TurnError(f"the game is over ({self.fen()})")
        if self.position.throw is None:
            raise TurnError(f"no throw is pending: throw first ({self.fen()})")
        return self.position

    def _as_throw(self, throw: Throw | str | int) -> Throw:
        if isinstance(throw, Throw):
            if throw in self.rules.throws.throws:
                return throw
            raise NotationError(
                f"throw {throw}: {self.rules.name} cannot throw that ({self.fen()})"
            )
        return self.rules.parse_throw(str(throw))
