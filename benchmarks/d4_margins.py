"""How far the reading of a d4's numerals stands from a silent error, on labelled folders.

Every numbered d4 the reader judges in throws of one such die (the kits ``ur`` and
``ur-nostick``) is kept with its numerals' scores and the value thrown. The report tells:

- per folder, the d4s judged, read right, read wrong and refused;
- per rule of ``vision.numerals.judged``, what leaving that rule alone out would do: the
  d4s then read wrong (what the rule holds back) and read right (what it costs);
- the widest margin of a wrong best numbering, where the top numerals are faint, hesitate,
  or say that wrong value clearly, beside the margin the rules ask in that case: the
  nearer the two, the less a new set of pictures needs to differ to be read wrong.

Run: ``.venv/bin/python -m benchmarks.d4_margins DIR [DIR ...] [--profile P] [--json]``,
for instance on the development set and copies of it made noisier, softer or compressed
harder (see ``benchmarks/vision_drift.py``). About 10 seconds a folder of 180 throws.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from unittest import mock

import cv2

from vision.dataset import Scene, load_scenes
from vision.evaluate import KEPT_TRAYS, Recent
from vision.hand import Hand
from vision.numerals import (
    RULES,
    D4Reading,
    ReadingRules,
    Scores,
    Templates,
    _mean_scores,
    _read_prepared,
    best_numbering,
    die_numerals,
    judged,
    top_lead,
)
from vision.observation import Kind
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.tetra import Tetra
from vision.tray import Image, read_image

# Each rule left out: the rules with its constant set where it holds nothing back.
LEFT_OUT = {
    "min_apex_score": replace(RULES, min_apex_score=0.0),
    "min_apex_margin": replace(RULES, min_apex_margin=0.0),
    "min_story_margin": replace(RULES, min_story_margin=0.0),
    "base_veto_margin": replace(RULES, base_veto_margin=float("inf")),
    "base_deficit": replace(RULES, base_deficit=float("inf")),
    "min_story_margin_alone": replace(RULES, min_story_margin_alone=0.0),
    "apex_slack": replace(RULES, apex_slack=1.0),
    "faint_apex_score": replace(RULES, faint_apex_score=0.0),
    "lone_top_score": replace(RULES, lone_top_score=0.0),
    "small_die_edge": replace(RULES, small_die_edge=0.0),
    "small_die_margin": replace(RULES, small_die_margin=0.0),
    "small_die_sure_margin": replace(RULES, small_die_sure_margin=0.0),
}


@dataclass(frozen=True)
class Judged:
    """One d4's numerals as scored, and the value it was thrown."""

    folder: str
    image: str
    thrown: int
    apex: Scores
    corners: list[Scores | None]
    top_numerals: int  # how many top numerals were sharp enough to read
    edge: float = float("inf")  # the die's edge, picture pixels
    by_reader: int | None = None  # the value the reader itself read (None: refused)

    def read(self, rules: ReadingRules = RULES) -> int | None:
        seen = self.top_numerals
        return judged(self.apex, self.corners, rules, top_numerals=seen, edge=self.edge).value


class _Recorder:
    """Stands in for the reader's d4 reading: reads as it does, and keeps the scores."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.scene: Scene | None = None
        self.found: list[Judged] = []

    def __call__(
        self, frame: Image, tetra: Tetra, prepared: Templates, hand: Hand | None = None
    ) -> D4Reading:
        thrown = None if self.scene is None else _thrown(self.scene)
        numerals = die_numerals(frame, tetra)
        apex = _mean_scores(numerals.apex, prepared)
        reading = _read_prepared(numerals, prepared, hand)
        if self.scene is not None and thrown is not None and apex is not None:
            corners = [_mean_scores(patches, prepared) for patches in numerals.base]
            image = self.scene.image.name
            seen, edge = numerals.sharp_apex, numerals.edge
            self.found.append(
                Judged(self.folder, image, thrown, apex, corners, seen, edge, reading.value)
            )
        return reading


def judgements(folder: Path, profile: Profile) -> list[Judged]:
    """Every numbered d4 the reader judges in the folder's throws of one such die."""
    recorder = _Recorder(folder.name)
    readers: Recent[Path, Reader] = Recent(KEPT_TRAYS)
    with mock.patch("vision.reader.read_d4", recorder):
        for scene in _numbered_d4_throws(folder):
            reader = readers.get(scene.tray, partial(_reader, scene, profile))
            recorder.scene = scene
            reader.read(read_image(scene.image), scene.kit)
    return recorder.found


def _reader(scene: Scene, profile: Profile) -> Reader:
    return Reader(scene.calibrated(), profile)


def _numbered_d4_throws(folder: Path) -> Iterator[Scene]:
    for scene in load_scenes(folder):
        if scene.kit.d4 == 1 and not scene.kit.binary_d4:
            yield scene


def _thrown(scene: Scene) -> int | None:
    values = [item.value for item in scene.objects if item.kind is Kind.D4]
    return values[0] if len(values) == 1 else None


def tally(judged_dice: list[Judged], rules: ReadingRules = RULES) -> Counter[str]:
    counts: Counter[str] = Counter()
    for die in judged_dice:
        value = die.read(rules)
        counts["refused" if value is None else "right" if value == die.thrown else "wrong"] += 1
    return counts


def rules_left_out(judged_dice: list[Judged]) -> dict[str, dict[str, int]]:
    """Per rule, the d4s read wrong and the more read right with that rule alone left out."""
    now = tally(judged_dice)
    report = {}
    for rule, rules in LEFT_OUT.items():
        without = tally(judged_dice, rules)
        report[rule] = {
            "wrong": without["wrong"],
            "more_right": without["right"] - now["right"],
        }
    return report


def nearest_wrong(judged_dice: list[Judged]) -> dict[str, dict[str, object]]:
    """The widest margin of a wrong best numbering, by what its top numerals said of that
    wrong value, with the margin the rules ask in that case."""
    widest: dict[str, tuple[float, str]] = {}
    for die in judged_dice:
        top, margin = best_numbering(die.apex, die.corners)
        if top == die.thrown:
            continue
        case = _case(die.apex, top)
        if margin > widest.get(case, (-1.0, ""))[0]:
            widest[case] = (margin, f"{die.folder}/{die.image}")
    asked = {
        "faint": RULES.min_story_margin_alone,
        "hesitant": RULES.min_story_margin_alone,
        "clear": RULES.min_story_margin,
    }
    return {
        case: {"widest_wrong_margin": round(margin, 3), "die": die, "asked": asked[case]}
        for case, (margin, die) in sorted(widest.items())
    }


def _case(apex: Scores, value: int) -> str:
    """How the top numerals speak of ``value``: faint (they barely look like numerals),
    hesitant (another value scores about as well or better) or clear."""
    if apex[value] < RULES.faint_apex_score:
        return "faint"
    return "clear" if top_lead(apex, value) >= RULES.min_apex_margin else "hesitant"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR")
    parser.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = Profile.load(args.profile) if args.profile else default_profile()
    dice = [die for folder in args.folders for die in judgements(folder, profile)]
    folders = {
        folder.name: tally([die for die in dice if die.folder == folder.name])
        for folder in args.folders
    }
    left_out, nearest = rules_left_out(dice), nearest_wrong(dice)
    if args.json:
        figures = {"folders": folders, "rules_left_out": left_out, "nearest_wrong": nearest}
        print(json.dumps(figures, indent=2))
        return
    print("| folder | d4s judged | read right | read wrong | refused |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, counts in folders.items():
        right, wrong, refused = counts["right"], counts["wrong"], counts["refused"]
        print(f"| {name} | {right + wrong + refused} | {right} | {wrong} | {refused} |")
    print("\n| rule left out | read wrong | more read right |")
    print("| --- | ---: | ---: |")
    for rule, effect in left_out.items():
        print(f"| {rule} | {effect['wrong']} | {effect['more_right']} |")
    print("\n| top numerals of the wrong value | widest wrong margin | asked | die |")
    print("| --- | ---: | ---: | --- |")
    for case, row in nearest.items():
        print(f"| {case} | {row['widest_wrong_margin']} | {row['asked']} | {row['die']} |")


if __name__ == "__main__":
    main()
