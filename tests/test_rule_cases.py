"""Every rule set against its case file, tests/cases/NAME.txt, one line a case.

Every rule id (DECISIONS.md's, the turn rules T1-T2 where they apply, and the general
source rules G1-G2) has a section of cases with a case the rules allow and one they refuse,
except rules that only say what a legal move does next (listed as effects only); every key
of a rule book is named by at least one case, except a rule the rule set's own parameters
leave unused (Finkel's and Masters' two readings of the rosettes, R7). The ids below are
written from DECISIONS.md, not read from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from cases_reader import Case, check_case, cited_keys, miscited, read_cases, sections_lacking

from companion import games


@dataclass(frozen=True)
class Coverage:
    rule_ids: tuple[str, ...]  # every id of the rule book, and no other
    effects_only: tuple[str, ...] = ("T2",)  # rules that never refuse a move
    unused_keys: tuple[str, ...] = ()  # rules no case can cite under these parameters


def _numbered(letter: str, last: int) -> tuple[str, ...]:
    return tuple(f"{letter}{n}" for n in range(1, last + 1))


ROSETTE_RULES = ("R6", "R8")  # capture and another throw: what a move does
COVERAGE = {
    "senet-migo": Coverage(("T1", "T2", "G1", "G2", *_numbered("S", 11))),
    "senet-kendall": Coverage(("T1", "T2", "G1", "G2", *_numbered("K", 8))),
    "senet-modern": Coverage(("G1", "T2", *_numbered("N", 8))),
    "mehen": Coverage(("T1", "T2", "G1", *_numbered("M", 10))),
    "ur-tablet": Coverage(("T1", "T2", "G1", *_numbered("U", 11))),
    "ur-finkel": Coverage(("T1", *_numbered("R", 10)), ROSETTE_RULES, ("rosette-capture",)),
    "ur-masters": Coverage(("T1", *_numbered("R", 10)), ROSETTE_RULES, ("rosette-safe",)),
}
NAMES = games.names()
CASES = [case for name in NAMES for case in read_cases(name)]


def test_every_rule_set_has_a_case_file_and_its_ids() -> None:
    assert sorted(COVERAGE) == sorted(NAMES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_key_has_a_case(name: str) -> None:
    book = games.get(name).rules
    uncited = set(book) - cited_keys(read_cases(name))
    assert sorted(uncited) == sorted(COVERAGE[name].unused_keys)


@pytest.mark.parametrize("name", NAMES)
def test_cases_cite_the_rule_books_ids(name: str) -> None:
    assert miscited(read_cases(name), games.get(name).rules) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_id_has_allowed_and_refused_cases(name: str) -> None:
    coverage = COVERAGE[name]
    book_ids = {rule.id for rule in games.get(name).rules.values()}
    assert sorted(book_ids - set(coverage.rule_ids)) == [], "a rule id of the book has no entry"
    assert sorted(set(coverage.rule_ids) - book_ids) == [], "a rule id of DECISIONS.md has no rule"
    lacking = sections_lacking(
        read_cases(name), list(coverage.rule_ids), list(coverage.effects_only)
    )
    assert lacking == []
