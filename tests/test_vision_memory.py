"""Freed picture memory is kept for the next frame (vision.memory)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vision.memory import keep_freed_memory

# A fresh process allocates a picture-sized array, frees it, allocates it again, and says
# how many pages the second allocation took from the kernel.
_SECOND_ALLOCATION_FAULTS = """
import resource, sys
import numpy as np
from vision.memory import keep_freed_memory
if sys.argv[1] == "kept":
    assert keep_freed_memory()
size = 24 * 2**20
np.ones(size, np.uint8)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
picture = np.ones(size, np.uint8)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _SECOND_ALLOCATION_FAULTS, mode],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


@pytest.mark.skipif(not keep_freed_memory(), reason="the C library is not glibc")
def test_a_freed_picture_is_reused_without_taking_pages_again() -> None:
    # Given back, the block comes again page by page (or by huge pages, which numpy asks
    # for: about 500 faults on the development machine); kept, it is there already.
    assert _faults("default") > 100
    assert _faults("kept") < 10


def test_keeping_freed_memory_is_done_once() -> None:
    assert keep_freed_memory() == keep_freed_memory()
    assert keep_freed_memory.cache_info().hits >= 1
