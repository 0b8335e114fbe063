"""Throw statistics of dice: Senet-Modern's two dice, Ur's die and stick, binary dice."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion import games, throwlog
from companion.cli import EXIT_OK, main
from companion.games.modern import DiceTable
from companion.games.ur import DieAndStick
from companion.throwstats import analyse_dice, analyse_stick


def _pairs(weights: Sequence[float], count: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    faces = range(1, len(weights) + 1)
    return [(rng.choices(faces, weights)[0], rng.choices(faces, weights)[0]) for _ in range(count)]


def test_fair_dice_are_not_flagged() -> None:
    stats = analyse_dice(6, _pairs([1] * 6, 1500, seed=1))
    assert stats.dice == 3000
    assert all(row.interval[0] < 1 / 6 < row.interval[1] for row in stats.faces)
    assert not stats.fairness.flagged
    assert stats.independence is not None and not stats.independence.flagged


def test_a_loaded_die_shows_its_own_face_rate_and_is_flagged() -> None:
    weights = [1, 1, 1, 1, 1, 2]  # six comes up 2/7 of the time
    stats = analyse_dice(6, _pairs(weights, 1500, seed=2))
    six = stats.faces[5]
    assert six.interval[0] < 2 / 7 < six.interval[1]
    assert stats.fairness.flagged
    # loaded but thrown independently: the pairs are what dice of these rates give
    assert stats.independence is not None and not stats.independence.flagged


def test_pairs_no_independent_dice_explain_are_flagged() -> None:
    # A camera that reads the second die as a copy of the first half of the time: fair
    # faces, far too many doubles.
    rng = random.Random(3)
    pairs = [(a, a if rng.random() < 0.5 else b) for a, b in _pairs([1] * 6, 1500, seed=4)]
    stats = analyse_dice(6, pairs)
    assert not stats.fairness.flagged
    assert stats.independence is not None and stats.independence.flagged


def test_few_throws_give_no_verdict_and_single_dice_no_pair_test() -> None:
    stats = analyse_dice(6, [(1,), (4,), (6,)])
    assert stats.fairness.p_value is None and "too few" in stats.fairness.note
    assert stats.independence is None
    with pytest.raises(ValueError, match="cannot show 7"):
        analyse_dice(6, [(7,)])


def test_a_stick_that_follows_the_die_is_flagged() -> None:
    rng = random.Random(5)
    honest = [(rng.randint(1, 4), rng.random() < 0.5) for _ in range(800)]
    assert not analyse_stick(honest, 4).independence.flagged
    misread = [(die, die >= 3 or rng.random() < 0.2) for die, _ in honest]
    assert analyse_stick(misread, 4).independence.flagged
    heavy = [(die, rng.random() < 0.35) for die, _ in honest]
    stats = analyse_stick(heavy, 4)
    assert stats.fairness.flagged and stats.interval[0] < 0.35 < stats.interval[1]


def _log_throws(log: Path, name: str, count: int, seed: int) -> None:
    rules = games.get(name)
    rng = random.Random(seed)
    for _ in range(count):
        throwlog.record(log, name, rules.throws.draw(rng), source="typed")


@pytest.mark.parametrize(
    ("name", "tests"),
    [
        ("senet-modern", ["fair dice", "independent dice"]),
        ("ur-tablet", ["fair dice", "fair stick", "stick independent of the die"]),
        ("ur-finkel", ["fair sticks", "independent sticks"]),
        ("ur-masters", ["fair sticks", "independent sticks"]),
    ],
)
def test_stats_command_reports_every_kind_of_throw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, tests: list[str]
) -> None:
    log = tmp_path / "throws.jsonl"
    _log_throws(log, name, 400, seed=6)
    with log.open("a", encoding="utf-8") as torn:
        torn.write(json.dumps({"game": name, "throw": "9,9", "score": 18}) + "\n")
    assert main(["stats", name, "--log", str(log), "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["throws"] == 400
    assert report["skipped_lines"] == 1
    assert [test["name"] for test in report["tests"]] == tests
    assert not any(test["flagged"] for test in report["tests"])
    assert main(["stats", name, "--log", str(log)]) == EXIT_OK
    assert f"{name}: 400 throws logged" in capsys.readouterr().out


def test_ur_stats_give_the_odds_of_each_score_with_the_sets_own_stick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = games.get("ur-tablet").throws
    assert isinstance(table, DieAndStick)
    log = tmp_path / "throws.jsonl"
    rng = random.Random(7)
    for _ in range(600):  # a stick that says yes three times in four
        throwlog.record(
            log, "ur-tablet", table.reading(rng.randint(1, 4), rng.random() < 0.75), source="typed"
        )
    assert main(["stats", "ur-tablet", "--log", str(log), "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    low, high = report["stick"]["yes_rate_95"]
    assert low < 0.75 < high
    ten = next(row for row in report["odds_with_stick"] if row["score"] == 10)  # 4+yes
    assert ten["table"] == pytest.approx(1 / 8)
    assert ten["estimated"] == pytest.approx(0.75 / 4, abs=0.03)
    assert any(t["name"] == "fair stick" and t["flagged"] for t in report["tests"])


def test_modern_single_die_throws_count_their_one_face(tmp_path: Path) -> None:
    table = games.get("senet-modern").throws
    assert isinstance(table, DiceTable)
    log = tmp_path / "throws.jsonl"
    throwlog.record(log, "senet-modern", table.throw_of(3, 5), source="typed")
    throwlog.record(log, "senet-modern", table.throw_of(6), source="typed")
    assert throwlog.read(log, "senet-modern").readings == ["3,5", "6"]
    assert main(["stats", "senet-modern", "--log", str(log)]) == EXIT_OK
