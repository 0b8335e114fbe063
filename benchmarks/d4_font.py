"""What the font of the d4 in play (``vision.font``) holds back, and what it costs.

Each labelled folder's numbered d4s of clean throws (kits ``ur`` and ``ur-nostick``,
labelled ``read``) are read in the folder's order as the throws of one game, as the
device and ``watch`` read them (the hand and the font of the d4 in play carried from throw
to throw, each scene on its own tray); alone, as ``read`` of one picture and ``evaluate
--each-alone`` read each; and as one folder, as ``evaluate`` reads it (each picture alone,
then every numbered d4 refused when the folder's dice fit the glyphs too loosely in the
median). A folder of dice whose font the profile knows should lose nothing to the font;
one of a font it never learned (generated with ``--d4-font stroke``) should read none
wrong, and refuse its throws as ``unknown-numerals``, which asks the player to enrol the d4.

Run: ``.venv/bin/python -m benchmarks.d4_font DIR [DIR ...] [--profile P] [--json]``.
About 30 seconds a folder of 300 throws.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from vision.dataset import load_scenes
from vision.font import FontInPlay, refused_for_font
from vision.hand import HandInPlay
from vision.observation import Kind, Observation, Reason
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.tray import read_image

READERS = ("alone", "one game", "one folder")


def measure(folder: Path, profile: Profile) -> dict[str, dict[str, int]]:
    """Per reader, the d4s of ``folder`` read right, read wrong, refused, and refused for
    their font."""
    dice = [
        (labelled, die.value)
        for labelled in load_scenes(folder)
        if labelled.expect == "read" and not labelled.kit.binary_d4
        for die in labelled.objects
        if die.kind is Kind.D4 and die.value is not None
    ]
    counts: dict[str, Counter[str]] = {name: Counter() for name in READERS}
    hand, font = HandInPlay(), FontInPlay()  # the one game's
    folder_font = FontInPlay.of_pictures()  # told by the pictures read alone
    alone: list[tuple[Observation, int]] = []
    for labelled, value in dice:
        tray, picture = labelled.calibrated(), read_image(labelled.image)
        game = Reader(tray, profile)
        game.d4_in_play, game.d4_font = hand, font
        counts["one game"][outcome(game.read(picture, labelled.kit), value)] += 1
        observation = Reader(tray, profile, d4_font_of_pictures=folder_font).read(
            picture, labelled.kit
        )
        counts["alone"][outcome(observation, value)] += 1
        alone.append((observation, value))
    for observation, value in alone:  # then judged together, as evaluate judges a folder
        counts["one folder"][outcome(refused_for_font(observation, folder_font), value)] += 1
    return {name: dict(sorted(tally.items())) for name, tally in counts.items()}


def outcome(observation: Observation, value: int) -> str:
    reasons = {refusal.reason for refusal in observation.refusals}
    if reasons:
        return "unknown font" if Reason.UNKNOWN_NUMERALS in reasons else "refused"
    dice = [i for i in observation.implements if i.kind is Kind.D4]
    return "right" if [die.value for die in dice] == [value] else "wrong"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR")
    parser.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    profile = default_profile() if args.profile is None else Profile.load(args.profile)
    report = {folder.name: measure(folder, profile) for folder in args.folders}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("| folder | reader | right | wrong | refused | refused for its font |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, readers in report.items():
        for reader, counts in readers.items():
            row = [counts.get(key, 0) for key in ("right", "wrong", "refused", "unknown font")]
            print(f"| {name} | {reader} | " + " | ".join(str(n) for n in row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
