"""Honest-throw statistics for sets of two-faced implements (sticks, binary dice).

Real throwing sticks are rarely fair: a rounded back lands down more often. From the
throws a set actually produced, :func:`analyse` estimates the set's own rate of marked
faces, shows how that rate changes the odds of each score compared with the rule set's
table, tests whether the set is fair, and tests whether *any* set of independent sticks
with one common rate explains the counts. A set that fails the second test points at
something else: a camera that misreads, sticks that stick together, a loaded die.

Standard library only: the chi-square tail is computed in closed form (integer degrees of
freedom), the binomial test exactly in log space.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from companion.throws import StickTable

SIGNIFICANCE = 0.01  # below this p-value a set is flagged
MIN_EXPECTED = 5.0  # the chi-square test needs at least this many expected throws per cell


@dataclass(frozen=True)
class ScoreOdds:
    """One score: its chance with the table's rate, with the set's rate, and as observed."""

    score: int
    table: float
    estimated: float
    observed: float


@dataclass(frozen=True)
class Test:
    """A statistical test's result; ``p_value`` is None when there are too few throws."""

    name: str
    statistic: float
    p_value: float | None
    note: str

    @property
    def flagged(self) -> bool:
        return self.p_value is not None and self.p_value < SIGNIFICANCE


@dataclass(frozen=True)
class ThrowStatistics:
    throws: int
    marked_rate: float  # the set's estimated chance that one implement lands marked up
    interval: tuple[float, float]  # 95% Wilson interval of that rate
    odds: tuple[ScoreOdds, ...]
    fairness: Test
    independence: Test


def counts_by_marked(table: StickTable, scores: Sequence[int]) -> list[int]:
    """How many throws showed 0, 1, ... marked faces, from their scores (scores of a stick
    table are distinct, so each score names its count)."""
    marked_of = {table.scores[k]: k for k in range(table.sticks + 1)}
    counts = [0] * (table.sticks + 1)
    for score in scores:
        counts[marked_of[score]] += 1
    return counts


def analyse(table: StickTable, counts: Sequence[int]) -> ThrowStatistics:
    """Statistics of a set from how many throws showed 0, 1, ..., n marked faces."""
    n = table.sticks
    if len(counts) != n + 1:
        raise ValueError(f"expected {n + 1} counts (0 to {n} marked faces), got {len(counts)}")
    throws = sum(counts)
    if throws == 0:
        raise ValueError("no throws recorded yet")
    marked = sum(k * c for k, c in enumerate(counts))
    rate = marked / (n * throws)
    return ThrowStatistics(
        throws=throws,
        marked_rate=rate,
        interval=wilson_interval(marked, n * throws),
        odds=_odds(table, counts, rate),
        fairness=_fairness(marked, n * throws, float(table.marked_rate)),
        independence=_independence(counts, rate),
    )


def _odds(table: StickTable, counts: Sequence[int], rate: float) -> tuple[ScoreOdds, ...]:
    throws = sum(counts)
    estimated = replace(table, marked_rate=Fraction(rate).limit_denominator(10**6))
    fitted = estimated.score_probabilities()
    rows = []
    for score, probability in sorted(table.score_probabilities().items()):
        seen = sum(c for k, c in enumerate(counts) if table.scores[k] == score)
        rows.append(ScoreOdds(score, float(probability), float(fitted[score]), seen / throws))
    return tuple(rows)


def _fairness(marked: int, faces: int, expected_rate: float) -> Test:
    p_value = binomial_test(marked, faces, expected_rate)
    return Test(
        "fair sticks",
        marked / faces,
        p_value,
        f"{marked} marked faces up out of {faces}; a fair set shows {expected_rate:.0%}",
    )


def _independence(counts: Sequence[int], rate: float) -> Test:
    """Pearson's chi-square of the counts against independent sticks of the set's own rate;
    degrees of freedom: cells - 1 - 1 (the rate is estimated from the same counts)."""
    n = len(counts) - 1
    throws = sum(counts)
    expected = [throws * math.comb(n, k) * rate**k * (1 - rate) ** (n - k) for k in range(n + 1)]
    needed = "more throws" if 0 < rate < 1 else "throws that show both faces"
    return _pearson(
        "independent sticks",
        counts,
        expected,
        n - 1,
        note="how far the counts of marked faces are from what independent sticks give",
        too_few=f"too few throws to test: {needed} needed",
    )


def _pearson(
    name: str,
    observed: Sequence[float],
    expected: Sequence[float],
    df: int,
    *,
    note: str,
    too_few: str,
) -> Test:
    """Pearson's chi-square test of ``observed`` against ``expected``, cell by cell; no
    p-value (``too_few`` says why) when a cell expects fewer than ``MIN_EXPECTED``."""
    if min(expected) < MIN_EXPECTED:
        return Test(name, 0.0, None, too_few)
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    return Test(name, statistic, chi_square_sf(statistic, df), note)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half / (1 + z * z / trials)), min(
        1.0, centre + half / (1 + z * z / trials)
    )


def binomial_test(successes: int, trials: int, rate: float) -> float:
    """Exact two-sided binomial test: the chance of an outcome no more likely than this."""
    observed = _log_binomial(successes, trials, rate)
    tolerance = 1e-7
    total = 0.0
    for x in range(trials + 1):
        log_p = _log_binomial(x, trials, rate)
        if log_p <= observed + tolerance:
            total += math.exp(log_p)
    return min(1.0, total)


def _log_binomial(x: int, trials: int, rate: float) -> float:
    return (
        math.lgamma(trials + 1)
        - math.lgamma(x + 1)
        - math.lgamma(trials - x + 1)
        + x * math.log(rate)
        + (trials - x) * math.log(1 - rate)
    )


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``df`` (a positive integer)
    degrees of freedom, in closed form."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    half = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * 2 / math.sqrt(math.pi)  # x^(1/2) / Gamma(3/2)
    for i in range(1, (df + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(1.0, total)


# ----- dice: a set's own face rates (Senet-Modern's two dice, Ur's die and stick) ------------
@dataclass(frozen=True)
class FaceRate:
    """One face of a die: how often it came up, with its 95% Wilson interval."""

    face: int
    count: int
    rate: float
    interval: tuple[float, float]
    fair: float


@dataclass(frozen=True)
class DiceStatistics:
    """A set of like dice: each face's own rate, a fairness test over the faces and, for
    throws of two dice, whether dice with those rates thrown independently explain which
    pairs came up (a camera that misreads or dice stuck together fail it)."""

    throws: int  # readings (one or two dice each)
    dice: int  # dice read in all
    faces: tuple[FaceRate, ...]
    fairness: Test
    independence: Test | None  # None when no throw had two dice


def analyse_dice(faces: int, readings: Sequence[Sequence[int]]) -> DiceStatistics:
    """Statistics of a set of ``faces``-sided dice from the values read, throw by throw
    (a throw of two dice gives two values, in any order)."""
    counts = [0] * faces
    for reading in readings:
        for value in reading:
            if not 1 <= value <= faces:
                raise ValueError(f"a die of {faces} faces cannot show {value}")
            counts[value - 1] += 1
    dice = sum(counts)
    if dice == 0:
        raise ValueError("no throws recorded yet")
    rates = [count / dice for count in counts]
    pairs = [tuple(sorted(reading)) for reading in readings if len(reading) == 2]
    return DiceStatistics(
        throws=len(readings),
        dice=dice,
        faces=tuple(
            FaceRate(face + 1, count, rates[face], wilson_interval(count, dice), 1 / faces)
            for face, count in enumerate(counts)
        ),
        fairness=_fair_faces(counts),
        independence=_independent_pairs(pairs, rates) if pairs else None,
    )


def _fair_faces(counts: Sequence[int]) -> Test:
    """Pearson's chi-square of the faces against a fair die (faces - 1 degrees of freedom)."""
    dice = sum(counts)
    return _pearson(
        "fair dice",
        counts,
        [dice / len(counts)] * len(counts),
        len(counts) - 1,
        note=f"{dice} dice read; a fair die shows each face 1/{len(counts)} of the time",
        too_few=f"too few throws to test: {MIN_EXPECTED:.0f} per face needed",
    )


def _independent_pairs(pairs: Sequence[tuple[int, ...]], rates: Sequence[float]) -> Test:
    """Pearson's chi-square of the pairs read (the dice are not told apart: 21 kinds for
    two six-sided dice) against two independent dice of the set's own face rates; degrees
    of freedom: kinds - 1 - (faces - 1), the rates being estimated from the same throws."""
    faces = len(rates)
    observed: dict[tuple[int, ...], int] = {}
    for pair in pairs:
        observed[pair] = observed.get(pair, 0) + 1
    kinds = [(low, high) for low in range(1, faces + 1) for high in range(low, faces + 1)]
    expected = {
        (low, high): len(pairs) * rates[low - 1] * rates[high - 1] * (1 if low == high else 2)
        for low, high in kinds
    }
    return _pearson(
        "independent dice",
        [observed.get(kind, 0) for kind in expected],
        list(expected.values()),
        len(kinds) - faces,
        note="how far the pairs read are from two dice of these rates thrown independently",
        too_few="too few throws of two dice to test which pairs come up",
    )


@dataclass(frozen=True)
class StickAnswers:
    """A yes/no stick: its own rate of yes, and whether the die's value depends on it."""

    throws: int  # throws with the stick
    yes: int
    rate: float
    interval: tuple[float, float]
    fairness: Test
    independence: Test


def analyse_stick(
    answers: Sequence[tuple[int, bool]], faces: int, expected_yes: float = 0.5
) -> StickAnswers:
    """A stick thrown with a die, from (die value, yes?) pairs: its rate of yes, an exact
    test against ``expected_yes``, and a chi-square test of independence between the
    stick's answer and the die (a misread stick often follows the die's value)."""
    throws = len(answers)
    if throws == 0:
        raise ValueError("no throws with the stick recorded yet")
    yes = sum(1 for _, answer in answers if answer)
    return StickAnswers(
        throws=throws,
        yes=yes,
        rate=yes / throws,
        interval=wilson_interval(yes, throws),
        fairness=Test(
            "fair stick",
            yes / throws,
            binomial_test(yes, throws, expected_yes),
            f"{yes} yes out of {throws}; a fair stick says yes {expected_yes:.0%} of the time",
        ),
        independence=_independent_answers(answers, faces),
    )


def _independent_answers(answers: Sequence[tuple[int, bool]], faces: int) -> Test:
    table = [[0] * faces for _ in range(2)]
    for die, answer in answers:
        table[answer][die - 1] += 1
    throws = len(answers)
    rows = [sum(row) for row in table]
    columns = [table[0][face] + table[1][face] for face in range(faces)]
    cells = [(r, c) for r in range(2) for c in range(faces)]
    return _pearson(
        "stick independent of the die",
        [table[r][c] for r, c in cells],
        [rows[r] * columns[c] / throws for r, c in cells],
        faces - 1,
        note="whether the stick's answer goes with the die's value",
        too_few="too few throws with the stick to test",
    )
