"""Distance lookups for the per-board rotation solver, one table per digit count, on demand.

A mask's distance lives in the table of its bit count (`rotation/masks.py`); that
table is read from the cache or built (`rotation/cache.py`) the first time a mask
of that count is asked about, or ahead of time through `require`. One
`DistanceTable` is shared by the whole process (`shared_table`).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Iterable

from fewest.solvers.rotation.cache import load_or_build
from fewest.solvers.rotation.masks import COUNTS, UNREACHABLE, rank


class DistanceTable:
    """Distances of masks as plain ints; `raw(k)` hands a whole table to hot loops."""

    def __init__(self, directory: Path | None = None) -> None:
        self._directory = directory  # None: the cache directory of the moment
        self._tables: dict[int, bytes] = {}  # k -> one distance per rank
        self._lock = threading.Lock()

    def require(self, counts: Iterable[int], check: Callable[[], None] | None = None) -> None:
        """Load or build the tables of these digit counts (counts without a table are skipped)."""
        for k in sorted(set(counts)):
            if k in COUNTS and k not in self._tables:
                with self._lock:  # one build per count, even with several threads asking
                    if k not in self._tables:
                        self._tables[k] = load_or_build(k, self._directory, check)

    def loaded(self) -> list[int]:
        """The counts whose tables are in memory, ascending."""
        return sorted(self._tables)

    def raw(self, k: int) -> bytes:
        """Table k whole, one distance per rank (loaded or built if needed)."""
        if k not in COUNTS:
            raise ValueError(f"no table for {k} cells: a digit needs {COUNTS[0]}..{COUNTS[-1]}")
        self.require([k])
        return self._tables[k]

    def distance(self, mask: int) -> int:
        """Fewest moves to fill the centre with the mask's cells (UNREACHABLE below 8 cells)."""
        table = self._tables.get(mask.bit_count())
        if table is None:
            if mask.bit_count() not in COUNTS:
                return UNREACHABLE
            table = self.raw(mask.bit_count())
        return table[rank(mask)]

    def board_distance(self, masks: Iterable[int]) -> int:
        """Fewest moves to fill the centre with any of the digits whose masks are given."""
        return min(map(self.distance, masks), default=UNREACHABLE)


_shared: DistanceTable | None = None
_shared_lock = threading.Lock()


def shared_table() -> DistanceTable:
    """The process-wide table (its per-count tables are loaded as they are needed)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = DistanceTable()
        return _shared


def forget_shared_table() -> None:
    """Drop the process-wide tables (tests use it to start from a known cache directory)."""
    global _shared
    with _shared_lock:
        _shared = None
