"""The clusters a traffic climb has met, so that a change landing in one of them again is
not searched again: its farthest position and distance are known.

A climb comes back to clusters it has searched all the time: a change undone by a later
one, two layouts of the population changed alike, a car removed and put back where it
slides to the same places. Of 1 069 clusters a climb to 40 moves searched (6x6, seed
"c"), 527 had been searched before, 203 of them from the very same position.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from fewest.engine.traffic import Car, Level, State
from fewest.solvers.traffic.lines import Layout

MEMO_KEYS = 4_000_000  # positions kept at most, over all clusters (about 16 MB on 6x6)
MEMO_LEVELS = 100_000  # layouts kept with no cluster (no goal in it, or too large)


@dataclass(frozen=True)
class Known:
    """A cluster searched: its sorted position keys, how they were made, and its farthest
    position with that position's distance to the goal."""

    layout: Layout
    keys: np.ndarray
    farthest: Level
    far: int


class ClusterMemo:
    """Clusters met, found again from any of their positions (least recently met dropped)."""

    def __init__(self, most_keys: int = MEMO_KEYS, most_levels: int = MEMO_LEVELS) -> None:
        self._by_cars: OrderedDict[tuple[Car, ...], list[Known]] = OrderedDict()
        self._none: OrderedDict[Level, None] = OrderedDict()
        self._keys, self._most_keys, self._most_levels = 0, most_keys, most_levels

    def find(self, level: Level) -> tuple[Level, int] | None:
        """(farthest position, its distance) of the cluster holding the level's start, when
        met before ((level, -1): met and found with no cluster); else None."""
        if level in self._none:
            return level, -1
        for known in self._by_cars.get(level.cars, ()):
            try:
                key = known.layout.encode(State(level.start))
            except ValueError:  # (the cars of a line in another order: another cluster)
                continue
            at = int(np.searchsorted(known.keys, key))
            if at < len(known.keys) and int(known.keys[at]) == key:
                self._by_cars.move_to_end(level.cars)
                return known.farthest, known.far
        return None

    def keep(self, level: Level, known: Known | None) -> None:
        """Keep what the level's search found (None: no cluster to keep)."""
        if known is None:
            self._none[level] = None
            while len(self._none) > self._most_levels:
                self._none.popitem(last=False)
            return
        self._by_cars.setdefault(level.cars, []).append(known)
        self._by_cars.move_to_end(level.cars)
        self._keys += len(known.keys)
        while self._keys > self._most_keys and len(self._by_cars) > 1:
            _, dropped = self._by_cars.popitem(last=False)
            self._keys -= sum(len(k.keys) for k in dropped)
