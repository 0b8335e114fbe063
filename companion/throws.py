"""Throws: what the implements show, turned into a score and an extra-throw-or-pass rule.

Every rule set has a throw table (:class:`ThrowTable`): it reads what the players see,
lists every outcome with its exact probability and draws throws at random. A
:class:`StickTable` is the table of a rule set played with throwing sticks: how many
marked faces are up decides the score and whether the same player throws again.
Families with other implements (dice, a die and a stick) define their own tables.
Probabilities are exact fractions, for fair implements unless a set says otherwise.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import accumulate
from math import comb
from random import Random
from typing import Protocol

from companion.errors import NotationError
from companion.notation import is_number

MARKED = "M"
PLAIN = "P"


@dataclass(frozen=True, slots=True)
class Throw:
    """A throw as the rules see it: the score and whether the thrower throws again.

    ``dice`` holds the separate values when the rules use them one by one (two dice:
    ``score`` is their sum). ``shown`` is how the throw was read when that matters to
    people but not to the rules (``3+no`` scores like ``3``); it is not part of equality.
    """

    score: int
    extra_turn: bool
    dice: tuple[int, ...] = ()
    shown: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.shown:
            return self.shown
        if self.dice:
            return ",".join(str(value) for value in self.dice)
        return str(self.score)

    def as_dict(self) -> dict[str, object]:
        """The throw for JSON: ``score`` is a list when the dice count one by one."""
        score: int | list[int] = list(self.dice) if self.dice else self.score
        return {"score": score, "extra_turn": self.extra_turn}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One line of a throw table: what the implements show, the throw, its probability."""

    shown: str
    throw: Throw
    probability: Fraction

    @property
    def marked(self) -> int:
        """Marked faces up, for sticks and binary dice."""
        return self.shown.count(MARKED)


class ThrowTable(Protocol):
    """What the core, the command line and the statistics ask of a throw table."""

    def parse(self, text: str) -> Throw:
        """A throw as the players write it; NotationError, quoting the text, if not."""

    def outcomes(self) -> tuple[Outcome, ...]:
        """Every way the implements can land, with its throw and exact probability."""

    @property
    def throws(self) -> frozenset[Throw]:
        """Every throw the table can produce."""

    def draw(self, rng: Random) -> Throw:
        """A throw drawn with the table's exact probabilities."""

    def probability(self, throw: Throw) -> Fraction:
        """The chance of this throw."""

    def describe(self) -> str:
        """One English sentence on the implements and how they are read, for the docs."""


@dataclass(frozen=True)
class StickTable:
    """Throw table for ``sticks`` two-faced sticks.

    ``scores[k]`` is the score when ``k`` marked faces are up; ``extra`` lists the scores
    after which the same player throws again. ``marked_rate`` is the chance that one
    stick lands marked face up (1/2 for fair sticks).
    """

    sticks: int
    scores: tuple[int, ...]
    extra: frozenset[int]
    marked_rate: Fraction = Fraction(1, 2)

    def __post_init__(self) -> None:
        if len(self.scores) != self.sticks + 1:
            raise ValueError("a stick table needs one score per count of marked faces")

    def throw(self, marked: int) -> Throw:
        """The throw for ``marked`` marked faces up."""
        if not 0 <= marked <= self.sticks:
            raise NotationError(f"{marked} marked faces is impossible with {self.sticks} sticks")
        score = self.scores[marked]
        return Throw(score, score in self.extra)

    def read_faces(self, faces: str) -> Throw:
        """The throw for faces written one letter per stick, e.g. ``MMPP``."""
        letters = faces.strip().upper()
        if len(letters) != self.sticks or set(letters) - {MARKED, PLAIN}:
            raise NotationError(
                f"throw {faces!r}: expected {self.sticks} letters, each {MARKED} (marked face up) "
                f"or {PLAIN} (plain face up), e.g. {MARKED * 2 + PLAIN * (self.sticks - 2)}"
            )
        return self.throw(letters.count(MARKED))

    def for_score(self, score: int) -> Throw:
        """The throw that has this score (stick scores are all distinct)."""
        if score not in self.scores:
            allowed = ", ".join(str(s) for s in sorted(self.scores))
            raise NotationError(f"throw {score}: this rule set scores only {allowed}")
        return Throw(score, score in self.extra)

    def parse(self, text: str) -> Throw:
        """A throw given as faces (``MMPP``) or as a score (``3``)."""
        token = text.strip()
        if is_number(token):
            return self.for_score(int(token))
        return self.read_faces(token)

    def outcomes(self) -> tuple[Outcome, ...]:
        """Every count of marked faces, with its throw and exact probability."""
        return self._outcomes

    @cached_property
    def _outcomes(self) -> tuple[Outcome, ...]:
        p = self.marked_rate
        n = self.sticks
        return tuple(
            Outcome(
                MARKED * k + PLAIN * (n - k), self.throw(k), comb(n, k) * p**k * (1 - p) ** (n - k)
            )
            for k in range(n + 1)
        )

    @cached_property
    def throws(self) -> frozenset[Throw]:
        """Every throw this table can produce."""
        return frozenset(o.throw for o in self._outcomes)

    @cached_property
    def cumulative_weights(self) -> tuple[float, ...]:
        """Running totals of the outcomes' probabilities, for drawing throws at random."""
        return tuple(accumulate(float(o.probability) for o in self._outcomes))

    @cached_property
    def _drawing(self) -> tuple[tuple[float, ...], tuple[Throw, ...], int]:
        """For :meth:`draw`, in one attribute: running totals, throws, last index."""
        return self.cumulative_weights, tuple(o.throw for o in self._outcomes), self.sticks

    def draw(self, rng: Random) -> Throw:
        """A throw drawn with the table's exact probabilities.

        The same draw as ``rng.choices(outcomes, cum_weights=...)``, one ``rng.random()``
        per throw, without its argument checks (random games draw a throw a move).
        """
        weights, throws, last = self._drawing
        return throws[bisect(weights, rng.random() * weights[last], 0, last)]

    def probability(self, throw: Throw) -> Fraction:
        return self.score_probabilities().get(throw.score, Fraction(0))

    def describe(self) -> str:
        return (
            f"{self.sticks} sticks, each with a marked face ({MARKED}) and a plain face "
            f"({PLAIN}); the number of marked faces up gives the score. Probabilities are "
            f"exact, for sticks that land marked face up with probability {self.marked_rate}."
        )

    def score_probabilities(self) -> Mapping[int, Fraction]:
        """Probability of each score."""
        table: dict[int, Fraction] = {}
        for outcome in self.outcomes():
            score = outcome.throw.score
            table[score] = table.get(score, Fraction(0)) + outcome.probability
        return table
