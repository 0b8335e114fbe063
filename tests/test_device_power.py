"""Power cuts: a scripted game killed at random moments resumes at the last saved action.

The game runs in another process (``python -m companion.device.scripted``) that prints
``saving FEN`` before each save and ``saved FEN`` after it; SIGKILL stops it without any
cleanup, as a power cut would (fsync stays on). The device then boots on the same state
folder and must show exactly the last saved position, or the one being saved when the
process died, never anything else and never a problem report.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from device_helpers import make_app

ROOT = Path(__file__).resolve().parent.parent
KILLS = 6
SEED = 20260501  # the moments of the kills; printed on failure


def play_and_kill(state: Path, seed: int, after: float) -> list[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.device.scripted", str(state), "--seed", str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(after)
    process.send_signal(signal.SIGKILL)
    output, _ = process.communicate(timeout=30)
    return output.splitlines()


def expected_positions(lines: list[str]) -> set[str]:
    """The last saved position, and the one being saved when the process died."""
    saved = [line.removeprefix("saved ") for line in lines if line.startswith("saved ")]
    saving = [line.removeprefix("saving ") for line in lines if line.startswith("saving ")]
    expected = set(saved[-1:])
    if len(saving) > len(saved):
        expected.add(saving[-1])
    return expected


@pytest.mark.parametrize("kill", range(KILLS))
def test_resumes_exactly_the_last_saved_position(tmp_path: Path, kill: int) -> None:
    rng = random.Random(SEED + kill)
    after = rng.uniform(0.4, 2.5)
    lines = play_and_kill(tmp_path, seed=kill + 1, after=after)
    resumed = make_app(tmp_path)
    note = f"killed after {after:.2f} s (seed {SEED + kill}); last lines: {lines[-3:]}"
    assert not resumed.store.problems, note
    if "finished" in lines:
        pytest.skip("the game ended before the kill")
    expected = expected_positions(lines)
    if resumed.game is None:  # only right when no save had been completed
        assert not any(line.startswith("saved ") for line in lines), note
        return
    assert resumed.game.fen() in expected, note
