"""Freed picture memory kept for the next frame rather than given back to the system.

A reading allocates and frees some 10 MB of picture-sized arrays. The C library (glibc)
hands such large blocks back to the kernel when they are freed, so the next frame takes
the same memory again one page at a time: on the development machine, 2,600 page faults
a reading and up to a third of its time. Raising two thresholds of glibc's allocator keeps
the freed blocks in the process, to be reused as they are.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

# mallopt's parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD = -1  # free memory at the heap's top kept before giving it back
_M_MMAP_THRESHOLD = -3  # blocks this large and over get memory of their own from the kernel
# glibc's largest mmap threshold on 64-bit systems: a 1200x900 frame in float32 (13 MB)
# stays under it.
KEPT_BLOCK_BYTES = 32 * 2**20
KEPT_FREE_BYTES = 64 * 2**20  # a few readings' worth


@functools.cache
def keep_freed_memory() -> bool:
    """Ask glibc to keep freed blocks for reuse; False where the C library is not glibc
    (the reading is then only slower). Done once per process."""
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    blocks = mallopt(_M_MMAP_THRESHOLD, KEPT_BLOCK_BYTES)
    free = mallopt(_M_TRIM_THRESHOLD, KEPT_FREE_BYTES)
    return bool(blocks and free)
