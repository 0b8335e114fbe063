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
    if min(expected) < MIN_EXPECTED:
        needed = "more throws" if 0 < rate < 1 else "throws that show both faces"
        return Test("independent sticks", 0.0, None, f"too few throws to test: {needed} needed")
    statistic = sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))
    return Test(
        "independent sticks",
        statistic,
        chi_square_sf(statistic, n - 1),
        "how far the counts of marked faces are from what independent sticks give",
    )


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
