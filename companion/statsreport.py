"""``companion stats``: what the logged throws say about a set of sticks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion import throwlog
from companion.core import RuleSet
from companion.throws import StickTable
from companion.throwstats import SIGNIFICANCE, Test, ThrowStatistics, analyse, counts_by_marked

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def report(rules: RuleSet, *, log: str | None, as_json: bool) -> int:
    table = rules.throws
    if not isinstance(table, StickTable):
        print(
            f"companion: statistics cover sets of two-faced sticks; {rules.name} throws "
            f"{table.describe()}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    path = Path(log) if log else throwlog.default_path()
    logged = throwlog.read(path, rules.name)
    scores = [score for score in logged.scores if score in table.scores]
    skipped = logged.skipped + len(logged.scores) - len(scores)
    if not scores:
        print(f"No throws of {rules.name} logged in {path} yet: play with 'companion play'.")
        return EXIT_OK
    statistics = analyse(table, counts_by_marked(table, scores))
    if as_json:
        print(json.dumps(_as_dict(rules.name, statistics, skipped), indent=2))
    else:
        print("\n".join(_lines(rules.name, statistics, skipped)))
    return EXIT_OK


def _lines(name: str, stats: ThrowStatistics, skipped: int) -> list[str]:
    low, high = stats.interval
    lines = [
        f"{name}: {stats.throws} throws logged"
        + (f" ({skipped} unreadable lines skipped)" if skipped else ""),
        f"marked faces land up {stats.marked_rate:.1%} of the time (95%: {low:.1%} to {high:.1%})",
        "",
        f"{'score':>5}  {'table':>7}  {'your set':>8}  {'seen':>7}",
    ]
    for row in stats.odds:
        lines.append(
            f"{row.score:>5}  {row.table:>7.1%}  {row.estimated:>8.1%}  {row.observed:>7.1%}"
        )
    lines += ["", _test_line(stats.fairness), _test_line(stats.independence)]
    return lines


def _test_line(test: Test) -> str:
    if test.p_value is None:
        return f"{test.name}: {test.note}"
    verdict = "FLAGGED" if test.flagged else "ok"
    return f"{test.name}: p = {test.p_value:.3g} ({verdict} below {SIGNIFICANCE}); {test.note}"


def _as_dict(name: str, stats: ThrowStatistics, skipped: int) -> dict[str, object]:
    return {
        "game": name,
        "throws": stats.throws,
        "skipped_lines": skipped,
        "marked_rate": stats.marked_rate,
        "marked_rate_95": list(stats.interval),
        "odds": [vars(row) for row in stats.odds],
        "tests": [
            {
                "name": test.name,
                "statistic": test.statistic,
                "p_value": test.p_value,
                "flagged": test.flagged,
                "note": test.note,
            }
            for test in (stats.fairness, stats.independence)
        ],
    }
