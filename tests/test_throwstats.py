"""Throw statistics: the estimate, the exact tests, the log and `companion stats`."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from companion import games, throwlog
from companion.cli import EXIT_BAD_INPUT, EXIT_OK, main
from companion.throws import StickTable, Throw
from companion.throwstats import (
    analyse,
    binomial_test,
    chi_square_sf,
    counts_by_marked,
    wilson_interval,
)


def _migo() -> StickTable:
    table = games.get("senet-migo").throws
    assert isinstance(table, StickTable)
    return table


def _throws(rate: float, count: int, seed: int, sticks: int = 4) -> list[int]:
    """Counts of marked faces of simulated throws, each stick independent."""
    rng = random.Random(seed)
    counts = [0] * (sticks + 1)
    for _ in range(count):
        counts[sum(rng.random() < rate for _ in range(sticks))] += 1
    return counts


@pytest.mark.parametrize(
    ("statistic", "df", "tail"),
    [(3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05), (6.635, 1, 0.01)],
)
def test_chi_square_tail_matches_the_printed_tables(statistic: float, df: int, tail: float) -> None:
    assert chi_square_sf(statistic, df) == pytest.approx(tail, abs=2e-4)


def test_binomial_test_is_exact_on_small_cases() -> None:
    assert binomial_test(0, 10, 0.5) == pytest.approx(2 / 1024)
    assert binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    two_sided = 2 * sum(math.comb(100, k) for k in range(60, 101)) / 2**100
    assert binomial_test(60, 100, 0.5) == pytest.approx(two_sided)


def test_the_wilson_interval_holds_the_rate() -> None:
    low, high = wilson_interval(40, 100)
    assert low < 0.4 < high
    assert high - low == pytest.approx(0.19, abs=0.01)


def test_a_fair_set_is_not_flagged() -> None:
    stats = analyse(_migo(), _throws(0.5, 2000, seed=1))
    assert stats.marked_rate == pytest.approx(0.5, abs=0.02)
    assert not stats.fairness.flagged
    assert not stats.independence.flagged


def test_a_set_with_round_backs_is_unfair_but_still_independent_sticks() -> None:
    stats = analyse(_migo(), _throws(0.4, 2000, seed=2))
    low, high = stats.interval
    assert low < 0.4 < high
    assert stats.fairness.flagged
    assert not stats.independence.flagged
    five = next(row for row in stats.odds if row.score == 5)  # no marked face: 5 in Migo
    assert five.table == pytest.approx(1 / 16)
    assert five.estimated == pytest.approx(0.6**4, rel=0.1)


def test_counts_no_independent_sticks_explain_are_flagged() -> None:
    # A camera that reads "all marked" or "none marked" far too often: as many 0s and 4s
    # as 2s, which sticks of any common rate cannot do.
    stats = analyse(_migo(), [300, 100, 300, 100, 300])
    assert stats.independence.flagged
    assert stats.independence.p_value is not None and stats.independence.p_value < 1e-6


def test_too_few_throws_give_no_verdict() -> None:
    stats = analyse(_migo(), [0, 1, 2, 1, 0])
    assert stats.independence.p_value is None
    assert "too few" in stats.independence.note


def test_scores_name_their_count_of_marked_faces() -> None:
    assert counts_by_marked(_migo(), [5, 1, 1, 4, 3]) == [1, 2, 0, 1, 1]


def test_the_log_keeps_throws_and_skips_a_torn_line(tmp_path: Path) -> None:
    log = tmp_path / "throws.jsonl"
    throwlog.record(log, "senet-migo", Throw(3, False), source="typed")
    throwlog.record(log, "senet-kendall", Throw(6, True), source="typed")
    with log.open("a", encoding="utf-8") as cut:
        cut.write('{"game": "senet-migo", "sco')  # a power cut in the middle of a line
    logged = throwlog.read(log, "senet-migo")
    assert logged.scores == [3]
    assert logged.skipped == 1


def test_stats_command_reports_a_logged_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "throws.jsonl"
    table = _migo()
    for marked, count in enumerate(_throws(0.5, 200, seed=3)):
        for _ in range(count):
            throwlog.record(log, "senet-migo", table.throw(marked), source="typed")
    assert main(["stats", "senet-migo", "--log", str(log), "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["throws"] == 200
    assert [test["name"] for test in report["tests"]] == ["fair sticks", "independent sticks"]
    assert main(["stats", "senet-migo", "--log", str(log)]) == EXIT_OK
    assert "marked faces land up" in capsys.readouterr().out


def test_stats_command_with_no_log_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "senet-kendall", "--log", str(tmp_path / "none.jsonl")]) == EXIT_OK
    assert "No throws" in capsys.readouterr().out


def test_stats_command_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "chess"]) == EXIT_BAD_INPUT
    assert "no rule set named" in capsys.readouterr().err


def test_stats_command_reads_the_terminal_and_the_device_logs_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    table = _migo()
    played_at_terminal = throwlog.default_path()
    played_on_device = tmp_path / "data" / "companion" / "device" / "throws.jsonl"
    for marked in (0, 1, 2):
        throwlog.record(played_at_terminal, "senet-migo", table.throw(marked), source="typed")
    for marked in (3, 4):
        throwlog.record(played_on_device, "senet-migo", table.throw(marked), source="camera")
    assert main(["stats", "senet-migo", "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["throws"] == 5
    assert report["logs"] == [str(played_at_terminal), str(played_on_device)]


def test_stats_command_adds_up_several_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _migo()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    throwlog.record(first, "senet-migo", table.throw(1), source="typed")
    throwlog.record(second, "senet-migo", table.throw(2), source="typed")
    assert main(["stats", "senet-migo", "--log", str(first), "--log", str(second)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "senet-migo: 2 throws logged" in out
    assert f"logs read: {first}, {second}" in out
