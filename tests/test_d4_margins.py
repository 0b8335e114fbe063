"""The d4 margins benchmark: what each reading rule holds back, on judged dice."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from d4_scores import FAINT_TOP_SEEN_ONCE, FAR_FROM_CENTRE

from benchmarks.d4_margins import (
    LEFT_OUT,
    Judged,
    judgements,
    nearest_wrong,
    rules_left_out,
    tally,
)
from vision.numerals import RULES, ReadingRules, judged
from vision.profile import default_profile
from vision.synthetic import write_set

# Dev 0147's numerals: refused only by the whole numbering's margin.
APEX, CORNERS = FAR_FROM_CENTRE


def test_every_rule_can_be_left_out_alone() -> None:
    assert set(LEFT_OUT) == {rule.name for rule in fields(ReadingRules)}
    for name, rules in LEFT_OUT.items():
        names = [rule.name for rule in fields(ReadingRules)]
        changed = [rule for rule in names if getattr(rules, rule) != getattr(RULES, rule)]
        assert changed == [name]


def test_a_rule_left_out_counts_the_dice_it_held_back() -> None:
    thrown_one = Judged("set", "right.png", 1, APEX, CORNERS, 2)
    thrown_four = Judged("set", "wrong.png", 4, APEX, CORNERS, 2)  # the same numerals, misread
    assert judged(APEX, CORNERS, top_numerals=2).value is None
    assert tally([thrown_one, thrown_four]) == {"refused": 2}
    left_out = rules_left_out([thrown_one, thrown_four])
    assert left_out["min_story_margin"] == {"wrong": 1, "more_right": 1}
    assert left_out["base_veto_margin"] == {"wrong": 0, "more_right": 0}


def test_a_faint_top_numeral_seen_once_is_held_back_by_its_rule() -> None:
    apex, corners = FAINT_TOP_SEEN_ONCE
    misread = Judged("set", "wrong.png", 2, apex, corners, 1)
    assert tally([misread]) == {"refused": 1}
    assert rules_left_out([misread])["lone_top_score"] == {"wrong": 1, "more_right": 0}


def test_the_nearest_wrong_numbering_is_told_with_the_margin_asked() -> None:
    nearest = nearest_wrong([Judged("set", "wrong.png", 4, APEX, CORNERS, 2)])
    assert list(nearest) == ["clear"]  # the top numerals say 1, the wrong value, clearly
    row = nearest["clear"]
    assert row["asked"] == RULES.min_story_margin
    assert 0.0 < float(str(row["widest_wrong_margin"])) < RULES.min_story_margin
    assert row["die"] == "set/wrong.png"
    assert nearest_wrong([Judged("set", "right.png", 1, APEX, CORNERS, 2)]) == {}


def test_judgements_keep_every_numbered_d4_the_reader_judges(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", 12, seed=3, trouble_share=0.0)
    labels = (folder / "labels.jsonl").read_text(encoding="utf-8")
    numbered = labels.count('"kit": "ur"') + labels.count('"kit": "ur-nostick"')
    dice = judgements(folder, default_profile())
    assert numbered > 0
    assert 0 < len(dice) <= numbered
    assert all(die.folder == "set" and die.thrown in (1, 2, 3, 4) for die in dice)
    # What the rules are weighed on: each die judged again from its kept scores is read as
    # the reader read it. (Whether it is read right depends on the font: under Bookworm's
    # OpenCV the generator draws numerals the shipped glyphs never learned, see
    # docs/vision.md.)
    assert [die.read(RULES) for die in dice] == [die.by_reader for die in dice]
    assert tally(dice)["right"] > 0
