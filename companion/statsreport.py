"""``companion stats``: what the logged throws say about a set of sticks."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from companion import throwlog
from companion.core import RuleSet
from companion.errors import NotationError
from companion.games.modern import DiceTable
from companion.games.ur import DieAndStick
from companion.throws import StickTable, Throw, ThrowTable
from companion.throwstats import (
    SIGNIFICANCE,
    DiceStatistics,
    StickAnswers,
    Test,
    ThrowStatistics,
    analyse,
    analyse_dice,
    analyse_stick,
    counts_by_marked,
)

EXIT_OK, EXIT_BAD_INPUT = 0, 2
AnalysedTable = StickTable | DiceTable | DieAndStick  # the throws that have statistics


@dataclass(frozen=True)
class DiceAnalysis:
    """Dice: each face's own rate and, for Ur's die, its yes/no stick (None: none thrown)."""

    dice: DiceStatistics
    stick: StickAnswers | None = None


def analyse_throws(table: AnalysedTable, throws: Sequence[Throw]) -> ThrowStatistics | DiceAnalysis:
    """What the logged ``throws`` (read by ``table``, at least one) say about the set."""
    if isinstance(table, StickTable):
        return analyse(table, counts_by_marked(table, [throw.score for throw in throws]))
    if isinstance(table, DiceTable):
        return DiceAnalysis(analyse_dice(table.faces, [throw.dice for throw in throws]))
    readings = [die_and_answer(table, throw) for throw in throws]
    dice = analyse_dice(table.faces, [[die] for die, _ in readings])
    answers = [(die, answer) for die, answer in readings if answer is not None]
    stick = analyse_stick(answers, table.faces, float(table.yes_rate)) if answers else None
    return DiceAnalysis(dice, stick)


def report(rules: RuleSet, *, logs: list[Path], as_json: bool) -> int:
    """Print the statistics of the throws of ``rules`` logged in ``logs``."""
    table = rules.throws
    if not isinstance(table, AnalysedTable):
        print(
            f"companion: statistics cover sticks, binary dice and ordinary dice; {rules.name} "
            f"throws {table.describe()}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    logged = throwlog.read_all(logs, rules.name)
    throws = readable_throws(table, logged.readings)
    skipped = logged.skipped + len(logged.readings) - len(throws)
    if not throws:
        where = ", ".join(str(path) for path in logs)
        print(f"No throws of {rules.name} logged in {where} yet: play with 'companion play'.")
        return EXIT_OK
    analysis = analyse_throws(table, throws)
    if isinstance(analysis, ThrowStatistics):
        output = _stick_output(rules.name, analysis, skipped)
    else:
        output = _dice_output(rules.name, analysis.dice, analysis.stick, skipped)
        if isinstance(table, DieAndStick) and analysis.stick is not None:
            _add_stick_odds(output, table, analysis.dice, analysis.stick)
    if as_json:
        print(json.dumps({**output.data, "logs": [str(path) for path in logs]}, indent=2))
    else:
        print("\n".join([*output.lines, "", "logs read: " + ", ".join(map(str, logs))]))
    return EXIT_OK


def readable_throws(table: ThrowTable, readings: list[str]) -> list[Throw]:
    """The logged readings the rule set's table reads (others are counted as skipped)."""
    throws = []
    for reading in readings:
        try:
            throw = table.parse(reading)
        except NotationError:
            continue
        if throw in table.throws:
            throws.append(throw)
    return throws


class _Output:
    def __init__(self, lines: list[str], data: dict[str, object]) -> None:
        self.lines = lines
        self.data = data


def _stick_output(name: str, stats: ThrowStatistics, skipped: int) -> _Output:
    return _Output(_lines(name, stats, skipped), _as_dict(name, stats, skipped))


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
        "tests": [_test_dict(test) for test in (stats.fairness, stats.independence)],
    }


def _heading(name: str, throws: int, skipped: int) -> str:
    unreadable = f" ({skipped} unreadable lines skipped)" if skipped else ""
    return f"{name}: {throws} throws logged{unreadable}"


def _dice_output(
    name: str, dice: DiceStatistics, stick: StickAnswers | None, skipped: int
) -> _Output:
    lines = [
        _heading(name, dice.throws, skipped),
        f"{dice.dice} dice read; each face's own rate:",
        "",
        f"{'face':>4}  {'fair':>6}  {'seen':>6}  {'95% interval':>15}",
    ]
    for row in dice.faces:
        low, high = row.interval
        lines.append(
            f"{row.face:>4}  {row.fair:>6.1%}  {row.rate:>6.1%}  {low:>6.1%} to {high:.1%}"
        )
    tests = [dice.fairness, *([dice.independence] if dice.independence else [])]
    lines += ["", *(_test_line(test) for test in tests)]
    data: dict[str, object] = {
        "game": name,
        "throws": dice.throws,
        "skipped_lines": skipped,
        "dice": dice.dice,
        "faces": [
            {"face": r.face, "count": r.count, "rate": r.rate, "rate_95": list(r.interval)}
            for r in dice.faces
        ],
    }
    if stick is not None:
        low, high = stick.interval
        lines += [
            "",
            f"the stick says yes {stick.rate:.1%} of {stick.throws} throws with it "
            f"(95%: {low:.1%} to {high:.1%})",
            _test_line(stick.fairness),
            _test_line(stick.independence),
        ]
        tests += [stick.fairness, stick.independence]
        data["stick"] = {"throws": stick.throws, "yes": stick.yes, "yes_rate_95": [low, high]}
    data["tests"] = [_test_dict(test) for test in tests]
    return _Output(lines, data)


def _add_stick_odds(
    output: _Output, table: DieAndStick, dice: DiceStatistics, stick: StickAnswers
) -> None:
    """Ur's die and yes/no stick: the odds of each score with the stick at the set's rates."""
    odds = _stick_odds(table, dice, stick)
    output.lines += [
        "",
        "with the stick:",
        f"{'score':>5}  {'table':>7}  {'your set':>8}",
        *(f"{score:>5}  {fair:>7.1%}  {yours:>8.1%}" for score, fair, yours in odds),
    ]
    output.data["odds_with_stick"] = [
        {"score": score, "table": fair, "estimated": yours} for score, fair, yours in odds
    ]


def die_and_answer(table: DieAndStick, throw: Throw) -> tuple[int, bool | None]:
    """The die's value and the stick's answer (None: thrown without the stick)."""
    text = str(throw)
    die, plus, answer = text.partition("+")
    if not plus:
        return throw.score, None
    return int(die), answer == "yes"


def _stick_odds(
    table: DieAndStick, dice: DiceStatistics, stick: StickAnswers
) -> list[tuple[int, float, float]]:
    fair = table.score_probabilities(stick=True)
    yours: dict[int, float] = {}
    for row in dice.faces:
        for answer, chance in ((False, 1 - stick.rate), (True, stick.rate)):
            score = table.reading(row.face, answer).score
            yours[score] = yours.get(score, 0.0) + row.rate * chance
    return [(score, float(fair[score]), yours.get(score, 0.0)) for score in sorted(fair)]


def _test_dict(test: Test) -> dict[str, object]:
    return {
        "name": test.name,
        "statistic": test.statistic,
        "p_value": test.p_value,
        "flagged": test.flagged,
        "note": test.note,
    }
