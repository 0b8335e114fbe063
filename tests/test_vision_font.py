"""The font of the d4 in play (``vision.font``): numerals that fit the profile's glyphs too
loosely, game after game, are of a font it does not know, and their throws are refused
until the d4 is enrolled."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.d4_font import measure
from vision.font import (
    FAMILIAR_LEVEL,
    FAMILIAR_WINDOW,
    FONT_TOLD_BY,
    PICTURES_FEWEST,
    FontInPlay,
    refused_for_font,
)
from vision.kit import kit_named
from vision.numerals import Scores, judged
from vision.observation import MARKED, YES, Box, Implement, Kind, Observation, Reason, Refusal
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import scene, write_set
from vision.tray import calibrate


def _box(step: int) -> Box:
    return Box(100 * step, 0, 100 * step + 40, 40)


def test_the_font_is_judged_by_the_median_of_the_last_dice_read() -> None:
    font = FontInPlay()
    assert (font.familiarity, font.unknown) == (None, False)
    font.told(FAMILIAR_LEVEL - 0.1, _box(0))
    assert font.unknown  # judged from the first die read
    assert not font.sure  # but one die does not tell its font from its blur
    assert font.why().startswith("the d4 read fits the profile's numerals by 0.60,")
    font.told(0.85, _box(1))
    font.told(0.80, _box(2))
    assert font.familiarity == pytest.approx(0.80)
    assert not font.unknown and font.sure
    for step in range(3, 3 + FAMILIAR_WINDOW // 2 + 1):
        font.told(0.6, _box(step))
    assert font.unknown  # another die, of a font not known: a majority of the last dice
    for step in range(10, 10 + FAMILIAR_WINDOW // 2 + 1):
        font.told(0.85, _box(step))
    assert not font.unknown  # the known die back


def test_the_font_is_blamed_after_three_dice_read_or_three_throws_refused_for_it() -> None:
    font = FontInPlay()
    font.told(FAMILIAR_LEVEL - 0.1, _box(0))
    for _ in range(3):
        font.doubted(_box(0))  # one throw, read until its readings agree
    assert font.unknown and not font.sure
    font.doubted(_box(1))
    font.doubted(_box(2))  # dice refused for the font that the rules could not read
    assert font.sure
    font.told(0.9, _box(3))
    assert not font.unknown and not font.sure  # a known font after all: doubts start over
    font.told(0.5, _box(4))
    font.doubted(_box(4))
    assert font.unknown and font.sure  # three dice read: their median blames the font


def test_the_same_throw_read_again_counts_once() -> None:
    font = FontInPlay()
    font.told(0.85, _box(0))
    font.told(0.85, _box(1))
    for _ in range(FAMILIAR_WINDOW):
        font.told(0.5, _box(2))  # one throw read until its readings agree
    assert font.familiarity == pytest.approx(0.85)


def test_pictures_apart_judge_their_font_by_every_die_read_in_them() -> None:
    font = FontInPlay.of_pictures()
    for _ in range(PICTURES_FEWEST - 1):
        font.told(FAMILIAR_LEVEL - 0.1)
    assert not font.judged and not font.unknown  # too few dice to tell a font from blur
    font = FontInPlay.of_pictures()
    for _ in range(FAMILIAR_WINDOW + 3):
        font.told(0.85)  # pictures of their own: none is a throw read again
    for _ in range(FAMILIAR_WINDOW + 2):
        font.told(FAMILIAR_LEVEL - 0.1)
    assert font.familiarity == pytest.approx(0.85)  # every die counts, not the last seven
    font.told(FAMILIAR_LEVEL - 0.1)
    font.told(FAMILIAR_LEVEL - 0.1)
    assert font.unknown
    assert "the 21 d4s read fit the profile's numerals by 0.60 in the median" in font.why()


def test_a_font_not_known_refuses_the_numbered_d4s_and_keeps_the_rest() -> None:
    numbered = Implement(Kind.D4, _box(0), 0.9, value=3)
    binary = Implement(Kind.D4, _box(1), 0.9, face=MARKED)  # read by its painted tips
    stick = Implement(Kind.YESNO, _box(2), 0.9, face=YES)
    hand = Refusal(Reason.HAND, _box(3))
    observation = Observation((numbered, binary, stick), (hand,))
    known, unknown = FontInPlay(), FontInPlay()
    known.told(0.85)
    unknown.told(FAMILIAR_LEVEL - 0.05)
    assert refused_for_font(observation, known) is observation
    refused = refused_for_font(observation, unknown)
    assert refused.implements == (binary, stick)
    assert refused.refusals == (hand, Refusal(Reason.UNKNOWN_NUMERALS, _box(0), unknown.why()))
    no_numbered_die = Observation((binary, stick))
    assert refused_for_font(no_numbered_die, unknown) is no_numbered_die


def _scores(best: int, score: float, rest: float = 0.4) -> Scores:
    return {value: score if value == best else rest for value in (1, 2, 3, 4)}


def test_a_reading_tells_how_well_its_best_numbering_fits_per_numeral() -> None:
    corners: list[Scores | None] = [_scores(1, 0.8), _scores(4, 0.7), None]
    reading = judged(_scores(3, 0.9), corners, top_numerals=3)
    # The top numerals, then two base corners seen (the third corner's value is free).
    assert reading.familiarity == pytest.approx((0.9 + 0.8 + 0.7) / 3)


def test_a_game_of_a_d4_whose_font_the_glyphs_never_learned_is_refused_to_be_enrolled() -> None:
    throws = [scene(7100 + i, "ur-nostick", tray_seed=43, d4_font="stroke") for i in range(16)]
    game = Reader(calibrate(throws[0].empty), default_profile(), learn_hand=True)
    kit = kit_named("ur-nostick")
    reasons: list[Reason] = []
    for throw in throws:
        observation = game.read(throw.frame, kit)
        dice = [i for i in observation.implements if i.kind is Kind.D4]
        assert all(die.value == throw.objects[0]["value"] for die in dice)
        reasons += [refusal.reason for refusal in observation.refusals]
    assert reasons.count(Reason.UNKNOWN_NUMERALS) >= 6
    blamed = reasons.index(Reason.UNKNOWN_NUMERALS)  # and every die after, once sure
    assert set(reasons[blamed:]) == {Reason.UNKNOWN_NUMERALS}
    # The font is blamed once three dice were read; a die before is refused as unclear.
    assert Reason.UNKNOWN_NUMERALS not in reasons[: FONT_TOLD_BY - 1]
    assert "enrol the d4" in Reason.UNKNOWN_NUMERALS.message
    assert game.d4_font is not None and game.d4_font.unknown


def test_the_benchmark_reads_a_folder_as_one_game_and_alone(tmp_path: Path) -> None:
    kits = ("ur-nostick",)
    folder = write_set(tmp_path / "stroke", 14, 6, 0.0, kits=kits, d4_font="stroke")
    report = measure(folder, default_profile())
    assert set(report) == {"alone", "one game", "one folder"}
    assert {sum(counts.values()) for counts in report.values()} == {14}
    assert "unknown font" not in report["alone"]
    assert report["alone"].get("right", 0) > 0  # read alone, each throw by its numerals
    game, judged, alone = report["one game"], report["one folder"], report["alone"]
    assert game.get("unknown font", 0) >= 10  # from the first die read
    # Read alone, then judged together: every die read is refused for its font.
    assert judged.get("unknown font", 0) == alone.get("right", 0) + alone.get("wrong", 0)
    for together in (game, judged):
        assert together.get("wrong", 0) == together.get("right", 0) == 0
