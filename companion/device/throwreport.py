"""The throw statistics screen's pages, from the table's throw log.

Sticks (and binary dice): page 1 gives how many throws, the set's estimated rate of marked
faces, the fairness tests' p-values and a flag; page 2 the odds of each score from the
table, from the set's rate, and as seen. Dice (Senet-Modern's two d6, Ur's die and yes/no
stick): page 1 the tests and the flag, page 2 each face's own rate. The statistics
themselves are :mod:`companion.throwstats`; reading the log is :mod:`companion.statsreport`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.core import RuleSet
from companion.device import texts
from companion.statsreport import AnalysedTable, analyse_throws, readable_throws
from companion.throwlog import LoggedThrows
from companion.throwstats import SIGNIFICANCE, DiceStatistics, StickAnswers, Test, ThrowStatistics

Page = tuple[str, tuple[str, ...]]
Texts = Callable[..., str]


def pages(rules: RuleSet, log: LoggedThrows, lang: str) -> tuple[Page, ...]:
    def t(key: str, **values: object) -> str:
        return texts.text(key, lang, **values)

    title = t("stats-title", game=rules.name)
    table = rules.throws
    if not isinstance(table, AnalysedTable):
        return ((title, (t("stats-sticks-only"),)),)
    throws = readable_throws(table, log.readings)
    if not throws:
        return ((title, (t("stats-none"),)),)
    analysis = analyse_throws(table, throws)
    if isinstance(analysis, ThrowStatistics):
        return _stick_pages(analysis, title, t)
    return _dice_pages(analysis.dice, analysis.stick, title, t)


def _stick_pages(stats: ThrowStatistics, title: str, t: Texts) -> tuple[Page, ...]:
    low, high = stats.interval
    summary = (
        t("stats-throws", count=stats.throws),
        t("stats-rate", rate=_percent(stats.marked_rate), low=_percent(low), high=_percent(high)),
        _test_line(t("stats-fair"), stats.fairness, t),
        _test_line(t("stats-independent"), stats.independence, t),
        _verdict((stats.fairness, stats.independence), t),
    )
    odds = tuple(
        f"{row.score:>2}  {_percent(row.table):>4} {_percent(row.estimated):>4} "
        f"{_percent(row.observed):>4}"
        for row in stats.odds
    )
    return ((f"{title} 1/2", summary), (f"{title} 2/2", (t("stats-odds-head"), *odds)))


def _dice_pages(
    dice: DiceStatistics, stick: StickAnswers | None, title: str, t: Texts
) -> tuple[Page, ...]:
    tests: list[Test] = [dice.fairness]
    summary = [t("stats-dice", count=dice.throws, dice=dice.dice)]
    summary.append(_test_line(t("stats-fair"), dice.fairness, t))
    if dice.independence is not None:
        tests.append(dice.independence)
        summary.append(_test_line(t("stats-independent"), dice.independence, t))
    if stick is not None:
        low, high = stick.interval
        rate, low_text, high_text = _percent(stick.rate), _percent(low), _percent(high)
        summary.append(t("stats-stick", rate=rate, low=low_text, high=high_text))
        tests += [stick.fairness, stick.independence]
        summary.append(_test_line(t("stats-stick-fair"), stick.fairness, t))
        summary.append(_test_line(t("stats-stick-die"), stick.independence, t))
    summary.append(_verdict(tests, t))
    faces = tuple(
        f"{face.face:>2}  {_percent(face.fair):>4} {_percent(face.rate):>4} "
        f"({_percent(face.interval[0])}-{_percent(face.interval[1])})"
        for face in dice.faces
    )
    return (
        (f"{title} 1/2", tuple(summary)),
        (f"{title} 2/2", (t("stats-faces-head"), *faces)),
    )


def _verdict(tests: Sequence[Test], t: Texts) -> str:
    flagged = any(test.flagged for test in tests)
    return t("stats-flag" if flagged else "stats-ok", level=SIGNIFICANCE)


def _test_line(name: str, test: Test, t: Texts) -> str:
    if test.p_value is None:
        return t("stats-too-few", test=name)
    flag = " !" if test.flagged else ""
    return t("stats-p", test=name, p=f"{test.p_value:.2g}", flag=flag)


def _percent(value: float) -> str:
    return f"{value:.0%}"
