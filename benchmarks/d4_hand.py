"""What the hand of the d4 in play (``vision.hand``) reads, and what it risks.

A game is a run of throws of a lone numbered d4 (kit ``ur-nostick``) on one tray, read in
order by one reader. Every game's die has one hand; a swap game changes to a die of the
other hand halfway, as a player who brings another d4 would. Each game is read by:

- ``alone``: a reader that reads every throw by its numerals alone (``read``, ``evaluate``);
- ``learning``: a reader that learns the hand from the game's own readings (the device,
  ``watch``), and weighs unread numerals against it once armed;
- ``armed``: a reader given the die's hand from the first throw (the die told it in
  earlier games), and ``armed wrong``: given the other hand (the worst case, per throw, of
  a die swapped after arming: how many throws it reads wrong before it is forgotten).

Run: ``.venv/bin/python -m benchmarks.d4_hand [--games 12] [--throws 30] [--seed 0]
[--d4-edge-mm 16 25] [--json]``. About 2 minutes for the default on one core.

With ``--labels DIR`` (a labelled folder, the dev set's format), the folder's numbered d4s
are read instead, in the folder's order, as the throws of one game (one hand in play for
all, each scene on its own tray), by the same readers; ``armed`` and ``armed wrong`` are
then given each hand from the first throw, as the folder's dice do not say theirs.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.dataset import load_scenes
from vision.font import FontInPlay
from vision.hand import HAND_ARMING, Hand, HandInPlay
from vision.kit import kit_named
from vision.observation import Box, Kind, Observation
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import D4_EDGE_MM, SyntheticScene, scene
from vision.tray import calibrate, read_image

KIT = "ur-nostick"
READERS = ("alone", "learning", "armed", "armed wrong")
_OTHER = {Hand.CLOCKWISE: Hand.COUNTERCLOCKWISE, Hand.COUNTERCLOCKWISE: Hand.CLOCKWISE}


@dataclass(frozen=True)
class Throw:
    scene: SyntheticScene
    value: int
    swapped: bool  # thrown with the die of the other hand (a swap game's second half)


def games(
    count: int, throws: int, seed: int, edge_mm: tuple[float, float]
) -> Iterator[tuple[str, Hand, list[Throw]]]:
    """Games of ``throws`` throws on one tray each, the odd ones swap games, and the hand
    of each game's first die."""
    for game in range(count):
        hand = Hand.CLOCKWISE if game % 4 < 2 else Hand.COUNTERCLOCKWISE
        swap = game % 2 == 1
        played = []
        for index in range(throws):
            swapped = swap and index >= throws // 2
            drawn = scene(
                seed * 100_000 + game * 1000 + index,
                KIT,
                tray_seed=seed * 1000 + game,
                d4_edge_mm=edge_mm,
                d4_hand=_OTHER[hand] if swapped else hand,
            )
            value = int(drawn.objects[0]["value"])
            played.append(Throw(drawn, value, swapped))
        yield ("swap" if swap else "one die"), hand, played


def _reader(name: str, hand: Hand, throws: list[Throw]) -> Reader:
    reader = Reader(calibrate(throws[0].scene.empty), default_profile(), learn_hand=True)
    if name.startswith("armed"):
        reader.d4_in_play = _armed(_OTHER[hand] if name == "armed wrong" else hand)
    elif name == "alone":
        reader.d4_in_play = reader.d4_font = None  # each throw read by itself
    return reader


def _armed(hand: Hand) -> HandInPlay:
    """A hand in play armed with ``hand``, as by separate throws that told it."""
    in_play = HandInPlay()
    for step in range(HAND_ARMING):
        in_play.told(hand, Box(step * 100, 0, step * 100 + 10, 10))
    return in_play


def measure(
    count: int, throws: int, seed: int, edge_mm: tuple[float, float]
) -> dict[str, dict[str, int]]:
    kit = kit_named(KIT)
    tally: dict[str, Counter[str]] = {}
    for kind, hand, played in games(count, throws, seed, edge_mm):
        for name in READERS:
            reader = _reader(name, hand, played)
            counts = tally.setdefault(f"{kind}, {name}", Counter())
            forgotten = False
            for throw in played:
                in_play = reader.d4_in_play
                armed = in_play is not None and in_play.hand is not None
                outcome = _outcome(reader.read(throw.scene.frame, kit), throw.value)
                counts[outcome] += 1
                counts["read while a hand was armed"] += armed and outcome != "refused"
                if throw.swapped:
                    counts[f"after the swap: {outcome}"] += 1
                    if not forgotten and armed:
                        counts["after the swap: thrown armed"] += 1
                    forgotten = forgotten or not armed
    return {key: dict(sorted(counts.items())) for key, counts in tally.items()}


def measure_labelled(folder: Path) -> dict[str, dict[str, int]]:
    """The numbered d4s of a labelled folder read in order as one game, by each reader;
    ``every throw armed H``: the hand armed H again before each throw (the worst case of a
    die of the other hand, throw by throw, had the hand been armed by another)."""
    dice = [
        (labelled, die.value)
        for labelled in load_scenes(folder)
        for die in labelled.objects
        if die.kind is Kind.D4 and die.value is not None
    ]
    trays = [labelled.calibrated() for labelled, _ in dice]
    names = ["alone", "learning"]
    names += [f"{when} {hand.value}" for when in ("armed", "every throw armed") for hand in Hand]
    tally: dict[str, dict[str, int]] = {}
    for name in names:
        hand = Hand(name.split()[-1]) if "armed" in name else None
        in_play = None if name == "alone" else HandInPlay() if hand is None else _armed(hand)
        font = None if name == "alone" else FontInPlay()
        counts: Counter[str] = Counter()
        for (labelled, value), tray in zip(dice, trays, strict=True):
            reader = Reader(tray, default_profile())
            # One game: the hand and the font carried from scene to scene, as the device
            # carries them.
            reader.d4_in_play = _armed(hand) if name.startswith("every") and hand else in_play
            reader.d4_font = font
            picture = read_image(labelled.image)
            counts[_outcome(reader.read(picture, labelled.kit), value)] += 1
        tally[name] = dict(sorted(counts.items()))
    return tally


def _outcome(observation: Observation, value: int) -> str:
    dice = [i for i in observation.implements if i.kind is Kind.D4]
    if len(dice) != 1:
        return "refused"
    return "right" if dice[0].value == value else "wrong"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--throws", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--d4-edge-mm", type=float, nargs=2, default=D4_EDGE_MM)
    parser.add_argument("--labels", type=Path, help="a labelled folder's d4s instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.labels is not None:
        report = measure_labelled(args.labels)
    else:
        report = measure(args.games, args.throws, args.seed, tuple(args.d4_edge_mm))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, counts in report.items():
            print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
