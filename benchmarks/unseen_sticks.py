"""How the shipped profile reads throwing sticks of sets it never learned: generated throws
of four sticks whose two faces are drawn at random (any colours, bands on the marked face
two times in five), each read before any enrolment. Such a throw should be refused
(``unknown-face``: enrol the set); a throw read wrong is a silent error a player could
meet before enrolling their own sticks.

Run: ``.venv/bin/python -m benchmarks.unseen_sticks [--sets 60] [--throws 3] [--seed 8]
[--profile P]``. About 3 minutes for 180 throws. Throws that show a single face are
counted apart: a set whose marked face looks like a known set's plain face (or the other
way round) cannot be told from it when nothing else is on the tray.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from random import Random

import cv2

from vision.errors import ProfileError
from vision.kit import kit_named
from vision.observation import Kind
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import OTHER_LOOKS, Look, scene
from vision.tray import calibrate


def random_look(rng: Random) -> Look:
    """A set's marked face, its bands (or None), its plain face (BGR)."""
    marked = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    plain = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    bands = (rng.randrange(120), rng.randrange(120), rng.randrange(120))
    return marked, bands if rng.random() < 0.4 else None, plain


def measure(sets: int, throws: int, seed: int, profile: Profile) -> Counter[str]:
    """Per outcome (right, refused, wrong, and wrong with a single face shown), throws."""
    rng = Random(seed)
    counts: Counter[str] = Counter()
    for index in range(sets):
        name = f"unseen-{seed}-{index}"
        OTHER_LOOKS[name] = random_look(rng)
        try:
            counts.update(_outcome(name, rng.randrange(2**31), profile) for _ in range(throws))
        finally:
            del OTHER_LOOKS[name]  # the generator as it was, whatever happens
    return counts


def _outcome(look: str, seed: int, profile: Profile) -> str:
    """How one generated throw of four sticks of ``look`` is read; a wrong one is shown."""
    made = scene(seed, "sticks4", look=look)
    observation = Reader(calibrate(made.empty), profile).read(made.frame, kit_named("sticks4"))
    truth = sorted(str(item["face"]) for item in made.objects)
    read = sorted(str(item.face) for item in observation.of_kind(Kind.STICK))
    if observation.refused:
        return "refused"
    if read == truth:
        return "right"
    print(f"{look} {OTHER_LOOKS[look]}: {''.join(truth)} read as {''.join(read)}")
    return "wrong, one face shown" if len(set(truth)) == 1 else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sets", type=int, default=60)
    parser.add_argument("--throws", type=int, default=3)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    try:
        profile = Profile.load(args.profile) if args.profile else default_profile()
    except ProfileError as error:
        parser.error(str(error))
    counts = measure(args.sets, args.throws, args.seed, profile)
    print("| throws | right | refused | wrong | wrong, one face shown |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    total = sum(counts.values())
    print(
        f"| {total} | {counts['right']} | {counts['refused']} | {counts['wrong']} "
        f"| {counts['wrong, one face shown']} |"
    )


if __name__ == "__main__":
    main()
