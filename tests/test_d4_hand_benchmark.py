"""The hand benchmark: games read by each reader, a labelled folder read as one game."""

from __future__ import annotations

from pathlib import Path

from benchmarks.d4_hand import READERS, Throw, _reader, games, measure, measure_labelled
from vision.hand import Hand
from vision.synthetic import write_set


def test_games_keep_one_hand_and_swap_halfway() -> None:
    played = list(games(2, 4, seed=3, edge_mm=(25.0, 30.0)))
    assert [(kind, hand) for kind, hand, _ in played] == [
        ("one die", Hand.CLOCKWISE),
        ("swap", Hand.CLOCKWISE),
    ]
    swapped = [[throw.swapped for throw in throws] for _, _, throws in played]
    assert swapped == [[False] * 4, [False, False, True, True]]


def test_each_reader_starts_as_named() -> None:
    throws: list[Throw] = next(iter(games(1, 1, seed=3, edge_mm=(25.0, 30.0))))[2]
    assert _reader("alone", Hand.CLOCKWISE, throws).d4_in_play is None
    learning = _reader("learning", Hand.CLOCKWISE, throws).d4_in_play
    assert learning is not None and learning.hand is None
    for name, armed in (("armed", Hand.CLOCKWISE), ("armed wrong", Hand.COUNTERCLOCKWISE)):
        in_play = _reader(name, Hand.CLOCKWISE, throws).d4_in_play
        assert in_play is not None and in_play.hand is armed


def test_every_throw_is_counted_once_per_reader(tmp_path: Path) -> None:
    report = measure(2, 2, seed=5, edge_mm=(25.0, 30.0))
    assert set(report) == {f"{kind}, {name}" for kind in ("one die", "swap") for name in READERS}
    for key, counts in report.items():
        assert sum(counts.get(k, 0) for k in ("right", "wrong", "refused")) == 2, key
    for name in READERS:
        after = report[f"swap, {name}"]
        outcomes = ("right", "wrong", "refused")
        assert sum(after.get(f"after the swap: {k}", 0) for k in outcomes) == 1  # of 2 throws
    folder = write_set(tmp_path / "set", 6, seed=2, kits=("ur-nostick",), trouble_share=0.0)
    labelled = measure_labelled(folder)
    assert len(labelled) == 6
    assert {sum(counts.values()) for counts in labelled.values()} == {6}
