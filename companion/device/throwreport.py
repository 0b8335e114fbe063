"""The throw statistics screen's pages, from the table's throw log.

Page 1: how many throws, the set's estimated rate of marked faces, the fairness test's
p-value and a flag; page 2: the odds of each score from the table, from the set's rate,
and as seen. The statistics themselves are :mod:`companion.throwstats`.
"""

from __future__ import annotations

from companion.core import RuleSet
from companion.device import texts
from companion.throwlog import LoggedThrows
from companion.throws import StickTable
from companion.throwstats import SIGNIFICANCE, Test, analyse, counts_by_marked

Page = tuple[str, tuple[str, ...]]


def pages(rules: RuleSet, log: LoggedThrows, lang: str) -> tuple[Page, ...]:
    def t(key: str, **values: object) -> str:
        return texts.text(key, lang, **values)

    title = t("stats-title", game=rules.name)
    table = rules.throws
    if not isinstance(table, StickTable):
        return ((title, (t("stats-sticks-only"),)),)
    scores = [score for score in log.scores if score in table.scores]
    if not scores:
        return ((title, (t("stats-none"),)),)
    stats = analyse(table, counts_by_marked(table, scores))
    low, high = stats.interval
    flagged = stats.fairness.flagged or stats.independence.flagged
    summary = (
        t("stats-throws", count=stats.throws),
        t("stats-rate", rate=_percent(stats.marked_rate), low=_percent(low), high=_percent(high)),
        _test_line(t("stats-fair"), stats.fairness, lang),
        _test_line(t("stats-independent"), stats.independence, lang),
        t("stats-flag" if flagged else "stats-ok", level=SIGNIFICANCE),
    )
    odds = tuple(
        f"{row.score:>2}  {_percent(row.table):>4} {_percent(row.estimated):>4} "
        f"{_percent(row.observed):>4}"
        for row in stats.odds
    )
    return ((f"{title} 1/2", summary), (f"{title} 2/2", (t("stats-odds-head"), *odds)))


def _test_line(name: str, test: Test, lang: str) -> str:
    if test.p_value is None:
        return texts.text("stats-too-few", lang, test=name)
    flag = " !" if test.flagged else ""
    return texts.text("stats-p", lang, test=name, p=f"{test.p_value:.2g}", flag=flag)


def _percent(value: float) -> str:
    return f"{value:.0%}"
