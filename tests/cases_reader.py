"""Rule cases written as data: reads ``tests/cases/<rule set>.txt`` and checks each case.

A case file holds one case per line, so that anyone who reads the rules can add one
without writing Python (the format is described at the top of each file)::

    [S4] Attack swaps; 2 adjacent protect each other; 3+ adjacent form a wall
    # a comment: the rule, a quotation of the source
    POSITION | MOVE | legal S2 distance + S4 swap + T2 hand-passes => AFTER
    POSITION | MOVE | illegal S4 wall
    POSITION | *    | moves 10-15 22-17
    new      | -    | setup S1 pieces => POSITION
    POSITION | -    | invalid

A line ``[ID] title`` opens a section: the cases below it illustrate rule ``ID``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

import pytest

from companion import games
from companion.core import Move
from companion.errors import IllegalMoveError, NotationError
from companion.rules import Explanation, Rule, Ruling

CASES_DIR = Path(__file__).resolve().parent / "cases"
NEW_GAME = "new"  # POSITION: the rule set's starting position
ALL_MOVES = "*"  # MOVE: the list of legal moves
NO_MOVE = "-"  # MOVE: none (setup and invalid cases)
AFTER = "=>"
THEN = "+"


class Kind(Enum):
    """What a case asserts."""

    LEGAL = "legal"  # the move is allowed: these rulings, then this position
    ILLEGAL = "illegal"  # the move is refused by this rule
    MOVES = "moves"  # exactly these moves are legal
    SETUP = "setup"  # the starting position of a new game
    INVALID = "invalid"  # the position is refused

    @property
    def allows(self) -> bool:
        """Whether a case of this kind shows something the rules allow."""
        return self in (Kind.LEGAL, Kind.SETUP)

    @property
    def refuses(self) -> bool:
        """Whether a case of this kind shows something the rules refuse."""
        return self in (Kind.ILLEGAL, Kind.INVALID)


@dataclass(frozen=True)
class Citation:
    """A rule as a case names it: the id players cite and the rule book's key."""

    rule_id: str
    key: str

    def __str__(self) -> str:
        return f"{self.rule_id} {self.key}"

    @classmethod
    def of(cls, rule: Rule) -> Citation:
        return cls(rule.id, rule.key)


@dataclass(frozen=True)
class Case:
    """One line of a case file."""

    rule_set: str
    path: Path
    line: int
    section: str  # the rule id of the section the case stands in
    position: str
    move: str
    kind: Kind
    rulings: tuple[Citation, ...] = ()
    moves: tuple[str, ...] = ()
    after: str | None = None

    @property
    def name(self) -> str:
        """The case's test id: file name and line number."""
        return f"{self.path.name}:{self.line}"


class CaseError(ValueError):
    """A line of a case file that cannot be read; the message names the file and line."""


def case_file(rule_set: str) -> Path:
    return CASES_DIR / f"{rule_set}.txt"


def read_cases(rule_set: str, path: Path | None = None) -> list[Case]:
    """Every case of ``path`` (by default the rule set's own case file)."""
    path = case_file(rule_set) if path is None else path
    cases: list[Case] = []
    section = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        if text.startswith("["):
            section = _section(text, where)
            continue
        if not section:
            raise CaseError(f"{where}: a case before the first [ID] section line")
        cases.append(_case(rule_set, path, number, section, text, where))
    return cases


def _section(text: str, where: str) -> str:
    rule_id, closed, _ = text[1:].partition("]")
    if not closed or not rule_id or " " in rule_id:
        raise CaseError(f"{where}: a section line is '[ID] title', e.g. '[S4] Walls'")
    return rule_id


def _case(rule_set: str, path: Path, line: int, section: str, text: str, where: str) -> Case:
    fields = [field.strip() for field in text.split("|")]
    if len(fields) != 3:
        raise CaseError(f"{where}: expected 'POSITION | MOVE | EXPECTATION', found {text!r}")
    position, move, expectation = fields
    claim, arrow, after_text = (part.strip() for part in expectation.partition(AFTER))
    words = claim.split()
    if not words:
        raise CaseError(f"{where}: no expectation")
    try:
        kind = Kind(words[0])
    except ValueError:
        kinds = ", ".join(k.value for k in Kind)
        raise CaseError(f"{where}: the expectation starts with one of {kinds}") from None
    after = after_text if arrow else None
    case = Case(rule_set, path, line, section, position, move, kind, after=after)
    rest = claim[len(words[0]) :].strip()
    if kind is Kind.MOVES:
        _expect(move == ALL_MOVES and after is None and bool(rest), where, "'* | moves M ...'")
        return replace(case, moves=tuple(rest.split()))
    if kind is Kind.INVALID:
        _expect(move == NO_MOVE and not rest and after is None, where, "'POSITION | - | invalid'")
        return case
    rulings = tuple(_citation(part, where) for part in rest.split(THEN))
    if kind is Kind.SETUP:
        _expect(
            position == NEW_GAME and move == NO_MOVE and len(rulings) == 1 and bool(after),
            where,
            "'new | - | setup ID key => POSITION'",
        )
    elif kind is Kind.ILLEGAL:
        _expect(len(rulings) == 1 and after is None, where, "'POSITION | MOVE | illegal ID key'")
    else:
        _expect(move not in (ALL_MOVES, NO_MOVE), where, "a move for 'legal'")
    return replace(case, rulings=rulings)


def _citation(text: str, where: str) -> Citation:
    words = text.split()
    if len(words) != 2:
        raise CaseError(f"{where}: a rule is cited as 'ID key', e.g. 'S4 wall', not {text!r}")
    return Citation(words[0], words[1])


def _expect(condition: bool, where: str, form: str) -> None:
    if not condition:
        raise CaseError(f"{where}: expected the form {form}")


# ----- checking ------------------------------------------------------------------------


def citations(rulings: Iterable[Ruling]) -> list[Citation]:
    return [Citation.of(ruling.rule) for ruling in rulings]


def check_case(case: Case) -> None:
    """Play ``case`` against the engine and assert what it expects.

    The messages spell out what was expected and what the engine did: this module is not
    a test module, so pytest does not rewrite its assertions.
    """
    rules = games.get(case.rule_set)
    if case.kind is Kind.INVALID:
        with pytest.raises(NotationError):
            rules.game(case.position)
        return
    if case.kind is Kind.SETUP:
        rule = rules.rules[case.rulings[0].key]
        assert Citation.of(rule) == case.rulings[0], f"the book says {Citation.of(rule)}"
        _same("starting position", rules.game().fen(), case.after)
        return
    game = rules.game(case.position)
    before = game.fen()
    _same("position read back", before, case.position)
    if case.kind is Kind.MOVES:
        expected_moves = sorted(str(Move.parse(text)) for text in case.moves)
        _same("legal moves", sorted(str(move) for move in game.legal_moves()), expected_moves)
        return
    move = Move.parse(case.move)
    explanation = game.explain(move)
    legal = case.kind is Kind.LEGAL
    _same("explain(): legal, rulings", _summary(explanation), _expected(legal, case.rulings))
    assert explanation.deciding.forbids is not legal, "the deciding ruling's verdict"
    _same("move in legal_moves()", move in game.legal_moves(), legal)
    if not legal:
        with pytest.raises(IllegalMoveError):
            game.push(move)
        _same("position after a refused push", game.fen(), before)
        return
    effects = game.push(move)
    _same("push(): rulings", [str(c) for c in citations(effects)], [str(c) for c in case.rulings])
    if case.after is not None:
        _same("position after the move", game.fen(), case.after)
    _same("pop()", game.pop(), move)
    _same("position after pop()", game.fen(), before)


def _same(what: str, got: object, expected: object) -> None:
    assert got == expected, f"{what}: expected {expected!r}, the engine gives {got!r}"


def _summary(explanation: Explanation) -> str:
    legal = "legal" if explanation.legal else "illegal"
    return " + ".join([legal, *(str(c) for c in citations(explanation.rulings))])


def _expected(legal: bool, rulings: Iterable[Citation]) -> str:
    return " + ".join(["legal" if legal else "illegal", *(str(c) for c in rulings)])


# ----- coverage ------------------------------------------------------------------------


def cited_keys(cases: Iterable[Case]) -> set[str]:
    """Rule keys that some case names, deciding or as an effect."""
    return {citation.key for case in cases for citation in case.rulings}


def miscited(cases: Iterable[Case], book: Mapping[str, Rule]) -> list[str]:
    """Citations whose key is not in the book, or whose id is not that rule's id."""
    wrong: list[str] = []
    for case in cases:
        for citation in case.rulings:
            rule = book.get(citation.key)
            if rule is None or rule.id != citation.rule_id:
                wrong.append(f"{case.name}: {citation}")
    return wrong


def sections_lacking(
    cases: Iterable[Case], ids: Iterable[str], effects_only: Iterable[str] = ()
) -> list[str]:
    """Rule ids whose section lacks an allowed case, or a refused one (unless effects_only)."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for case in cases:
        if case.kind.allows:
            allowed.add(case.section)
        if case.kind.refuses:
            refused.add(case.section)
    lacking: list[str] = []
    for rule_id in ids:
        if rule_id not in allowed:
            lacking.append(f"{rule_id}: no allowed case")
        if rule_id not in refused and rule_id not in set(effects_only):
            lacking.append(f"{rule_id}: no refused case")
    return lacking
