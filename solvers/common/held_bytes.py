"""What a search's big Python dicts really hold, for memory budgets that must not be overrun;
and the resident size of a process (for a count that may still fall short) or of a process
with all its children (for the benchmark's peak).

A fixed cost per entry misses how CPython grows a dict: its hash table doubles when
two thirds full, and while it copies, the old table and the new one (twice the size)
are both held. On Microban #139 the search from both ends overran its 1.2 GB share by
0.3 GB that way, at a single resize. Here a dict costs its table as it is, plus the
next table when a resize is near.
"""

from __future__ import annotations

import math
import os
import sys

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
INDEX_AND_ENTRY_BYTES = 20  # per slot: a 4-byte index (2**16 slots or more; 1-2 bytes below), 24 per usable 2/3


def dict_bytes(table: dict, inserts_ahead: int) -> int:
    """The bytes of `table`'s hash table (not its keys and values), counting also the
    doubled table a resize would add if fewer than `inserts_ahead` inserts will trigger it."""
    held = sys.getsizeof(table)
    slots = 1 << round(math.log2(held / INDEX_AND_ENTRY_BYTES))  # (always a power of two)
    if len(table) + inserts_ahead > 2 * slots // 3:  # (it grows on the insert after 2/3 full)
        # the old table and the new one: twice its size (a little more where the new one's
        # indices need more bytes, below 2**16 slots)
        return held + (2 * held if slots >= 1 << 16 else 9 * held // 4)
    return held


def int_bytes(number: int) -> int:
    """What an int object takes in the allocator (its size rounded up to 16 bytes)."""
    return -(-sys.getsizeof(number) // 16) * 16


def resident_bytes() -> int:
    """This process's resident size now (0 where /proc cannot tell it)."""
    return _resident("self")


def _resident(process: int | str) -> int:
    """A process's resident size now, from its /proc statm (0 where it cannot be read)."""
    try:
        with open(f"/proc/{process}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return 0


def tree_resident_bytes(pid: int) -> int:
    """What process `pid` and all its descendants hold resident now (0 where /proc cannot
    tell it). A forked child's pages still shared with its parent count in both."""
    total = 0
    waiting = [pid]
    while waiting:
        process = waiting.pop()
        total += _resident(process)
        try:
            for thread in os.listdir(f"/proc/{process}/task"):  # (a child is listed under the thread that forked it)
                with open(f"/proc/{process}/task/{thread}/children", "rb") as children:
                    waiting.extend(int(child) for child in children.read().split())
        except (OSError, ValueError, IndexError):
            continue  # (it ended meanwhile)
    return total
